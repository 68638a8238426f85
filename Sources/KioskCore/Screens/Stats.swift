import Foundation
import HyzerKit

extension Screen {
    /// The menu's "Stats" beside History (issue 37 item 3): the roster and the courses; a
    /// player's page (rounds, average, birdies and aces, the last 10 rounds as a line, the
    /// best on each course with the handicap there) or a course's (its record, hardest and
    /// easiest hole, each hole against par). A page is read when opened (`.loadStats`), from
    /// the finished rounds, never kept as a total. A best's row opens its course's page.
    public struct Stats: Sendable, Equatable {
        public enum Subject: Sendable, Hashable {
            case player(UUID)
            case course(UUID)
        }

        public enum Page: Sendable, Equatable {
            case player(PlayerStats)
            case course(CourseStats)
        }

        /// One row of a page, worded: a title over a detail; `trend` draws as a small line,
        /// `opens` is the course a best's row leads to.
        public struct Row: Sendable, Equatable {
            public var title: String
            public var detail: String
            public var trend: [Int]?
            public var opens: UUID?
        }

        /// The list's cursor, kept while a page is open for the way back.
        public var cursor = 0
        /// The page asked for and not yet arrived.
        public var opening: Subject?
        /// A page on show, with its own cursor.
        public struct Opened: Sendable, Equatable {
            public var subject: Subject
            public var page: Page
            public var cursor = 0
        }

        /// The page on show.
        public var open: Opened?
        /// The player's page a course's page was opened from (a best's row): the way back.
        public var from: Opened?

        public init() {}

        /// The list's rows: the roster by name, then the courses by name.
        public static func subjects(in data: KioskData) -> [(subject: Subject, title: String, detail: String)] {
            let byName = { (a: String, b: String) in a.localizedCaseInsensitiveCompare(b) == .orderedAscending }
            return data.players.sorted { byName($0.displayName, $1.displayName) }.map {
                (.player($0.id), $0.displayName, "player")
            }
                + data.courses.sorted { byName($0.name, $1.name) }.map {
                    (.course($0.id), $0.name, "course · \($0.holeCount) holes")
                }
        }

        /// What a page says, row by row (the tests read these; the screen draws them).
        public static func rows(_ page: Page, minus: String) -> [Row] {
            func toPar(_ value: Double) -> String { ScoreFormat.toPar(tenths: value, minus: minus) }
            switch page {
            case .player(let stats):
                var rows = [
                    Row(
                        title: "Rounds",
                        detail: "\(stats.rounds) finished" + (stats.averageToPar.map { " · average \(toPar($0))" } ?? "")),
                    Row(
                        title: "Birdies and aces",
                        detail:
                            "\(stats.birdies) \(stats.birdies == 1 ? "birdie" : "birdies") · \(stats.aces) \(stats.aces == 1 ? "ace" : "aces")"
                    ),
                ]
                if !stats.trend.isEmpty {
                    rows.append(
                        Row(
                            title: "Last \(stats.trend.count) \(stats.trend.count == 1 ? "round" : "rounds")",
                            detail: stats.trend.map { ScoreFormat.toPar($0, minus: minus) }.joined(separator: " "),
                            trend: stats.trend))
                }
                for best in stats.bests {
                    let handicap = best.handicap.map { "handicap \(toPar($0))" } ?? "no handicap yet"
                    rows.append(
                        Row(
                            title: "Best at \(best.course)",
                            detail: "\(ScoreFormat.toPar(best.toPar, minus: minus)) · \(best.strokes) strokes · "
                                + "\(Screen.History.dayAndMonth(best.date)) · \(handicap)",
                            opens: best.courseID))
                }
                return rows
            case .course(let stats):
                var rows = [Row(title: "Rounds", detail: "\(stats.rounds) finished")]
                if let record = stats.record {
                    let who = record.holders.map { "\($0.name), \(Screen.History.dayAndMonth($0.date))" }
                    rows.append(
                        Row(
                            title: "Course record",
                            detail: "\(ScoreFormat.toPar(record.toPar, minus: minus)) · " + who.joined(separator: "; ")))
                }
                func hole(_ n: Int?) -> String? {
                    guard let n, let h = stats.holes.first(where: { $0.hole == n }), let average = h.averageToPar else {
                        return nil
                    }
                    return "hole \(n) · par \(h.par) · \(toPar(average)) on average"
                }
                if let hardest = hole(stats.hardest) { rows.append(Row(title: "Hardest", detail: hardest)) }
                if let easiest = hole(stats.easiest) { rows.append(Row(title: "Easiest", detail: easiest)) }
                for h in stats.holes {
                    rows.append(
                        Row(
                            title: "Hole \(h.hole) · par \(h.par)",
                            detail: h.averageToPar.map { "\(toPar($0)) on average · \(h.played) played" } ?? "not played yet"))
                }
                return rows
            }
        }

        /// The open page's heading.
        public func heading(in data: KioskData) -> (title: String, subtitle: String) {
            switch open?.subject {
            case .player(let id)?:
                (data.players.first { $0.id == id }?.displayName ?? "Player", "Their numbers, from every finished round")
            case .course(let id)?:
                (data.courses.first { $0.id == id }?.name ?? "Course", "Its numbers, from every finished round")
            case nil: ("Stats", opening == nil ? "A player's numbers, or a course's" : "Reading…")
            }
        }
    }
}

extension Screen.Stats: ScreenBehavior {
    var name: String {
        switch open?.subject {
        case .player?: "stats-player"
        case .course?: "stats-course"
        case nil: "stats"
        }
    }

    static func open(in state: inout KioskState) { state.screen = .stats(Screen.Stats()) }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var copy = self
        if let open {
            let count = Self.rows(open.page, minus: "-").count
            return state.moveCursor(open.cursor, by: steps, count: count) { row in
                copy.open?.cursor = row
                return .stats(copy)
            }
        }
        return state.moveCursor(cursor, by: steps, count: Self.subjects(in: state.data).count) { row in
            copy.cursor = row
            return .stats(copy)
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        var copy = self
        if let open {
            // A best's row opens its course's page; the way back returns to this player.
            let rows = Self.rows(open.page, minus: "-")
            guard rows.indices.contains(open.cursor), let course = rows[open.cursor].opens, opening == nil else {
                return [.buzz(.limit)]
            }
            copy.opening = .course(course)
            copy.from = open
            state.screen = .stats(copy)
            return [.loadStats(.course(course))]
        }
        let subjects = Self.subjects(in: state.data)
        guard subjects.indices.contains(cursor), opening == nil else { return [.buzz(.limit)] }
        copy.opening = subjects[cursor].subject
        state.screen = .stats(copy)
        return [.loadStats(subjects[cursor].subject)]
    }

    /// A page back to the list (or to the player a course was opened from); the list back
    /// to the menu on Stats.
    func back(in state: inout KioskState) {
        var copy = self
        copy.opening = nil
        if let from {
            copy.open = from
            copy.from = nil
        } else if open != nil {
            copy.open = nil
        } else {
            state.screen = .menu(cursor: state.menuItems.firstIndex(of: .stats) ?? 0)
            return
        }
        state.screen = .stats(copy)
    }

    /// The page asked for arrived (one for a page already left is dropped).
    static func loaded(_ subject: Subject, _ page: Page, in state: inout KioskState) {
        guard case .stats(var stats) = state.screen, stats.opening == subject else { return }
        stats.opening = nil
        stats.open = Opened(subject: subject, page: page)
        state.screen = .stats(stats)
    }
}
