import Foundation
import HyzerKit
import HyzerStore

/// Issue 37's goal: the season table of 5 years × 52 events × 20 players recomputes in at
/// most 50 ms p99 on the kiosk's path. A store is filled through the UDisc importer (an
/// 18-hole course, the same 20 players every week, each a round a week), then the table is
/// asked for as the kiosk asks: the store read of the season's events and the rule over
/// them (`StoreRead.seasonTable`), for a five-year season by points and the same season by
/// net (whose handicaps walk every round before it). The rule alone, over events already
/// read, is timed beside them: the ratio says where the time goes.
enum SeasonBenchmark {
    static func run(in workspace: Workspace, years: Int, players: Int, iterations: Int) async throws -> Figures {
        try FileManager.default.createDirectory(at: workspace.url, withIntermediateDirectories: true)
        let utc = TimeZone(identifier: "UTC")!
        let store = try HyzerDatabase(directory: workspace.subdirectory("store"))
        let pars = [3, 4, 3, 3, 5, 3, 4, 3, 3, 3, 4, 3, 3, 5, 3, 3, 4, 3]
        let names = (1...players).map { "Player \($0)" }
        var rng = SeededGenerator(seed: 37)
        var when = Date(timeIntervalSince1970: 1_617_300_000)  // 1 April 2021
        let weeks = years * 52
        let fillStart = nowNs()
        for _ in 0..<weeks {
            let card = names.map { name in
                (name: name, strokes: pars.map { Optional(max(1, min(10, $0 + Int.random(in: -1...2, using: &rng)))) })
            }
            let text =
                UDisc.header(holes: pars.count).joined(separator: ",") + "\n"
                + UDisc.rows(
                    course: "Ridgeback", layout: "Main", start: when, end: when.addingTimeInterval(7200), pars: pars,
                    players: card, holes: pars.count, timeZone: utc
                ).map { $0.map(UDisc.csvField).joined(separator: ",") }.joined(separator: "\n") + "\n"
            var csv = CSVReader()
            var reader = UDiscReader(timeZone: utc)
            var outcomes: [UDiscReader.Outcome] = []
            for record in csv.feed(Data(text.utf8)) + csv.finish() {
                outcomes += try reader.add(record.fields, line: record.line)
            }
            outcomes += try reader.finish()
            for case .round(let round) in outcomes { _ = try await store.write(.importUDiscRound(round)) }
            when = when.addingTimeInterval(7 * 86_400)
        }
        log("season: \(weeks) weekly rounds of \(players) imported in \(round3(Double(nowNs() - fillStart) / 1e9)) s")

        let first = SeasonEvent.day(of: Date(timeIntervalSince1970: 1_617_300_000), timeZone: utc)
        let last = SeasonEvent.day(of: when, timeZone: utc)
        let points = try Season(name: "Five years", from: first, to: last, rule: .pointsByPlace(Season.Rule.defaultPoints))
        var net = points
        net.net = true
        func time(_ season: Season, memo: SeasonEventMemo? = nil) async throws -> [Double] {
            var samples: [Double] = []
            for _ in 0..<iterations {
                let start = nowNs()
                let table = try await store.read(.seasonTable(season, timeZone: utc, memo: memo))
                samples.append(Double(nowNs() - start) / 1e6)
                guard table.events == weeks, table.rows.count == players else {
                    throw BenchError("the table has \(table.events) events and \(table.rows.count) rows")
                }
            }
            return samples
        }
        let cold = try await time(points)
        // The kiosk fills its memo once, on its first read; each redraw after reads what changed.
        let memo = SeasonEventMemo()
        _ = try await store.read(.seasonTable(net, timeZone: utc, memo: memo))
        let gross = try await time(points, memo: memo)
        let netted = try await time(net, memo: memo)
        let events = try await store.read(.seasonEvents(from: first, to: last, timeZone: utc))
        var rule: [Double] = []
        for _ in 0..<iterations {
            let start = nowNs()
            let table = SeasonTable(season: net, events: SeasonEvent.handicapped(events))
            rule.append(Double(nowNs() - start) / 1e6)
            guard table.rows.count == players else { throw BenchError("the rule ranked \(table.rows.count)") }
        }
        log("season: points p99 \(round3(percentile(gross, 99))) ms, net p99 \(round3(percentile(netted, 99))) ms")
        return Figures(
            [
                "events": Double(weeks), "players": Double(players),
                "unmemoized_p50_ms": round3(percentile(cold, 50)), "unmemoized_p99_ms": round3(percentile(cold, 99)),
                "points_p50_ms": round3(percentile(gross, 50)), "points_p99_ms": round3(percentile(gross, 99)),
                "net_p50_ms": round3(percentile(netted, 50)), "net_p99_ms": round3(percentile(netted, 99)),
                "rule_only_p50_ms": round3(percentile(rule, 50)), "rule_only_p99_ms": round3(percentile(rule, 99)),
            ])
    }
}
