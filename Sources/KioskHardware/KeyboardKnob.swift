import HyzerKit

/// The keys that stand in for the knob on a development machine. The kiosk maps SDL keycodes to
/// these; this module stays free of SDL.
public enum KnobKey: String, Sendable, Hashable, CaseIterable {
    case up, down, left, right, enter, escape
}

/// Keyboard and mouse-wheel input, as the kiosk's event loop sees it.
public enum KeyboardKnobInput: Sendable, Hashable {
    case keyDown(KnobKey, isRepeat: Bool)
    case keyUp(KnobKey)
    /// Vertical wheel movement in notches, positive away from the user (SDL's `y > 0`).
    /// Fractional values come from precise wheels and touchpads and are accumulated.
    case wheel(Double)
}

/// Maps keys and the wheel to knob events. Pure and stateful only in what it must remember: which
/// of Enter/Escape is held, and the fraction of a wheel notch not yet turned into a detent.
///
/// Up/Right and wheel-up are clockwise detents (one stroke more); Down/Left and wheel-down are
/// counter-clockwise. Holding an arrow key repeats, like spinning the knob. Enter is a click
/// (press on key-down, release on key-up). Escape is a long press: `press` and `longPress` on
/// key-down, `release(afterLongPress: true)` on key-up, the same sequence the real switch gives.
public struct KeyboardKnobMapping: Sendable, Hashable {
    /// Flip the wheel for "natural scrolling" setups.
    public var invertWheel: Bool
    private var wheelRemainder = 0.0
    private var held: KnobKey?

    public init(invertWheel: Bool = false) {
        self.invertWheel = invertWheel
    }

    public mutating func map(_ input: KeyboardKnobInput, atNs t: UInt64) -> [KnobEvent] {
        switch input {
        case .keyDown(.up, _), .keyDown(.right, _):
            return [.detent(.clockwise, timestampNs: t)]
        case .keyDown(.down, _), .keyDown(.left, _):
            return [.detent(.counterClockwise, timestampNs: t)]
        case .keyDown(let key, let isRepeat):
            // One button: while Enter or Escape is held, the other one is ignored, and key repeat
            // must not turn one press into many.
            guard !isRepeat, held == nil else { return [] }
            held = key
            return key == .enter
                ? [.press(timestampNs: t)]
                : [.press(timestampNs: t), .longPress(timestampNs: t)]
        case .keyUp(let key):
            guard key == held else { return [] }
            held = nil
            return [.release(timestampNs: t, afterLongPress: key == .escape)]
        case .wheel(let notches):
            guard notches.isFinite else { return [] }
            let total = wheelRemainder + (invertWheel ? -notches : notches)
            let whole = total.rounded(.towardZero)
            wheelRemainder = total - whole
            let direction: RotationDirection = whole > 0 ? .clockwise : .counterClockwise
            return Array(repeating: .detent(direction, timestampNs: t), count: Int(whole.magnitude))
        }
    }
}

/// The knob on a development machine: the kiosk's event loop posts keyboard and wheel input,
/// and it comes out of `KnobDriver` like the encoder's would.
public final class KeyboardKnobBackend: KnobBackend {
    public let buzzerLine: any OutputLine
    public let clock: any HyzerClock
    public var usesVirtualTime: Bool { false }
    public var initialLevels: KnobLevels { .idle }
    public var description: String { "keyboard and mouse wheel" }

    /// A condition lock: the input thread sleeps in it until a key arrives, as the GPIO backend's
    /// sleeps in poll() (see `ConditionLock`).
    private let lock: ConditionLock<Input>

    private struct Input: Sendable {
        var mapping: KeyboardKnobMapping
        var pending: [KnobEvent] = []
        var stopRequested = false
    }

    /// - Parameter buzzerLine: dev machines have no buzzer, but a recorder can stand in for one.
    public init(
        mapping: KeyboardKnobMapping = KeyboardKnobMapping(),
        buzzerLine: any OutputLine = NullOutputLine(),
        clock: any HyzerClock = SystemClock()
    ) {
        lock = ConditionLock(Input(mapping: mapping))
        self.buzzerLine = buzzerLine
        self.clock = clock
    }

    /// Posts input from the UI thread; never blocks beyond a short lock.
    public func post(_ input: KeyboardKnobInput) {
        let now = clock.uptimeNanoseconds
        lock.withLock(wakingWaiters: true) { state in
            state.pending.append(contentsOf: state.mapping.map(input, atNs: now))
        }
    }

    public func stop() {
        lock.withLock(wakingWaiters: true) { $0.stopRequested = true }
    }

    public func run(_ handler: any KnobInputHandler) throws {
        while true {
            let events: [KnobEvent]? = lock.wait { state in
                if state.stopRequested { return .done(nil) }
                guard !state.pending.isEmpty else { return .sleep }
                defer { state.pending.removeAll(keepingCapacity: true) }
                return .done(state.pending)
            }
            guard let events else { return }
            handler.handleEvents(events)
        }
    }
}
