import Foundation
import HyzerKit
import HyzerStore
import Testing

/// Issue 35 item 2 at the real kiosk with no display: a finished round's score corrected
/// from history, the round reopened, a deleted course restored from the course list. The
/// first asks for a new organizer code (this kiosk has none), the reopening goes on with it
/// (unlocked until the board), and the restore, after the board, asks for it again. Each is
/// stored as done at this kiosk with the organizer code.
///
/// Then, from the menu's Players, one player entered twice is merged into the other and one
/// is removed from the roster.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskUndoHeadlessTests` also copies
/// `correct-score.png`, `history-round-undo.png`, `reopen-round.png`, `courses-deleted.png`,
/// `restore-course.png`, `players.png`, `merge-player.png` and `remove-player.png` there.
@Suite(.serialized) struct KioskUndoHeadlessTests {
    static let code = KioskFinishHeadlessTests.code

    static let script = """
        expect-screen board
        long-press
        expect-screen menu
        turn 2                # Start a new round, Reduce motion, History
        press
        expect-screen history
        press                 # the round just finished
        expect-screen history-round
        press                 # its winner's holes
        expect-screen history-player
        turn 1                # hole 2
        press
        expect-screen code-choose
        \(Self.code)
        expect-screen code-confirm
        \(Self.code)
        expect-screen correct-hole-2
        turn -1
        snapshot correct-score
        press                 # saved as a correction; the card read again
        expect-screen history-player
        long-press
        expect-screen history-round
        turn 3                # past the three standings: Reopen this round
        snapshot history-round-undo
        press                 # unlocked until the board: no code asked
        expect-screen reopen-round
        snapshot reopen-round
        turn -1               # Reopen round
        press
        expect-screen board
        long-press
        expect-screen menu
        turn 9                # Enter scores, Finish, Paper card, Start, Reduce motion, History, Stats, Join, Status, Courses
        press
        expect-screen courses
        turn 99               # the last row: the deleted course
        snapshot courses-deleted
        press
        expect-screen code    # back on the board since: asked again
        \(Self.code)
        expect-screen restore-course
        snapshot restore-course
        turn -1               # Restore course
        press
        expect-screen courses
        long-press
        expect-screen menu
        turn 10               # ... Status, Courses, Players
        press
        expect-screen players # Jake, Jakey, Mike, Nate
        snapshot players
        turn 1
        press
        expect-screen player-choose
        turn 1                # Merge Jakey into…
        press
        expect-screen player-merge-into
        press                 # Jake (still unlocked: no code)
        expect-screen merge-player
        snapshot merge-player
        turn -1
        press
        expect-screen players # Jake, Mike, Nate
        turn 1
        press
        expect-screen player-choose
        press                 # Remove Mike from the roster
        expect-screen remove-player
        snapshot remove-player
        turn -1
        press
        expect-screen players

        """

    @Test func correctReopenAndRestoreAtTheKioskWithTheCode() async throws {
        let journey = try await HeadlessJourney.demo("undo", players: 3, holesPlayed: 9)
        defer { journey.remove() }
        let db = try HyzerDatabase(directory: journey.dir)
        let roundID = journey.roundID
        _ = try await db.write(.finishRound(roundID))
        let pine = try #require(try await db.read(.courses).first { $0.name == "Pine Hollow" })
        let jakey = try Player(displayName: "Jakey")
        try await db.write(.savePlayer(jakey))
        try await db.write(.deleteCourse(id: pine.id, by: ActionContext(authority: .commandLine)))
        let before = try await db.read(.snapshot(round: roundID))
        let winner = try #require(before.standings.rows.first)
        let was = try #require(before.scorecard.value(participant: winner.participantID, hole: 2))

        let images = try await journey.play(Self.script)

        let after = try await db.read(.snapshot(round: roundID))
        // Corrected one stroke down, marked, and said who did it.
        let cell = after.scorecard.resolution(participant: winner.participantID, hole: 2)
        #expect(cell.value == was - 1)
        #expect(cell.isCorrected)
        #expect(cell.leaves.first?.correction == .organizerCode)
        #expect(cell.leaves.first?.deviceID == db.deviceID)
        // Reopened: in play again (every hole has a value: waiting to be finalized).
        #expect(after.round.status == .awaitingFinalization)
        #expect(after.round.generation == 1)
        #expect(after.round.actions.map(\.kind) == [.reopened])
        #expect(after.round.actions.first?.authority == .organizerCode)
        // Restored, with who restored it.
        #expect(try await db.read(.course(id: pine.id))?.name == "Pine Hollow")
        #expect(try await db.read(.deletedCourses).isEmpty)
        // Jakey is Jake; Mike is off the roster, and his round keeps him.
        let everyone = try await db.read(.allPlayers)
        let jake = try #require(everyone.first { $0.player.displayName == "Jake" })
        #expect(everyone.first { $0.player.id == jakey.id }?.retirement?.mergedInto == jake.player.id)
        #expect(everyone.first { $0.player.displayName == "Mike" }?.retirement?.action?.kind == .playerRemoved)
        #expect(try await db.read(.players).map(\.displayName) == ["Jake", "Nate"])
        #expect(after.round.participants.contains { $0.name == "Mike" })
        try HeadlessJourney.check(
            [
                "correct-score", "history-round-undo", "reopen-round", "courses-deleted", "restore-course", "players",
                "merge-player", "remove-player",
            ], in: images)
    }
}
