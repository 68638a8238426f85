import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 14 item 5: `hyzer player list --json` and `hyzer player rename`, with bad input
/// refused by a clear message, a non-zero exit, and nothing saved.
@Suite struct PlayerCommandTests {
    struct Listed: Decodable, Equatable {
        var id: UUID
        var name: String
        var aliases: [String]
    }

    @Test func renameByNameOrIdKeepsPlayedRoundsAndRefusesBadNames() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-player-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Binary.run("hyzer", ["init", "--data", dir.path]).status == 0)
        for name in ["Ana", "Ben"] {
            let added = try await Binary.run("hyzer", ["player", "add", name, "--data", dir.path, "--alias", "\(name)ny"])
            #expect(added.status == 0, "\(added.stderr)")
        }
        // A round played under the old names.
        let roundID = try {
            let store = try HyzerDatabase(directory: dir)
            let course = try #require(try store.read(.courses).first)
            let players = try store.read(.players)
            let round = try store.write(
                .createRound(
                    courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
            return try store.write(.startRound(round.id)).id
        }()

        func list() async throws -> [Listed] {
            let run = try await Binary.run("hyzer", ["player", "list", "--json", "--data", dir.path])
            #expect(run.status == 0, "\(run.stderr)")
            return try JSONDecoder().decode([Listed].self, from: Data(run.stdout.utf8))
        }
        let before = try await list()
        let ana = try #require(before.first { $0.name == "Ana" })
        #expect(ana.aliases == ["Anany"])

        let renamed = try await Binary.run("hyzer", ["player", "rename", "ana", "Anna", "--data", dir.path])
        #expect(renamed.status == 0, "\(renamed.stderr)")
        #expect(renamed.stdout.hasSuffix(ana.id.uuidString + "\n"), "the id last: \(renamed.stdout)")
        let byID = try await Binary.run("hyzer", ["player", "rename", ana.id.uuidString, "Anna K", "--data", dir.path])
        #expect(byID.status == 0, "\(byID.stderr)")
        let after = try await list()
        #expect(after.first { $0.id == ana.id } == Listed(id: ana.id, name: "Anna K", aliases: ["Anany"]))
        #expect(after.count == before.count, "renamed, not added")

        let store = try HyzerDatabase(directory: dir)
        let round = try #require(try await store.read(.round(id: roundID)))
        #expect(round.participants.contains { $0.name == "Ana" }, "the played round keeps the name it was played under")

        for (arguments, message) in [
            (["Ben", "anna k"], "a player named Anna K is already registered"),
            (["Ben", "   "], "display name"),
            (["Ben", String(repeating: "x", count: 41)], "at most 40 characters"),
            (["Zed", "Zeddy"], "no registered player is called \"Zed\""),
            ([UUID().uuidString, "Zeddy"], "no registered player has the id"),
        ] {
            let refused = try await Binary.run("hyzer", ["player", "rename"] + arguments + ["--data", dir.path])
            #expect(refused.status != 0, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        #expect(try await list() == after, "nothing was saved by the refused renames")
    }

    /// Issue 38: `hyzer player aliases` sets what voice may hear for a player after the
    /// fact, replaces the list, clears it with none, and refuses an alias longer than a name
    /// (nothing saved).
    @Test func aliasesAreSetReplacedClearedAndALongOneRefused() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-player-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            let run = try await Binary.run("hyzer", args + ["--data", dir.path])
            return (run.status, run.stdout, run.stderr)
        }
        func aliases() async throws -> [String] {
            let listed = try JSONDecoder().decode(
                [Listed].self, from: Data(try await hyzer(["player", "list", "--json"]).stdout.utf8))
            return try #require(listed.first { $0.name == "Sarah" }).aliases
        }
        #expect(try await hyzer(["init"]).status == 0)
        #expect(try await hyzer(["player", "add", "Sarah"]).status == 0)
        let set = try await hyzer(["player", "aliases", "sarah", "S-Dog", "Sara B"])
        #expect(set.status == 0 && set.stdout.contains("may be heard as S-Dog, Sara B"), "\(set.stderr)")
        #expect(try await aliases() == ["S-Dog", "Sara B"])
        #expect(try await hyzer(["player", "aliases", "Sarah", "Sassy"]).status == 0)
        #expect(try await aliases() == ["Sassy"])
        let long = try await hyzer(["player", "aliases", "Sarah", String(repeating: "x", count: 41)])
        #expect(long.status != 0 && long.stderr.contains("at most 40 characters"), "\(long.stderr)")
        #expect(try await aliases() == ["Sassy"], "a refused alias saves nothing")
        #expect(try await hyzer(["player", "aliases", "Sarah"]).stdout.contains("no aliases now"))
        #expect(try await aliases() == [])
        #expect(try await hyzer(["player", "aliases", "Nobody", "X"]).status != 0)
    }
}
