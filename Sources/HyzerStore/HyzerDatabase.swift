import Foundation
import GRDB
import HyzerKit
import Logging

/// The kiosk's database: one façade over the two SQLite files of the dual store.
///
/// - `hyzer.sqlite` (domain): courses, players, rounds, and the append-only score events.
/// - `sync.sqlite` (operational): the sync outbox and cursors, reconstructible (A3).
///
/// Every write is a named method that keeps the domain's invariants inside one
/// transaction; SQL triggers repeat the critical ones (append-only events, locked
/// participants) so no other writer can break them either. Reads return domain values.
public final class HyzerDatabase: Sendable {
    public static let domainFileName = "hyzer.sqlite"
    public static let operationalFileName = "sync.sqlite"

    public let directory: URL
    public let domain: DatabasePool
    public let operational: DatabasePool
    /// This device's identity in score events (conflict detection compares devices).
    public let deviceID: String
    /// What start-up had to repair, for the log and the diagnostics screen.
    public let recoveries: [Recovery]

    public struct Recovery: Sendable, Equatable, CustomStringConvertible {
        public enum Store: String, Sendable { case domain, operational }
        public var store: Store
        public var reason: String
        /// Where the damaged file was kept, for a domain store.
        public var movedTo: String?

        public var description: String {
            "\(store.rawValue) database was damaged (\(reason)); "
                + (movedTo.map { "moved aside to \($0) and started clean" } ?? "recreated")
        }
    }

    /// Opens (creating if needed) both stores in `directory`, repairing per A3/A6:
    /// a damaged operational store is recreated; a damaged domain store is moved aside
    /// (never deleted: a person may still rescue scores from it), a clean one is started,
    /// and the operational store is reset with it so sync re-pulls everything.
    public init(directory: URL, logger: Logger = Logger(label: "hyzer.store")) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        let domainPath = directory.appendingPathComponent(Self.domainFileName).path
        let operationalPath = directory.appendingPathComponent(Self.operationalFileName).path
        var recoveries: [Recovery] = []

        let domain: DatabasePool
        do {
            domain = try Self.openPool(at: domainPath, migrator: Schema.domainMigrator)
        } catch {
            let stamp = ISO8601DateFormatter().string(from: Date()).replacingOccurrences(of: ":", with: "")
            let aside = domainPath + ".damaged-" + stamp
            try Self.moveAside(domainPath, to: aside)
            Self.remove(operationalPath)
            let recovery = Recovery(store: .domain, reason: "\(error)", movedTo: aside)
            logger.critical("""
                !!! DOMAIN DATABASE DAMAGED !!! \(domainPath) could not be opened: \(error). \
                It was moved aside to \(aside) and a clean database was started. Local scores \
                not yet on the group server are in that file; synced data will be pulled again.
                """)
            recoveries.append(recovery)
            domain = try Self.openPool(at: domainPath, migrator: Schema.domainMigrator)
        }

        let operational: DatabasePool
        do {
            operational = try Self.openPool(at: operationalPath, migrator: Schema.operationalMigrator)
        } catch {
            Self.remove(operationalPath)
            recoveries.append(Recovery(store: .operational, reason: "\(error)", movedTo: nil))
            logger.error("operational database \(operationalPath) was damaged (\(error)); recreated it. Sync state is rebuilt from the server.")
            operational = try Self.openPool(at: operationalPath, migrator: Schema.operationalMigrator)
        }

        self.domain = domain
        self.operational = operational
        self.recoveries = recoveries
        self.deviceID = try domain.write { db in
            if let id = try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'device_id'") { return id }
            let id = UUID().uuidString.lowercased()
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES ('device_id', ?)", arguments: [id])
            return id
        }
    }

    /// WAL with `synchronous=FULL` on every connection: each commit is fsynced to the WAL
    /// before the write returns, so a score the kiosk acknowledged survives a power cut
    /// (an SD card in a clubhouse loses power more often than it crashes).
    static func openPool(at path: String, migrator: DatabaseMigrator) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(5)  // `hyzer demo` or a sync run may write alongside the kiosk
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        let pool = try DatabasePool(path: path, configuration: config)
        do {
            // GRDB switches its writer to NORMAL when it enables WAL, after
            // prepareDatabase ran; the writer is one long-lived connection, so setting
            // FULL once here holds for every write.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            let check = try pool.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
            guard check == ["ok"] else { throw DamagedDatabase(details: check.prefix(3).joined(separator: "; ")) }
            try migrator.migrate(pool)
            return pool
        } catch {
            try? pool.close()
            throw error
        }
    }

    struct DamagedDatabase: Error, CustomStringConvertible {
        var details: String
        var description: String { "integrity check failed: \(details)" }
    }

    private static func moveAside(_ path: String, to aside: String) throws {
        let fm = FileManager.default
        for suffix in ["", "-wal", "-shm"] where fm.fileExists(atPath: path + suffix) {
            try fm.moveItem(atPath: path + suffix, toPath: aside + suffix)
        }
    }

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }
}

extension HyzerDatabase {
    /// Bytes the domain database takes on disk once its WAL is folded in (NFR21 sizing).
    public func domainSizeOnDisk() throws -> Int {
        try domain.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let path = directory.appendingPathComponent(Self.domainFileName).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
}
