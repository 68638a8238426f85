import Foundation
import GRDB
import HyzerKit
import Synchronization

/// What a season's events were last read as, by round (or night) and a key that changes
/// with anything that could change its standings: the round's row (`updated_at` moves on
/// every status, participant, par or reopening change) and its events (append-only, so the
/// newest `seq` moves on every score, correction or retraction), and for a night its own
/// row and every card's. The kiosk keeps one, so redrawing the season page reads only what
/// changed since (issue 37's goal: 5 years of weekly events in 50 ms). Nothing here is
/// stored, and an entry whose key moved is read again, so it cannot drift from the events.
public final class SeasonEventMemo: Sendable {
    struct Key: Hashable {
        var updatedAt: Double
        var lastSeq: Int64
        var cards: [Int64] = []
    }

    private let entries = Mutex<[UUID: (key: Key, event: SeasonEvent)]>([:])

    public init() {}

    func event(_ id: UUID, key: Key, read: () throws -> SeasonEvent) rethrows -> SeasonEvent {
        if let known = entries.withLock({ $0[id] }), known.key == key { return known.event }
        let event = try read()
        entries.withLock { $0[id] = (key, event) }
        return event
    }

    /// How many rounds and nights it holds (tests, benchmarks).
    public var count: Int { entries.withLock { $0.count } }
}

extension StoreRead where Value == [SeasonEvent] {
    /// A season's events (issue 37 item 1) between two days, both in: every league night (all
    /// its cards ranked together, its day the night's) and every other finished round with
    /// scores (an event of one, its day the one it started on in `timeZone`). Discarded
    /// rounds and nights are none. The season's table is computed from these, every time;
    /// `memo` saves reading again a round nothing has changed since the last time.
    public static func seasonEvents(
        from: String, to: String, timeZone: TimeZone = .current, memo: SeasonEventMemo? = nil
    ) -> Self {
        StoreRead { db in
            // Rounds by their start, a day wider each way than the range (time zones), then
            // by their exact day.
            guard let first = SeasonEvent.start(of: from, timeZone: timeZone),
                let last = SeasonEvent.start(of: to, timeZone: timeZone)
            else {
                throw StoreError.refused("\(from) to \(to) is not a range of days")
            }
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT r.id, r.updated_at, (SELECT max(e.seq) FROM score_events e WHERE e.round_id = r.id) AS last_seq
                    FROM rounds r JOIN scored_rounds s ON s.round_id = r.id
                    WHERE r.status = 'completed' AND COALESCE(r.started_at, r.created_at) BETWEEN ? AND ?
                    ORDER BY COALESCE(r.started_at, r.created_at), r.id
                    """, arguments: [first.timeIntervalSince1970 - 86_400, last.timeIntervalSince1970 + 2 * 86_400])
            var keys: [UUID: SeasonEventMemo.Key] = [:]
            for row in rows { keys[row["id"]] = SeasonEventMemo.Key(updatedAt: row["updated_at"], lastSeq: row["last_seq"] ?? 0) }
            var events: [SeasonEvent] = []
            var nightsSeen: Set<UUID> = []
            for row in rows {
                let id: UUID = row["id"]
                if let card = try LeagueEventCardRow.fetchOne(db, key: id),
                    let nightRow = try LeagueEventRow.fetchOne(db, key: card.eventID), nightRow.discardedAt == nil
                {
                    guard nightsSeen.insert(nightRow.id).inserted, nightRow.day >= from, nightRow.day <= to else { continue }
                    let night = try Rows.leagueEvent(nightRow)
                    // A card not finished yet has no key here: the night is read again once it is.
                    let key = SeasonEventMemo.Key(
                        updatedAt: nightRow.updatedAt, lastSeq: 0, cards: night.rounds.map { keys[$0]?.lastSeq ?? -1 })
                    let read = { SeasonEvent(night: try Rows.leagueNight(night, db)) }
                    events.append(try memo?.event(night.id, key: key, read: read) ?? read())
                    continue
                }
                let read = { SeasonEvent(round: try HyzerDatabase.snapshot(id, db), timeZone: timeZone) }
                let event = try keys[id].flatMap { key in try memo?.event(id, key: key, read: read) } ?? read()
                guard event.day >= from, event.day <= to else { continue }
                events.append(event)
            }
            var names: [UUID: String] = [:]
            for row in try PlayerRow.fetchAll(db) { names[row.id] = row.displayName }
            return SeasonEvent.counted(events, merges: try Rows.playerMerges(db), names: names)
        }
    }
}

extension StoreRead where Value == SeasonTable {
    /// A season's table (issue 37), computed now from its events. A net season's handicaps
    /// come from every round before its end, not only its own.
    public static func seasonTable(
        _ season: Season, timeZone: TimeZone = .current, memo: SeasonEventMemo? = nil
    ) -> Self {
        StoreRead { db in
            let read = StoreRead<[SeasonEvent]>.seasonEvents(
                from: season.net ? "1900-01-01" : season.from, to: season.to, timeZone: timeZone, memo: memo)
            let events = try read.body(db)
            return SeasonTable(season: season, events: season.net ? SeasonEvent.handicapped(events) : events)
        }
    }
}

extension StoreRead where Value == NewBests {
    /// What a finished round set (issue 37, "PB!"): its members' bests and the course record
    /// against every other finished round and night of the group (through `memo`, so a
    /// kiosk that has the season's events read does not read them again).
    public static func newBests(of round: RoundSnapshot, memo: SeasonEventMemo? = nil) -> Self {
        StoreRead { db in
            let history = try StoreRead<[SeasonEvent]>.seasonEvents(
                from: "1900-01-01", to: "2999-12-31", timeZone: .current, memo: memo
            )
            .body(db)
            var excluding: Set<UUID> = [round.round.id]
            if let card = try LeagueEventCardRow.fetchOne(db, key: round.round.id) { excluding.insert(card.eventID) }
            return NewBests(round: round, history: history, excluding: excluding)
        }
    }
}

extension StoreRead where Value == [UUID: Double] {
    /// A league night's handicaps (issue 37): on a night ranked by net, each registered
    /// player's on its course from their finished rounds there on earlier days (a merged
    /// player's rounds counted as theirs); none for a gross night, a guest, or a player
    /// with too few rounds. Read once a night: only earlier days' rounds count.
    public static func nightHandicaps(_ night: LeagueNightSnapshot, memo: SeasonEventMemo? = nil) -> Self {
        StoreRead { db in
            guard night.event.net else { return [:] }
            let history = try StoreRead<[SeasonEvent]>.seasonEvents(
                from: "1900-01-01", to: night.event.day, timeZone: .current, memo: memo
            )
            .body(db)
            return SeasonEvent.handicaps(
                of: night.event, players: night.participants, merges: try Rows.playerMerges(db), history: history)
        }
    }
}
