import CSDL2
import CSDL2TTF
import Foundation
import KioskCore

/// Input the display delivers, free of SDL types.
public enum DisplayEvent: Sendable, Equatable {
    /// Space and Backspace stand in for the knob's press and long press like Enter and Escape,
    /// except on a screen that takes typing (the name wheel), where they type.
    public enum Key: Sendable, Equatable { case up, down, left, right, enter, escape, space, backspace, other }
    case quit
    case key(Key, down: Bool, isRepeat: Bool)
    /// Text typed on a keyboard (SDL's text input, so layouts and dead keys are the system's).
    case text(String)
    /// Vertical wheel notches, positive away from the user.
    case wheel(Double)
    /// A tap or click, in logical (layout) coordinates.
    case tap(x: Double, y: Double)
    case resized(Viewport)
    /// The panel went away or came back (direct KMS output only); the text says which.
    /// `resized`: it came back at another size, and the board is laid out again for it.
    case panel(String, resized: Viewport?)
    /// Another thread asked the loop to wake (knob input, data change).
    case wake
}

/// The kiosk's screen: an SDL window (full-screen or not, optionally rotated to portrait),
/// a console's panel driven directly through KMS (`KMSScanout`), or, headless, an off-screen
/// surface. All three draw with SDL's software renderer: into the window's surface, or into
/// memory (see `windowRenderer` for the one exception).
public final class Display {
    public enum Mode: Sendable, Equatable {
        case window(fullscreen: Bool)
        /// Full screen on a console: frames into DRM dumb buffers on `card` (a /dev/dri
        /// path), input from evdev through SDL. No GL is loaded.
        case kms(card: String)
        case headless
    }

    public private(set) var viewport: Viewport
    public let rendererName: String
    public let isAccelerated: Bool
    public let videoDriver: String
    /// This display's share of SDL and SDL_ttf (process-wide libraries).
    private let libraries: MediaLibraries
    private let window: OpaquePointer?
    /// The frame drawn in memory (headless, console); remade when a panel comes back at
    /// another size, with the renderer that draws into it.
    private var surface: UnsafeMutablePointer<SDL_Surface>?
    private let scanout: KMSScanout?
    private var renderer: OpaquePointer
    let canvas: Canvas
    private let rotate: Bool
    /// With rotation the frame is drawn here in portrait, then turned onto the screen.
    private var rotationTarget: OpaquePointer?
    /// A 1×1 target for `warm`: everything drawn there is clipped away but its text.
    private var warmTarget: OpaquePointer?
    /// SDL's user event that `waker` pushes (registered once per display).
    private let wakeEventType: UInt32

    /// Text rasterizations so far (the cache makes this stop growing on a static board).
    public var rasterizations: Int { canvas.rasterizations }

    /// What the text and font caches hold now (both bounded; see `Canvas`).
    public var textCache: (texts: Int, bytes: Int, fonts: Int) {
        (canvas.cachedTexts, canvas.cachedTextBytes, canvas.cachedFonts)
    }
    public static var textCacheLimits: (texts: Int, bytes: Int, fonts: Int) {
        (Canvas.maxCachedTexts, Canvas.maxCachedTextBytes, Canvas.maxCachedFonts)
    }

    /// Names in any script: off, characters the bundled fonts lack draw as boxes (tests'
    /// negative control). Set it before drawing: texts already cached keep their faces.
    public var fontFallback: Bool {
        get { canvas.fallbackEnabled }
        set { canvas.fallbackEnabled = newValue }
    }

    /// How `text` is drawn in `role` at `size`: its runs in visual order, each with its face
    /// and the glyphs that face lacks.
    public func textCoverage(_ text: String, role: FontRole, size: Int) -> [TextRunCoverage] {
        canvas.coverage(text, role, size: size)
    }

    /// The width `text` takes in `role` at `size` (all runs together).
    public func textWidth(_ text: String, role: FontRole, size: Int) -> Double {
        canvas.measure(text, role, size: size)
    }

    /// The width of the texture `text` is drawn with (drawn into the cache if it was not):
    /// for tests that hold `textWidth`, which measures without drawing, to it.
    public func drawnWidth(_ text: String, role: FontRole, size: Int) -> Double {
        canvas.drawnWidth(text, role, size: size)
    }

    /// `text` as a name column `width` wide shows it: whole, or shortened with "…".
    public func ellipsized(_ text: String, role: FontRole, size: Int, width: Double) -> String {
        canvas.fitted(text, role, size: size, width: width)
    }

    /// - Parameters:
    ///   - size: logical size; for a full-screen window the display's own size is used.
    ///   - rotate: portrait: the logical canvas is the screen turned 90°.
    public init(mode: Mode, size: Viewport, rotate: Bool = false, fontsDirectory: URL, title: String = "Hyzer") throws {
        // The panel first, before anything of SDL's: a card that cannot drive one is an error
        // that leaves SDL's process-wide state (its hints) as it was.
        var scanout: KMSScanout?
        if case .kms(let card) = mode {
            do { scanout = try KMSScanout(cardPath: card) } catch let error as RenderError {
                throw RenderError(message: Display.noDisplayMessage("KMS: \(error.description)"))
            }
        }
        // SIGTERM and SIGINT belong to the kiosk's service group (graceful shutdown);
        // SDL would otherwise take them over and turn them into a quit event.
        var hints = [MediaLibraries.Hint(name: SDL_HINT_NO_SIGNAL_HANDLERS, value: "1")]
        // Over SDL_VIDEODRIVER too (a plain hint loses to the environment): these modes
        // draw without SDL's display drivers whatever the environment asks for.
        switch mode {
        case .headless: hints.append(.init(name: SDL_HINT_VIDEODRIVER, value: "dummy", override: true))
        // SDL's dummy video with its evdev input: keys, wheels and touches without a window.
        case .kms: hints.append(.init(name: SDL_HINT_VIDEODRIVER, value: "evdev", override: true))
        // A window draws with SDL's software renderer into the window's own surface (X11's
        // shared-memory image): no GL library is loaded, as on the console (see
        // `windowRenderer`). The hint keeps SDL from backing that surface with a GL texture.
        case .window: hints.append(.init(name: SDL_HINT_FRAMEBUFFER_ACCELERATION, value: "0"))
        }
        // SDL and SDL_ttf for as long as this display lives (released after `deinit`, or
        // when this initializer throws), the hints set under the libraries' lock.
        libraries = try MediaLibraries(hints: hints)
        wakeEventType = SDL_RegisterEvents(1)
        let sdlDriver = SDL_GetCurrentVideoDriver().map { String(cString: $0) } ?? "none"
        videoDriver = if case .kms = mode { "KMS" } else { sdlDriver }
        ownWaitPollMs = Self.ownWaitPollMs(forDriver: videoDriver, headless: mode == .headless)
        self.rotate = rotate
        if case .window = mode, ["offscreen", "dummy", "evdev"].contains(sdlDriver) {
            // SDL falls back to drawing nowhere when no real display answers: that is
            // not a kiosk, so say so instead of running invisibly.
            throw RenderError(message: Display.noDisplayMessage("only the \(videoDriver) driver is available"))
        }

        switch mode {
        case .headless, .kms:
            let logical = Self.offscreenFrame(panel: scanout?.size, configured: size, rotate: rotate)
            guard let (surface, renderer) = Self.offscreenRenderer(logical) else {
                throw RenderError("cannot create the off-screen renderer")
            }
            self.surface = surface
            self.scanout = scanout
            self.window = nil
            self.renderer = renderer
            viewport = logical
        case .window(let fullscreen):
            var flags = SDL_WINDOW_SHOWN.rawValue | SDL_WINDOW_ALLOW_HIGHDPI.rawValue
            flags |= fullscreen ? SDL_WINDOW_FULLSCREEN_DESKTOP.rawValue : SDL_WINDOW_RESIZABLE.rawValue
            let centered = Int32(bitPattern: 0x2FFF_0000)  // SDL_WINDOWPOS_CENTERED
            let (w, h) = rotate ? (size.height, size.width) : (size.width, size.height)
            guard let window = SDL_CreateWindow(title, centered, centered, Int32(w), Int32(h), flags) else {
                // Read now: SDL_Quit (the lease's, when this throws) replaces or clears it
                // (the message used to end with an empty reason on a Pi whose KMSDRM failed).
                throw RenderError(message: Display.noDisplayMessage("\(videoDriver): \(Display.sdlError())"))
            }
            guard let renderer = Display.windowRenderer(window) else {
                throw RenderError("cannot create a renderer: \(Display.sdlError())")
            }
            SDL_ShowCursor(fullscreen ? SDL_DISABLE : SDL_ENABLE)
            self.window = window
            self.surface = nil
            self.scanout = nil
            self.renderer = renderer
            var pw: Int32 = 0
            var ph: Int32 = 0
            SDL_GetRendererOutputSize(renderer, &pw, &ph)
            viewport = rotate ? Viewport(width: Int(ph), height: Int(pw)) : Viewport(width: Int(pw), height: Int(ph))
        }
        var info = SDL_RendererInfo()
        SDL_GetRendererInfo(renderer, &info)
        rendererName = info.name.map { String(cString: $0) } ?? "unknown"
        isAccelerated = info.flags & SDL_RENDERER_ACCELERATED.rawValue != 0
        canvas = try Canvas(renderer: renderer, frame: surface, fontsDirectory: fontsDirectory)
    }

    /// The size of the frame drawn in memory: the panel's own (turned to portrait when the
    /// board is rotated: the scanout turns it back); with none plugged in yet, or headless,
    /// the configured size.
    static func offscreenFrame(panel: (width: Int, height: Int)?, configured: Viewport, rotate: Bool) -> Viewport {
        let frame = panel.map { Viewport(width: $0.width, height: $0.height) } ?? configured
        guard rotate else { return frame }
        return Viewport(width: min(frame.width, frame.height), height: max(frame.width, frame.height))
    }

    /// A surface of `size` in memory and SDL's software renderer drawing into it.
    private static func offscreenRenderer(_ size: Viewport) -> (UnsafeMutablePointer<SDL_Surface>, OpaquePointer)? {
        guard
            let surface = SDL_CreateRGBSurfaceWithFormat(
                0, Int32(size.width), Int32(size.height), 32, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue))
        else { return nil }
        guard let renderer = SDL_CreateSoftwareRenderer(surface) else {
            SDL_FreeSurface(surface)
            return nil
        }
        return (surface, renderer)
    }

    /// Remakes the frame drawn in memory at `size` (a console whose panel came back at
    /// another size: a different monitor, or one that lost its EDID and offers only its
    /// fallback modes). Without this the old frame would be cut to the new panel, showing its
    /// middle. False, and the old frame kept, when this is a window or memory runs out.
    func resizeOffscreenFrame(to size: Viewport) -> Bool {
        guard let oldSurface = surface, size != viewport, let (newSurface, newRenderer) = Self.offscreenRenderer(size)
        else { return false }
        // The scanout's last frame lives in the surface about to go; the next frame replaces it.
        scanout?.forgetLastFrame()
        canvas.move(to: newRenderer, frame: newSurface)
        if let warmTarget {
            SDL_DestroyTexture(warmTarget)
            self.warmTarget = nil
        }
        SDL_DestroyRenderer(renderer)
        SDL_FreeSurface(oldSurface)
        surface = newSurface
        renderer = newRenderer
        viewport = size
        return true
    }

    /// After a panel came back: the board's new size when it came back at another size and
    /// the frame was remade for it, else nil.
    private func fitFrameToPanel() -> Viewport? {
        guard let panel = scanout?.size else { return nil }
        let wanted = Self.offscreenFrame(panel: panel, configured: viewport, rotate: rotate)
        return resizeOffscreenFrame(to: wanted) ? wanted : nil
    }

    /// The window's renderer: SDL's software renderer on the window's surface where the video
    /// driver has one of its own (X11), so a window costs no GL stack (Mesa's libGL and, for
    /// llvmpipe, LLVM: about 60 MB of the kiosk's memory on a desktop without a GPU driver).
    /// The frames are the ones the console and headless kiosks draw, pixel for pixel. Where
    /// the driver has no surface of its own (Wayland without XWayland, SDL's KMSDRM with
    /// `display.output = "sdl"`), SDL's accelerated renderer, as before.
    ///
    /// No vsync either way in the software case: the display loop paces its frames itself
    /// (`RedrawPacer`: input at once, slides at 60 Hz, fades at 30 Hz), as it does on the console.
    static func windowRenderer(_ window: OpaquePointer) -> OpaquePointer? {
        if let software = SDL_CreateRenderer(window, -1, SDL_RENDERER_SOFTWARE.rawValue) { return software }
        return SDL_CreateRenderer(window, -1, SDL_RENDERER_ACCELERATED.rawValue | SDL_RENDERER_PRESENTVSYNC.rawValue)
    }

    deinit {
        canvas.releaseAll()
        if let rotationTarget { SDL_DestroyTexture(rotationTarget) }
        if let warmTarget { SDL_DestroyTexture(warmTarget) }
        SDL_DestroyRenderer(renderer)
        if let surface { SDL_FreeSurface(surface) }
        if let window { SDL_DestroyWindow(window) }
        // SDL and SDL_ttf close when the last display's `libraries` goes, after this.
    }

    /// SDL's error now, or a plain word when it set none.
    static func sdlError() -> String {
        let text = String(cString: SDL_GetError())
        return text.isEmpty ? "SDL gave no reason" : text
    }

    /// Each display driver SDL was built with, tried alone, and why it failed, read right
    /// after its attempt (called once SDL_Init failed; leaves SDL shut down).
    static func eachDriversReason() -> String {
        let first = sdlError()
        guard SDL_InitSubSystem(UInt32(SDL_INIT_EVENTS)) == 0 else { return first }
        defer { SDL_Quit() }
        var reasons: [String] = []
        for index in 0..<SDL_GetNumVideoDrivers() {
            guard let cName = SDL_GetVideoDriver(index) else { continue }
            let name = String(cString: cName)
            guard !["offscreen", "dummy", "evdev"].contains(name) else { continue }
            SDL_ClearError()
            if SDL_VideoInit(cName) == 0 {
                SDL_VideoQuit()
                continue
            }
            reasons.append("\(name): \(sdlError())")
        }
        return reasons.isEmpty ? first : reasons.joined(separator: "; ")
    }

    static func noDisplayMessage(_ sdlError: String) -> String {
        """
        no display found (SDL tried X11, Wayland and KMSDRM: \(sdlError)).
        On a desktop, run inside X11 or Wayland; on a Pi console, run from tty1 with access to /dev/dri.
        To render without any display, use: hyzer-kiosk --headless --script FILE --snapshots DIR
        """
    }

    // MARK: Drawing

    /// Draws one frame of `state` (not yet shown: call `present`). `now` is the machine's
    /// monotonic time (animations); `wallClock` the date shown in text ("synced 2 min ago").
    /// Both come from the caller's clock, so a replay or a test draws the same frame every time.
    public func draw(_ state: KioskState, now: Millis, wallClock: Date) {
        if rotate, window != nil {
            if rotationTarget == nil {
                rotationTarget = SDL_CreateTexture(
                    renderer, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue),
                    Int32(SDL_TEXTUREACCESS_TARGET.rawValue),
                    Int32(viewport.width), Int32(viewport.height))
            }
            SDL_SetRenderTarget(renderer, rotationTarget)
        }
        Painter(canvas: canvas, layout: Layout(viewport: viewport), state: state, now: now, wallClock: wallClock).paint()
        if rotate, window != nil, let rotationTarget {
            SDL_SetRenderTarget(renderer, nil)
            SDL_SetRenderDrawColor(renderer, 0, 0, 0, 255)
            SDL_RenderClear(renderer)
            // Turn the portrait frame 90° clockwise onto the landscape panel.
            var dst = SDL_Rect(
                x: Int32((viewport.height - viewport.width) / 2), y: Int32((viewport.width - viewport.height) / 2),
                w: Int32(viewport.width), h: Int32(viewport.height))
            SDL_RenderCopyEx(renderer, rotationTarget, nil, &dst, 90, nil, SDL_FLIP_NONE)
        }
    }

    public func present() {
        guard let scanout, let surface else { return SDL_RenderPresent(renderer) }
        // The software renderer may hold draws back in a batch: all of them into the surface first.
        SDL_RenderFlush(renderer)
        scanout.present(
            pixels: surface.pointee.pixels, pitch: Int(surface.pointee.pitch),
            width: Int(surface.pointee.w), height: Int(surface.pointee.h), rotate: rotate)
    }

    /// The panel's card and size with direct KMS output (nil size: no panel plugged in).
    public var panel: (card: String, width: Int, height: Int)? {
        guard let scanout else { return nil }
        return (scanout.cardPath, scanout.size?.width ?? 0, scanout.size?.height ?? 0)
    }

    /// The card to drive on a console: `configured` if given, else the first card in
    /// /dev/dri with connectors (a Pi 5's card0 is its render-only GPU); nil when there is none.
    public static func consoleCard(configured: String?) -> String? {
        configured ?? KMSScanout.displayCards().first
    }

    /// Draws `state` where nothing shows (a 1×1 target): what it leaves behind is its texts,
    /// rasterized into the cache, and its ellipsized forms. The kiosk warms the screen a press
    /// is likely to open while it waits for that press (`KioskSession.likelyNext`), so the
    /// frame after the press only copies textures. The frame on screen is untouched: a target
    /// texture is its own buffer, and nothing is presented.
    public func warm(_ state: KioskState, now: Millis, wallClock: Date) {
        if warmTarget == nil {
            warmTarget = SDL_CreateTexture(
                renderer, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue), Int32(SDL_TEXTUREACCESS_TARGET.rawValue), 1, 1)
        }
        guard let warmTarget else { return }
        let previous = SDL_GetRenderTarget(renderer)
        SDL_SetRenderTarget(renderer, warmTarget)
        Painter(canvas: canvas, layout: Layout(viewport: viewport), state: state, now: now, wallClock: wallClock).paint()
        SDL_SetRenderTarget(renderer, previous)
    }

    /// The last drawn frame as tightly packed RGB rows.
    public func capture() throws -> (width: Int, height: Int, rgb: [UInt8]) {
        var w: Int32 = 0
        var h: Int32 = 0
        SDL_GetRendererOutputSize(renderer, &w, &h)
        var pixels = [UInt8](repeating: 0, count: Int(w) * Int(h) * 3)
        let status = pixels.withUnsafeMutableBytes { buffer in
            SDL_RenderReadPixels(renderer, nil, UInt32(SDL_PIXELFORMAT_RGB24.rawValue), buffer.baseAddress, w * 3)
        }
        guard status == 0 else { throw RenderError("cannot read the frame back") }
        return (Int(w), Int(h), pixels)
    }

    public func writePNG(to url: URL) throws {
        let frame = try capture()
        try PNGWriter.encode(width: frame.width, height: frame.height, rgb: frame.rgb).write(to: url)
    }

    // MARK: Events

    /// Waits up to `timeoutMs` for input (0 polls). An idle board spends its time here.
    public func waitEvent(timeoutMs: Int) -> DisplayEvent? {
        var event = SDL_Event()
        guard timeoutMs > 0 else { return SDL_PollEvent(&event) == 1 ? translate(event) ?? .wake : nil }
        guard let pollInterval = ownWaitPollMs else {
            // X11 and Wayland block in the kernel until input or a wake-up arrives.
            guard SDL_WaitEventTimeout(&event, Int32(min(timeoutMs, Int(Int32.max)))) == 1 else { return nil }
            return translate(event) ?? .wake
        }
        // No blocking wait in this driver: SDL would pump and sleep 1 ms at a time, a
        // thousand wake-ups a second on an idle board (16% of a CPU under the appliance
        // test's emulation). Sleep on the waker's semaphore instead, and read input every
        // `pollInterval` ms; a wake-up from another thread (the knob, a score) ends the
        // sleep at once.
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeoutMs) * 1_000_000
        while true {
            inputPolls += 1
            if let scanout, scanout.checkHotplug(), let change = scanout.lastChange {
                return .panel(change, resized: fitFrameToPanel())
            }
            if SDL_PollEvent(&event) == 1 {
                if event.type != wakeEventType { lastInputNs = DispatchTime.now().uptimeNanoseconds }
                return translate(event) ?? .wake
            }
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else { return nil }
            let interval = Self.inputPollMs(base: pollInterval, sinceInputMs: (now &- lastInputNs) / 1_000_000)
            let slice = min(deadline - now, UInt64(interval) * 1_000_000)
            if wakeSignal.wait(timeout: .now() + .nanoseconds(Int(slice))) == .success {
                // Every wake-up since is one more signal, and its SDL event is queued: the
                // loop reads those events before it sleeps again, so the signals go now (or
                // each would end a later sleep for nothing).
                while wakeSignal.wait(timeout: .now()) == .success {}
                return SDL_PollEvent(&event) == 1 ? translate(event) ?? .wake : .wake
            }
        }
    }

    /// For drivers that cannot block until input (the console: evdev or KMSDRM; headless),
    /// how often input is read while nothing else wakes the loop (see `inputPollMs`); nil
    /// where SDL blocks in the kernel (X11, Wayland). 20 ms on the console: a key or a touch
    /// at most 20 ms late (the knob is not read here: its own thread wakes the loop).
    /// Headless: nobody types, so a second.
    public let ownWaitPollMs: Int?
    /// Times input was read while waiting with `ownWaitPollMs` (tests count the wake-ups).
    public private(set) var inputPolls = 0
    /// The one semaphore in the kiosk, on purpose: the main thread (SDL's, never a pool
    /// thread) must sleep until a deadline or until any thread wakes it, and a counting
    /// semaphore's timed wait is that; a `Mutex` cannot wait, and the loop cannot `await`.
    private let wakeSignal = DispatchSemaphore(value: 0)

    /// When input was last read (keys, wheels, touches), for `inputPollMs`.
    private var lastInputNs: UInt64 = 0

    /// How often to read input now: `base` while someone has typed or touched in the last 5 s
    /// (a name being typed, taps in a row), then at most 10 times a second. An idle board
    /// reads its input 10 times a second instead of 50, and the first key or tap after a
    /// quiet spell is at most 100 ms late; the knob, on its own thread, is never late.
    public static func inputPollMs(base: Int, sinceInputMs: UInt64) -> Int {
        sinceInputMs < 5_000 ? base : max(base, 100)
    }

    public static func ownWaitPollMs(forDriver driver: String, headless: Bool) -> Int? {
        if headless { return 1_000 }
        return ["x11", "wayland"].contains(driver) ? nil : 20
    }

    /// Safe to call from any thread: makes a waiting `waitEvent` return `.wake`
    /// (`SDL_PushEvent` is SDL's one thread-safe way into the event loop; the semaphore ends
    /// the sleep of a driver that cannot block on SDL's queue).
    public var waker: @Sendable () -> Void {
        let type = wakeEventType
        // Only a display that sleeps on it: nobody would take the signals otherwise.
        let signal = ownWaitPollMs == nil ? nil : wakeSignal
        return {
            var event = SDL_Event()
            event.type = type
            SDL_PushEvent(&event)
            signal?.signal()
        }
    }

    private func translate(_ event: SDL_Event) -> DisplayEvent? {
        switch event.type {
        case SDL_QUIT.rawValue:
            return .quit
        case SDL_KEYDOWN.rawValue, SDL_KEYUP.rawValue:
            let key: DisplayEvent.Key
            switch Int64(event.key.keysym.sym) {
            case Int64(SDLK_UP.rawValue): key = .up
            case Int64(SDLK_DOWN.rawValue): key = .down
            case Int64(SDLK_LEFT.rawValue): key = .left
            case Int64(SDLK_RIGHT.rawValue): key = .right
            case Int64(SDLK_RETURN.rawValue), Int64(SDLK_KP_ENTER.rawValue): key = .enter
            case Int64(SDLK_SPACE.rawValue): key = .space
            case Int64(SDLK_ESCAPE.rawValue): key = .escape
            case Int64(SDLK_BACKSPACE.rawValue): key = .backspace
            default: key = .other
            }
            return .key(key, down: event.type == SDL_KEYDOWN.rawValue, isRepeat: event.key.repeat != 0)
        case SDL_TEXTINPUT.rawValue:
            let text = withUnsafeBytes(of: event.text.text) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            return text.isEmpty ? nil : .text(text)
        case SDL_MOUSEWHEEL.rawValue:
            let y = event.wheel.preciseY != 0 ? Double(event.wheel.preciseY) : Double(event.wheel.y)
            return .wheel(event.wheel.direction == SDL_MOUSEWHEEL_FLIPPED.rawValue ? -y : y)
        case SDL_MOUSEBUTTONDOWN.rawValue:
            guard event.button.which != UInt32(bitPattern: -1) else { return nil }  // SDL_TOUCH_MOUSEID: handled as a finger
            var lx: Float = 0
            var ly: Float = 0
            SDL_RenderWindowToLogical(renderer, event.button.x, event.button.y, &lx, &ly)
            return tap(physicalX: Double(lx), physicalY: Double(ly))
        case SDL_FINGERDOWN.rawValue:
            var w: Int32 = 0
            var h: Int32 = 0
            SDL_GetRendererOutputSize(renderer, &w, &h)
            // A touch panel reports where on the glass, which is the turned frame when rotated.
            if turnsFrame, scanout != nil { (w, h) = (h, w) }
            return tap(physicalX: Double(event.tfinger.x) * Double(w), physicalY: Double(event.tfinger.y) * Double(h))
        case SDL_WINDOWEVENT.rawValue where event.window.event == UInt8(SDL_WINDOWEVENT_SIZE_CHANGED.rawValue):
            var w: Int32 = 0
            var h: Int32 = 0
            SDL_GetRendererOutputSize(renderer, &w, &h)
            if let rotationTarget {
                SDL_DestroyTexture(rotationTarget)
                self.rotationTarget = nil
            }
            viewport = rotate ? Viewport(width: Int(h), height: Int(w)) : Viewport(width: Int(w), height: Int(h))
            return .resized(viewport)
        default:
            return nil
        }
    }

    /// Whether the drawn (portrait) frame is turned onto the screen: a rotated window or
    /// panel, not a headless surface.
    private var turnsFrame: Bool { rotate && (window != nil || scanout != nil) }

    /// Undoes the 90° turn for taps on a rotated screen.
    private func tap(physicalX x: Double, physicalY y: Double) -> DisplayEvent {
        guard turnsFrame else { return .tap(x: x, y: y) }
        return .tap(x: y, y: Double(viewport.height) - x)
    }
}
