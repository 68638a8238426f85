import Foundation
import HyzerKit

/// What a device's screens show at once: the rounds being played, the newest finished one,
/// the courses and the players. Read in one transaction (`StoreRead.overview`), so its parts
/// agree: a commit that lands while it is read (a sync's page, another process's write) is
/// in all of them or in none, and a round is never both in play and the last one finished.
public struct StoreOverview: Sendable, Equatable {
    /// The rounds being played (active or awaiting finalization), newest first.
    public var roundsInPlay: [RoundSnapshot]
    /// The most recently completed round that was played (FR59's newest); nil when none.
    public var lastCompleted: RoundSnapshot?
    public var courses: [Course]
    public var players: [Player]
    /// Deleted courses, most recent first, for the Courses list's "Deleted" section (issue 35).
    public var deletedCourses: [DeletedCourse] = []
    /// The league night a round in play is a card of (issue 36), with all its cards.
    public var leagueNight: LeagueNightSnapshot?
    /// The latest night's registered players: check-in's "same as last week".
    public var lastNightPlayers: [UUID] = []
}

extension StoreRead where Value == [RoundSnapshot] {
    /// Every round being played as a snapshot, newest first (`activeRounds`, then each one's
    /// course, events and aliases), in one transaction.
    public static var roundsInPlay: Self {
        let rounds = StoreRead<[Round]>.activeRounds.body
        return StoreRead { db in try rounds(db).map { try HyzerDatabase.snapshot($0.id, db) } }
    }
}

extension StoreRead where Value == RoundSnapshot? {
    /// The newest completed round of the history (`history(limit: 1)`) as a snapshot.
    public static var lastCompleted: Self {
        let newest = StoreRead<[CompletedRound]>.history(limit: 1).body
        return StoreRead { db in try newest(db).first.map { try HyzerDatabase.snapshot($0.id, db) } }
    }
}

extension StoreRead where Value == StoreOverview {
    /// The store's named reads the screens need, composed into one read transaction.
    public static var overview: Self {
        let parts = StoreRead<[RoundSnapshot]>.roundsInPlay
            .and(StoreRead<RoundSnapshot?>.lastCompleted)
            .and(StoreRead<[Course]>.courses)
            .and(StoreRead<[Player]>.players)
            .and(StoreRead<[DeletedCourse]>.deletedCourses)
            .map { read in
                let ((((rounds, last), courses), players), deleted) = read
                return StoreOverview(
                    roundsInPlay: rounds, lastCompleted: last, courses: courses, players: players, deletedCourses: deleted)
            }.body
        let lastWeek = StoreRead<[UUID]>.lastLeagueNightPlayers.body
        return StoreRead { db in
            var overview = try parts(db)
            // The night being played, else the one whose card finished last (its side games
            // are still entered and looked at after the round).
            overview.leagueNight =
                try Rows.leagueNight(of: overview.roundsInPlay, db)
                ?? Rows.leagueNight(of: [overview.lastCompleted].compactMap { $0 }, db)
            overview.lastNightPlayers = try lastWeek(db)
            return overview
        }
    }
}
