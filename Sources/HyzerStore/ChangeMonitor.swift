import Foundation
import GRDB
import Synchronization

/// Notices commits to the domain database from *any* process (the kiosk must show what
/// `hyzer demo` or a sync run writes within a second).
///
/// SQLite's `PRAGMA data_version` changes on a connection whenever another connection
/// commits; this monitor keeps one private connection just to ask that question, which
/// costs a few microseconds and no I/O beyond the WAL index. GRDB's own observation only
/// sees writes made through the same pool.
public final class ChangeMonitor: Sendable {
    private let connection: DatabaseQueue
    private let lastVersion: Mutex<Int>

    public init(database: HyzerDatabase) throws {
        var config = Configuration()
        config.readonly = true
        connection = try DatabaseQueue(
            path: database.directory.appendingPathComponent(HyzerDatabase.domainFileName).path,
            configuration: config)
        lastVersion = Mutex(try connection.read(Self.dataVersion))
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// True when some connection committed since the previous call.
    public func poll() throws -> Bool {
        record(try connection.read(Self.dataVersion))
    }

    /// `poll()` for async callers: the read runs on GRDB's own queue, not the task's thread.
    public func changedSinceLastPoll() async throws -> Bool {
        record(try await connection.read(Self.dataVersion))
    }

    private func record(_ version: Int) -> Bool {
        lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }
}

extension HyzerDatabase {
    /// Opens the stores in a data directory and seeds the shipped courses on first start.
    /// `assets` defaults to the located `assets/` folder; without one nothing is seeded.
    public static func open(dataDirectory: URL, assets: URL? = HyzerPaths.assetsDirectory()) throws -> HyzerDatabase {
        let db = try HyzerDatabase(directory: dataDirectory)
        if let assets {
            try db.seedCoursesIfNeeded(from: assets.appendingPathComponent("courses.json"))
        }
        return db
    }
}
