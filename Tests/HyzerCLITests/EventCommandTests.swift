import Foundation
import HyzerHarness
import Testing

/// Issue 36 from the command line: `hyzer event` makes a league night, and `event show`
/// says what its board and side games say, checked against a hand-computed night. Bad
/// input gets a clear message, a non-zero exit, and nothing is made.
@Suite struct EventCommandTests {
    struct View: Decodable {
        struct Card: Decodable {
            var letter: String
            var round: UUID
            var startHole: Int
            var players: [String]
        }
        struct Row: Decodable {
            var position: String
            var name: String
            var card: String
            var toPar: Int
            var thru: String
            var handicap: Double?
            var net: String?
        }
        struct Skins: Decodable {
            var game: String
            var won: [String: Int]
            var carried: Int
            var unclaimed: Int
        }
        struct ClosestToPin: Decodable {
            var hole: Int
            var winner: String?
        }
        var cards: [Card]
        var standings: [Row]
        var skins: [Skins]
        var closestToPin: [ClosestToPin]
        var aces: [String]
        var acePot: Int
        var finished: Bool
        var rankedByNet: Bool
    }

    static func hyzer(_ args: [String], _ dir: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try await Binary.run("hyzer", args + ["--data", dir.path])
        return (run.status, run.stdout, run.stderr)
    }

    /// Riverside Nine is par 3 everywhere. Card A (Ann, Bo, Cy) from hole 1, card B (Dee,
    /// Eve, guest Sam) from hole 5; skins per card; CTP on 3; Ann, Bo and Dee in the pot at 2.
    /// By hand: A's hole 1 Ann 2 wins 1 skin, hole 2 all 3 carries, hole 3 Bo aces and wins
    /// 2. B has played only hole 5 (Sam 2): holes 1–4 are open, so nothing is won there yet.
    /// Board: Bo −2; Ann −1 (thru 3) and Sam −1 (thru 1) tied second, Ann first; Cy, Dee
    /// and Eve at E tied fourth. Bo's ace wins the pot of 3 × 2 = 6; it is 0 after.
    @Test func aLeagueNightFromTheCommandLineMatchesTheNightWorkedByHand() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-event-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        for name in ["Ann", "Bo", "Cy", "Dee", "Eve"] { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let made = try await hyzer([
            "event", "create", "Thursday league", "--course", "Riverside Nine", "--card", "Ann,Bo,Cy", "--card",
            "Dee,Eve,guest:Sam", "--skins", "card", "--ctp", "3", "--ace-pot", "2", "--ace-pot-players", "Ann,Bo,Dee",
            "--no-sync",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        #expect(made.stdout.contains("A from hole 1: Ann, Bo, Cy"))
        #expect(made.stdout.contains("B from hole 5: Dee, Eve, Sam (guest)"))
        let eventID = try #require(made.stdout.split(separator: "\n").last.map(String.init))
        let first = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"]).stdout.utf8))
        let (a, b) = (first.cards[0].round.uuidString, first.cards[1].round.uuidString)
        for (round, who, hole, strokes) in [
            (a, "Ann", 1, 2), (a, "Bo", 1, 3), (a, "Cy", 1, 3), (a, "Ann", 2, 3), (a, "Bo", 2, 3), (a, "Cy", 2, 3),
            (a, "Ann", 3, 3), (a, "Bo", 3, 1), (a, "Cy", 3, 3), (b, "Dee", 5, 3), (b, "Eve", 5, 3), (b, "Sam", 5, 2),
        ] {
            let scored = try await hyzer(["score", round, who, "\(hole)", "\(strokes)", "--no-sync"])
            #expect(scored.status == 0, "\(scored.stderr)")
        }
        #expect(try await hyzer(["event", "ctp", eventID, "3", "cy", "--no-sync"]).status == 0)
        let shown = try await hyzer(["event", "show", eventID, "--json"])
        let view = try JSONDecoder().decode(View.self, from: Data(shown.stdout.utf8))
        #expect(view.standings.map(\.name) == ["Bo", "Ann", "Sam", "Cy", "Dee", "Eve"])
        #expect(view.standings.map(\.position) == ["1", "T2", "T2", "T4", "T4", "T4"])
        #expect(view.standings.map(\.card) == ["A", "A", "B", "A", "B", "B"])
        #expect(view.standings.map(\.thru) == ["3", "3", "1", "3", "1", "1"])
        #expect(view.skins.map(\.game) == ["A", "B"])
        #expect(view.skins[0].won == ["Ann": 1, "Bo": 2])
        #expect(view.skins[1].won.isEmpty)
        #expect(view.closestToPin.map(\.winner) == ["Cy"])
        #expect(view.aces == ["Bo on hole 3"])
        #expect(view.acePot == 0)
        #expect(!view.finished)
        let text = try await hyzer(["event", "show"])
        #expect(text.stdout.contains("Skins (A): Bo 2, Ann 1"))
        #expect(text.stdout.contains("Closest to the pin, hole 3: Cy"))
        #expect(try await hyzer(["event", "list"]).stdout.contains(eventID))
    }

    /// Issue 37: `--net`. Three October rounds on Riverside Nine (par 27) come in from a
    /// UDisc export: Ann +4 each (handicap +4.0), Bo E each (handicap E); Cy has none. The
    /// night, every hole played: Ann 30 (+3 gross, net −1.0), Bo 28 (+1, net +1.0), Cy 29
    /// (+2, ranked gross). Net: Ann, Bo, Cy; gross it would be Bo, Cy, Ann.
    @Test func aNightRankedByNetTakesEachPlayersHandicap() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-event-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        for name in ["Ann", "Bo", "Cy"] { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let holes = (1...9).map { "Hole\($0)" }.joined(separator: ",")
        var csv = "PlayerName,CourseName,LayoutName,Date,Total,+/-,\(holes)\n"
        for day in ["2026-10-01", "2026-10-08", "2026-10-15"] {
            csv += "Par,Riverside Nine,Main,\(day) 1800,27,,3,3,3,3,3,3,3,3,3\n"
            csv += "Ann,Riverside Nine,Main,\(day) 1800,31,+4,7,3,3,3,3,3,3,3,3\n"
            csv += "Bo,Riverside Nine,Main,\(day) 1800,27,E,3,3,3,3,3,3,3,3,3\n"
        }
        let file = dir.appendingPathComponent("october.csv")
        try csv.write(to: file, atomically: true, encoding: .utf8)
        let imported = try await hyzer(["import", "udisc", file.path, "--no-sync"])
        #expect(imported.status == 0, "\(imported.stderr)")
        let made = try await hyzer([
            "event", "create", "Net night", "--course", "Riverside Nine", "--card", "Ann,Bo,Cy", "--net", "--day",
            "2026-11-26", "--no-sync",
        ])
        #expect(made.status == 0, "\(made.stderr)")
        let first = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"]).stdout.utf8))
        let round = first.cards[0].round.uuidString
        for hole in 1...9 {
            for (who, first) in [("Ann", 6), ("Bo", 4), ("Cy", 5)] {
                let scored = try await hyzer(["score", round, who, "\(hole)", "\(hole == 1 ? first : 3)", "--no-sync"])
                #expect(scored.status == 0, "\(scored.stderr)")
            }
        }
        let view = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"]).stdout.utf8))
        #expect(view.rankedByNet)
        #expect(view.standings.map(\.name) == ["Ann", "Bo", "Cy"])
        #expect(view.standings.map(\.toPar) == [3, 1, 2])
        #expect(view.standings.map(\.net) == ["-1.0", "+1.0", nil])
        #expect(view.standings.map(\.handicap) == [4.0, 0.0, nil])
        let text = try await hyzer(["event", "show"]).stdout
        #expect(text.contains("ranked by net"))
        #expect(text.contains("(+3 gross, handicap +4.0)") && text.contains("(gross: no handicap yet)"), "\(text)")
    }

    @Test func aDrawIsBalancedOrRandomAndTheSameSeedDrawsTheSameCards() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-event-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        let names = (1...13).map { "P\($0)" }
        for name in names { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let players = names.dropLast().joined(separator: ",")
        // No rounds yet: everyone is the middle of the field, so the snake deals them as given.
        let balanced = try await hyzer([
            "event", "create", "Balanced", "--course", "Riverside Nine", "--players", players, "--guest", "Walk Up",
            "--no-start", "--no-sync",
        ])
        #expect(balanced.status == 0, "\(balanced.stderr)")
        #expect(balanced.stdout.contains("A from hole 1: P1, P6, P7, P12, Walk Up (guest)"))
        #expect(balanced.stdout.contains("B from hole 4: P2, P5, P8, P11"))
        #expect(balanced.stdout.contains("C from hole 7: P3, P4, P9, P10"))
        // Swapped before the start.
        let id = try #require(balanced.stdout.split(separator: "\n").last.map(String.init))
        #expect(try await hyzer(["event", "swap", id, "P1", "P10", "--no-sync"]).status == 0)
        let swapped = try await hyzer(["event", "show", id])
        #expect(swapped.stdout.contains("A from hole 1: P10, P6, P7, P12, Walk Up"))
        func random(_ seed: Int) async throws -> [String] {
            let run = try await hyzer([
                "event", "create", "Random", "--course", "Riverside Nine", "--players", players, "--draw", "random",
                "--seed", "\(seed)", "--no-start", "--no-sync",
            ])
            #expect(run.status == 0, "\(run.stderr)")
            return run.stdout.split(separator: "\n").filter { $0.contains(" from hole ") }.map(String.init)
        }
        let one = try await random(36)
        #expect(one.count == 3)
        #expect(try await random(36) == one)
        #expect(try await random(37) != one)
    }

    @Test func badInputIsRefusedWithAReasonAndMakesNothing() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-event-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        func hyzer(_ args: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
            try await Self.hyzer(args, dir)
        }
        #expect(try await hyzer(["init"]).status == 0)
        for name in ["Ann", "Bo"] { #expect(try await hyzer(["player", "add", name]).status == 0) }
        let base = ["event", "create", "Night", "--course", "Riverside Nine"]
        for (args, reason) in [
            (["--card", "Ann", "--players", "Bo"], "not both"),
            (["--card", "Ann", "--card", "Bo", "--start-holes", "1"], "2 cards need 2 start holes"),
            (["--card", "Ann", "--card", "Bo", "--start-holes", "1,12"], "cannot start on hole 12"),
            (["--card", "Ann,Bo", "--ace-pot", "2", "--ace-pot-players", "Cy"], "Cy is in the ace pot"),
            (["--card", "Ann,Bo", "--ctp", "10"], "no hole 10"),
            (["--card", "Ann,Zed"], "no registered player is called \"Zed\""),
            (["--card", "Ann", "--card", "Ann"], "a player is on two cards"),
            ([String](), "a league night needs players"),
        ] {
            let run = try await hyzer(base + args + ["--no-sync"])
            #expect(run.status != 0, "\(args)")
            #expect(run.stderr.contains(reason), "\(args): \(run.stderr)")
        }
        #expect(try await hyzer(["event", "list"]).stdout.isEmpty)
        let none = try await hyzer(["event", "show"])
        #expect(none.status != 0 && none.stderr.contains("no league night"))
    }
}
