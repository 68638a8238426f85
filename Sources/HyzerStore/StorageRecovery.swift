import Foundation
import GRDB
import HyzerKit
import Logging
import SQLiteFaults

#if canImport(Glibc)
import Glibc
#endif

/// What the store does with a domain database SQLite called damaged (and only then): keep
/// the file for a person to rescue, start a fresh one, and copy into it every row the
/// damaged file still gives up.
enum StorageRecovery {
    /// What was copied out of a damaged file, and what could not be.
    struct Salvage: Sendable, Equatable, CustomStringConvertible {
        var courses = 0
        var players = 0
        var rounds = 0
        var events = 0
        /// Rows read but refused by the fresh database (an event whose round was lost),
        /// and ranges of rowids that could not be read at all.
        var unreadable = 0
        var refused = 0

        var description: String {
            "salvaged \(events) score events, \(rounds) rounds, \(players) players, \(courses) courses"
                + (unreadable + refused > 0 ? "; \(unreadable) rowids or tables unreadable, \(refused) rows unusable" : "")
        }
    }

    /// Never on a full or read-only disk: the file is kept in place and the fault is
    /// thrown, so the person frees space or fixes the card and the next start repairs.
    static func replaceDamagedDomain(
        at path: String, details: String, clock: any HyzerClock, logger: Logger
    ) throws -> (pool: DatabasePool, recovery: HyzerDatabase.Recovery) {
        let directory = (path as NSString).deletingLastPathComponent
        let volume = Volume(directory)
        if volume.isReadOnly { throw StorageFault.readOnly(directory: directory) }
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? NSNumber)?.int64Value ?? 0
        // Room for a fresh copy of everything, and a margin for its WAL.
        if let free = volume.freeBytes, free < size + Volume.fullBelow {
            throw StorageFault.full(directory: directory, freeBytes: free)
        }
        let aside = try moveAside(path, clock: clock)
        let pool = try HyzerDatabase.openPool(at: path, migrator: Schema.domainMigrator)
        let salvage = self.salvage(from: aside, into: pool, logger: logger)
        logger.critical(
            """
            !!! DOMAIN DATABASE DAMAGED !!! \(path): \(details). It was moved aside to \(aside) \
            and a fresh database was started; \(salvage). The sync cursor starts over, so \
            everything on the group server is pulled back, and every salvaged record is \
            pushed again (the server answers duplicate for what it has).
            """)
        return (pool, HyzerDatabase.Recovery(store: .domain, reason: "\(details); \(salvage)", movedTo: aside))
    }

    /// Renames the database (and its -wal/-shm, which hold committed pages too) to a name
    /// that cannot collide: the time to the microsecond plus a random suffix, reserved
    /// with O_EXCL before the rename replaces the reservation atomically.
    static func moveAside(_ path: String, clock: any HyzerClock) throws -> String {
        // Fractional seconds, without the colons a FAT-formatted card would refuse.
        let stamp = ISO8601Time.string(from: clock.date, fractionalSeconds: true).replacingOccurrences(of: ":", with: "")
        for _ in 0..<16 {
            let suffix = String(UInt32.random(in: 0...UInt32.max), radix: 16)
            let aside = "\(path).damaged-\(stamp)-\(suffix)"
            let fd = open(aside, O_CREAT | O_EXCL | O_WRONLY, 0o600)
            if fd < 0 {
                if errno == EEXIST { continue }
                throw StorageFault.classify(POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO), path: aside)
                    ?? POSIXError(.EIO)
            }
            close(fd)
            for ext in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: path + ext) {
                guard rename(path + ext, aside + ext) == 0 else {
                    let code = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
                    throw StorageFault.classify(code, path: path) ?? code
                }
            }
            return aside
        }
        throw POSIXError(.EEXIST)
    }

    /// Copies every readable row of the damaged file into the fresh database.
    ///
    /// Rowid tables are read by rowid ranges, and a range that fails is read row by row,
    /// so one bad page costs only the rows on it. Rounds are written as SQLite's own
    /// triggers require (participants while in setup, events while active) and then get
    /// their stored status back. The `sync_` cursor keys are not copied: the fresh
    /// database pulls the group's whole feed, and the triggers mark every salvaged record
    /// as not yet on the server.
    static func salvage(from damaged: String, into pool: DatabasePool, logger: Logger) -> Salvage {
        var result = Salvage()
        let source: DatabaseQueue
        do {
            source = try HyzerDatabase.openReadOnly(at: damaged, salvaging: true)
        } catch {
            logger.critical("nothing could be read from \(damaged): \(error)")
            return result
        }
        defer { try? source.close() }
        let meta = readAll(MetaRow.self, from: source, unreadable: &result.unreadable)
        let courses = readByRowid(CourseRow.self, from: source, unreadable: &result.unreadable)
        let players = readByRowid(PlayerRow.self, from: source, unreadable: &result.unreadable)
        let rounds = readByRowid(RoundRow.self, from: source, unreadable: &result.unreadable)
        let events = readByRowid(ScoreEventRow.self, from: source, unreadable: &result.unreadable)
        let holes = readChildren(HoleRow.self, of: courses.map(\.id), key: HoleRow.Columns.courseID, from: source)
        let participants = readChildren(
            ParticipantRow.self, of: rounds.map(\.id), key: ParticipantRow.Columns.roundID, from: source)

        do {
            try pool.write { db in
                for row in meta where !row.key.hasPrefix("sync_") { try row.save(db) }
                for row in courses { if insert(row, db, &result.refused) { result.courses += 1 } }
                for row in holes { _ = insert(row, db, &result.refused) }
                for row in players { if insert(row, db, &result.refused) { result.players += 1 } }
                let eventsByRound = Dictionary(grouping: events, by: \.roundID)
                for round in rounds {
                    var setup = round
                    setup.status = RoundStatus.setup.rawValue
                    guard insert(setup, db, &result.refused) else {
                        result.refused += eventsByRound[round.id]?.count ?? 0
                        continue
                    }
                    result.rounds += 1
                    for row in participants where row.roundID == round.id { _ = insert(row, db, &result.refused) }
                    var open = round
                    open.status = RoundStatus.active.rawValue
                    try open.update(db)
                    for event in eventsByRound[round.id] ?? [] {
                        if insert(event, db, &result.refused) { result.events += 1 }
                    }
                    try round.update(db)
                }
                let roundIDs = Set(rounds.map(\.id))
                result.refused += events.filter { !roundIDs.contains($0.roundID) }.count
            }
        } catch {
            logger.critical("salvaging \(damaged) failed: \(error)")
            return Salvage()
        }
        return result
    }

    /// One row into the fresh database, in a savepoint so a refused row (its parent was
    /// lost) leaves the rest of the salvage intact.
    private static func insert(_ row: some PersistableRecord, _ db: Database, _ refused: inout Int) -> Bool {
        do {
            try db.inSavepoint {
                try row.insert(db)
                return .commit
            }
            return true
        } catch {
            refused += 1
            return false
        }
    }

    private static func readAll<Row: FetchableRecord & TableRecord>(
        _ type: Row.Type, from source: DatabaseQueue, unreadable: inout Int
    ) -> [Row] {
        do {
            return try source.read { db in try Row.fetchAll(db) }
        } catch {
            unreadable += 1
            return []
        }
    }

    /// WITHOUT ROWID child tables: all at once, else parent by parent.
    private static func readChildren<Row: FetchableRecord & TableRecord>(
        _ type: Row.Type, of parents: [UUID], key: some ColumnExpression, from source: DatabaseQueue
    ) -> [Row] {
        if let all = try? source.read({ db in try Row.fetchAll(db) }) { return all }
        return parents.flatMap { parent in
            (try? source.read { db in try Row.filter(key == parent).fetchAll(db) }) ?? []
        }
    }

    private static let chunk: Int64 = 256

    private static func readByRowid<Row: FetchableRecord & TableRecord>(
        _ type: Row.Type, from source: DatabaseQueue, unreadable: inout Int
    ) -> [Row] {
        // The largest rowid bounds the scan; when even that cannot be read, the file's
        // page count does (a page holds far fewer than 64 of these rows).
        let last: Int64 =
            (try? source.read { db in try Row.select(max(Column.rowID), as: Int64.self).fetchOne(db) ?? 0 })
            ?? ((try? source.read { db in try Int64.fetchOne(db, sql: "PRAGMA page_count") ?? 0 }) ?? 0) * 64
        var rows: [Row] = []
        var low: Int64 = 1
        while low <= last {
            let high = min(last, low + chunk - 1)
            if let page = try? source.read({ db in
                try Row.filter(Column.rowID >= low && Column.rowID <= high).order(Column.rowID).fetchAll(db)
            }) {
                rows += page
            } else {
                for rowid in low...high {
                    do {
                        if let row = try source.read({ db in try Row.filter(Column.rowID == rowid).fetchOne(db) }) {
                            rows.append(row)
                        }
                    } catch {
                        unreadable += 1
                    }
                }
            }
            low = high + 1
        }
        return rows
    }
}
