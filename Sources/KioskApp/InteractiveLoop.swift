import Foundation
import HyzerKit
import KioskCore
import KioskHardware
import KioskRender
import Logging

/// The kiosk's main loop: block in SDL until input or the machine's next deadline, draw
/// only when the state changed or something is moving. An idle board sleeps.
public final class InteractiveLoop {
    /// How often other processes' writes are looked for (must show within 1 s).
    public static let externalPollMs: Millis = 400

    let session: KioskSession
    let display: Display
    let knob: KnobDriver?
    let sync: SyncBridge?
    private let knobQueue = KnobQueue()
    private let logger = Logger(label: "hyzer.kiosk")
    public private(set) var frames = 0
    /// Called once, right after the first frame is on screen.
    public var onFirstFrame: (() -> Void)?

    public init(session: KioskSession, display: Display, knob: KnobDriver?, sync: SyncBridge? = nil) {
        self.session = session
        self.display = display
        self.knob = knob
        self.sync = sync
        if let sync { session.onLocalWrite = { sync.localWrite() } }
        if let knob {
            session.buzz = { pattern in
                if let mapped = BuzzerPattern(rawValue: pattern.rawValue) { knob.buzzer.play(mapped) }
            }
        }
    }

    /// Runs until the window closes, SIGTERM/SIGINT, or `seconds` pass.
    public func run(seconds: Double? = nil) {
        let clock = MonotonicMillis()
        let stopAt = seconds.map { clock.now + Millis($0 * 1000) }
        // The knob driver is a service: it runs until its task is cancelled.
        let knobRun = knob.map { knob in Task { try await knob.run() } }
        if let knob {
            let queue = knobQueue
            Task.detached {
                for await event in knob.events {
                    queue.push(event)
                    Display.wake()
                }
            }
        }
        var mapping = KeyboardKnobMapping()
        var lastDrawn: KioskState?
        var lastPoll = clock.now
        Signals.install()

        while !Signals.stopRequested {
            var now = clock.now
            if let stopAt, now >= stopAt { break }
            for event in knobQueue.drain() {
                if let kiosk = KnobInput.kioskEvent(for: event) { session.send(kiosk, now: now) }
            }
            if let (indicator, arrived) = sync?.take() {
                if let indicator { session.send(.syncChanged(indicator), now: now) }
                if arrived { lastPoll = now - Self.externalPollMs }  // read the pulled records now, not at the next poll
            }
            if now - lastPoll >= Self.externalPollMs {
                // Writes by other processes (`hyzer score`, `hyzer demo`) are pushed too.
                if session.pollForExternalChanges(now: now) { sync?.localWrite() }
                lastPoll = now
            }
            if let due = session.state.nextWakeUp(after: now), due <= now {
                session.send(.tick, now: now)
            }
            if lastDrawn != session.state || session.state.isAnimating(at: now) {
                display.draw(session.state, now: now, wallClock: SystemClock().date)
                display.present()
                lastDrawn = session.state
                frames += 1
                if frames == 1 { onFirstFrame?() }
            }
            now = clock.now
            var timeout = Self.externalPollMs - (now - lastPoll)
            if let due = session.state.nextWakeUp(after: now) { timeout = min(timeout, due - now) }
            if let stopAt { timeout = min(timeout, stopAt - now) }
            var event = display.waitEvent(timeoutMs: Int(max(0, timeout)))
            while let current = event {
                handle(current, mapping: &mapping, now: clock.now)
                event = display.waitEvent(timeoutMs: 0)
            }
        }
        knobRun?.cancel()
        sync?.stop()
    }

    private func handle(_ event: DisplayEvent, mapping: inout KeyboardKnobMapping, now: Millis) {
        switch event {
        case .quit:
            Signals.requestStop()
        case .tap(let x, let y):
            session.send(.touch(x: x, y: y), now: now)
        case .resized(let viewport):
            session.send(.resized(viewport), now: now)
        case .wake:
            break
        case .key, .wheel:
            for kiosk in KnobInput.keyboardEvents(event, mapping: &mapping, nowNs: UInt64(now) * 1_000_000) {
                session.send(kiosk, now: now)
            }
        }
    }
}

/// Knob events handed from the driver's task to the main loop.
final class KnobQueue: @unchecked Sendable {
    private let lock = NSLock()
    private var events: [KnobEvent] = []
    func push(_ event: KnobEvent) { lock.lock(); events.append(event); lock.unlock() }
    func drain() -> [KnobEvent] {
        lock.lock()
        defer { lock.unlock() }
        let out = events
        events.removeAll(keepingCapacity: true)
        return out
    }
}

/// Milliseconds on CLOCK_MONOTONIC.
public struct MonotonicMillis: Sendable {
    public init() {}
    public var now: Millis {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Millis(ts.tv_sec) * 1000 + Millis(ts.tv_nsec / 1_000_000)
    }
}

/// SIGTERM (systemd stop) and SIGINT end the loop cleanly. The handler only sets a flag
/// (nothing else is async-signal-safe); the loop wakes at least every `externalPollMs`.
enum Signals {
    nonisolated(unsafe) private static var stop: sig_atomic_t = 0
    static var stopRequested: Bool { stop != 0 }
    static func requestStop() { stop = 1 }
    static func install() {
        // A parent may have spawned us with these blocked (test runners do); unblock them
        // so `systemctl stop` and Ctrl-C always reach the loop.
        var set = sigset_t()
        sigemptyset(&set)
        for sig in [SIGTERM, SIGINT] {
            sigaddset(&set, sig)
            signal(sig) { _ in Signals.requestStop() }
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }
}
