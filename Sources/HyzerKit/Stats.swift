import Foundation

/// A player's numbers across their history (issue 37 item 3), computed from the completed
/// rounds they played, never stored. A round counts as *finished* for a player when they
/// are not DNF in it; holes count wherever the player has a value.
public struct PlayerStats: Sendable, Hashable {
    /// One course's best: the lowest to-par finished round there (the earliest of equals).
    public struct Best: Sendable, Hashable {
        public var courseID: UUID
        public var course: String
        public var roundID: UUID
        public var toPar: Int
        public var strokes: Int
        public var date: Date
        /// The player's handicap on this course now (`Handicap.value`); nil under its minimum.
        public var handicap: Double?
    }

    /// Finished rounds.
    public var rounds: Int
    /// Their mean to-par; nil with none.
    public var averageToPar: Double?
    /// The personal best on each course played, by course name.
    public var bests: [Best]
    /// Holes one under par, and aces (a 1), over every hole with a value.
    public var birdies: Int
    public var aces: Int
    /// The last 10 finished rounds' to-par, oldest first: the trend's line.
    public var trend: [Int]

    /// `player`'s numbers from `rounds` (completed rounds; others are left out). `merged`:
    /// the ids of players merged into them (issue 35), whose rounds are theirs.
    public init(player: UUID, merged: Set<UUID> = [], rounds all: [RoundSnapshot]) {
        var finished: [(snapshot: RoundSnapshot, standing: Standing, date: Date)] = []
        var birdies = 0
        var aces = 0
        let ids = merged.union([player])
        for snapshot in all where snapshot.round.status == .completed {
            guard let player = snapshot.round.participants.first(where: { ids.contains($0.id) })?.id else { continue }
            for hole in snapshot.course.holes {
                guard let value = snapshot.scorecard.value(participant: player, hole: hole) else { continue }
                if value == 1 { aces += 1 }
                if value == snapshot.course.pars[hole - 1] - 1 { birdies += 1 }
            }
            if let standing = snapshot.standings.rows.first(where: { $0.participantID == player }), standing.status != .dnf {
                let round = snapshot.round
                finished.append((snapshot, standing, round.completedAt ?? round.startedAt ?? round.createdAt))
            }
        }
        finished.sort { ($0.date, $0.snapshot.round.id.uuidString) < ($1.date, $1.snapshot.round.id.uuidString) }
        rounds = finished.count
        averageToPar = finished.isEmpty ? nil : Double(finished.map(\.standing.toPar).reduce(0, +)) / Double(finished.count)
        var bests: [UUID: Best] = [:]
        var byCourse: [UUID: [Int]] = [:]
        for (snapshot, standing, date) in finished {
            let course = snapshot.round.courseID
            byCourse[course, default: []].append(standing.toPar)
            if let known = bests[course], known.toPar <= standing.toPar { continue }
            bests[course] = Best(
                courseID: course, course: snapshot.course.name, roundID: snapshot.round.id, toPar: standing.toPar,
                strokes: standing.strokes, date: date)
        }
        // Oldest first above: the handicap reads the newest first.
        for (course, toPars) in byCourse { bests[course]?.handicap = Handicap.value(toPar: toPars.reversed()) }
        self.bests = bests.values.sorted { $0.course.localizedCaseInsensitiveCompare($1.course) == .orderedAscending }
        self.birdies = birdies
        self.aces = aces
        trend = finished.suffix(10).map(\.standing.toPar)
    }
}

/// A course's numbers (issue 37 item 3): each hole's average against par, the hardest and
/// easiest hole, and the course record, from its completed rounds (each played to its own
/// pars).
public struct CourseStats: Sendable, Hashable {
    public struct Hole: Sendable, Hashable {
        public var hole: Int
        public var par: Int
        /// Values entered on it.
        public var played: Int
        /// Mean strokes less par; nil when nobody has played it.
        public var averageToPar: Double?
    }

    /// The record: the lowest to-par finished round, everyone who shot it.
    public struct Record: Sendable, Hashable {
        public var toPar: Int
        public var holders: [(name: String, roundID: UUID, date: Date)]
        public static func == (a: Record, b: Record) -> Bool {
            a.toPar == b.toPar && a.holders.map(\.roundID) == b.holders.map(\.roundID)
                && a.holders.map(\.name) == b.holders.map(\.name)
        }
        public func hash(into hasher: inout Hasher) {
            hasher.combine(toPar)
            for holder in holders { hasher.combine(holder.roundID) }
        }
    }

    public var rounds: Int
    public var holes: [Hole]
    /// The hole with the highest average against par, and the lowest (the first of equals).
    public var hardest: Int?
    public var easiest: Int?
    public var record: Record?

    public init(course: Course, rounds all: [RoundSnapshot]) {
        let played = all.filter { $0.round.courseID == course.id && $0.round.status == .completed }
        rounds = played.count
        var sums = Array(repeating: (count: 0, overPar: 0), count: course.holeCount)
        var best: Record?
        for snapshot in played {
            let pars = snapshot.course.pars
            for participant in snapshot.round.participants {
                for hole in 1...min(course.holeCount, pars.count) {
                    guard let value = snapshot.scorecard.value(participant: participant.id, hole: hole) else { continue }
                    sums[hole - 1].count += 1
                    sums[hole - 1].overPar += value - pars[hole - 1]
                }
            }
            let round = snapshot.round
            let date = round.completedAt ?? round.startedAt ?? round.createdAt
            for row in snapshot.standings.rows where row.status != .dnf {
                if best == nil || row.toPar < best!.toPar {
                    best = Record(toPar: row.toPar, holders: [(row.name, round.id, date)])
                } else if row.toPar == best!.toPar {
                    best!.holders.append((row.name, round.id, date))
                }
            }
        }
        holes = sums.enumerated().map { index, sum in
            Hole(
                hole: index + 1, par: course.pars[index], played: sum.count,
                averageToPar: sum.count == 0 ? nil : Double(sum.overPar) / Double(sum.count))
        }
        let rated = holes.compactMap { hole in hole.averageToPar.map { (hole.hole, $0) } }
        hardest = rated.max { $0.1 < $1.1 }?.0
        easiest = rated.min { $0.1 < $1.1 }?.0
        best?.holders.sort { ($0.date, $0.name) < ($1.date, $1.name) }
        record = best
    }
}

/// What a just-finished round set (issue 37 item 3: the summary and the board say "PB!" once):
/// the players whose finished round beat their best on this course, and whether it broke the
/// course record. A first round on a course is no personal best (there was nothing to beat).
public struct NewBests: Sendable, Hashable {
    public var personalBests: Set<UUID>
    public var courseRecord: Bool

    /// `round` against the completed rounds before it on its course (`earlier`; others are ignored).
    public init(round: RoundSnapshot, earlier: [RoundSnapshot]) {
        let before = earlier.filter {
            $0.round.courseID == round.round.courseID && $0.round.status == .completed && $0.round.id != round.round.id
        }
        var bests: [UUID: Int] = [:]
        var record: Int?
        for snapshot in before {
            for row in snapshot.standings.rows where row.status != .dnf {
                bests[row.participantID] = min(bests[row.participantID] ?? .max, row.toPar)
                record = min(record ?? .max, row.toPar)
            }
        }
        let finished = round.standings.rows.filter { $0.status != .dnf }
        personalBests = Set(
            finished.filter { row in bests[row.participantID].map { row.toPar < $0 } ?? false }.map(\.participantID))
        courseRecord = record.map { r in finished.contains { $0.toPar < r } } ?? false
    }
}

extension NewBests {
    /// The same from the group's events (`SeasonEvent`s: every finished round and night,
    /// the members' results, the kiosk's memo keeps them read), leaving out `excluding` (the
    /// round itself, or the night it is a card of): the personal bests and the record are
    /// the members', since a guest has no history to beat.
    public init(round: RoundSnapshot, history: [SeasonEvent], excluding: Set<UUID>) {
        let course = round.round.courseID.uuidString
        var bests: [UUID: Int] = [:]
        var record: Int?
        for event in history where event.course == course && !excluding.contains(event.id) {
            for result in event.results where result.finished {
                bests[result.player] = min(bests[result.player] ?? .max, result.toPar)
                record = min(record ?? .max, result.toPar)
            }
        }
        let guests = Set(round.round.participants.filter(\.isGuest).map(\.id))
        let finished = round.standings.rows.filter { $0.status != .dnf && !guests.contains($0.participantID) }
        personalBests = Set(
            finished.filter { row in bests[row.participantID].map { row.toPar < $0 } ?? false }.map(\.participantID))
        courseRecord = record.map { r in finished.contains { $0.toPar < r } } ?? false
    }
}
