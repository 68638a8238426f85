import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 35 item 3 at the real kiosk with no display: a round scored on paper (three players,
/// Riverside Nine) typed in through "Enter a paper card", a press a hole from par, one hole
/// gone back to with a long press and changed; the store then holds the card exactly, and
/// the round waits to be finalized.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskPaperCardHeadlessTests` also
/// copies `paper-card.png` there.
@Suite(.serialized) struct KioskPaperCardHeadlessTests {
    @Test func aPaperCardGoesInPlayerByPlayer() async throws {
        let journey = try await HeadlessJourney.demo("paper", players: 3, holesPlayed: 0)
        defer { journey.remove() }
        let store = try HyzerDatabase(directory: journey.dir)
        let pars = try await store.read(.snapshot(round: journey.roundID)).course.pars
        #expect(pars.count == 9)
        // Each player's strokes from par, hole by hole.
        let offsets = [[0, 1, 0, -1, 0, 2, 0, 1, 0], [1, 0, 0, 0, 1, 1, 0, -1, 0], [0, 0, 1, 0, 0, 0, 2, 0, 1]]
        var script = """
            expect-screen board
            long-press
            expect-screen menu
            turn 2                # Enter scores, Discard this round, Enter a paper card
            press
            expect-screen paper-card

            """
        for (player, row) in offsets.enumerated() {
            for (hole, offset) in row.enumerated() {
                if offset != 0 { script += "turn \(offset)\n" }
                if player == 0 && hole == 5 { script += "snapshot paper-card\n" }
                script += "press\n"
            }
            if player == 0 {
                // Back to the first player's last hole from the second's first, and a stroke off it.
                script += "long-press\nturn -1\npress\n"
            }
        }
        script += "expect-screen board\n"
        let images = try await journey.play(script)
        try HeadlessJourney.check(["paper-card"], in: images)

        let snapshot = try await store.read(.snapshot(round: journey.roundID))
        var expected = offsets.map { zip($0, pars).map { $0 + $1 } }
        expected[0][8] -= 1
        for (index, participant) in snapshot.round.participants.enumerated() {
            #expect((1...9).map { snapshot.scorecard.value(participant: participant.id, hole: $0) } == expected[index])
        }
        #expect(snapshot.round.status == .awaitingFinalization)
        #expect(snapshot.scorecard.discrepancies.isEmpty, "one kiosk's corrections supersede, never dispute")
    }
}
