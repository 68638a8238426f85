import Foundation
import GRDB
import HyzerKit
import Logging

/// Backup while serving, and restore with the server stopped.
extension SQLiteStorage {
    /// A consistent copy of the live database (`VACUUM INTO`), safe while serving. It runs
    /// on GRDB's writer queue (VACUUM cannot run inside a transaction, hence "without
    /// transaction"), so pushes wait for it but the cooperative pool does not.
    public func backup(to url: URL) async throws {
        try? FileManager.default.removeItem(at: url)
        let path = url.path
        try await pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [path]) }
    }

    /// Puts a backup in place of the database in `directory` (the server must be
    /// stopped) and gives it a new epoch, so every device re-pulls and re-pushes.
    ///
    /// Synchronous: an offline admin command with nothing else running in the process.
    public static func restore(
        backup: URL, into directory: URL, clock: any HyzerClock = SystemClock(),
        logger: Logger = Logger(label: "hyzer.server.storage")
    ) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        let carried = revocations(ofDatabaseAt: path, logger: logger)
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup.path, toPath: path)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(stateFileName))
        let storage = try SQLiteStorage(directory: directory, clock: clock, logger: logger)
        if let carried {
            let applied = try storage.pool.write { db in try apply(carried, db) }
            if applied > 0 { logger.notice("revocations made since the backup carried over", metadata: ["rows": "\(applied)"]) }
        }
        let epoch = try rotateEpoch(storage.pool)
        try writeState(directory, epoch: epoch, head: try storage.pool.read { db in try ChangeRow.head(db) })
        try storage.pool.close()
        return epoch
    }

    /// The revocations of the database a restore is about to replace; empty when there is
    /// none, nil (with a warning) when it cannot be read (a damaged file being replaced):
    /// then revocations made since the backup must be made again by hand.
    static func revocations(ofDatabaseAt path: String, logger: Logger) -> Revocations? {
        guard FileManager.default.fileExists(atPath: path) else { return Revocations() }
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                var r = Revocations()
                for row in try Row.fetchAll(
                    db, sql: "SELECT token_hash, revoked_at FROM credentials WHERE revoked_at IS NOT NULL")
                {
                    r.credentials.append(.init(tokenHash: row[0], revokedAt: row[1]))
                }
                for row in try Row.fetchAll(
                    db, sql: "SELECT group_id, device_id, revoked_at FROM devices WHERE revoked_at IS NOT NULL")
                {
                    r.devices.append(.init(groupID: row[0], deviceID: row[1], revokedAt: row[2]))
                }
                for row in try Row.fetchAll(
                    db, sql: "SELECT token_hash, revoked_at FROM view_tokens WHERE revoked_at IS NOT NULL")
                {
                    r.viewTokens.append(.init(tokenHash: row[0], revokedAt: row[1]))
                }
                for row in try Row.fetchAll(
                    db, sql: "SELECT token_hash, revoked_at FROM summary_links WHERE revoked_at IS NOT NULL")
                {
                    r.summaryLinks.append(.init(tokenHash: row[0], revokedAt: row[1]))
                }
                return r
            }
        } catch {
            logger.warning(
                "cannot read the revocations of the database being replaced; revoke again what was revoked since the backup",
                metadata: ["error": "\(error)"])
            return nil
        }
    }

    /// Applies revocations to the rows still live; returns how many it revoked.
    static func apply(_ r: Revocations, _ db: Database) throws -> Int {
        var applied = 0
        func revoke(_ table: String, _ hashes: [Revocations.Credential]) throws {
            for c in hashes {
                try db.execute(
                    sql: "UPDATE \(table) SET revoked_at = ? WHERE token_hash = ? AND revoked_at IS NULL",
                    arguments: [c.revokedAt, c.tokenHash])
                applied += db.changesCount
            }
        }
        try revoke("credentials", r.credentials)
        try revoke("view_tokens", r.viewTokens)
        try revoke("summary_links", r.summaryLinks)
        for d in r.devices {
            try db.execute(
                sql: "UPDATE devices SET revoked_at = ? WHERE group_id = ? AND device_id = ? AND revoked_at IS NULL",
                arguments: [d.revokedAt, d.groupID, d.deviceID])
            applied += db.changesCount
        }
        return applied
    }
}
