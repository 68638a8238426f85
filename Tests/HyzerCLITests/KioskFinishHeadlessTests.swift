import Foundation
import HyzerKit
import HyzerStore
import Testing

/// Issue 9 item 2 at the real kiosk with no display: "Finish round now" names who is
/// missing which holes and asks; "Keep scoring" goes back; confirming finishes. Then a
/// round started by mistake is discarded from the menu.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskFinishHeadlessTests` also copies
/// `finish.png` and `discard.png` there.
@Suite(.serialized) struct KioskFinishHeadlessTests {
    /// The demo round: Nate, Mike and Jake through hole 6 of Riverside Nine.
    static let script = """
        expect-screen board
        long-press
        expect-screen menu
        turn 1                # Enter scores, Finish round now
        press
        expect-screen finish  # three players, holes 7–9, will be DNF
        snapshot finish
        turn 1                # Keep scoring
        press
        expect-screen hole-7
        long-press
        long-press
        turn 1
        press
        expect-screen finish
        press                 # Finish round
        expect-screen summary
        press
        expect-screen board
        press                 # start a round by mistake
        expect-screen setup-course
        turn 2                # Riverside Nine
        press
        expect-screen setup-players
        press                 # Same group as last time: the cursor moves to Start round
        press
        expect-screen confirm-round
        press                 # the card: Start round
        expect-screen hole-1
        long-press
        long-press
        expect-screen menu
        turn 1                # Enter scores, Discard this round
        press
        expect-screen discard
        snapshot discard
        press
        expect-screen board   # the last round's card again

        """

    @Test func finishAsksThenAnEmptyRoundIsDiscarded() async throws {
        let journey = try await HeadlessJourney.demo("finish", players: 3, holesPlayed: 6)
        defer { journey.remove() }
        let images = try await journey.play(Self.script)

        let db = try HyzerDatabase(directory: journey.dir)
        let roundID = journey.roundID
        // The demo round finished with its players DNF; the mistaken one discarded: completed,
        // empty, and not in history.
        #expect(try await db.read(.history()).map(\.id) == [roundID])
        #expect(try await db.read(.snapshot(round: roundID)).standings.rows.allSatisfy { $0.status == .dnf })
        #expect(try await db.read(.activeRounds).isEmpty)

        try HeadlessJourney.check(["finish", "discard"], in: images)
    }
}
