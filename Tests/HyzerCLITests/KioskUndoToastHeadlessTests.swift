import Foundation
import HyzerKit
import HyzerStore
import Testing

/// Issue 35's "Undo" toast at the real kiosk with no display: a score saved on the wrong
/// player is undone with a long press while the toast shows (the cell is empty again, by
/// a retraction in the store), and a player made by mistake in round setup comes off the
/// roster the same way, said to be undone right after.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskUndoToastHeadlessTests` also
/// copies `undo-toast.png`, `undone.png` and `setup-undo-toast.png` there.
@Suite(.serialized) struct KioskUndoToastHeadlessTests {
    static let script = """
        expect-screen board
        press                 # the card of the hole being played, on its first player
        expect-screen hole-3
        press
        expect-screen entry-hole-3
        turn 1
        press                 # saved: the toast offers the undo
        expect-screen hole-3
        snapshot undo-toast
        long-press            # undone: the cell is empty again
        expect-screen hole-3
        snapshot undone
        wait 5000
        long-press            # no toast now: back to the board
        expect-screen board
        long-press
        expect-screen menu
        turn 99
        turn -9               # Start a new round (then Reduce motion, History, Stats, Join, Status, Courses, Players, League night, Back)
        press
        expect-screen setup-course
        press
        expect-screen setup-players
        turn 99
        turn -1               # Add a player
        press
        expect-screen name-entry
        type Nathan
        key enter
        expect-screen setup-players
        snapshot setup-undo-toast
        long-press            # Nathan comes off the draft and the roster
        expect-screen setup-players

        """

    @Test func aScoreAndAPlayerMadeByMistakeAreUndoneWithALongPress() async throws {
        let journey = try await HeadlessJourney.demo("toast", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        let db = try HyzerDatabase(directory: journey.dir)
        let roundID = journey.roundID
        let before = try await db.read(.snapshot(round: roundID))
        let first = before.round.participants[0].id
        #expect(before.scorecard.value(participant: first, hole: 3) == nil)

        let images = try await journey.play(Self.script)

        let after = try await db.read(.snapshot(round: roundID))
        #expect(after.scorecard.value(participant: first, hole: 3) == nil)
        // Nothing was deleted: the save and its retraction are both in the log.
        let cellEvents = after.events.filter { $0.participantID == first && $0.hole == 3 }
        #expect(cellEvents.map(\.isRetraction) == [false, true])
        #expect(cellEvents.allSatisfy { $0.deviceID == db.deviceID })
        // Nathan was made, then taken off the roster, said to be undone right after.
        #expect(try await db.read(.players).contains { $0.displayName == "Nathan" } == false)
        let nathan = try #require(try await db.read(.allPlayers).first { $0.player.displayName == "Nathan" })
        #expect(nathan.retirement?.action?.kind == .playerRemoved)
        #expect(nathan.retirement?.action?.authority == .undoToast)
        try HeadlessJourney.check(["undo-toast", "undone", "setup-undo-toast"], in: images)
    }
}
