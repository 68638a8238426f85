import Foundation
import HyzerKit
import HyzerSyncProtocol

/// What the live board page shows: a group's rounds in play (or, when none is, its last
/// finished round), each with standings computed by the same HyzerKit rules every device
/// uses (`Scorecard`, `StandingsEngine`, `ScoreFormat`), so a TV on the clubhouse wall and
/// the kiosk at the first tee can never disagree on a position, a tie or a DNF.
///
/// The page only lays this out: every label ("T2", "+3", "thru 7", "DNF") is decided here.
public struct LiveBoard: Codable, Sendable, Hashable {
    public struct Group: Codable, Sendable, Hashable {
        public var id: String
        public var name: String
    }

    public struct Row: Codable, Sendable, Hashable {
        /// "1", "T2", or "–" for DNF.
        public var position: String
        public var name: String
        public var guest: Bool
        /// "E", "+3", "-2" (DNF rows keep the to-par of the holes they played).
        public var toPar: String
        /// The sign alone, for the page's colour (never colour alone: the text says it too).
        public var toParValue: Int
        /// "thru 7", "F" or "DNF".
        public var progress: String
        public var strokes: Int
    }

    public struct Round: Codable, Sendable, Hashable {
        public var id: UUID
        public var course: String
        public var holes: Int
        public var par: Int
        /// "active", "awaitingFinalization" or "completed".
        public var status: String
        public var startedAt: Double?
        public var completedAt: Double?
        /// Cells where devices disagree, not yet resolved (the kiosk's "N to check" badge).
        public var discrepancies: Int
        public var rows: [Row]
    }

    public var group: Group
    /// The group's feed head this board was computed at: the page ignores an older board
    /// arriving after a newer one.
    public var head: Int64
    /// Newest first. Empty for a group that has never finished or started a round.
    public var rounds: [Round]

    public init(group: Group, head: Int64, rounds: [Round]) {
        self.group = group
        self.head = head
        self.rounds = rounds
    }
}

/// The current records a board is computed from, as the storage read them in one
/// transaction. Records that fail the domain's validation are left out, never guessed at.
public struct LiveBoardSource: Sendable {
    public var group: GroupInfo
    public var head: Int64
    /// The rounds to show, in any order.
    public var rounds: [RoundRecord]
    public var courses: [UUID: CourseRecord]
    /// Every score event of those rounds, by round id, in any order.
    public var events: [UUID: [ScoreEvent]]

    public init(
        group: GroupInfo, head: Int64, rounds: [RoundRecord], courses: [UUID: CourseRecord], events: [UUID: [ScoreEvent]]
    ) {
        self.group = group
        self.head = head
        self.rounds = rounds
        self.courses = courses
        self.events = events
    }
}

extension LiveBoard {
    /// Pure: the same source always gives the same board.
    public init(_ source: LiveBoardSource) {
        var rounds: [Round] = []
        for record in source.rounds {
            guard let course = record.playedCourse(source.courses[record.courseID]) else { continue }
            let round = record.round
            let events = source.events[round.id] ?? []
            let scorecard = Scorecard(course: course, round: round, events: events)
            let standings = StandingsEngine.standings(
                scorecard: scorecard, participants: round.participants, finished: round.status == .completed)
            let guests = Set(round.participants.filter { $0.kind == .guest }.map(\.id))
            rounds.append(
                Round(
                    id: round.id, course: course.name, holes: course.pars.count, par: course.pars.reduce(0, +),
                    status: round.status.rawValue, startedAt: record.startedAt, completedAt: record.completedAt,
                    discrepancies: scorecard.discrepancies.count,
                    rows: standings.rows.map { row in
                        Row(
                            position: row.positionLabel, name: row.name, guest: guests.contains(row.participantID),
                            toPar: ScoreFormat.toPar(row.toPar), toParValue: row.toPar,
                            progress: ScoreFormat.progress(row), strokes: row.strokes)
                    }))
        }
        // Newest first: the round started last is the one a glance is most likely after.
        let started = Dictionary(source.rounds.map { ($0.id, $0.startedAt ?? $0.createdAt) }, uniquingKeysWith: max)
        rounds.sort { a, b in
            let (sa, sb) = (started[a.id] ?? 0, started[b.id] ?? 0)
            return sa != sb ? sa > sb : a.id.precedes(b.id)
        }
        self.init(group: Group(id: source.group.id, name: source.group.name), head: source.head, rounds: rounds)
    }
}
