/// Everything about interpreting the knob's lines that a deployment may need to change.
public struct KnobConfig: Sendable, Hashable {
    public var mode: QuadratureMode
    /// Swap clockwise and counter-clockwise (A and B wired the other way round).
    public var swapDirection: Bool
    public var button: ButtonTiming
    /// The switch pulls the line low when pressed (pull-up wiring); false for active-high modules.
    public var buttonActiveLow: Bool

    public init(
        mode: QuadratureMode = .full,
        swapDirection: Bool = false,
        button: ButtonTiming = ButtonTiming(),
        buttonActiveLow: Bool = true
    ) {
        self.mode = mode
        self.swapDirection = swapDirection
        self.button = button
        self.buttonActiveLow = buttonActiveLow
    }
}

/// Levels of the three input lines at a moment, e.g. when they were requested.
public struct KnobLevels: Sendable, Hashable {
    public var a: Int
    public var b: Int
    public var sw: Int

    public init(a: Int, b: Int, sw: Int) {
        self.a = a
        self.b = b
        self.sw = sw
    }

    /// Encoder on a detent, switch open, all lines pulled up.
    public static let idle = KnobLevels(a: 1, b: 1, sw: 1)
}

/// The quadrature decoder and the button debouncer behind one edge input, routed by line.
/// Pure: the caller supplies edges in timestamp order, and calls `poll(now:)` at `nextDeadlineNs`.
public struct KnobDecoder: Sendable {
    public private(set) var quadrature: QuadratureDecoder
    public private(set) var button: ButtonDebouncer

    public init(config: KnobConfig = KnobConfig(), initial: KnobLevels = .idle) {
        quadrature = QuadratureDecoder(
            mode: config.mode,
            swapDirection: config.swapDirection,
            initial: QuadratureState(a: initial.a, b: initial.b)
        )
        button = ButtonDebouncer(timing: config.button, activeLow: config.buttonActiveLow, initialLevel: initial.sw)
    }

    public mutating func feed(_ edge: EdgeEvent, emit: (KnobEvent) -> Void) {
        switch edge.line {
        case .a, .b:
            // Button deadlines that passed before this edge come first, to keep events in order.
            button.poll(now: edge.timestampNs, emit: emit)
            if let detent = quadrature.feed(edge) { emit(detent.event) }
        case .sw:
            button.feed(edge, emit: emit)
        }
    }

    public mutating func poll(now: UInt64, emit: (KnobEvent) -> Void) {
        button.poll(now: now, emit: emit)
    }

    public var nextDeadlineNs: UInt64? { button.nextDeadlineNs }

    /// Decodes a whole recording offline. After the last edge the lines are taken to keep their
    /// final levels, so a trailing release or long press still resolves.
    public static func decode(
        _ edges: some Sequence<EdgeEvent>,
        config: KnobConfig = KnobConfig(),
        initial: KnobLevels = .idle
    ) -> [KnobEvent] {
        var decoder = KnobDecoder(config: config, initial: initial)
        var events: [KnobEvent] = []
        for edge in edges {
            decoder.feed(edge) { events.append($0) }
        }
        decoder.finish { events.append($0) }
        return events
    }

    /// Runs out every pending timer, as if the lines then stayed put forever.
    public mutating func finish(emit: (KnobEvent) -> Void) {
        // Each poll either confirms a level or fires the one long press, so this ends in at most a
        // handful of rounds; the bound only guards against a future bug turning it into a hang.
        var rounds = 0
        while let deadline = nextDeadlineNs, rounds < 16 {
            poll(now: deadline, emit: emit)
            rounds += 1
        }
    }
}
