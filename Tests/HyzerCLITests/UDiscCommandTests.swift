import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// Issue 37 item 4 from the command line: `hyzer import udisc` reads 220 rounds made by the
/// generator kept in the repository (Tests/Fixtures/udisc/generate.py); a second import
/// adds nothing; `hyzer export csv` then `hyzer import udisc` into an empty kiosk gives the
/// same history and the same season tables; the hand-written files with the header quirks import, their broken rounds
/// named by line, with a non-zero exit.
@Suite struct UDiscCommandTests {
    static func hyzer(_ args: [String], _ dir: URL) async throws -> (status: Int32, stdout: String, stderr: String) {
        let run = try await Binary.run("hyzer", args + ["--data", dir.path])
        return (run.status, run.stdout, run.stderr)
    }

    struct Line: Decodable, Equatable {
        var id: UUID
        var completedAt: String
        var course: String
        var winners: [String]
        var players: [String]
    }

    static func history(_ dir: URL) async throws -> [Line] {
        let shown = try await hyzer(["history", "--json"], dir)
        #expect(shown.status == 0, "\(shown.stderr)")
        return try JSONDecoder().decode([Line].self, from: Data(shown.stdout.utf8))
    }

    @Test func generatedHistoryImportsOnceAndRoundTripsThroughExport() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-udisc-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let (first, second) = (dir.appendingPathComponent("first"), dir.appendingPathComponent("second"))
        let file = dir.appendingPathComponent("export.csv")
        let generated = try await Binary.run(
            executable: URL(fileURLWithPath: "/usr/bin/python3"),
            [repositoryRoot.appendingPathComponent("Tests/Fixtures/udisc/generate.py").path, "220"])
        #expect(generated.status == 0, "\(generated.stderr)")
        try Data(generated.stdout.utf8).write(to: file)

        let imported = try await Self.hyzer(["import", "udisc", file.path, "--time-zone", "UTC", "--no-sync"], first)
        #expect(imported.status == 0, "\(imported.stderr)")
        #expect(imported.stdout.hasPrefix("imported 220 rounds, 3 new courses, 15 new players"), "\(imported.stdout)")
        let history = try await Self.history(first)
        #expect(history.count == 220)
        // The newest round is the file's last, on its own date.
        let last = try #require(generated.stdout.split(separator: "\n").last?.split(separator: ","))
        #expect(history.first.map { $0.course == "\(last[1]) · \(last[2])" } == true)

        let again = try await Self.hyzer(["import", "udisc", file.path, "--time-zone", "UTC", "--no-sync"], first)
        #expect(again.status == 0 && again.stdout.hasPrefix("imported 0 rounds, 220 already here"), "\(again.stdout)")
        #expect(try await Self.history(first) == history)

        let out = dir.appendingPathComponent("out.csv")
        let exported = try await Self.hyzer(["export", "csv", "--output", out.path, "--time-zone", "UTC"], first)
        #expect(exported.status == 0 && exported.stdout.contains("wrote 220 rounds"), "\(exported.stderr)")
        let back = try await Self.hyzer(["import", "udisc", out.path, "--time-zone", "UTC", "--no-sync"], second)
        #expect(back.status == 0, "\(back.stderr)")
        // The same history: the same rounds (the same ids, made from what the file says),
        // courses, players, winners and dates.
        #expect(try await Self.history(second) == history)
        // And the same season tables, under each rule.
        for rule in [["--points", "10,8,6,5,4,3,2,1"], ["--best", "20"], ["--average", "10"], ["--average", "10", "--net"]] {
            let range = ["season", "standings", "--from", "2016-01-01", "--to", "2026-12-31", "--json"] + rule
            let (a, b) = (try await Self.hyzer(range, first), try await Self.hyzer(range, second))
            #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
            #expect(a.stdout == b.stdout, "\(rule)")
            #expect(a.stdout.contains("\"events\" : 220"), "\(a.stdout.prefix(200))")
        }
    }

    /// Imported rounds sync like everything else (issue 37 item 5): imported on one device in
    /// a group, they reach another through a real server, the same rounds (the same ids).
    @Test func importedRoundsReachAnotherDeviceThroughARealServer() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-udisc-sync-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (kiosk, phone) = (dir.appendingPathComponent("kiosk"), dir.appendingPathComponent("phone"))
        let server = try await GroupServer.start(group: "Import League", in: dir)
        defer { server.process.kill() }
        for (data, name) in [(kiosk, "Kiosk"), (phone, "Nate's phone")] {
            #expect(try await Self.hyzer(["init"], data).status == 0)
            let enrolled = try await Self.hyzer(
                ["device", "enroll", "--server", server.url, "--group-token", server.admin, "--name", name], data)
            #expect(enrolled.status == 0, "\(enrolled.stderr)")
        }
        let file = repositoryRoot.appendingPathComponent("Tests/Fixtures/udisc/newer.csv")
        let imported = try await Self.hyzer(["import", "udisc", file.path, "--time-zone", "UTC"], kiosk)
        #expect(imported.stdout.contains("synced with"), "\(imported.stdout)")
        #expect(try await Self.hyzer(["sync"], phone).status == 0)
        let here = try await Self.history(kiosk)
        #expect(here.count == 2)
        #expect(try await Self.history(phone) == here)
    }

    @Test func theQuirkyFilesImportAndTheirBrokenRoundsAreNamed() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-udisc-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fixtures = repositoryRoot.appendingPathComponent("Tests/Fixtures/udisc")
        let older = try await Self.hyzer(
            [
                "import", "udisc", fixtures.appendingPathComponent("older.csv").path, "--map", "Mike \"Big Arm\" O'Neil=Mike",
                "--no-sync",
            ], dir)
        #expect(older.status == 1)
        #expect(older.stdout.hasPrefix("imported 2 rounds"), "\(older.stdout)")
        #expect(older.stdout.contains("refused, line 9: Nate's hole 3 is \"three\", not a number"), "\(older.stdout)")
        #expect(older.stderr.contains("1 round(s) left out"))
        let newer = try await Self.hyzer(
            ["import", "udisc", fixtures.appendingPathComponent("newer.csv").path, "--no-sync"], dir)
        #expect(newer.status == 1)
        #expect(newer.stdout.contains("refused, line 10: Priya has a score past the round's 9 holes"), "\(newer.stdout)")
        let history = try await Self.history(dir)
        #expect(history.count == 4)
        #expect(Set(history.flatMap(\.players)) == ["Nate", "Mike", "Jake", "Sarah", "Priya"])
        // The numbers the imported rounds make (issue 37 item 3): Nate's four finished rounds
        // in date order, −1 (Maple Hill, 2019), −1 (Pine Hollow), −2 (Ridgeback's 21), +1 (Maple
        // Hill, 2024), averaging −0.75. Maple Hill's two rounds: Sarah's −2 is the record; hole
        // 5 (Mike's 4 and Nate's 4 against 3s, +0.4) is the hardest, hole 2 (Nate's 2, −0.2,
        // level with hole 9 and first) the easiest.
        let nate = try await Self.hyzer(["stats", "player", "Nate", "--json"], dir)
        let player = try JSONSerialization.jsonObject(with: Data(nate.stdout.utf8)) as? [String: Any]
        #expect(player?["rounds"] as? Int == 4 && player?["averageToPar"] as? Double == -0.8, "\(nate.stdout)")
        #expect((player?["trend"] as? [Int]) == [-1, -1, -2, 1])
        let maple = try await Self.hyzer(["stats", "course", "Maple Hill · Main", "--json"], dir)
        let course = try JSONSerialization.jsonObject(with: Data(maple.stdout.utf8)) as? [String: Any]
        let record = course?["record"] as? [String: Any]
        #expect(record?["toPar"] as? Int == -2, "\(maple.stdout)")
        #expect((record?["holders"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["Sarah"])
        #expect(course?["hardest"] as? Int == 5 && course?["easiest"] as? Int == 2)
        // Not a UDisc export: said, and nothing imported.
        let notes = dir.appendingPathComponent("notes.csv")
        try Data("name,score\nNate,3\n".utf8).write(to: notes)
        let refused = try await Self.hyzer(["import", "udisc", notes.path, "--no-sync"], dir)
        #expect(refused.status == 1 && refused.stdout.contains("line 1: not a UDisc export"), "\(refused.stdout)")
        let missing = try await Self.hyzer(["import", "udisc", dir.appendingPathComponent("nope.csv").path], dir)
        #expect(missing.status != 0 && missing.stderr.contains("cannot read"))
        let badMap = try await Self.hyzer(["import", "udisc", notes.path, "--map", "Nate"], dir)
        #expect(badMap.status != 0 && badMap.stderr.contains("--map takes OLD=NEW"))
        #expect(try await Self.history(dir).count == 4)
    }
}
