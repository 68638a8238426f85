/// When the loop draws. Input is drawn at once (the knob's feedback); motion at its frame
/// rate (`KioskState.frameInterval`), however often other news wakes the loop; a change
/// nobody is waiting to see (the sync badge turning "syncing" and back on every pull, ten
/// times a second in a burst) at most once per `quietInterval`, the latest state then.
public struct RedrawPacer: Sendable, Equatable {
    public let quietInterval: Millis
    public private(set) var lastDraw: Millis?
    /// Input arrived since the last frame.
    public private(set) var input = false
    /// The last frame was drawn while something moved. Once it stops, one more frame shows
    /// it at rest: the last moving frame can fall up to a 30 Hz frame short of the end (a
    /// row a pixel off its slot, a pulse's bar still faintly lit), and nothing else would
    /// draw over it until the next change.
    public private(set) var drewMotion = false
    /// The first frame was drawn and has not been drawn again yet. SDL2's KMSDRM backend
    /// (the Pi's console) puts a buffer on the panel only when the next one is swapped in,
    /// and an idle board draws nothing after its first frame: a booted kiosk stayed black
    /// until the first score (issue 13 item 5). One more frame at once shows the first; an
    /// idle board then sleeps as before (one extra frame per start, nothing more).
    public private(set) var repeatFirstFrame = false

    public init(quietInterval: Millis = MotionTokens.quietRedrawInterval) { self.quietInterval = quietInterval }

    public mutating func noteInput() { input = true }

    /// Whether to draw now, given that the state differs from the last frame (`changed`) and
    /// the frame rate of what moves (`frameInterval`, nil when nothing does).
    public func shouldDraw(changed: Bool, frameInterval: Millis?, now: Millis) -> Bool {
        if repeatFirstFrame { return true }
        if drewMotion, frameInterval == nil { return true }
        guard let due = due(changed: changed, frameInterval: frameInterval) else { return changed || frameInterval != nil }
        return now >= due
    }

    /// When the next frame is due: nil for at once (input, the first frame, the frame at
    /// rest after motion) or for never (nothing changed, nothing moves); `shouldDraw` tells
    /// them apart.
    public func due(changed: Bool, frameInterval: Millis?) -> Millis? {
        // Already due (the loop must not sleep first): nothing else would wake it.
        if repeatFirstFrame { return lastDraw }
        guard let lastDraw, !(input && changed), !(drewMotion && frameInterval == nil) else { return nil }
        if let frameInterval { return lastDraw + frameInterval }
        return changed ? lastDraw + quietInterval : nil
    }

    /// A frame was drawn at `now`; `moving`: with something in motion (a frame interval).
    public mutating func drew(at now: Millis, moving: Bool = false) {
        repeatFirstFrame = lastDraw == nil
        lastDraw = now
        input = false
        drewMotion = moving
    }
}
