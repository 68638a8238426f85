import Foundation
import GRDB
import HyzerKit

// Seasons (issue 37): a date range and a scoring rule, one row each. Only the definition is
// kept; the table is computed from the season's events on every read (`seasonEvents`),
// never stored as a total that could drift.

struct SeasonRow: StoreRecord {
    static let databaseTableName = "seasons"
    var id: UUID
    var name: String
    var fromDay: String
    var toDay: String
    /// `"points"`, `"best"` or `"average"`, with its number(s) in `points` or `count`.
    var rule: String
    /// The points table as a JSON array, for the points rule.
    var points: String?
    var count: Int?
    var net: Bool
    var createdAt: Double
    var updatedAt: Double
    var deletedAt: Double?
}

extension Rows {
    static func season(_ row: SeasonRow) throws -> Season {
        do {
            let rule: Season.Rule =
                switch (row.rule, row.points, row.count) {
                case ("points", let table?, _): .pointsByPlace(try JSONDecoder().decode([Int].self, from: Data(table.utf8)))
                case ("best", _, let count?): .bestRounds(count)
                case ("average", _, let minimum?): .averageToPar(minimumRounds: minimum)
                default: throw StoreError.corruptRecord("season \(row.id) has an unknown rule \(row.rule)")
                }
            return try Season(id: row.id, name: row.name, from: row.fromDay, to: row.toDay, rule: rule, net: row.net)
        } catch let error as StoreError {
            throw error
        } catch {
            throw StoreError.corruptRecord("season \(row.id): \(error)")
        }
    }

    /// Writes `season` as it is (new, changed, or from elsewhere with its own time); a
    /// deletion keeps its first time.
    static func save(_ season: Season, at updatedAt: Double, deleted: Bool = false, _ db: Database) throws {
        let known = try SeasonRow.fetchOne(db, key: season.id)
        let (rule, points, count): (String, String?, Int?) =
            switch season.rule {
            case .pointsByPlace(let table): ("points", String(decoding: try JSONEncoder().encode(table), as: UTF8.self), nil)
            case .bestRounds(let n): ("best", nil, n)
            case .averageToPar(let n): ("average", nil, n)
            }
        try SeasonRow(
            id: season.id, name: season.name, fromDay: season.from, toDay: season.to, rule: rule, points: points,
            count: count, net: season.net, createdAt: known?.createdAt ?? updatedAt, updatedAt: updatedAt,
            deletedAt: deleted ? (known?.deletedAt ?? updatedAt) : nil
        ).save(db)
    }
}

// MARK: Writes

extension StoreWrite where Value == Season {
    /// A new season, or a change to one (its name, range or rule): the table follows at once,
    /// since it is computed. A deleted season cannot be changed.
    public static func saveSeason(_ season: Season) -> Self {
        StoreWrite { db, context in
            if let known = try SeasonRow.fetchOne(db, key: season.id), known.deletedAt != nil {
                throw StoreError.notFound("season \(season.name)")
            }
            try Rows.save(season, at: Rows.seconds(context.now), db)
            return season
        }
    }

    /// A season set up by mistake: off every list and board, everywhere (a deletion outranks
    /// every other version). Its events are untouched: they are the rounds'.
    public static func deleteSeason(_ id: UUID) -> Self {
        StoreWrite { db, context in
            guard let row = try SeasonRow.fetchOne(db, key: id), row.deletedAt == nil else {
                throw StoreError.notFound("season \(id)")
            }
            let season = try Rows.season(row)
            try Rows.save(season, at: Rows.seconds(context.now), deleted: true, db)
            return season
        }
    }
}

// MARK: Reads

extension StoreRead where Value == [Season] {
    /// The group's seasons, newest first (by their first day).
    public static var seasons: Self {
        StoreRead { db in
            try SeasonRow.filter(SeasonRow.Columns.deletedAt == nil)
                .order(SeasonRow.Columns.fromDay.desc, SeasonRow.Columns.toDay.desc, SeasonRow.Columns.id)
                .fetchAll(db).map(Rows.season)
        }
    }
}

// MARK: Sync

extension ChangeLedger {
    /// A newer version of a season from elsewhere, stored with its own time.
    public func saveRemote(_ season: Season, updatedAt: Double, deleted: Bool) throws {
        try refusing { try Rows.save(season, at: updatedAt, deleted: deleted, db) }
    }

    func localSeasonChange(_ id: UUID, _ version: UUID) throws -> LocalChange? {
        guard let row = try SeasonRow.fetchOne(db, key: id) else { return nil }
        return .season(try Rows.season(row), version: version, updatedAt: row.updatedAt, deleted: row.deletedAt != nil)
    }

    func localSeasonVersion(_ id: UUID, _ version: UUID) throws -> LocalVersion? {
        try SeasonRow.fetchOne(db, key: id).map {
            LocalVersion(updatedAt: $0.updatedAt, version: version, deleted: $0.deletedAt != nil)
        }
    }
}
