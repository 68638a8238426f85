import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer stats player|course`: a player's or a course's numbers over the history (issue 37
/// item 3), computed from the completed rounds every time.
struct StatsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats", abstract: "A player's or a course's numbers over the history.",
        subcommands: [PlayerStatsCommand.self, CourseStatsCommand.self])

    struct PlayerStatsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "player",
            abstract: "Rounds, average to par, the best round on each course, birdies and aces, the last 10 rounds.",
            discussion: """
                With --json: {"player", "rounds", "averageToPar", "bests": [{"course", "toPar", "strokes", "round"}],
                "birdies", "aces", "trend", "handicaps": {course: value}}. A DNF is no finished round; its holes count.
                """)
        @OptionGroup var data: DataOptions
        @Argument(help: "Player id or name.") var player: String
        @Flag(help: "Print JSON.") var json = false

        struct View: Encodable {
            struct Best: Encodable {
                var course: String
                var toPar: Int
                var strokes: Int
                var round: UUID
            }
            var player: String
            var rounds: Int
            var averageToPar: Double?
            var bests: [Best]
            var birdies: Int
            var aces: Int
            var trend: [Int]
            var handicaps: [String: Double]
        }

        func run() async throws {
            let db = try data.open()
            let who = try DeviceLookup.player(player, in: try await db.read(.players))
            let stats = try await db.read(.playerStats(who.id))
            // Each course's handicap (issue 37 item 2), under the course's name.
            let handicaps = Dictionary(
                stats.bests.compactMap { best in best.handicap.map { (best.course, $0) } }, uniquingKeysWith: { a, _ in a })
            if json {
                try printJSON(
                    View(
                        player: who.displayName, rounds: stats.rounds,
                        averageToPar: stats.averageToPar.map { ($0 * 10).rounded() / 10 },
                        bests: stats.bests.map {
                            .init(course: $0.course, toPar: $0.toPar, strokes: $0.strokes, round: $0.roundID)
                        },
                        birdies: stats.birdies, aces: stats.aces, trend: stats.trend, handicaps: handicaps))
                return
            }
            print("\(who.displayName): \(stats.rounds) finished round\(stats.rounds == 1 ? "" : "s")")
            if let average = stats.averageToPar { print("  average \(Handicap.text((average * 10).rounded() / 10))") }
            print("  \(stats.birdies) birdie\(stats.birdies == 1 ? "" : "s"), \(stats.aces) ace\(stats.aces == 1 ? "" : "s")")
            for best in stats.bests {
                let handicap = best.handicap.map { " · handicap \(Handicap.text($0))" } ?? ""
                print("  best on \(best.course): \(ScoreFormat.toPar(best.toPar)) (\(best.strokes))\(handicap)")
            }
            if !stats.trend.isEmpty {
                print("  last \(stats.trend.count): " + stats.trend.map { ScoreFormat.toPar($0) }.joined(separator: " "))
            }
        }
    }

    struct CourseStatsCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "course",
            abstract: "Each hole's average against par, the hardest and easiest hole, and the course record.",
            discussion: """
                With --json: {"course", "rounds", "holes": [{"hole", "par", "played", "averageToPar"}], "hardest",
                "easiest", "record": {"toPar", "holders": [{"name", "round"}]}}.
                """)
        @OptionGroup var data: DataOptions
        @Argument(help: "Course id or name.") var course: String
        @Flag(help: "Print JSON.") var json = false

        struct View: Encodable {
            struct Hole: Encodable {
                var hole: Int
                var par: Int
                var played: Int
                var averageToPar: Double?
            }
            struct Holder: Encodable {
                var name: String
                var round: UUID
            }
            struct Record: Encodable {
                var toPar: Int
                var holders: [Holder]
            }
            var course: String
            var rounds: Int
            var holes: [Hole]
            var hardest: Int?
            var easiest: Int?
            var record: Record?
        }

        func run() async throws {
            let db = try data.open()
            let which = try DeviceLookup.course(course, in: db)
            let stats = try await db.read(.courseStats(which.id))
            func hundredth(_ value: Double?) -> Double? { value.map { ($0 * 100).rounded() / 100 } }
            if json {
                try printJSON(
                    View(
                        course: which.name, rounds: stats.rounds,
                        holes: stats.holes.map {
                            .init(hole: $0.hole, par: $0.par, played: $0.played, averageToPar: hundredth($0.averageToPar))
                        },
                        hardest: stats.hardest, easiest: stats.easiest,
                        record: stats.record.map { record in
                            .init(toPar: record.toPar, holders: record.holders.map { .init(name: $0.name, round: $0.roundID) })
                        }))
                return
            }
            print("\(which.name): \(stats.rounds) completed round\(stats.rounds == 1 ? "" : "s")")
            if let record = stats.record {
                print("  record \(ScoreFormat.toPar(record.toPar)): " + record.holders.map(\.name).joined(separator: ", "))
            }
            if let hardest = stats.hardest, let easiest = stats.easiest { print("  hardest hole \(hardest), easiest \(easiest)") }
            for hole in stats.holes {
                let average = hole.averageToPar.map { String(format: "%+.2f", $0) } ?? "–"
                print("  hole \(hole.hole) par \(hole.par): \(average) (\(hole.played) played)")
            }
        }
    }
}
