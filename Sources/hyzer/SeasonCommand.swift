import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer season standings`: a season's table (issue 37 item 1), computed from the events
/// played in its range, by one of the three rules (docs/requirements.md, "Seasons").
struct SeasonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "season", abstract: "Season tables across weeks.", subcommands: [StandingsTable.self])

    struct StandingsTable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "standings",
            abstract: "A season's table from the events in its range: league nights and finished rounds.",
            discussion: """
                One rule: --points 10,8,6,5,4,3,2,1 (points by place, the default, ties share), --best N (the sum of each
                player's best N rounds' to-par) or --average MIN (average to-par, MIN rounds to be ranked). The range
                defaults to this calendar year. Guests are left out and the members ranked among themselves.
                With --json: {"season", "rule", "events", "table": [{"position", "player", "value", "attended", "counted"}]}.
                """)

        @OptionGroup var data: DataOptions
        @Option(help: "The season's name.") var name = "Season"
        @Option(help: "The first day, YYYY-MM-DD (default: 1 January this year).") var from: String?
        @Option(help: "The last day, YYYY-MM-DD (default: 31 December this year).") var to: String?
        @Option(help: "Points by place, comma-separated.") var points: String?
        @Option(help: "Rank by the sum of each player's best N rounds' to-par.") var best: Int?
        @Option(help: "Rank by average to-par, with at least this many rounds.") var average: Int?
        @Flag(help: "Rank by net to par: each round less the player's handicap on its course before it.")
        var net = false
        @Flag(help: "Print JSON.") var json = false

        func rule() throws -> Season.Rule {
            switch (points, best, average) {
            case (nil, nil, nil): return .pointsByPlace(Season.Rule.defaultPoints)
            case (let table?, nil, nil):
                let values = table.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
                    throw ValidationError("--points takes numbers separated by commas (10,8,6), not \(table)")
                }
                return .pointsByPlace(values.compactMap { $0 })
            case (nil, let count?, nil): return .bestRounds(count)
            case (nil, nil, let minimum?): return .averageToPar(minimumRounds: minimum)
            default: throw ValidationError("give one rule: --points, --best or --average")
            }
        }

        func run() async throws {
            let year = Calendar.current.component(.year, from: Date())
            let season: Season
            do {
                season = try Season(
                    name: name, from: from ?? "\(year)-01-01", to: to ?? "\(year)-12-31", rule: try rule(), net: net)
            } catch let error as SeasonError {
                throw ValidationError("\(error)")
            }
            let db = try data.open()
            // Net: the handicaps come from every round before the season's end, not only its own.
            let events =
                net
                ? SeasonEvent.handicapped(try await db.read(.seasonEvents(from: "1970-01-01", to: season.to)))
                : try await db.read(.seasonEvents(from: season.from, to: season.to))
            let result = SeasonScenarioResult(SeasonTable(season: season, events: events))
            let rows = result.table
            if json {
                print(String(decoding: try result.jsonData(), as: UTF8.self))
                return
            }
            print("\(season.name), \(season.from) to \(season.to): \(result.rule), \(result.events) events")
            guard !rows.isEmpty else { return print("nobody has played an event in it yet") }
            let width = max(6, rows.map(\.player.count).max() ?? 6)
            for row in rows {
                print(
                    row.position.padding(toLength: 4, withPad: " ", startingAt: 0)
                        + row.player.padding(toLength: width, withPad: " ", startingAt: 0) + "  "
                        + row.value.padding(toLength: 7, withPad: " ", startingAt: 0)
                        + "  \(row.attended) event\(row.attended == 1 ? "" : "s")"
                        + (row.gross == true ? "  (gross: no handicap yet)" : ""))
            }
        }
    }
}
