import Testing

@testable import KioskHardware

@Suite("Trace generator")
struct TraceGeneratorTests {
    @Test func sameSeedSameTraceOtherSeedOtherTrace() throws {
        let options = TraceGeneratorOptions(
            detents: 200, rateHz: 300, bounceUs: 800, wiggle: 0.2, seed: 7, presses: 2, longPresses: 1)
        let a = try TraceGenerator.generate(options)
        let b = try TraceGenerator.generate(options)
        #expect(a.records == b.records)
        #expect(a.truth == b.truth)
        var other = options
        other.seed = 8
        #expect(try TraceGenerator.generate(other).records != a.records)
    }

    @Test func recordsAreOrderedAndEachLineAlternates() throws {
        let trace = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 500, rateHz: 1000, bounceUs: 1000, wiggle: 0.3, presses: 3, longPresses: 2))
        #expect(zip(trace.records, trace.records.dropFirst()).allSatisfy { $0.tNs < $1.tNs })
        var levels: [KnobLine: Int] = [.a: 1, .b: 1, .sw: 1]
        for record in trace.records {
            #expect(record.value != levels[record.line], "every record is a real level change")
            levels[record.line] = record.value
        }
        #expect(levels == [.a: 1, .b: 1, .sw: 1], "ends at rest with the switch open")
    }

    @Test func chatterIsThereAndBoundedByTheBounceTime() throws {
        let clean = try TraceGenerator.generate(TraceGeneratorOptions(detents: 300, rateHz: 100, bounceUs: 0, wiggle: 0))
        #expect(clean.records.count == 300 * 4)
        let noisy = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 300, rateHz: 100, bounceUs: 1000, wiggle: 0, turn: .cw))
        #expect(noisy.records.count > 2 * clean.records.count)
        // Turning one way, A and B transitions alternate, so a run of records on one line is one
        // transition and its chatter, which must fit in the 1 ms bounce window.
        var burstStart: [KnobLine: UInt64] = [:]
        var previousLine: KnobLine?
        for record in noisy.records {
            if record.line != previousLine { burstStart[record.line] = record.tNs }
            #expect(record.tNs - burstStart[record.line]! <= 1_000_000)
            previousLine = record.line
        }
    }

    /// The decoder gets every generated detent exactly: same direction, same completing edge.
    @Test(arguments: [(QuadratureMode.full, 100.0), (.full, 500), (.full, 1000), (.half, 100), (.half, 1000)])
    func noisyTracesDecodeExactly(mode: QuadratureMode, rate: Double) throws {
        let options = TraceGeneratorOptions(
            detents: 2000, rateHz: rate, bounceUs: 1000, wiggle: 0.25, seed: UInt64(rate), mode: mode)
        let trace = try TraceGenerator.generate(options)
        let decoded = KnobDecoder.decode(trace.records.map(\.edge), config: KnobConfig(mode: mode))
        #expect(decoded == trace.truth.map(\.event))
        #expect(KnobSummary(decoded) == trace.summary)
    }

    @Test func pressesAndLongPressesDecodeToTheTruth() throws {
        let trace = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 100, rateHz: 200, bounceUs: 1000, seed: 3, presses: 5, longPresses: 3))
        let decoded = KnobDecoder.decode(trace.records.map(\.edge))
        #expect(KnobSummary(decoded) == trace.summary)
        #expect(trace.summary == KnobSummary(cw: trace.summary.cw, ccw: trace.summary.ccw, presses: 8, longPresses: 3))
        #expect(decoded.filter { if case .release = $0 { true } else { false } }.count == 8)
    }

    @Test func turnPlanControlsDirection() throws {
        let cw = try TraceGenerator.generate(TraceGeneratorOptions(detents: 50, turn: .cw))
        #expect(cw.summary == KnobSummary(cw: 50))
        let ccw = try TraceGenerator.generate(TraceGeneratorOptions(detents: 50, turn: .ccw))
        #expect(ccw.summary == KnobSummary(ccw: 50))
    }

    @Test(arguments: [
        TraceGeneratorOptions(detents: -1),
        TraceGeneratorOptions(rateHz: 0),
        TraceGeneratorOptions(bounceUs: -3),
        TraceGeneratorOptions(wiggle: 1.5),
        TraceGeneratorOptions(presses: -1),
    ])
    func rejectsImpossibleOptions(options: TraceGeneratorOptions) {
        #expect(throws: TraceGeneratorError.self) { try TraceGenerator.generate(options) }
    }
}
