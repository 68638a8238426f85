import Foundation
import GRDB
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
        case file(FileWatch)
        case memory(CommitCounter)
    }

    /// The monitor's own connection, opened again when the store swapped its writers (a
    /// read-only store that became writable): `data_version` is per connection, and a
    /// connection opened on a read-only filesystem is immutable (see `connect`).
    private final class FileWatch: Sendable {
        let database: HyzerDatabase
        let state: Mutex<(connection: DatabaseQueue, generation: Int)>

        init(_ database: HyzerDatabase) throws {
            self.database = database
            let generation = database.writersGeneration
            state = Mutex((try Self.connect(database), generation))
        }

        /// On a store opened read-only this connection must not share SQLite's wal-index
        /// (-shm) mapping, which a process shares between all its connections to a file:
        /// mapped read-only, it would make the store's reopened writer read-only too. An
        /// immutable connection maps none, and nothing can commit on a read-only mount.
        static func connect(_ database: HyzerDatabase) throws -> DatabaseQueue {
            let path = database.directory!.appendingPathComponent(HyzerDatabase.domainFileName).path
            return try HyzerDatabase.openReadOnly(at: path, immutable: database.isReadOnly)
        }

        /// The current connection, and whether it is new (its version is no baseline).
        func connection() throws -> (DatabaseQueue, fresh: Bool) {
            let generation = database.writersGeneration
            return try state.withLock { state in
                guard state.generation != generation else { return (state.connection, false) }
                try? state.connection.close()
                state = (try Self.connect(database), generation)
                return (state.connection, true)
            }
        }
    }

    private let source: Source
    private let lastVersion: Mutex<Int>

    public init(database: HyzerDatabase) throws {
        if database.directory != nil {
            source = .file(try FileWatch(database))
        } else {
            source = .memory(database.commits)
        }
        switch source {
        case .file(let watch): lastVersion = Mutex(try watch.connection().0.read(Self.dataVersion))
        case .memory(let counter): lastVersion = Mutex(counter.count)
        }
    }

    private static func dataVersion(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0
    }

    /// True when some connection committed since the previous call.
    public func poll() throws -> Bool {
        switch source {
        case .file(let watch):
            let (connection, fresh) = try watch.connection()
            return record(try connection.read(Self.dataVersion)) || fresh
        case .memory(let counter): return record(counter.count)
        }
    }

    /// `poll()` for async callers: the read runs on GRDB's own queue, not the task's thread.
    public func changedSinceLastPoll() async throws -> Bool {
        switch source {
        case .file(let watch):
            let (connection, fresh) = try watch.connection()
            return record(try await connection.read(Self.dataVersion)) || fresh
        case .memory(let counter): return record(counter.count)
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
