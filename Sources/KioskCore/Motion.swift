import Foundation

/// Monotonic milliseconds. The shell passes the clock in with every event (injected
/// time), so tests drive the machine with exact instants.
public typealias Millis = Int64

/// Animation timings, from the UX specification's tokens.
public enum MotionTokens {
    /// Reshuffle: rows slide within NFR6's 500 ms including the stagger.
    public static let reshuffleBudget: Millis = 500
    public static let reshuffleDuration: Millis = 400
    public static let staggerPerRow: Millis = 20
    /// A slide bent to a new slot mid-way lasts at least this much longer (else a change
    /// in its last frames would snap the row).
    public static let retargetMinimum: Millis = 150
    /// ▲/▼ arrows stay 1.5 s, fading out over the last part.
    public static let arrowLifetime: Millis = 1_500
    public static let arrowFade: Millis = 400
    /// Row pulse on change: 1.0 → 1.03 → 1.0 over 0.3 s.
    public static let pulseDuration: Millis = 300
    /// FR20: auto-advance 0.5–1 s after everyone has a score on the hole.
    public static let autoAdvanceDelay: Millis = 750
    /// Notices ("Saved", errors) stay this long.
    public static let noticeLifetime: Millis = 2_500
    /// A kiosk left mid-entry returns to the board (nothing is saved).
    public static let idleTimeout: Millis = 120_000
    /// While animating, wake about once per 60 Hz frame.
    public static let frameInterval: Millis = 16
    /// While only fades and pulses run (nothing slides), 30 Hz: an opacity or a highlight
    /// changing by a few per cent a frame looks the same at half the frames, and a burst of
    /// scores keeps some fade running most of the time.
    public static let softFrameInterval: Millis = 33
    /// A slide is drawn at 60 Hz only while some row covers at least this many pixels in a
    /// 60 Hz frame. The spring's second half creeps (a one-row move covers under a pixel a
    /// frame after about 55% of its duration): frames there showed rows where the last one
    /// did, and llvmpipe paid a whole 1920×1080 frame for each. At 30 Hz it still moves
    /// under two pixels a frame, which reads as the same glide (issue 12 item 7).
    public static let fullRatePixelsPerFrame: Double = 1
    /// Changes made elsewhere (sync, another process) are read at most this often: well
    /// inside NFR2's 5 s, and a burst reshuffles the board once a second, not per score.
    public static let reloadInterval: Millis = 1_000
    /// …and every 2 s once a burst has gone on for `burstAfterReloads` readings (a board
    /// that reshuffles every second for minutes cannot be followed; still inside NFR2).
    public static let burstReloadInterval: Millis = 2_000
    public static let burstAfterReloads = 3
    /// The board's pages rotate this often when the group does not fit (issue 15): long
    /// enough to find your name from 3 m and read your score (MiClub's TVs use 10 s, Golf
    /// Genius a slower scroll); `KioskSettings.boardPageInterval` overrides it.
    public static let boardPageInterval: Millis = 8_000
    /// A new page's rows come in one after another, top to bottom, within this time
    /// (instant with reduce motion). A cascade of cuts rather than a fade: each row is drawn
    /// whole or not at all, so no text is blended at a partial alpha (issue 33: a fading 1080p
    /// page cost the software renderer twice a still frame's instructions).
    public static let boardPageReveal: Millis = 250
    /// A change with no motion and no input behind it (the sync badge) is drawn at most this often.
    public static let quietRedrawInterval: Millis = 250
}

/// Easing curves as data.
public enum Easing: Sendable, Hashable {
    case linear
    /// A critically damped spring: the motion of a spring, without overshoot.
    case criticallyDampedSpring

    /// Progress 0…1 for normalized time 0…1.
    public func value(at t: Double) -> Double {
        let t = min(max(t, 0), 1)
        switch self {
        case .linear:
            return t
        case .criticallyDampedSpring:
            // x(t) = 1 − (1 + ωt)·e^(−ωt) with ωT = 7.5 leaves 0.5% at the end, which
            // is then closed exactly so the row lands on its pixel.
            let w = 7.5
            let raw = 1 - (1 + w * t) * exp(-w * t)
            let end = 1 - (1 + w) * exp(-w)
            return raw / end
        }
    }
}

/// A value moving from `from` to `to`: an animation as plain data (target, timing,
/// easing) that the renderer samples at any instant.
public struct Tween: Sendable, Hashable {
    public var from: Double
    public var to: Double
    public var start: Millis
    public var duration: Millis
    public var easing: Easing

    public init(from: Double, to: Double, start: Millis, duration: Millis, easing: Easing = .criticallyDampedSpring) {
        self.from = from
        self.to = to
        self.start = start
        self.duration = max(1, duration)
        self.easing = easing
    }

    public var end: Millis { start + duration }

    public func value(at now: Millis) -> Double {
        if now <= start { return from }
        if now >= end { return to }
        return from + (to - from) * easing.value(at: Double(now - start) / Double(duration))
    }

    /// How far the value moves between `now` and `now + interval`: what the next frame
    /// would show moved, in the value's unit.
    public func travel(over interval: Millis, at now: Millis) -> Double {
        abs(value(at: now + interval) - value(at: now))
    }

    /// A tween that goes nowhere never runs: a resting row must not keep the loop awake.
    public func isRunning(at now: Millis) -> Bool { from != to && now < end }

    /// A new target for a value that may be moving. A running tween keeps its start and
    /// its easing and bends towards `target` from where it is drawn now: no jump, no
    /// restart, so a burst of changes (ten remote scores a second) reads as one motion that
    /// keeps heading where the latest change says, not as a row that sets off again each time.
    /// It ends when it would have, unless that leaves less than `minimumRemaining`: then it
    /// ends `minimumRemaining` from now, so the new leg is a slide, not a snap. A tween at
    /// rest (or done) starts afresh: from where it is drawn, now, over `duration`.
    public mutating func retarget(to target: Double, at now: Millis, duration fresh: Millis, minimumRemaining: Millis) {
        guard target != to else { return }
        let current = value(at: now)
        guard isRunning(at: now) else {
            self = Tween(from: current, to: target, start: now, duration: fresh, easing: easing)
            return
        }
        if end - max(now, start) < minimumRemaining { duration = max(now, start) + minimumRemaining - start }
        // Solve for the `from` that puts the curve through `current` at `now`: with progress
        // p, value = target + (from − target)·(1 − p); 1 − p > 0 while the tween runs.
        let remaining = now <= start ? 1 : 1 - easing.value(at: Double(now - start) / Double(duration))
        to = target
        from = remaining > 0 ? target + (current - target) / remaining : current
    }
}
