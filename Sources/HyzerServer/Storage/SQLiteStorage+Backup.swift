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
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup.path, toPath: path)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(stateFileName))
        let storage = try SQLiteStorage(directory: directory, clock: clock, logger: logger)
        let epoch = try rotateEpoch(storage.pool)
        try writeState(directory, epoch: epoch, head: try storage.pool.read { db in try ChangeRow.head(db) })
        try storage.pool.close()
        return epoch
    }
}
