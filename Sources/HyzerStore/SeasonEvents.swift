import Foundation
import GRDB
import HyzerKit

extension StoreRead where Value == [SeasonEvent] {
    /// A season's events (issue 37 item 1) between two days, both in: every league night (all
    /// its cards ranked together, its day the night's) and every other finished round with
    /// scores (an event of one, its day the one it started on in `timeZone`). Discarded
    /// rounds and nights are none. The season's table is computed from these, every time.
    public static func seasonEvents(from: String, to: String, timeZone: TimeZone = .current) -> Self {
        StoreRead { db in
            // Rounds by their start, a day wider each way than the range (time zones), then
            // by their exact day.
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = timeZone
            formatter.dateFormat = "yyyy-MM-dd"
            guard let first = formatter.date(from: from), let last = formatter.date(from: to) else {
                throw StoreError.refused("\(from) to \(to) is not a range of days")
            }
            let ids = try UUID.fetchAll(
                db,
                sql: """
                    SELECT r.id FROM rounds r JOIN scored_rounds s ON s.round_id = r.id
                    WHERE r.status = 'completed' AND COALESCE(r.started_at, r.created_at) BETWEEN ? AND ?
                    ORDER BY COALESCE(r.started_at, r.created_at), r.id
                    """, arguments: [first.timeIntervalSince1970 - 86_400, last.timeIntervalSince1970 + 2 * 86_400])
            var events: [SeasonEvent] = []
            var nightsSeen: Set<UUID> = []
            for id in ids {
                if let card = try LeagueEventCardRow.fetchOne(db, key: id),
                    let event = try Rows.leagueEvent(id: card.eventID, db), !event.discarded
                {
                    guard nightsSeen.insert(event.id).inserted, event.day >= from, event.day <= to else { continue }
                    let night = try Rows.leagueNight(event, db)
                    events.append(
                        SeasonEvent(
                            id: event.id, day: event.day, course: event.courseID.uuidString,
                            standings: night.results.standings.standings.rows,
                            guests: Set(night.participants.filter(\.isGuest).map(\.id))))
                    continue
                }
                let snapshot = try HyzerDatabase.snapshot(id, db)
                let round = snapshot.round
                let day = formatter.string(from: round.startedAt ?? round.createdAt)
                guard day >= from, day <= to else { continue }
                events.append(
                    SeasonEvent(
                        id: id, day: day, course: round.courseID.uuidString, standings: snapshot.standings.rows,
                        guests: Set(round.participants.filter(\.isGuest).map(\.id))))
            }
            // A merged player's rounds are the player they were merged into (as history
            // counts them), under that player's name.
            let merges = try Rows.playerMerges(db)
            var names: [UUID: String] = [:]
            for row in try PlayerRow.fetchAll(db) { names[row.id] = row.displayName }
            return events.map { event in
                var event = event
                event.results = event.results.map { result in
                    var result = result
                    result.player = merges.canonical(result.player)
                    result.name = names[result.player] ?? result.name
                    return result
                }
                return event
            }
        }
    }
}
