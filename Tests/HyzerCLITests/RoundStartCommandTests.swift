import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 14 item 5: `hyzer course list [--json]` and `hyzer round start --course C --players
/// A,B [--guest NAME ...]`, by id or name, with bad input refused and nothing saved.
@Suite struct RoundStartCommandTests {
    struct ListedCourse: Decodable {
        var id: UUID
        var name: String
        var holes: Int
        var par: Int
        var pars: [Int]
    }

    @Test func aRoundStartsWithPlayersAndGuestsOnACourseNamedByName() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-round-start-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Binary.run("hyzer", ["init", "--data", dir.path]).status == 0)
        for name in ["Ana", "Ben"] {
            #expect(try await Binary.run("hyzer", ["player", "add", name, "--data", dir.path]).status == 0)
        }
        let listed = try await Binary.run("hyzer", ["course", "list", "--json", "--data", dir.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let courses = try JSONDecoder().decode([ListedCourse].self, from: Data(listed.stdout.utf8))
        let riverside = try #require(courses.first { $0.name == "Riverside Nine" }, "\(courses.map(\.name))")
        #expect(riverside.holes == 9 && riverside.pars.count == 9 && riverside.par == riverside.pars.reduce(0, +))

        let started = try await Binary.run(
            "hyzer",
            [
                "round", "start", "--course", "riverside nine", "--players", "ben, Ana", "--guest", "Marcus",
                "--guest", "Marcus", "--data", dir.path,
            ])
        #expect(started.status == 0, "\(started.stderr)")
        let roundID = try #require(started.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })
        let store = try HyzerDatabase(directory: dir)
        let round = try #require(try await store.read(.round(id: roundID)))
        #expect(round.status == .active && round.courseID == riverside.id)
        #expect(round.participants.map(\.name) == ["Ben", "Ana", "Marcus", "Marcus"])
        #expect(round.participants.filter(\.isGuest).count == 2)
        #expect(Set(round.participants.map(\.id)).count == 4, "two guests of one name are two people")
        let ben = try #require(try await store.read(.players).first { $0.displayName == "Ben" })
        #expect(round.organizerID == ben.id, "the first player named organizes")

        // By id, guests only.
        let byID = try await Binary.run(
            "hyzer", ["round", "start", "--course", riverside.id.uuidString, "--guest", "Walk Up", "--data", dir.path])
        #expect(byID.status == 0, "\(byID.stderr)")

        let rounds = try await store.read(.activeRounds).count
        for (arguments, message) in [
            (["--course", "Nowhere", "--players", "Ana"], "no course is called \"Nowhere\""),
            (["--course", "Riverside Nine", "--players", "Zed"], "no registered player is called \"Zed\""),
            (["--course", "Riverside Nine", "--players", "Ana,ana"], "Ana is named twice"),
            (["--course", "Riverside Nine"], "a round needs at least one player"),
            (["--course", "Riverside Nine", "--guest", "  "], "guest"),
        ] {
            let refused = try await Binary.run("hyzer", ["round", "start"] + arguments + ["--data", dir.path])
            #expect(refused.status != 0, "\(arguments)")
            #expect(refused.stderr.contains(message), "\(arguments): \(refused.stderr)")
        }
        #expect(try await store.read(.activeRounds).count == rounds, "the refused starts saved nothing")

        // `hyzer round finish` without a round finishes the newest active one: the guests' round.
        let newest = try #require(try await store.read(.activeRounds).first)
        let finished = try await Binary.run("hyzer", ["round", "finish", "--no-sync", "--data", dir.path])
        #expect(finished.status == 0, "\(finished.stderr)")
        #expect(try await store.read(.round(id: newest.id))?.status == .completed)
        #expect(try await store.read(.round(id: roundID))?.status == .active, "the older round plays on")
    }
}
