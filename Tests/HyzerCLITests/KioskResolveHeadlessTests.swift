import Foundation
import HyzerKit
import HyzerStore
import Testing

/// Issue 9 item 1 at the real kiosk with no display: two scores another device disagreed
/// with show as a badge on the board and the hole card; one is settled from its row on the
/// hole card, the other from the menu's "Check N scores"; the badge is gone after.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskResolveHeadlessTests` also copies
/// the journey's images there (how the resolve pictures in docs/screens were made).
@Suite(.serialized) struct KioskResolveHeadlessTests {
    /// The journey, in the script format of docs/kiosk-script-format.md. The demo round has
    /// Nate, Mike and Jake through hole 2; a phone disagrees with Nate and Mike on hole 2.
    static let script = """
        expect-screen board
        snapshot board-check-badge
        press                 # the card of hole 3, the one being played
        expect-screen hole-3
        turn -3               # back past its first row: hole 2, Nate
        expect-screen hole-2
        snapshot hole-card-check-badge
        press                 # Nate's hole 2 is disputed: settle it, not re-enter it
        expect-screen resolve
        snapshot resolve
        turn 1                # one stroke more than what counts now
        press                 # settled: Mike's hole 2 is next
        expect-screen resolve
        long-press            # not now: back to the card
        expect-screen hole-2
        long-press
        expect-screen board
        long-press
        expect-screen menu
        turn 1                # Enter scores, Check 1 score
        snapshot menu-check-scores
        press
        expect-screen resolve
        press                 # keep the value that counts
        expect-screen board   # nothing left to check
        snapshot board-all-checked

        """

    @Test func settlingBothDisputesFromTheHoleCardAndTheMenu() async throws {
        let journey = try await HeadlessJourney.demo("resolve", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        let (dir, roundID) = (journey.dir, journey.roundID)

        // A phone's statements on hole 2, a stroke off the kiosk's, as a sync would bring them.
        let phoneDevice = "5e1f0c2a-phone"
        do {
            let db = try HyzerDatabase(directory: dir)
            let snapshot = try await db.read(.snapshot(round: roundID))
            let disputed = snapshot.round.participants.prefix(2).map { participant in
                ScoreEvent(
                    roundID: roundID, participantID: participant.id, hole: 2,
                    strokes: snapshot.scorecard.value(participant: participant.id, hole: 2)! + 1,
                    reportedBy: participant.id, deviceID: phoneDevice, createdAt: db.clock.date)
            }
            _ = try await db.write(.importEvents(disputed))
            #expect(try await db.read(.snapshot(round: roundID)).scorecard.discrepancies.count == 2)
        }
        let before = try await HyzerDatabase(directory: dir).read(.snapshot(round: roundID))
        let nate = before.round.participants[0].id
        let mike = before.round.participants[1].id
        let nateCounting = try #require(before.scorecard.value(participant: nate, hole: 2))
        let mikeCounting = try #require(before.scorecard.value(participant: mike, hole: 2))

        let images = try await journey.play(Self.script)

        // Two resolutions, each superseding both statements of its cell; nothing left open.
        let after = try await HyzerDatabase(directory: dir).read(.snapshot(round: roundID))
        #expect(after.scorecard.discrepancies.isEmpty)
        let resolutions = after.events.filter(\.isResolution)
        #expect(resolutions.count == 2)
        for resolution in resolutions {
            let cell = before.scorecard.resolution(participant: resolution.participantID, hole: 2)
            #expect(Set(resolution.supersedes) == Set(cell.leaves.map(\.id)))
        }
        #expect(after.scorecard.value(participant: nate, hole: 2) == nateCounting + 1, "turned one up, then pressed")
        #expect(after.scorecard.value(participant: mike, hole: 2) == mikeCounting, "pressed as it was")

        try HeadlessJourney.check(
            ["board-check-badge", "hole-card-check-badge", "resolve", "menu-check-scores", "board-all-checked"], in: images)
        // The badge sits at the right end of the board's footer: there the board with two
        // open differs from the board with none, pixel by pixel.
        let badge = try PNGImage(
            contentsOf: URL(fileURLWithPath: images.first { $0.hasSuffix("-board-check-badge.png") }!))
        let clear = try PNGImage(
            contentsOf: URL(fileURLWithPath: images.first { $0.hasSuffix("-board-all-checked.png") }!))
        let differing = HeadlessJourney.differingPixels(badge, clear, x: 1000..<1270, y: 650..<720)
        #expect(differing > 500, "no badge at the footer's right (\(differing) pixels differ)")

    }
}
