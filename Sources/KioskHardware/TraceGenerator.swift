import HyzerKit

/// Which way the synthetic hand turns.
public enum TurnPlan: String, Sendable, Hashable, CaseIterable {
    case cw, ccw
    /// Runs of 1–20 detents in a random direction, like someone hunting for a score.
    case mixed
}

/// Parameters of a synthetic trace; mirrors `hyzer knob generate`.
public struct TraceGeneratorOptions: Sendable, Hashable {
    public var detents: Int
    /// Detents per second (the average; each detent's period is jittered).
    public var rateHz: Double
    /// The longest contact chatter after any transition, in µs.
    public var bounceUs: Double
    /// Probability, per detent, of a wiggle first: a partial turn that goes back to the detent it
    /// started from without completing.
    public var wiggle: Double
    public var seed: UInt64
    public var mode: QuadratureMode
    public var turn: TurnPlan
    /// Short presses (well under the 600 ms long-press time) placed at random between detents.
    public var presses: Int
    /// Long presses (held 0.8–1.5 s) placed at random between detents.
    public var longPresses: Int
    /// Spread of each detent's period around 1/rate, as a fraction.
    public var jitter: Double
    /// Timestamp of the start of the trace.
    public var startNs: UInt64

    public init(
        detents: Int = 100,
        rateHz: Double = 100,
        bounceUs: Double = 500,
        wiggle: Double = 0.05,
        seed: UInt64 = 1,
        mode: QuadratureMode = .full,
        turn: TurnPlan = .mixed,
        presses: Int = 0,
        longPresses: Int = 0,
        jitter: Double = 0.2,
        startNs: UInt64 = 1_000_000
    ) {
        self.detents = detents
        self.rateHz = rateHz
        self.bounceUs = bounceUs
        self.wiggle = wiggle
        self.seed = seed
        self.mode = mode
        self.turn = turn
        self.presses = presses
        self.longPresses = longPresses
        self.jitter = jitter
        self.startNs = startNs
    }

    /// Rejects options that would not describe a physical knob.
    public func validate() throws(TraceGeneratorError) {
        guard detents >= 0, detents <= 10_000_000 else { throw TraceGeneratorError("--detents must be between 0 and 10000000") }
        guard rateHz > 0, rateHz <= 100_000, rateHz.isFinite else {
            throw TraceGeneratorError("--rate must be above 0 and at most 100000 detents/s")
        }
        guard bounceUs >= 0, bounceUs <= 100_000, bounceUs.isFinite else {
            throw TraceGeneratorError("--bounce-us must be between 0 and 100000")
        }
        guard wiggle >= 0, wiggle <= 1 else { throw TraceGeneratorError("--wiggle is a probability between 0 and 1") }
        guard presses >= 0, longPresses >= 0, presses + longPresses <= 100_000 else {
            throw TraceGeneratorError("--presses and --long-presses must be between 0 and 100000")
        }
        guard jitter >= 0, jitter < 0.9 else { throw TraceGeneratorError("jitter must be between 0 and 0.9") }
    }
}

public struct TraceGeneratorError: Error, Sendable, Hashable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A synthetic trace and what really happened in it.
public struct GeneratedTrace: Sendable {
    public var records: [KnobTraceRecord]
    /// Every detent really turned, stamped with the first edge of the transition that completed
    /// it, which is the edge an exact decoder reports it at.
    public var truth: [Detent]
    /// Ground-truth counts, in the same form as the last line of `hyzer knob decode`.
    public var summary: KnobSummary
    public var durationNs: UInt64
}

/// Writes synthetic encoder traces with realistic noise, deterministic for a given seed.
///
/// The model: each detent is a clean sequence of quarter-step transitions (4 in full mode, 2 in
/// half mode) spread over the detent's period. After each transition the line chatters: 0–4
/// extra toggle pairs within `bounceUs`. Chatter always ends before the next transition on
/// either line: on a real encoder only one wiper sits at a pad edge at a time (that is what the
/// Gray code is for), so bounce on one line while the other switches would be a broken part, not
/// a fast hand. At 1000 detents/s the quarter period is 250 µs, so that is where chatter is cut.
/// Switch chatter is kept under 4 ms, inside the default 5 ms debounce.
public enum TraceGenerator {
    /// Transition times of the clean signal before chatter is added.
    private struct Transition {
        var tNs: UInt64
        var line: KnobLine
        var level: Int
    }

    public static func generate(_ options: TraceGeneratorOptions) throws(TraceGeneratorError) -> GeneratedTrace {
        try options.validate()
        var rng = SeededGenerator(seed: options.seed)
        var clean: [Transition] = []
        clean.reserveCapacity(
            options.detents * (options.mode.quarterStepsPerDetent + 2) + 2 * (options.presses + options.longPresses))
        var truth: [Detent] = []
        truth.reserveCapacity(options.detents)

        var state = QuadratureState.rest
        var now = Double(options.startNs)
        var lastEmitted: UInt64 = 0
        /// Appends a transition at `time`, nudged to stay strictly after the previous one.
        func emit(_ line: KnobLine, _ level: Int, at time: Double) -> UInt64 {
            let t = max(UInt64(time.rounded()), lastEmitted + 1)
            lastEmitted = t
            clean.append(Transition(tNs: t, line: line, level: level))
            return t
        }
        /// Moves the encoder one quarter-step and returns the line and level that changed.
        func quarterStep(_ direction: RotationDirection) -> (KnobLine, Int) {
            // Clockwise order of states: 11 → 01 → 00 → 10 → 11.
            let cycle: [QuadratureState] = [.rest, QuadratureState(a: 0, b: 1), .bothLow, QuadratureState(a: 1, b: 0)]
            let index = cycle.firstIndex(of: state)!
            let next = cycle[(index + (direction == .clockwise ? 1 : 3)) % 4]
            defer { state = next }
            return next.a != state.a ? (.a, next.a) : (.b, next.b)
        }
        /// Spreads `steps` quarter-steps evenly over [start, end] with some jitter in placement.
        func turn(_ direction: RotationDirection, steps: Int, from start: Double, to end: Double) -> UInt64 {
            let slot = (end - start) / Double(steps)
            var last: UInt64 = 0
            for j in 0..<steps {
                let (line, level) = quarterStep(direction)
                let offset = 0.5 + 0.3 * (2 * rng.unit() - 1)
                last = emit(line, level, at: start + slot * (Double(j) + offset))
            }
            return last
        }

        // Where the presses go: before detent i for a slot value i (== detents means at the end).
        let pressCount = options.presses + options.longPresses
        var pressKinds = Array(repeating: false, count: options.presses) + Array(repeating: true, count: options.longPresses)
        rng.shuffle(&pressKinds)
        var slots = (0..<pressCount).map { _ in rng.int(in: 0...options.detents) }
        slots.sort()
        var nextPress = 0
        func pressesBefore(detent index: Int) {
            while nextPress < pressCount, slots[nextPress] == index {
                let long = pressKinds[nextPress]
                nextPress += 1
                now += 20e6 + 40e6 * rng.unit()
                _ = emit(.sw, 0, at: now)
                now += long ? 800e6 + 700e6 * rng.unit() : 60e6 + 190e6 * rng.unit()
                _ = emit(.sw, 1, at: now)
                now += 20e6 + 40e6 * rng.unit()
            }
        }

        let quarters = options.mode.quarterStepsPerDetent
        let period = 1e9 / options.rateHz
        var direction: RotationDirection = options.turn == .ccw ? .counterClockwise : .clockwise
        var runLeft = 0
        for index in 0..<options.detents {
            pressesBefore(detent: index)
            if options.turn == .mixed {
                if runLeft == 0 {
                    direction = rng.unit() < 0.5 ? .clockwise : .counterClockwise
                    runLeft = rng.int(in: 1...20)
                }
                runLeft -= 1
            }
            let length = period * (1 + options.jitter * (2 * rng.unit() - 1))
            var mainStart = now
            if options.wiggle > 0, rng.unit() < options.wiggle {
                // Part of a detent one way, then back: 1 to quarters-1 steps, never a whole detent.
                let depth = rng.int(in: 1...(quarters - 1))
                let wiggleDirection: RotationDirection = rng.unit() < 0.5 ? .clockwise : .counterClockwise
                let middle = now + length * 0.2
                _ = turn(wiggleDirection, steps: depth, from: now, to: middle)
                _ = turn(wiggleDirection.reversed, steps: depth, from: middle, to: now + length * 0.4)
                mainStart = now + length * 0.4
            }
            let completed = turn(direction, steps: quarters, from: mainStart, to: now + length)
            truth.append(Detent(direction: direction, timestampNs: completed))
            now += length
        }
        pressesBefore(detent: options.detents)

        let records = addChatter(to: clean, bounceNs: options.bounceUs * 1000, rng: &rng)
        var summary = KnobSummary(truth.map(\.event))
        summary.presses = pressCount
        summary.longPresses = options.longPresses
        let end = max(UInt64(now.rounded()), records.last?.tNs ?? 0)
        return GeneratedTrace(records: records, truth: truth, summary: summary, durationNs: end - options.startNs)
    }

    /// Adds contact chatter after each clean transition, never reaching the next transition.
    private static func addChatter(to clean: [Transition], bounceNs: Double, rng: inout SeededGenerator) -> [KnobTraceRecord] {
        var records: [KnobTraceRecord] = []
        records.reserveCapacity(clean.count * 4)
        var offsets: [Double] = []
        for (index, transition) in clean.enumerated() {
            records.append(KnobTraceRecord(tNs: transition.tNs, line: transition.line, level: transition.level))
            guard bounceNs > 0 else { continue }
            let room = index + 1 < clean.count ? Double(clean[index + 1].tNs - transition.tNs) * 0.9 : bounceNs
            var window = min(bounceNs, room)
            if transition.line == .sw { window = min(window, 4e6) }
            // About a third of transitions are clean; the rest bounce 1–4 times.
            guard rng.unit() >= 0.3 else { continue }
            let pairs = rng.int(in: 1...4)
            offsets.removeAll(keepingCapacity: true)
            for _ in 0..<(2 * pairs) { offsets.append(1 + (window - 1) * rng.unit()) }
            offsets.sort()
            var last = transition.tNs
            var level = transition.level
            for offset in offsets {
                let t = transition.tNs + UInt64(offset)
                // Toggles closer than 1 ns cannot be told apart; drop them in pairs to end at the
                // transition's level.
                guard t > last else { continue }
                level ^= 1
                records.append(KnobTraceRecord(tNs: t, line: transition.line, level: level))
                last = t
            }
            if level != transition.level {
                // An odd number survived; drop the last toggle so the line settles where it should.
                records.removeLast()
            }
        }
        return records
    }
}

extension KnobTraceRecord {
    fileprivate init(tNs: UInt64, line: KnobLine, level: Int) {
        self.init(tNs: tNs, line: line, value: level)
    }
}
