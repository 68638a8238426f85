import Foundation
import GRDB
import HyzerKit

/// Notices commits to the domain database from *any* process (the kiosk must show what
/// `hyzer demo` or a sync run writes within a second).
///
/// SQLite's `PRAGMA data_version` changes on a connection whenever another connection
/// commits; this monitor keeps one private connection just to ask that question, which
/// costs a few microseconds and no I/O beyond the WAL index. GRDB's own observation only
/// sees writes made through the same pool.
public final class ChangeMonitor {
    private let connection: DatabaseQueue
    private var lastVersion: Int?

    public init(database: HyzerDatabase) throws {
        var config = Configuration()
        config.readonly = true
        connection = try DatabaseQueue(
            path: database.directory.appendingPathComponent(HyzerDatabase.domainFileName).path,
            configuration: config)
        lastVersion = try currentVersion()
    }

    private func currentVersion() throws -> Int {
        try connection.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
    }

    /// True when some connection committed since the previous call.
    public func poll() throws -> Bool {
        let version = try currentVersion()
        defer { lastVersion = version }
        return version != lastVersion
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
