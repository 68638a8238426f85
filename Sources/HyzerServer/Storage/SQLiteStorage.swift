import Foundation
import GRDB
import HyzerKit
import Logging
import SQLiteFaults
import Synchronization

/// The server's SQLite store (GRDB), one file in the data directory.
///
/// `changes` is the group's append-only change feed (CouchDB `_changes`): every accepted
/// statement gets the next `seq`, and pull reads it in order. `current_records` holds the
/// winning version of each mutable record and `events` indexes score events by cell; both
/// exist to validate new pushes.
///
/// Durability: WAL with `synchronous=FULL`, and a push returns only after its transaction
/// committed, so an acknowledgement is never ahead of the disk (Couchbase Lite's rule).
///
/// Every request-path method is `async` and goes through GRDB's async `read`/`write`: the
/// work, and the fsync of each commit, run on GRDB's own serial writer and reader queues,
/// never on a thread of Swift concurrency's cooperative pool (two threads on the project's
/// machines: one blocked fsync would stall half the server).
///
/// The methods live one job per file: groups and credentials (SQLiteStorage+Groups),
/// devices (+Devices), the feed (+Feed, +Push with PushBatch), the epoch and its state
/// file (+Epoch), backup and restore (+Backup); the schema is ServerSchema.
public final class SQLiteStorage: SyncStorage {
    public static let fileName = "hyzer-server.sqlite"

    public let directory: URL
    /// Changes when the database is recreated or restored from a backup. Fixed for the
    /// life of this instance: only opening a database (or `restore`) decides it.
    public let epoch: String
    let pool: DatabasePool
    /// Where every stored timestamp comes from (a `ManualClock` in tests).
    public let clock: any HyzerClock
    /// The highest seq written to the state file, so it only ever moves forward, and the
    /// file, open for writing until `close` (-1 after).
    let stateMark: Mutex<(head: Int64, file: Int32)>
    /// Decoded rounds and courses by seq, for validating pushes (`RecordMemo`).
    let recordMemo = RecordMemo()
    /// Pushes waiting for the writer, committed together (`commitPushes`).
    let commits = PushCommitQueue<PendingPush>()
    /// When the free space was last looked at, and the warning it gave.
    let spaceWatch = Mutex<(checkedAt: Duration?, warning: String?)>((nil, nil))
    let logger: Logger

    /// Opens (creating or migrating) the database in `directory` and decides its epoch.
    ///
    /// Synchronous on purpose: it runs once, before the server takes a request (and in the
    /// admin commands), and opening a `DatabasePool` is synchronous in GRDB anyway.
    public init(
        directory: URL, clock: any HyzerClock = SystemClock(),
        logger: Logger = Logger(label: "hyzer.server.storage")
    ) throws {
        self.directory = directory
        self.clock = clock
        self.logger = logger
        let path = directory.appendingPathComponent(Self.fileName).path
        // Every failure of the open is named (full, read-only, locked, damaged) before it
        // reaches a person; nothing here moves or deletes the database (a damaged server
        // database is restored from a backup by `hyzer-server restore`).
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var config = Configuration()
            config.busyMode = .timeout(10)
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            let pool = try DatabasePool(path: path, configuration: config)
            self.pool = pool
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
            try ServerSchema.migrator(clock: clock).migrate(pool)

            let (epoch, head) = try Self.decideEpoch(pool, directory: directory, logger: logger)
            self.epoch = epoch
            try Self.writeState(directory, epoch: epoch, head: head)
            let statePath = directory.appendingPathComponent(Self.stateFileName).path
            let stateFile = open(statePath, O_WRONLY | O_CLOEXEC)
            guard stateFile >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: statePath]) }
            stateMark = Mutex((head, stateFile))
            recordMemo.committed(through: head)
            noteSpace()
        } catch {
            throw StorageFault.classify(error, path: path) ?? error
        }
    }

    /// Seconds since 1970 by the injected clock, the unit every `*_at` column stores.
    var now: Double { clock.date.timeIntervalSince1970 }

    public func close() throws {
        closeStateFile()
        try pool.close()
    }

    deinit { closeStateFile() }

    private func closeStateFile() {
        stateMark.withLock { mark in
            if mark.file >= 0 { _ = Glibc.close(mark.file) }
            mark.file = -1
        }
    }
}
