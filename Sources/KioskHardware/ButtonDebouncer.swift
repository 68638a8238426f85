/// Timing for the push switch.
public struct ButtonTiming: Sendable, Hashable {
    /// How long the switch must hold a new level before it counts. Switch bounce is typically
    /// 1–5 ms; anything shorter than this is treated as noise.
    public var debounceNs: UInt64
    /// Hold time after which a press becomes a long press (back/cancel).
    public var longPressNs: UInt64

    public init(debounceNs: UInt64 = 5_000_000, longPressNs: UInt64 = 600_000_000) {
        self.debounceNs = debounceNs
        // A long press shorter than the debounce could fire before the press itself was certain.
        self.longPressNs = max(longPressNs, debounceNs + 1)
    }
}

/// Debounces the push switch and tells presses, releases and long presses apart. No I/O, no clock:
/// it is driven by edge timestamps plus `poll(now:)`, which the input thread calls at
/// `nextDeadlineNs` so that a long press fires while the switch is still held.
///
/// A new level counts once it has been stable for `debounceNs` (stable-for-interval, not
/// first-edge): a spike from a nearby motor or a static discharge then never becomes a press.
/// The cost is `debounceNs` of latency on presses, which nobody feels at 5 ms.
public struct ButtonDebouncer: Sendable {
    public let timing: ButtonTiming
    /// With the usual pull-up wiring the line reads 0 while the switch is closed.
    public let activeLow: Bool

    /// The debounced state.
    public private(set) var isPressed: Bool
    /// The latest level seen on the line, possibly still bouncing.
    private var rawPressed: Bool
    /// When the raw level last changed.
    private var rawSinceNs: UInt64 = 0
    /// When the raw level first left the debounced one: the start of the current bounce burst,
    /// i.e. when the finger actually pressed or let go.
    private var burstStartNs: UInt64 = 0
    private var pressStartNs: UInt64 = 0
    private var longPressFired = false
    /// Set when the switch was already held at start-up: we never saw that press, so we neither
    /// report it nor its release.
    private var ignoreUntilReleased: Bool

    public init(timing: ButtonTiming = ButtonTiming(), activeLow: Bool = true, initialLevel: Int = 1) {
        self.timing = timing
        self.activeLow = activeLow
        let pressed = (initialLevel == 0) == activeLow
        self.isPressed = pressed
        self.rawPressed = pressed
        self.ignoreUntilReleased = pressed
        self.longPressFired = pressed
    }

    /// Feeds one edge of the switch line (other lines are ignored).
    public mutating func feed(_ edge: EdgeEvent, emit: (KnobEvent) -> Void) {
        guard edge.line == .sw else { return }
        // Settle whatever became certain before this edge arrived.
        poll(now: edge.timestampNs, emit: emit)
        let pressed = (edge.level == 0) == activeLow
        // A repeated level means a pair of edges was lost; the line did not move.
        guard pressed != rawPressed else { return }
        if rawPressed == isPressed { burstStartNs = edge.timestampNs }
        rawPressed = pressed
        rawSinceNs = edge.timestampNs
    }

    /// Emits whatever has become due by `now`, in chronological order.
    public mutating func poll(now: UInt64, emit: (KnobEvent) -> Void) {
        if isPressed {
            checkLongPress(now: now, emit: emit)
            confirmIfDue(now: now, emit: emit)
        } else {
            confirmIfDue(now: now, emit: emit)
            if isPressed { checkLongPress(now: now, emit: emit) }
        }
    }

    /// When `poll(now:)` next has something to decide, or nil while nothing is pending.
    public var nextDeadlineNs: UInt64? {
        var deadline: UInt64?
        if rawPressed != isPressed { deadline = rawSinceNs + timing.debounceNs }
        // While a release is still bouncing, the confirmation deadline decides the long press too.
        if isPressed, rawPressed, !longPressFired {
            let long = pressStartNs + timing.longPressNs
            deadline = min(deadline ?? long, long)
        }
        return deadline
    }

    private mutating func confirmIfDue(now: UInt64, emit: (KnobEvent) -> Void) {
        guard rawPressed != isPressed, now >= rawSinceNs + timing.debounceNs else { return }
        let at = rawSinceNs + timing.debounceNs
        isPressed = rawPressed
        if isPressed {
            pressStartNs = burstStartNs
            longPressFired = false
            emit(.press(timestampNs: at))
        } else if ignoreUntilReleased {
            ignoreUntilReleased = false
        } else {
            emit(.release(timestampNs: at, afterLongPress: longPressFired))
        }
    }

    private mutating func checkLongPress(now: UInt64, emit: (KnobEvent) -> Void) {
        guard isPressed, !longPressFired else { return }
        let due = pressStartNs + timing.longPressNs
        // If a release is bouncing, the finger let go when that burst began: the hold lasted until
        // then, even if this poll runs later.
        let heldUntil = rawPressed ? now : burstStartNs
        guard heldUntil >= due else { return }
        longPressFired = true
        emit(.longPress(timestampNs: due))
    }
}
