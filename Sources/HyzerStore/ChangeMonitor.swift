import Foundation
import GRDB
import HyzerKit
import Synchronization

/// Notices commits to the domain database from *any* process (the kiosk must show what
/// `hyzer demo` or a sync run writes within a second).
///
/// SQLite's `PRAGMA data_version` changes on a connection whenever another connection
/// commits; this monitor keeps one private connection just to ask that question, which
/// costs a few microseconds and no I/O beyond the WAL index. GRDB's own observation only
/// sees writes made through the same pool. An in-memory store has no other process, so
/// there the monitor counts the store's own commits.
public final class ChangeMonitor: Sendable {
    private enum Source {
        case file(DatabaseQueue)
        case memory(CommitCounter)
    }

    private let source: Source
    private let lastVersion: Mutex<Int>

    public init(database: HyzerDatabase) throws {
        if let directory = database.directory {
            // The store's own read-only opener: on a read-only filesystem it still works.
            source = .file(try HyzerDatabase.openReadOnly(at: directory.appendingPathComponent(HyzerDatabase.domainFileName).path))
        } else {
            source = .memory(database.commits)
        }
        switch source {
        case .file(let connection): lastVersion = Mutex(try connection.read(Self.dataVersion))
        case .memory(let counter): lastVersion = Mutex(counter.count)
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// True when some connection committed since the previous call.
    public func poll() throws -> Bool {
        switch source {
        case .file(let connection): record(try connection.read(Self.dataVersion))
        case .memory(let counter): record(counter.count)
        }
    }

    /// `poll()` for async callers: the read runs on GRDB's own queue, not the task's thread.
    public func changedSinceLastPoll() async throws -> Bool {
        switch source {
        case .file(let connection): record(try await connection.read(Self.dataVersion))
        case .memory(let counter): record(counter.count)
        }
    }

    private func record(_ version: Int) -> Bool {
        lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }
}

/// Counts the commits of one database connection (a GRDB transaction observer).
final class CommitCounter: TransactionObserver, Sendable {
    private let commits = Mutex(0)

    var count: Int { commits.withLock { $0 } }

    // Commits are reported to every observer whatever it observes; asking for no row
    // events keeps GRDB from hooking every changed row of every write.
    func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { false }
    func databaseDidChange(with event: DatabaseEvent) {}
    func databaseDidCommit(_ db: Database) { commits.withLock { $0 += 1 } }
    func databaseDidRollback(_ db: Database) {}
}

extension HyzerDatabase {
    /// Opens the stores in a data directory and seeds the shipped courses on first start.
    /// `assets` defaults to the located `assets/` folder; without one nothing is seeded.
    public static func open(
        dataDirectory: URL, assets: URL? = HyzerPaths.assetsDirectory(),
        clock: any HyzerClock = SystemClock()
    ) throws -> HyzerDatabase {
        let db = try HyzerDatabase(directory: dataDirectory, clock: clock)
        if let assets {
            try db.seedCoursesIfNeeded(from: assets.appendingPathComponent("courses.json"))
        }
        return db
    }
}
