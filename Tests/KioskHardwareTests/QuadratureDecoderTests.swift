import HyzerKit
import Testing

@testable import KioskHardware

@Suite("Quadrature decoder")
struct QuadratureDecoderTests {
    static let cwCycle = ["11", "01", "00", "10", "11"]
    static let ccwCycle = ["11", "10", "00", "01", "11"]

    @Test func transitionTableFollowsTheGrayCycle() {
        // Position along the clockwise cycle 11 → 01 → 00 → 10.
        let position: [UInt8: Int] = [0b11: 0, 0b01: 1, 0b00: 2, 0b10: 3]
        for from in UInt8(0)...3 {
            for to in UInt8(0)...3 {
                let entry = QuadratureDecoder.transitionTable[Int(from) << 2 | Int(to)]
                switch (position[to]! - position[from]! + 4) % 4 {
                case 0: #expect(entry == 0)
                case 1: #expect(entry == 1, "\(from) → \(to) is a clockwise step")
                case 3: #expect(entry == -1, "\(from) → \(to) is a counter-clockwise step")
                default: #expect(entry == QuadratureDecoder.invalid, "\(from) → \(to) changes both lines")
                }
            }
        }
    }

    @Test func fullModeCleanClockwiseIsOneDetentAtTheCompletingEdge() {
        let input = edges(Self.cwCycle)
        #expect(detents(input) == [Detent(direction: .clockwise, timestampNs: input.last!.timestampNs)])
        #expect(input.first?.line == .a, "clockwise: A falls first")
    }

    @Test func fullModeCleanCounterClockwise() {
        let input = edges(Self.ccwCycle)
        #expect(detents(input) == [Detent(direction: .counterClockwise, timestampNs: input.last!.timestampNs)])
    }

    @Test func fullModeCountsEveryCycleAndNothingHalfway() {
        let input = edges(Self.cwCycle + Array(Self.cwCycle.dropFirst()) + ["01", "00"])
        #expect(detents(input).map(\.direction) == [.clockwise, .clockwise])
    }

    @Test func halfModeGivesTwoDetentsPerCycle() {
        let cw = edges(Self.cwCycle)
        let result = detents(cw, mode: .half)
        #expect(
            result == [
                Detent(direction: .clockwise, timestampNs: cw[1].timestampNs),
                Detent(direction: .clockwise, timestampNs: cw[3].timestampNs),
            ])
        #expect(detents(edges(Self.ccwCycle), mode: .half).map(\.direction) == [.counterClockwise, .counterClockwise])
    }

    @Test(arguments: QuadratureMode.allCases)
    func bounceOnEveryTransitionCancelsOut(mode: QuadratureMode) {
        // Each transition chatters twice before settling.
        let bouncy = [
            "11", "01", "11", "01", "11", "01",
            "00", "01", "00",
            "10", "00", "10", "00", "10",
            "11", "10", "11",
        ]
        let input = edges(bouncy)
        let expected = mode == .full ? 1 : 2
        let result = detents(input, mode: mode)
        #expect(result.count == expected)
        #expect(result.allSatisfy { $0.direction == .clockwise })
        // The detent is stamped at the first edge that reached the detent position, not a later bounce.
        #expect(result.last?.timestampNs == input[13].timestampNs)
    }

    @Test func reversalMidCycleDoesNotCountInFullMode() {
        #expect(detents(edges(["11", "01", "00", "01", "11"])).isEmpty)
        #expect(detents(edges(["11", "10", "00", "10", "11"])).isEmpty)
        // Three quarters one way, back, then a real detent the other way.
        let input = edges(["11", "01", "00", "10", "00", "01", "11", "10", "00", "01", "11"])
        #expect(detents(input).map(\.direction) == [.counterClockwise])
    }

    @Test func reversalInHalfModeCountsOnlyReachedDetents() {
        // Back to the start before reaching 00: nothing.
        #expect(detents(edges(["11", "01", "11"]), mode: .half).isEmpty)
        // Reaching 00 is a real detent; turning back to 11 is another, the other way.
        #expect(detents(edges(["11", "01", "00", "01", "11"]), mode: .half).map(\.direction) == [.clockwise, .counterClockwise])
    }

    @Test(arguments: QuadratureMode.allCases)
    func wigglingOnADetentNeverSteps(mode: QuadratureMode) {
        let rocking = ["11", "01", "11", "10", "11", "01", "11", "10", "11", "10", "11"]
        #expect(detents(edges(rocking), mode: mode).isEmpty)
        // A deeper wiggle that stays short of the next detent position.
        let deeper =
            mode == .full
            ? ["11", "01", "00", "10", "00", "01", "11", "10", "00", "01", "00", "10", "11"]
            : ["11", "10", "11", "01", "11"]
        #expect(detents(edges(deeper), mode: mode).isEmpty)
    }

    @Test func impossibleJumpsNeverProduceASteps() {
        var decoder = QuadratureDecoder(mode: .full)
        // 11 → 00 changes both lines: direction unknown.
        #expect(decoder.advance(to: state("00"), at: 1) == nil)
        #expect(decoder.isLost)
        #expect(decoder.advance(to: state("10"), at: 2) == nil)
        // Completing the cycle after a jump still does not count…
        #expect(decoder.advance(to: state("11"), at: 3) == nil)
        #expect(!decoder.isLost)
        #expect(decoder.invalidTransitions == 1)
        // …but the next clean cycle does.
        for (t, s) in ["01", "00", "10"].enumerated() { #expect(decoder.advance(to: state(s), at: UInt64(10 + t)) == nil) }
        #expect(decoder.advance(to: state("11"), at: 20) == Detent(direction: .clockwise, timestampNs: 20))
    }

    @Test func jumpAcrossTheCycleMidwayIsDiscarded() {
        var decoder = QuadratureDecoder(mode: .full)
        _ = decoder.advance(to: state("01"), at: 1)
        _ = decoder.advance(to: state("10"), at: 2)  // 01 → 10: both lines
        #expect(decoder.advance(to: state("11"), at: 3) == nil)

        // Half mode: +1, a jump (+3 or −1, who knows), +1. Counting only the valid steps gives +2,
        // a whole half-mode detent, but the truth is two detents or none.
        var half = QuadratureDecoder(mode: .half)
        _ = half.advance(to: state("01"), at: 1)
        _ = half.advance(to: state("10"), at: 2)
        #expect(half.advance(to: state("11"), at: 3) == nil)
    }

    @Test func twoJumpsThatLineUpIntoAFullCycleStillDoNotCount() {
        // Valid steps add up to exactly +4 back at rest, but two jumps of unknown direction
        // happened in between: the knob turned 0, 1 or 2 detents.
        var decoder = QuadratureDecoder(mode: .full)
        var found: [Detent] = []
        for (t, s) in ["01", "00", "10", "01", "00", "10", "01", "11"].enumerated() {
            if let d = decoder.advance(to: state(s), at: UInt64(t)) { found.append(d) }
        }
        #expect(found.isEmpty)
        #expect(decoder.invalidTransitions == 2)
    }

    @Test func repeatedLevelsFromLostEdgesAreIgnored() {
        var decoder = QuadratureDecoder()
        let cw = edges(Self.cwCycle)
        var found: [Detent] = []
        for edge in cw {
            if let d = decoder.feed(edge) { found.append(d) }
            // The same level again: the opposite edge in between was lost. No movement.
            if let d = decoder.feed(EdgeEvent(line: edge.line, level: edge.level, timestampNs: edge.timestampNs + 1)) {
                found.append(d)
            }
        }
        #expect(found.map(\.direction) == [.clockwise])
        #expect(decoder.invalidTransitions == 0)
    }

    @Test func switchEdgesDoNotMoveTheEncoder() {
        var decoder = QuadratureDecoder()
        #expect(decoder.feed(EdgeEvent(line: .sw, level: 0, timestampNs: 5)) == nil)
        #expect(decoder.state == .rest)
    }

    @Test func swapDirectionReversesBothWays() {
        #expect(detents(edges(Self.cwCycle), swap: true).map(\.direction) == [.counterClockwise])
        #expect(detents(edges(Self.ccwCycle), mode: .half, swap: true).map(\.direction) == [.clockwise, .clockwise])
    }

    @Test func startingBetweenDetentsIgnoresThatFirstPartialCycle() {
        // Powered up while the knob was mid-turn at 00: the rest of that cycle cannot be trusted.
        let input = edges(["00", "10", "11", "01", "00", "10", "11"])
        #expect(detents(input, initial: state("00")).map(\.timestampNs) == [input.last!.timestampNs])
    }

    /// For any walk of single-line steps, the net detents equal the winding number at the last
    /// visit to a detent position, divided by the steps per detent: no phantom, no miss.
    @Test(arguments: QuadratureMode.allCases)
    func randomWalksDecodeToTheirWinding(mode: QuadratureMode) {
        var rng = SeededGenerator(seed: 42)
        let cycle = [state("11"), state("01"), state("00"), state("10")]
        for _ in 0..<200 {
            var decoder = QuadratureDecoder(mode: mode)
            var position = 0
            var windingAtLastRest = 0
            var net = 0
            for t in 0..<rng.int(in: 1...300) {
                position += rng.unit() < 0.55 ? 1 : -1
                let s = cycle[((position % 4) + 4) % 4]
                if let d = decoder.advance(to: s, at: UInt64(t)) { net += d.direction.step }
                if mode.isDetentPosition(s) { windingAtLastRest = position }
            }
            #expect(net * mode.quarterStepsPerDetent == windingAtLastRest)
        }
    }
}
