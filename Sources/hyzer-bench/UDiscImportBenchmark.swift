import Foundation
import HyzerKit
import HyzerStore

/// Issue 37 item 4: ten years of a group's UDisc history (about 5,000 rows) imports in
/// seconds. An export of that size is written (deterministic: three courses of 9, 18 and 21
/// holes, 3 to 8 of 15 players a round), then timed: reading it alone (CSV and rounds), the
/// import into an empty store (a transaction a round, as `hyzer import udisc` does), the
/// same file again (every round already there), and `hyzer export csv`'s read of the
/// history back.
enum UDiscImportBenchmark {
    static func run(in workspace: Workspace, rows wanted: Int) async throws -> Figures {
        try FileManager.default.createDirectory(at: workspace.url, withIntermediateDirectories: true)
        let file = workspace.url.appendingPathComponent("export.csv")
        let rows = try write(rows: wanted, to: file)
        log("udisc-import: \(rows) rows written to \(file.lastPathComponent)")
        let utc = TimeZone(identifier: "UTC")!

        func read() throws -> [UDisc.Round] {
            let handle = try FileHandle(forReadingFrom: file)
            defer { try? handle.close() }
            var csv = CSVReader()
            var reader = UDiscReader(timeZone: utc)
            var rounds: [UDisc.Round] = []
            func take(_ outcomes: [UDiscReader.Outcome]) throws {
                for outcome in outcomes {
                    switch outcome {
                    case .round(let round): rounds.append(round)
                    case .refused(let problem): throw BenchError("the generated file was refused: \(problem)")
                    }
                }
            }
            while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
                for record in csv.feed(chunk) { try take(reader.add(record.fields, line: record.line)) }
            }
            for record in csv.finish() { try take(reader.add(record.fields, line: record.line)) }
            try take(reader.finish())
            return rounds
        }

        var parse: [Double] = []
        var rounds: [UDisc.Round] = []
        for _ in 0..<5 {
            let start = nowNs()
            rounds = try read()
            parse.append(Double(nowNs() - start) / 1e6)
        }
        log("udisc-import: \(rounds.count) rounds read")
        let store = try HyzerDatabase(directory: workspace.subdirectory("store"))
        func importAll() async throws -> (seconds: Double, imported: Int) {
            let start = nowNs()
            var imported = 0
            for round in try read() {
                if case .imported = try await store.write(.importUDiscRound(round)) { imported += 1 }
            }
            return (Double(nowNs() - start) / 1e9, imported)
        }
        let first = try await importAll()
        guard first.imported == rounds.count else { throw BenchError("imported \(first.imported) of \(rounds.count)") }
        log("udisc-import: imported in \(round3(first.seconds)) s")
        let second = try await importAll()
        guard second.imported == 0 else { throw BenchError("the second import added \(second.imported)") }
        // What `hyzer export csv` reads: every completed round, whole.
        let exportStart = nowNs()
        let exported = try await store.read(.completedRounds).count
        let exportSeconds = Double(nowNs() - exportStart) / 1e9
        guard exported == rounds.count else { throw BenchError("exported \(exported) of \(rounds.count)") }
        log("udisc-import: \(rows) rows, \(rounds.count) rounds imported in \(round3(first.seconds)) s")
        return Figures(
            [
                "rows": Double(rows), "rounds": Double(rounds.count), "read_p50_ms": round3(percentile(parse, 50)),
                "import_s": round3(first.seconds), "reimport_s": round3(second.seconds),
                "rows_per_s": (Double(rows) / first.seconds).rounded(), "export_read_s": round3(exportSeconds),
            ])
    }

    /// A made-up group's export of about `wanted` rows (the Par rows included), oldest first.
    static func write(rows wanted: Int, to url: URL) throws -> Int {
        let courses: [(String, String, [Int])] = [
            ("Maple Hill", "Main", Array(repeating: 3, count: 9)),
            ("Ridgeback", "Championship", [3, 4, 3, 3, 5, 3, 4, 3, 3, 3, 4, 3, 3, 5, 3, 3, 4, 3]),
            ("Ridgeback", "Long 21", Array(repeating: 3, count: 18) + [4, 4, 4]),
        ]
        let players = [
            "Nate", "Mike", "Jake", "Sarah", "Priya", "Tom", "Lena", "Omar", "Kai", "Rosa", "Ben", "Mia", "Ivan", "Zoe", "Leo",
        ]
        var rng = SeededGenerator(seed: 37)
        let holes = 21
        var text = UDisc.header(holes: holes).joined(separator: ",") + "\n"
        var rows = 0
        var when = Date(timeIntervalSince1970: 1_459_618_200)  // 2 April 2016, 17:30 UTC
        let utc = TimeZone(identifier: "UTC")!
        while rows < wanted {
            let (course, layout, pars) = courses[Int.random(in: 0..<courses.count, using: &rng)]
            let count = Int.random(in: 3...8, using: &rng)
            let card = Array(players.shuffled(using: &rng).prefix(count)).map { name in
                (name: name, strokes: pars.map { Optional(max(1, min(10, $0 + Int.random(in: -1...2, using: &rng)))) })
            }
            for row in UDisc.rows(
                course: course, layout: layout, start: when, end: when.addingTimeInterval(Double(pars.count) * 480),
                pars: pars, players: card, holes: holes, timeZone: utc)
            {
                text += row.map(UDisc.csvField).joined(separator: ",") + "\n"
                rows += 1
            }
            // About two rounds a week for ten years.
            when = when.addingTimeInterval(Double(Int.random(in: 1...6, using: &rng)) * 86_400 / 1.3)
        }
        try Data(text.utf8).write(to: url)
        return rows
    }
}
