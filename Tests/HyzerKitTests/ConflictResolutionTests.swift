import Foundation
import Testing

@testable import HyzerKit

@Suite struct ConflictResolutionTests {
    let f: Fixture
    init() throws { f = try Fixture() }

    func resolve(_ events: [ScoreEvent]) -> CellResolution {
        CellResolution.resolve(events[0].cell, events: events)
    }

    @Test func correctionChainOnOneDeviceCountsTheLastLinkSilently() {
        let e1 = f.event(0, hole: 1, 5)
        let e2 = f.event(0, hole: 1, 4, supersedes: [e1])
        let e3 = f.event(0, hole: 1, 3, supersedes: [e2])
        let r = resolve([e1, e2, e3])
        #expect(r.value == 3)
        #expect(r.leaves.map(\.id) == [e3.id])
        #expect(r.discrepancy == nil)
    }

    @Test func threeDevicesAgreeingMergeSilently() {
        let events = ["A", "B", "C"].map { f.event(1, hole: 2, 4, device: $0) }
        let r = resolve(events)
        #expect(r.value == 4)
        #expect(r.leaves.count == 3)
        #expect(r.discrepancy == nil)
    }

    @Test func twentyIdenticalEventsFromManyDevicesRaiseNothing() {
        // NFR20: 20+ concurrent identical events, zero false alerts.
        let events = (0..<24).map { f.event(2, hole: 3, 3, device: "device-\($0 % 6)") }
        let card = f.scorecard(events)
        #expect(card.value(participant: f.ids[2], hole: 3) == 3)
        #expect(card.discrepancies.isEmpty)
    }

    @Test func twoDevicesDisagreeingRaiseOneDiscrepancyWithADeterministicValue() throws {
        let a = f.event(0, hole: 4, 3, device: "A")
        let b = f.event(0, hole: 4, 4, device: "B")
        let r = resolve([a, b])
        let d = try #require(r.discrepancy)
        #expect(d.values == [3, 4])
        #expect(d.kinds == [.disagreeingLeaves])
        #expect(Set(d.eventIDs) == [a.id, b.id])
        // Tie between single leaves: the lower value counts, on every device.
        #expect(r.value == 3)
        #expect(resolve([b, a]).value == 3)
    }

    @Test func majorityOfLeavesCountsWhileDisputed() {
        let r = resolve([
            f.event(0, hole: 1, 5, device: "A"), f.event(0, hole: 1, 4, device: "B"),
            f.event(0, hole: 1, 5, device: "C"),
        ])
        #expect(r.value == 5)
        #expect(r.discrepancy?.values == [4, 5])
    }

    @Test func overrideFromAnotherDeviceIsADiscrepancyAndTheOverrideCounts() {
        let original = f.event(1, hole: 1, 3, device: "A")
        let override = f.event(1, hole: 1, 5, device: "B", supersedes: [original])
        let r = resolve([original, override])
        #expect(r.value == 5)
        #expect(r.discrepancy?.values == [3, 5])
        #expect(r.discrepancy?.kinds == [.crossDeviceOverride])
    }

    @Test func overrideWithTheSameValueFromAnotherDeviceIsSilent() {
        let original = f.event(1, hole: 1, 3, device: "A")
        let r = resolve([original, f.event(1, hole: 1, 3, device: "B", supersedes: [original])])
        #expect(r.value == 3)
        #expect(r.discrepancy == nil)
    }

    @Test func resolutionSupersedesEveryLeafAndClearsTheDiscrepancy() {
        let a = f.event(0, hole: 2, 2, device: "A")
        let b = f.event(0, hole: 2, 4, device: "B")
        let c = f.event(0, hole: 2, 5, device: "C")
        #expect(resolve([a, b, c]).discrepancy?.values == [2, 4, 5])
        let fix = f.event(0, hole: 2, 4, device: "D", supersedes: [a, b, c], resolution: true)
        let r = resolve([a, b, c, fix])
        #expect(r.value == 4)
        #expect(r.discrepancy == nil)
    }

    @Test func resolutionOfAnOverrideRaisesNothingEvenThoughItReplacesAnotherDevice() {
        let original = f.event(1, hole: 1, 3, device: "A")
        let override = f.event(1, hole: 1, 5, device: "B", supersedes: [original])
        let fix = f.event(1, hole: 1, 3, device: "C", supersedes: [override], resolution: true)
        let r = resolve([original, override, fix])
        #expect(r.value == 3)
        #expect(r.discrepancy == nil)
    }

    @Test func aScoreMadeWithoutSeeingTheResolutionReopensTheDisputeButTheResolutionCounts() {
        let a = f.event(0, hole: 5, 3, device: "A")
        let b = f.event(0, hole: 5, 4, device: "B")
        let fix = f.event(0, hole: 5, 4, device: "C", supersedes: [a, b], resolution: true)
        let late = f.event(0, hole: 5, 2, device: "E")
        let r = resolve([a, b, fix, late])
        #expect(r.discrepancy?.values == [2, 4])
        #expect(r.value == 4)
    }

    @Test func arrivalOrderNeverChangesTheAnswer() {
        var rng = SeededGenerator(seed: 99)
        let a = f.event(3, hole: 6, 4, device: "A")
        let b = f.event(3, hole: 6, 3, device: "A", supersedes: [a])
        let c = f.event(3, hole: 6, 5, device: "B")
        let d = f.event(3, hole: 6, 5, device: "C")
        let reference = resolve([a, b, c, d])
        for _ in 0..<50 {
            let shuffled = [a, b, c, d].shuffled(using: &rng)
            let r = resolve(shuffled)
            #expect(r.value == reference.value)
            #expect(r.discrepancy == reference.discrepancy)
            #expect(r.leaves == reference.leaves)
        }
        #expect(reference.value == 5)
        #expect(reference.discrepancy?.values == [3, 5])
    }

    @Test func skewedClocksDoNotMatterOnlyTheChainDoes() {
        // Device A's clock runs hours behind: the correction is "older" than the original.
        let original = f.event(2, hole: 7, 6, device: "A", at: 10_000)
        let correction = f.event(2, hole: 7, 3, device: "A", supersedes: [original], at: -50_000)
        #expect(resolve([original, correction]).value == 3)
        #expect(resolve([correction, original]).value == 3)
    }

    @Test func correctionThatArrivesBeforeItsOriginalStillWins() {
        let original = f.event(0, hole: 8, 4)
        let correction = f.event(0, hole: 8, 3, supersedes: [original])
        #expect(resolve([correction]).value == 3)
        #expect(resolve([correction, original]).value == 3)
    }

    @Test func supersessionCycleIsShownNotHidden() {
        var a = f.event(1, hole: 9, 3, device: "A")
        var b = f.event(1, hole: 9, 4, device: "B")
        a.supersedes = [b.id]
        b.supersedes = [a.id]
        let r = resolve([a, b])
        #expect(r.discrepancy?.values == [3, 4])
    }
}
