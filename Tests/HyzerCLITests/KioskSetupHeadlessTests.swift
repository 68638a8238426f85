import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 14 item 2 with the real binaries: round setup at a headless kiosk with a walk-up
/// guest, a new player, a taken name that picks the registered player, the card before the
/// start; then, the round finished, "same group as last time" in one press.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskSetupHeadlessTests` also copies
/// `setup-guests.png`, `confirm-round.png`, `board-guest.png` and `setup-same-group.png` there.
@Suite(.serialized) struct KioskSetupHeadlessTests {
    @Test func guestsNewPlayersAndTheSameGroupAgain() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-setup-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["init"], ["player", "add", "Ana"], ["player", "add", "Ben"]] {
            #expect(try await Binary.run("hyzer", args + ["--data", dir.path]).status == 0)
        }
        let first = try await HeadlessJourney.play(
            """
            press                 # start a round
            turn 2                # Riverside Nine
            press
            expect-screen setup-players
            press                 # Ana
            turn 3                # Add a player
            press
            type ben
            key enter             # taken: said once
            expect-screen name-entry
            key enter             # again: picks Ben
            expect-screen setup-players
            turn 1                # Add a guest (the cursor stayed on Add a player)
            press
            type Marcus
            key enter             # the cursor waits on Start round
            turn 1                # Add a player
            press
            type Chiara
            key enter             # Chiara's row comes in above: the cursor still on Start round
            expect-screen setup-players
            snapshot setup-guests
            press
            expect-screen confirm-round
            snapshot confirm-round
            press
            expect-screen hole-1
            press                 # Ana: par
            press
            wait 5000             # the Undo toast goes (until then a long press undoes)
            long-press            # the hole card back to the board
            expect-screen board
            snapshot board-guest
            """, in: dir, name: "first")
        try HeadlessJourney.check(["setup-guests", "confirm-round", "board-guest"], in: first)

        let db = try HyzerDatabase(directory: dir)
        #expect(try await db.read(.players).map(\.displayName) == ["Ana", "Ben", "Chiara"])
        let round = try #require(try await db.read(.activeRounds).first)
        #expect(round.participants.map(\.name) == ["Ana", "Ben", "Marcus", "Chiara"])
        #expect(round.participants.map(\.kind) == [.registered, .registered, .guest, .registered])

        #expect(try await Binary.run("hyzer", ["round", "finish", "--data", dir.path]).status == 0)
        let again = try await HeadlessJourney.play(
            """
            press                 # start a round
            turn 2
            press
            expect-screen setup-players
            snapshot setup-same-group
            press                 # Same group as last time
            press                 # Start round
            expect-screen confirm-round
            press
            expect-screen hole-1
            """, in: dir, name: "again")
        try HeadlessJourney.check(["setup-same-group"], in: again)
        let second = try #require(try await db.read(.activeRounds).first)
        #expect(second.id != round.id)
        #expect(second.participants.map(\.name) == ["Ana", "Ben", "Marcus", "Chiara"])
        #expect(second.participants[2].id != round.participants[2].id, "the guest is a new guest")
        #expect(second.participants.filter { !$0.isGuest }.map(\.id) == round.participants.filter { !$0.isGuest }.map(\.id))
    }
}
