import Foundation
import HyzerHarness
import Testing

/// Runs the real `hyzer` binary on the documented examples, as anyone checking the
/// ranking rules from outside would.
@Suite struct ScenarioCommandTests {
    static let scenarios: URL = Bundle.module.resourceURL!.appendingPathComponent("Scenarios")

    static var exampleNames: [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? []
        return files.filter { $0.hasSuffix(".expected.json") }
            .map { String($0.dropLast(".expected.json".count)) }.sorted()
    }

    @Test func examplesExist() {
        #expect(Self.exampleNames.count >= 5)
    }

    @Test(arguments: exampleNames)
    func exampleMatchesExpectedOutput(name: String) async throws {
        let run = try await Binary.run("hyzer", ["standings", Self.scenarios.appendingPathComponent("\(name).json").path])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        let actual = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? NSDictionary
        let expectedData = try Data(contentsOf: Self.scenarios.appendingPathComponent("\(name).expected.json"))
        let expected = try JSONSerialization.jsonObject(with: expectedData) as? NSDictionary
        #expect(actual != nil)
        #expect(actual == expected, "got \(run.stdout)")
    }

    @Test func badInputGetsAClearErrorAndNonZeroExit() async throws {
        let run = try await Binary.run(
            "hyzer", ["standings", Self.scenarios.appendingPathComponent("invalid-strokes.json").path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("strokes 11 outside 1–10"))
        #expect(run.stdout.isEmpty)
    }

    @Test func malformedJSONNamesTheMissingField() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID()).json")
        try Data(#"{"course": {"name": "x", "pars": [3]}, "participants": [{"id": "p0"}], "events": []}"#.utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try await Binary.run("hyzer", ["standings", file.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("missing field \"name\""), "stderr: \(run.stderr)")
    }

    /// Times as producers write them: JavaScript's `toISOString()` (milliseconds), Python's
    /// microseconds, an offset. Something that is no time at all gets a clear error.
    @Test func createdAtAcceptsProducerTimesAndRefusesGarbage() async throws {
        func run(_ times: [String]) async throws -> Binary.Result {
            let events = times.enumerated().map { index, time in
                #"{"id": "e\#(index)", "participant": "p", "hole": \#(index + 1), "strokes": 3, "device": "web", "createdAt": "\#(time)"}"#
            }
            let text =
                #"{"course": {"name": "x", "pars": [3, 3, 3]}, "participants": [{"id": "p", "name": "P"}], "events": ["#
                + events.joined(separator: ", ") + "]}"
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("times-\(UUID()).json")
            try Data(text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return try await Binary.run("hyzer", ["standings", file.path])
        }
        let good = try await run(["2026-11-21T14:45:06.464Z", "2026-11-21T14:45:06.464437Z", "2026-11-21T16:45:06+02:00"])
        #expect(good.status == 0, "stderr: \(good.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(good.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["standings"] as? [[String: Any]])
        #expect(rows.first?["thru"] as? Int == 3, "\(good.stdout)")
        let bad = try await run(["2026-11-21T14:45:06Z", "next tuesday"])
        #expect(bad.status != 0)
        #expect(bad.stderr.contains("createdAt \"next tuesday\" is not an ISO 8601 time"), "stderr: \(bad.stderr)")
    }

    @Test func initDemoAndDatabaseStandings() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-cli-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let initRun = try await Binary.run("hyzer", ["init", "--data", dir.path])
        #expect(initRun.status == 0, "\(initRun.stderr)")
        #expect(initRun.stdout.contains("courses (3"))
        let demo = try await Binary.run("hyzer", ["demo", "--data", dir.path, "--players", "4", "--holes-played", "5"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let roundID = try #require(demo.stdout.split(separator: "\n").last.map(String.init))
        #expect(UUID(uuidString: roundID) != nil)
        let standings = try await Binary.run("hyzer", ["standings", roundID, "--data", dir.path, "--json"])
        #expect(standings.status == 0, "\(standings.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(standings.stdout.utf8)) as? [String: Any])
        let rows = try #require(json["standings"] as? [[String: Any]])
        #expect(rows.count == 4)
        #expect(rows.allSatisfy { ($0["thru"] as? Int) == 5 })
        let unknown = try await Binary.run("hyzer", ["standings", UUID().uuidString, "--data", dir.path])
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("was not found"))
    }

    /// League night's cards (issue 36): a participant on no card or on two, a start hole off
    /// the course, or a skins game of another kind is refused with what is wrong.
    @Test func badCardsGetAClearError() async throws {
        func run(cards: String, skins: String = "field") async throws -> Binary.Result {
            let text = """
                {"course": {"name": "x", "pars": [3, 3, 3]},
                 "participants": [{"id": "a", "name": "A"}, {"id": "b", "name": "B"}],
                 "events": [], "cards": \(cards), "skins": "\(skins)"}
                """
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("cards-\(UUID()).json")
            try Data(text.utf8).write(to: file)
            defer { try? FileManager.default.removeItem(at: file) }
            return try await Binary.run("hyzer", ["standings", file.path])
        }
        let cases = [
            (#"[{"participants": ["a"]}]"#, "field", "participant \"b\" is on no card"),
            (#"[{"participants": ["a", "b"]}, {"participants": ["b"]}]"#, "field", "participant \"b\" is on two cards"),
            (#"[{"start": 4, "participants": ["a", "b"]}]"#, "field", "card A starts on hole 4"),
            (#"[{"participants": ["a", "c"]}]"#, "field", "card A: unknown participant \"c\""),
            (#"[{"participants": ["a", "b"]}]"#, "pairs", "use \"field\" or \"card\""),
        ]
        for (cards, skins, message) in cases {
            let result = try await run(cards: cards, skins: skins)
            #expect(result.status != 0, "\(cards)")
            #expect(result.stderr.contains(message), "\(cards): \(result.stderr)")
            #expect(result.stdout.isEmpty)
        }
        // Control: the same cards, right, are taken.
        #expect(try await run(cards: #"[{"participants": ["a"]}, {"start": 2, "participants": ["b"]}]"#).status == 0)
    }
}
