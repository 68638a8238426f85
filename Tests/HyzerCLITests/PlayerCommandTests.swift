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
}
