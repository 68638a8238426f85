import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 35 from the command line: reopen, correct, restore, remove and merge, each
/// recorded as done from the command line and shown by `hyzer history --json`; bad input
/// gets a clear message, a non-zero exit, and nothing is changed.
@Suite struct UndoCommandTests {
    struct Action: Decodable {
        var kind: String
        var deviceID: String
        var authority: String
        var text: String
    }
    struct Line: Decodable {
        var id: UUID
        var players: [String]
        var playerIDs: [UUID]
        var actions: [Action]
        var correctedCells: Int
    }
    struct Listed: Decodable {
        var id: UUID
        var name: String
        var removed: Bool?
        var mergedInto: UUID?
        var action: Action?
    }

    /// `hyzer` on the data directory `dir`.
    static func hyzer(_ args: [String], _ dir: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try await Binary.run("hyzer", args + ["--data", dir.path])
        return (run.status, run.stdout, run.stderr)
    }

    @Test func undoFromTheCommandLineIsAttributedAndShownInHistory() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-undo-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        for name in ["Ana", "Ben", "Benny"] { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let started = try await hyzer(["round", "start", "--course", "Riverside Nine", "--players", "Ana,Ben", "--no-sync"])
        #expect(started.status == 0, "\(started.stderr)")
        let roundID = try #require(started.stdout.split(separator: "\n").last.map(String.init))
        for hole in 1...9 {
            for who in ["Ana", "Ben"] {
                #expect(try await hyzer(["score", roundID, who, "\(hole)", "3", "--no-sync"]).status == 0)
            }
        }
        #expect(try await hyzer(["round", "finish", roundID, "--no-sync"]).status == 0)

        // A plain score is refused after the finish; a correction is taken and marked.
        #expect(try await hyzer(["score", roundID, "Ben", "4", "5", "--no-sync"]).status != 0)
        let corrected = try await hyzer(["round", "correct", roundID, "Ben", "4", "5", "--no-sync"])
        #expect(corrected.status == 0, "\(corrected.stderr)")
        // Reopen, and finish again.
        let reopened = try await hyzer(["round", "reopen", roundID, "--no-sync"])
        #expect(reopened.status == 0, "\(reopened.stderr)")
        #expect(reopened.stdout.contains("awaitingFinalization"), "\(reopened.stdout)")
        #expect(try await hyzer(["round", "finish", roundID, "--no-sync"]).status == 0)
        let bad = try await hyzer(["round", "reopen", "not-a-round"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("is not a round id"), "\(bad.stderr)")

        // Merge Benny into Ben, remove Ana; Ana keeps her round.
        #expect(try await hyzer(["player", "merge", "Benny", "Ben"]).status == 0)
        #expect(try await hyzer(["player", "remove", "Ana"]).status == 0)
        let again = try await hyzer(["player", "remove", "Ana"])
        #expect(again.status != 0)
        let all = try JSONDecoder().decode(
            [Listed].self, from: Data(try await hyzer(["player", "list", "--all", "--json"]).stdout.utf8))
        #expect(all.first { $0.name == "Ana" }?.removed == true)
        #expect(all.first { $0.name == "Ana" }?.action?.authority == "commandLine")
        #expect(all.first { $0.name == "Benny" }?.mergedInto == all.first { $0.name == "Ben" }?.id)
        let roster = try await hyzer(["player", "list"])
        #expect(roster.stdout.contains("Ben") && !roster.stdout.contains("Ana") && !roster.stdout.contains("Benny"))

        let history = try await hyzer(["history", "--json"])
        #expect(history.status == 0, "\(history.stderr)")
        let line = try #require(try JSONDecoder().decode([Line].self, from: Data(history.stdout.utf8)).first)
        #expect(line.players == ["Ana", "Ben"])
        #expect(line.correctedCells == 1)
        #expect(line.actions.map(\.kind) == ["reopened"])
        #expect(line.actions.first?.authority == "commandLine")
        #expect(line.actions.first?.text.contains("from the command line") == true)

        // Delete a course, list it as deleted, restore it by name.
        #expect(try await hyzer(["course", "delete", "Riverside Nine"]).status == 0)
        let deleted = try await hyzer(["course", "list", "--deleted"])
        #expect(deleted.stdout.contains("Riverside Nine"), "\(deleted.stdout)")
        #expect(deleted.stdout.contains("Deleted"), "\(deleted.stdout)")
        let missing = try await hyzer(["course", "restore", "Nowhere Park"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no deleted course is named Nowhere Park"), "\(missing.stderr)")
        let restored = try await hyzer(["course", "restore", "riverside nine"])
        #expect(restored.status == 0, "\(restored.stderr)")
        #expect(try await hyzer(["course", "list"]).stdout.contains("Riverside Nine"))
        #expect(try await hyzer(["course", "list", "--deleted"]).stdout.isEmpty)
    }

    /// `hyzer round undo-score`: the kiosk's Undo from the command line. The cell gets back
    /// what it had; a score this device did not save, or that changed since, is refused.
    @Test func aScoreSavedHereIsWithdrawnAndAnythingElseIsRefused() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-undo-score-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        for name in ["Ana", "Ben"] { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let started = try await hyzer(["round", "start", "--course", "Riverside Nine", "--players", "Ana,Ben", "--no-sync"])
        let roundID = try #require(started.stdout.split(separator: "\n").last.map(String.init))
        #expect(try await hyzer(["score", roundID, "Ana", "1", "3", "--no-sync"]).status == 0)
        #expect(try await hyzer(["score", roundID, "Ana", "1", "6", "--no-sync"]).status == 0)
        #expect(try await hyzer(["score", roundID, "Ben", "1", "4", "--no-sync"]).status == 0)
        let back = try await hyzer(["round", "undo-score", roundID, "Ana", "1", "6", "--no-sync"])
        #expect(back.status == 0, "\(back.stderr)")
        #expect(back.stdout.contains("withdrew Ana's 6 on hole 1 (now 3)"), "\(back.stdout)")
        let empty = try await hyzer(["round", "undo-score", roundID, "Ben", "1", "4", "--no-sync"])
        #expect(empty.stdout.contains("(no score now)"), "\(empty.stdout)")
        // Not the value saved: refused, said why, nothing written.
        let wrong = try await hyzer(["round", "undo-score", roundID, "Ana", "1", "5", "--no-sync"])
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("changed since"), "\(wrong.stderr)")
        let db = try HyzerDatabase(directory: dir)
        let snapshot = try await db.read(.snapshot(round: UUID(uuidString: roundID)!))
        let (ana, ben) = (snapshot.round.participants[0].id, snapshot.round.participants[1].id)
        #expect(snapshot.scorecard.value(participant: ana, hole: 1) == 3)
        #expect(snapshot.scorecard.value(participant: ben, hole: 1) == nil)
        #expect(snapshot.events.filter(\.isRetraction).count == 2)
        let standings = try await hyzer(["standings", roundID])
        #expect(standings.status == 0)
    }

    /// `hyzer round start --start-hole`: a card's shotgun start (issue 36); a hole off the
    /// course is refused with why, and no round is made.
    @Test func aRoundStartsOnTheHoleGivenOrNotAtAll() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-shotgun-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Self.hyzer(["init"], dir).status == 0)
        #expect(try await Self.hyzer(["player", "add", "Ana"], dir).status == 0)
        let off = try await Self.hyzer(
            ["round", "start", "--course", "Riverside Nine", "--players", "Ana", "--start-hole", "12", "--no-sync"], dir)
        #expect(off.status != 0)
        #expect(off.stderr.contains("a round on 9 holes cannot start on hole 12"), "\(off.stderr)")
        let started = try await Self.hyzer(
            ["round", "start", "--course", "Riverside Nine", "--players", "Ana", "--start-hole", "7", "--no-sync"], dir)
        #expect(started.status == 0, "\(started.stderr)")
        let db = try HyzerDatabase(directory: dir)
        let rounds = try await db.read(.activeRounds)
        #expect(rounds.map(\.startHole) == [7])
    }
}
