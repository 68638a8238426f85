import Foundation
import HyzerHarness
import Testing

/// `hyzer-bench` from outside: its subcommands and flags, and the JSON line it ends with.
@Suite struct BenchCommandTests {
    static let benchmarks = [
        "standings", "store", "history", "knob-latency", "knob-accuracy", "render", "sync-latency", "name-entry",
        "paper-card",
    ]

    @Test func helpListsEveryBenchmark() async throws {
        let run = try await Binary.run("hyzer-bench", ["--help"])
        #expect(run.status == 0, "\(run.stderr)")
        for name in Self.benchmarks { #expect(run.stdout.contains(name), "\(name) missing from \(run.stdout)") }
    }

    @Test(arguments: benchmarks)
    func eachBenchmarkHasItsOwnHelp(name: String) async throws {
        let run = try await Binary.run("hyzer-bench", [name, "--help"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("USAGE: hyzer-bench \(name)"), "\(run.stdout)")
        let writesDatabases = ["store", "history", "render", "sync-latency"].contains(name)
        #expect(run.stdout.contains("--data <DIR>") == writesDatabases, "\(run.stdout)")
    }

    /// `paper-card` types a file's cards in both ways through the real kiosk and store (the
    /// run fails if either store does not end holding the cards) and counts the actions: on
    /// a card all at par, one press a cell and the menu; a card that is not 18 strokes a
    /// line is refused with its line.
    @Test func paperCardCountsACardFromAFileAndRefusesABadOne() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-paper-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let pars = "3 3 4 3 3 3 4 3 3 3 4 3 3 5 3 3 4 3"
        let cards = dir.appendingPathComponent("cards.txt")
        try Data("# two players at par\n\(pars)\n\(pars)\n".utf8).write(to: cards)
        let run = try await Binary.run("hyzer-bench", ["paper-card", "--cards", cards.path, "--players", "2"])
        #expect(run.status == 0, "\(run.stderr)")
        let line = try #require(run.stdout.split(separator: "\n").last)
        let figures = try JSONDecoder().decode([String: Double].self, from: Data(line.utf8))
        #expect(figures["cells"] == 36)
        let menu = try #require(figures["paper_card_actions_per_cell"])
        // The menu of a round with no scores: Enter scores, Discard this round, Enter a paper card.
        #expect(abs(menu - (36 + 4) / 36.0) < 0.001, "a press a cell, and the menu's long press, 2 detents, press")
        #expect(try #require(figures["hole_by_hole_actions_per_cell"]) > menu)

        try Data("\(pars) 3\n\(pars)\n".utf8).write(to: cards)
        let bad = try await Binary.run("hyzer-bench", ["paper-card", "--cards", cards.path, "--players", "2"])
        #expect(bad.status != 0 && bad.stderr.contains("card line 1"), "\(bad.stderr)")
    }

    @Test func unknownBenchmarkAndBadFlagsAreRefused() async throws {
        let unknown = try await Binary.run("hyzer-bench", ["nonsense"])
        #expect(unknown.status != 0)
        let rate = try await Binary.run("hyzer-bench", ["knob-latency", "--rate", "0"])
        #expect(rate.status != 0)
        #expect(rate.stderr.contains("--rate"), "\(rate.stderr)")
    }

    /// A non-empty --data would mix old rows into the figures (a second store run would count 500 rounds).
    @Test func dataDirectoryMustBeNewOrEmpty() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-data-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try Data("x".utf8).write(to: dir.appendingPathComponent("leftover"))
        let run = try await Binary.run("hyzer-bench", ["store", "--data", dir.path])
        #expect(run.status != 0)
        #expect(run.stderr.contains("is not empty"), "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["leftover"])
    }

    @Test func figuresEndTheOutputAsOneJSONObject() async throws {
        let run = try await Binary.run("hyzer-bench", ["standings"])
        #expect(run.status == 0, "\(run.stderr)")
        let last = try #require(run.stdout.split(separator: "\n").last)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(Set(figures.keys) == ["p50_us", "p99_us", "event_p50_us", "event_p99_us"])
        let p50 = try #require(figures["p50_us"] as? Double)
        let p99 = try #require(figures["p99_us"] as? Double)
        #expect(p50 > 0 && p50 <= p99)
        #expect(run.stderr.contains("5000 recomputes"))
        #expect(run.stderr.contains("a night of 8 cards, 30 players"))
    }

    /// `name-entry` against a small list (through HYZER_ASSETS, so a debug build runs it in
    /// seconds): the figures issue 14 names end the output as one JSON object, names are
    /// split by the list as they should be, one the wheel cannot spell is skipped, and names
    /// held out cost more than on the list (their completions are gone). Negative control:
    /// with `heldOutActions` leaving the name on the list, the last comparison fails.
    @Test func nameEntryCountsListedUnlistedAndHeldOutNames() async throws {
        let assets = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-names-\(UUID())")
        try FileManager.default.createDirectory(at: assets, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: assets) }
        try Data("[]".utf8).write(to: assets.appendingPathComponent("courses.json"))
        let list = ["James": 3.4, "Mary": 2.6, "Maria": 1.2, "Mark": 1.1, "Anna": 0.9, "Annie": 0.3, "Oisin": 0.01]
        try Data(list.map { "\($0.key)\t\($0.value)" }.joined(separator: "\n").utf8)
            .write(to: assets.appendingPathComponent("first-names.tsv"))
        let names = assets.appendingPathComponent("names.txt")
        try Data("# test names\nMaria\nOisin\nMarek\nŁukasz\n".utf8).write(to: names)
        var environment = ProcessInfo.processInfo.environment
        environment["HYZER_ASSETS"] = assets.path

        let run = try await Binary.run("hyzer-bench", ["name-entry", "--names", names.path], environment: environment)
        #expect(run.status == 0, "\(run.stderr)")
        let last = try #require(run.stdout.split(separator: "\n").last)
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        func figure(_ key: String) throws -> Double { try #require(figures[key] as? Double, "\(key) in \(last)") }
        #expect(try figure("names_listed") == 2)
        #expect(try figure("names_unlisted") == 1)
        #expect(try figure("names_skipped") == 1)
        #expect(run.stderr.contains("Łukasz: a character the wheel lacks"), "\(run.stderr)")
        let median = try figure("median_actions")
        let p90 = try figure("p90_actions")
        #expect(median > 0 && median <= p90)
        // Marek is on no list: at least a press a letter and Done.
        #expect(try figure("actions_per_letter_unlisted") >= 1 + 1.0 / 5)
        // Held out, Maria and Oisin lose their completions and cost more; Marek, on no list
        // either way, costs the same. (The median of two names is their mean.)
        let listedActions = median * 2
        let unlistedActions = try figure("actions_per_letter_unlisted") * 5
        #expect(try figure("actions_per_letter_held_out") * 15 > listedActions + unlistedActions)
        #expect(try figure("mean_actions_all") > 0)

        // --people: the people-weighted figures pick people from another weighted list. All
        // of them called Oisin (and a name the wheel cannot spell, not counted), they are
        // Oisin's actions, which the list's own people (James above all) do not cost.
        let oisin = try #require(
            run.stderr.split(separator: "\n").first { $0.hasPrefix("name-entry: Oisin ") }
                .flatMap { $0.split(separator: " ").dropFirst(2).first }.flatMap { Double($0) }, "\(run.stderr)")
        let people = assets.appendingPathComponent("people.tsv")
        try Data("Oisin\t5\nŁukasz\t100\n".utf8).write(to: people)
        let picked = try await Binary.run(
            "hyzer-bench", ["name-entry", "--names", names.path, "--people", people.path], environment: environment)
        let pickedLast = try #require(picked.stdout.split(separator: "\n").last, "\(picked.stderr)")
        let pickedFigures = try #require(try JSONSerialization.jsonObject(with: Data(pickedLast.utf8)) as? [String: Any])
        #expect(pickedFigures["median_actions_people_weighted"] as? Double == oisin, "\(picked.stdout)")
        #expect(pickedFigures["mean_actions_people_weighted"] as? Double == oisin)
        #expect(try figure("mean_actions_people_weighted") < oisin)
    }
}
