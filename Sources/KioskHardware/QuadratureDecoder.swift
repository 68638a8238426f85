/// How many detents one full 4-state quadrature cycle holds.
public enum QuadratureMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// One detent per cycle: the encoder rests only at AB = 11 (EC11 and KY-040 with 20 detents / 20 pulses).
    case full
    /// Two detents per cycle: the encoder rests at AB = 11 and AB = 00 (30 detents / 15 pulses parts).
    case half

    /// Valid single-line steps (quarter cycles) between two detent positions.
    public var quarterStepsPerDetent: Int { self == .full ? 4 : 2 }

    /// Whether the encoder can rest in `state`.
    public func isDetentPosition(_ state: QuadratureState) -> Bool {
        switch self {
        case .full: state == .rest
        case .half: state == .rest || state == .bothLow
        }
    }
}

/// Both encoder lines as one 2-bit Gray-code value, A in the high bit.
public struct QuadratureState: Sendable, Hashable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(a: Int, b: Int) {
        rawValue = UInt8((a != 0 ? 2 : 0) | (b != 0 ? 1 : 0))
    }

    init(rawValue: UInt8) { self.rawValue = rawValue & 3 }

    public var a: Int { Int(rawValue >> 1) }
    public var b: Int { Int(rawValue & 1) }

    /// Both lines high: pull-ups, contacts open, the encoder sitting on a detent.
    public static let rest = QuadratureState(a: 1, b: 1)
    public static let bothLow = QuadratureState(a: 0, b: 0)

    func with(_ line: KnobLine, level: Int) -> QuadratureState {
        switch line {
        case .a: QuadratureState(a: level, b: b)
        case .b: QuadratureState(a: a, b: level)
        case .sw: self
        }
    }

    public var description: String { "\(a)\(b)" }
}

/// Decodes quadrature edges into detents with a transition table: no I/O, no clock.
///
/// Clockwise is 11 → 01 → 00 → 10 → 11 (A falls first); counter-clockwise the reverse.
/// Every valid transition moves one quarter-step along that cycle, so the decoder keeps the signed
/// number of quarter-steps since the last detent position (`phase`). A detent is reported only when
/// the encoder arrives at a detent position a whole detent (±4 in full mode, ±2 in half mode) away
/// from where it last rested. That one rule is what makes the noise harmless:
/// - contact bounce toggles one line back and forth, so its steps cancel;
/// - a wiggle or a reversal mid-cycle brings the phase back to 0 at the same rest position;
/// - an impossible jump (both lines changed between two samples: `advance(to:)` fed from polling,
///   or a reader that merged edges) leaves the direction unknown, so the rest of that cycle is
///   discarded rather than guessed;
/// - with edge input a lost edge shows up as a repeated level, which moves nothing.
/// A missed detent is recoverable by turning once more; a phantom one records a wrong score.
public struct QuadratureDecoder: Sendable {
    public let mode: QuadratureMode
    /// Swap clockwise and counter-clockwise, for encoders wired with A and B the other way round.
    public let swapDirection: Bool

    public private(set) var state: QuadratureState
    /// Signed quarter-steps since the last detent position; positive is clockwise.
    public private(set) var phase = 0
    /// Set by an impossible jump; cleared at the next detent position.
    public private(set) var isLost = false
    /// Impossible jumps seen so far; a rising count in diagnostics points at wiring or lost events.
    public private(set) var invalidTransitions = 0

    /// `transitionTable[from << 2 | to]` is +1 (a clockwise quarter-step), −1 (counter-clockwise),
    /// 0 (no change) or `invalid` (both lines changed: no direction can be inferred).
    static let invalid: Int8 = 2
    static let transitionTable: [Int8] = [
        //        to: 00       01       10       11
        /* 00 */ 0, -1, +1, invalid,
        /* 01 */ +1, 0, invalid, -1,
        /* 10 */ -1, invalid, 0, +1,
        /* 11 */ invalid, +1, -1, 0,
    ]

    /// - Parameter initial: the levels read when the lines were requested. If the encoder is not at a
    ///   detent position then (someone is turning it at start-up), the first partial cycle is ignored.
    public init(mode: QuadratureMode = .full, swapDirection: Bool = false, initial: QuadratureState = .rest) {
        self.mode = mode
        self.swapDirection = swapDirection
        self.state = initial
        self.isLost = !mode.isDetentPosition(initial)
    }

    /// Feeds one edge; switch edges are ignored. Returns the detent this edge completed, if any.
    public mutating func feed(_ edge: EdgeEvent) -> Detent? {
        guard edge.line != .sw else { return nil }
        return advance(to: state.with(edge.line, level: edge.level), at: edge.timestampNs)
    }

    /// Moves to a new sampled state; the entry point for both edge input and whole-state samples.
    public mutating func advance(to next: QuadratureState, at timestampNs: UInt64) -> Detent? {
        // A repeated level means the opposite edge on that line was lost (or reported twice); the
        // line is where it was, so there is no movement to account for.
        guard next != state else { return nil }
        let step = Self.transitionTable[Int(state.rawValue) << 2 | Int(next.rawValue)]
        state = next
        if step == Self.invalid {
            isLost = true
            invalidTransitions += 1
        } else {
            phase += Int(step)
        }
        guard mode.isDetentPosition(next) else { return nil }
        // Every arrival at a detent position starts counting afresh, whatever happened before.
        defer {
            phase = 0
            isLost = false
        }
        guard !isLost, abs(phase) == mode.quarterStepsPerDetent else { return nil }
        var direction: RotationDirection = phase > 0 ? .clockwise : .counterClockwise
        if swapDirection { direction = direction.reversed }
        return Detent(direction: direction, timestampNs: timestampNs)
    }
}

/// One decoded detent.
public struct Detent: Sendable, Hashable {
    public var direction: RotationDirection
    /// Timestamp of the edge that completed the detent.
    public var timestampNs: UInt64

    public init(direction: RotationDirection, timestampNs: UInt64) {
        self.direction = direction
        self.timestampNs = timestampNs
    }

    public var event: KnobEvent { .detent(direction, timestampNs: timestampNs) }
}
