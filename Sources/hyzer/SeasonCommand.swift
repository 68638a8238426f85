import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer season`: the group's seasons (issue 37 item 1). A season is a synced record, a
/// date range and a scoring rule; its table is computed from the events played in its
/// range every time it is asked for (docs/requirements.md, "Seasons").
struct SeasonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "season", abstract: "Seasons: standings across weeks.",
        subcommands: [Add.self, List.self, Delete.self, StandingsTable.self])

    /// One rule, as `add` and `standings` take it.
    struct RuleOptions: ParsableArguments {
        @Option(help: "Points by place, comma-separated (10,8,6,5,4,3,2,1, the default; ties share).")
        var points: String?
        @Option(help: "Rank by the sum of each player's best N rounds' to-par.") var best: Int?
        @Option(help: "Rank by average to-par, with at least this many rounds.") var average: Int?
        @Flag(help: "Rank by net to par: each round less the player's handicap on its course before it.")
        var net = false

        var given: Bool { points != nil || best != nil || average != nil }

        func rule() throws -> Season.Rule {
            guard given else { return .pointsByPlace(Season.Rule.defaultPoints) }
            let table = try points.map { text in
                let values = text.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
                guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
                    throw ValidationError("--points takes numbers separated by commas (10,8,6), not \(text)")
                }
                return values.compactMap { $0 }
            }
            do { return try Season.Rule(points: table, bestRounds: best, averageToPar: average) } catch {
                throw ValidationError("give one rule: --points, --best or --average")
            }
        }
    }

    /// A range's ends: `--from` and `--to`, each defaulting to this calendar year's.
    struct RangeOptions: ParsableArguments {
        @Option(help: "The first day, YYYY-MM-DD (default: 1 January this year).") var from: String?
        @Option(help: "The last day, YYYY-MM-DD (default: 31 December this year).") var to: String?

        var given: Bool { from != nil || to != nil }

        func season(id: UUID = UUID(), name: String, rule: Season.Rule, net: Bool) throws -> Season {
            let year = Calendar.current.component(.year, from: Date())
            do {
                return try Season(
                    id: id, name: name, from: from ?? "\(year)-01-01", to: to ?? "\(year)-12-31", rule: rule, net: net)
            } catch {
                throw ValidationError("\(error)")
            }
        }
    }

    static func find(_ name: String, in db: HyzerDatabase) throws -> Season {
        let seasons = try db.read(.seasons)
        guard let season = seasons.first(where: { $0.name.localizedCaseInsensitiveCompare(name) == .orderedSame }) else {
            let known = seasons.map(\.name).joined(separator: ", ")
            throw CommandFailure(message: "no season is called \(name)" + (known.isEmpty ? "" : " (there are: \(known))"))
        }
        return season
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Set up a season (or change the one of that name): its range and its rule. It syncs.")

        @OptionGroup var data: DataOptions
        @Argument(help: "The season's name (\"Summer league 2026\").") var name: String
        @OptionGroup var range: RangeOptions
        @OptionGroup var rule: RuleOptions
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let existing = try? SeasonCommand.find(name, in: db)
            let season = try range.season(id: existing?.id ?? UUID(), name: name, rule: try rule.rule(), net: rule.net)
            do { _ = try await db.write(.saveSeason(season)) } catch { throw CommandFailure(error) }
            print(
                "\(existing == nil ? "Set up" : "Changed") \(season.name): \(season.from) to \(season.to), "
                    + season.ruleDescription)
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The group's seasons, newest first.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            let seasons = try await data.open().read(.seasons)
            guard !seasons.isEmpty else { return print("no seasons yet: hyzer season add NAME --from --to") }
            for season in seasons { print("\(season.name): \(season.from) to \(season.to), \(season.ruleDescription)") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a season set up by mistake, on every device. Its rounds stay.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The season's name.") var name: String
        @Flag(name: .customLong("no-sync"), help: "Only save locally.") var noSync = false

        func run() async throws {
            let db = try data.open()
            let season = try SeasonCommand.find(name, in: db)
            do { _ = try await db.write(.deleteSeason(season.id)) } catch { throw CommandFailure(error) }
            print("Deleted \(season.name)")
            await syncAfterLocalWrite(db, skip: noSync)
        }
    }

    struct StandingsTable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "standings",
            abstract: "A season's table from the events in its range: league nights and finished rounds.",
            discussion: """
                A season set up with `hyzer season add` by its name; without one, the season today falls in, if any.
                Or one made up here: a range (--from/--to, default this calendar year) and one rule, --points
                10,8,6,5,4,3,2,1 (points by place, the default, ties share), --best N (the sum of each player's best N
                rounds' to-par) or --average MIN (average to-par, MIN rounds to be ranked). Guests are left out and
                the members ranked among themselves.
                With --json: {"season", "rule", "events", "table": [{"position", "player", "value", "attended", "counted"}]}.
                """)

        @OptionGroup var data: DataOptions
        @Argument(help: "A season set up with `hyzer season add`.") var season: String?
        @Option(help: "The season's name, for one made up here.") var name = "Season"
        @OptionGroup var range: RangeOptions
        @OptionGroup var rule: RuleOptions
        @Flag(help: "Print JSON.") var json = false

        func run() async throws {
            let db = try data.open()
            let chosen: Season
            if let season {
                guard !range.given, !rule.given, !rule.net else {
                    throw ValidationError("a season set up by name has its own range and rule: give either, not both")
                }
                chosen = try SeasonCommand.find(season, in: db)
            } else if !range.given, !rule.given, !rule.net,
                let current = Season.current(try await db.read(.seasons), on: SeasonEvent.day(of: Date()))
            {
                chosen = current
            } else {
                chosen = try range.season(name: name, rule: try rule.rule(), net: rule.net)
            }
            let result = SeasonScenarioResult(try await db.read(.seasonTable(chosen)))
            if json {
                print(String(decoding: try result.jsonData(), as: UTF8.self))
                return
            }
            print("\(chosen.name), \(chosen.from) to \(chosen.to): \(result.rule), \(result.events) events")
            let rows = result.table
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
