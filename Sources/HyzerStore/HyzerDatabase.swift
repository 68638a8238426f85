import Foundation
import GRDB
import HyzerKit
import Logging
import SQLiteFaults
import Synchronization

/// The kiosk's database: one façade over the two SQLite databases of the dual store.
///
/// - `hyzer.sqlite` (domain): courses, players, rounds, the append-only score events, and
///   the change tracking that says what the group server does not have yet.
/// - `sync.sqlite` (operational): the outbox of opaque payloads and its states,
///   reconstructible (A3).
///
/// The store owns its writers (GRDB's `AppDatabase` habit): nothing outside this module
/// holds a connection. Every write is a named `StoreWrite` that keeps the domain's
/// invariants inside one transaction; SQL triggers repeat the critical ones (append-only
/// events, locked participants) so no other writer, such as `hyzer score` in another
/// process, can break them either. Reads are named `StoreRead`s that return domain values.
///
/// The one way to call an operation is to run its value here: `try db.write(.recordScore(e))`,
/// `try db.read(.activeRounds)`; there are no per-operation methods. Each named write is
/// written once and runs either way: `write(_:)` synchronously (the kiosk's main thread,
/// which must show a saved score within a few ms) or `try await db.write(_:)` from async
/// code (the CLI's commands, sync, tests), where GRDB suspends instead of blocking a thread
/// of the cooperative pool on the commit's fsync.
public final class HyzerDatabase: Sendable {
    public static let domainFileName = "hyzer.sqlite"
    public static let operationalFileName = "sync.sqlite"

    /// Where the files are; nil for an in-memory store.
    public let directory: URL?
    /// The two writers, swapped together when a store opened read-only becomes writable
    /// again (a card remounted read-write): the kiosk keeps running and writes resume.
    private let writers: Mutex<Writers>
    struct Writers: Sendable {
        var domain: any DatabaseWriter
        var operational: any DatabaseWriter
        /// Why the store was opened read-only (a read-only filesystem, or a disk too full
        /// to create the WAL files); nil when it writes (issue 12).
        var unwritable: StorageFault?
        /// Counts swaps, so a `ChangeMonitor` knows to open its own connection again.
        var generation = 0
    }
    // Internal rather than private only so `@testable` tests can prove the SQL triggers
    // refuse raw writes; no other module reaches a connection.
    var domain: any DatabaseWriter { writers.withLock { $0.domain } }
    var operational: any DatabaseWriter { writers.withLock { $0.operational } }
    /// True while the store could only be opened read-only: the board shows, writes throw
    /// `StorageFault.readOnly` until the filesystem is writable again.
    public var isReadOnly: Bool { writers.withLock { $0.unwritable != nil } }
    var writersGeneration: Int { writers.withLock { $0.generation } }
    let logger: Logger
    /// Time for every stored timestamp that the caller does not give explicitly.
    public let clock: any HyzerClock
    /// This device's identity in score events (conflict detection compares devices).
    public let deviceID: String
    /// What start-up had to repair, for the log and the diagnostics screen.
    public let recoveries: [Recovery]
    /// Commits through this façade, for change monitoring of an in-memory store (a file
    /// store is monitored across processes with `PRAGMA data_version` instead).
    let commits = CommitCounter()

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

    /// A store on writers the caller made, migrated here: tests use in-memory
    /// `DatabaseQueue`s (see `inMemory(clock:)`); migrations are the same as on a device.
    public convenience init(
        domain: any DatabaseWriter, operational: any DatabaseWriter,
        clock: any HyzerClock = SystemClock()
    ) throws {
        try Schema.domainMigrator.migrate(domain)
        try Schema.operationalMigrator.migrate(operational)
        try self.init(
            writers: Writers(domain: domain, operational: operational), directory: nil, recoveries: [], clock: clock,
            logger: Logger(label: "hyzer.store"))
    }

    /// A store that lives in memory only, with the same schema and triggers as a device's.
    public static func inMemory(clock: any HyzerClock = SystemClock()) throws -> HyzerDatabase {
        try HyzerDatabase(domain: DatabaseQueue(), operational: DatabaseQueue(), clock: clock)
    }

    /// Opens (creating if needed) both stores in `directory`. What goes wrong is named
    /// first (`StorageFault`), and only damage is repaired (A3/A6):
    /// - a damaged operational store is recreated;
    /// - a damaged domain store is moved aside under a name that never collides, every
    ///   readable row is salvaged into a fresh one and its sync cursor starts over, so
    ///   sync pulls the rest back (`StorageRecovery`);
    /// - a read-only filesystem opens both read-only: the board shows, writes throw;
    /// - a full disk, a permission problem or a lock throws its `StorageFault`, and the
    ///   files stay exactly where they are.
    public convenience init(
        directory: URL, clock: any HyzerClock = SystemClock(),
        logger: Logger = Logger(label: "hyzer.store")
    ) throws {
        let (writers, recoveries) = try Self.openFiles(in: directory, clock: clock, logger: logger)
        try self.init(writers: writers, directory: directory, recoveries: recoveries, clock: clock, logger: logger)
        if let warning = Volume(directory.path).warning { logger.warning("\(warning)") }
    }

    /// Opens the stores in a data directory and seeds the shipped courses on first start.
    /// `assets` defaults to the located `assets/` folder; without one nothing is seeded.
    public static func open(
        dataDirectory: URL, assets: URL? = HyzerPaths.assetsDirectory(),
        clock: any HyzerClock = SystemClock()
    ) throws -> HyzerDatabase {
        let db = try HyzerDatabase(directory: dataDirectory, clock: clock)
        // Seeding is a write: on a full, read-only or locked store the board still opens
        // (issue 12), and the seed runs at a later start.
        if let assets, !db.isReadOnly {
            do {
                try db.write(.seedCourses(from: assets.appendingPathComponent("courses.json")))
            } catch let fault as StorageFault {
                db.logger.warning("shipped courses not seeded yet: \(fault)")
            }
        }
        return db
    }

    static func openFiles(
        in directory: URL, clock: any HyzerClock, logger: Logger
    ) throws -> (Writers, [Recovery]) {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StorageFault.classify(error, path: directory.path) ?? error
        }
        let domainPath = directory.appendingPathComponent(Self.domainFileName).path
        let operationalPath = directory.appendingPathComponent(Self.operationalFileName).path
        var recoveries: [Recovery] = []

        let domain: any DatabaseWriter
        do {
            // Asked first, not inferred: on a read-only filesystem SQLite may open a
            // WAL database that then refuses every write.
            if Volume(directory.path).isReadOnly { throw StorageFault.readOnly(directory: directory.path) }
            try checkHeader(domainPath)
            domain = try openPool(at: domainPath, migrator: Schema.domainMigrator)
        } catch {
            switch StorageFault.classify(error, path: domainPath) {
            case .damaged(_, let details)?:
                let recovered = try StorageRecovery.replaceDamagedDomain(
                    at: domainPath, details: details, clock: clock, logger: logger)
                recoveries.append(recovered.recovery)
                domain = recovered.pool
            // The board must keep showing: what cannot be written is still read.
            case let fault? where fault.isReadOnlyOrFull && FileManager.default.fileExists(atPath: domainPath):
                // A file that cannot even be read here (damaged as well) waits for a start
                // that can write: the fault to fix first is this one, not the damage.
                guard (try? checkHeader(domainPath)) != nil, let readOnly = try? openReadOnly(at: domainPath) else {
                    throw fault
                }
                logger.error("\(fault) Opened read-only.")
                let operational = try openReadOnlyOperational(at: operationalPath)
                return (Writers(domain: readOnly, operational: operational, unwritable: fault), recoveries)
            case let fault?:
                throw fault
            case nil:
                throw error
            }
        }

        let operational: any DatabaseWriter
        do {
            try checkHeader(operationalPath)
            operational = try openPool(at: operationalPath, migrator: Schema.operationalMigrator)
        } catch {
            guard let fault = StorageFault.classify(error, path: operationalPath), fault.isDamage else {
                try? domain.close()
                throw StorageFault.classify(error, path: operationalPath) ?? error
            }
            remove(operationalPath)
            recoveries.append(Recovery(store: .operational, reason: "\(fault)", movedTo: nil))
            logger.error(
                "operational database \(operationalPath) was damaged (\(error)); recreated it. Sync state is rebuilt from the server."
            )
            operational = try openPool(at: operationalPath, migrator: Schema.operationalMigrator)
        }
        return (Writers(domain: domain, operational: operational), recoveries)
    }

    private init(
        writers: Writers, directory: URL?, recoveries: [Recovery], clock: any HyzerClock, logger: Logger
    ) throws {
        self.writers = Mutex(writers)
        self.directory = directory
        self.recoveries = recoveries
        self.clock = clock
        self.logger = logger
        // Read first: a store opened read-only still has its id and must not write.
        if let id = try writers.domain.read({ db in try MetaRow.fetchOne(db, key: MetaRow.deviceIDKey)?.value }) {
            self.deviceID = id
        } else {
            self.deviceID = try writers.domain.write { db in
                if let id = try MetaRow.fetchOne(db, key: MetaRow.deviceIDKey)?.value { return id }
                let id = UUID().uuidString.lowercased()
                try MetaRow(key: MetaRow.deviceIDKey, value: id).insert(db)
                return id
            }
        }
        // Only an in-memory store needs it: it counts what commits through this façade,
        // which there is everything there is. A file store is watched with data_version.
        if directory == nil { writers.domain.add(transactionObserver: commits, extent: .databaseLifetime) }
    }

    /// FULL, except under the emulated appliance test's negative control, which sets
    /// `HYZER_UNSAFE_SYNCHRONOUS_OFF=1` to show that its power cuts do lose scores a store
    /// without fsync acknowledged (board/appliance-test). Never set it anywhere else: a
    /// store opened so says so in the journal, at the critical level.
    static let synchronousMode: String = {
        guard ProcessInfo.processInfo.environment["HYZER_UNSAFE_SYNCHRONOUS_OFF"] == "1" else { return "FULL" }
        Logger(label: "hyzer.store").critical(
            "HYZER_UNSAFE_SYNCHRONOUS_OFF=1: scores are not fsynced (a test's negative control)")
        return "OFF"
    }()

    /// WAL with `synchronous=FULL` on every connection: each commit is fsynced to the WAL
    /// before the write returns, so a score the kiosk acknowledged survives a power cut
    /// (an SD card in a clubhouse loses power more often than it crashes).
    static func openPool(at path: String, migrator: DatabaseMigrator) throws -> DatabasePool {
        var config = Configuration()
        config.busyMode = .timeout(5)  // `hyzer demo` or a sync run may write alongside the kiosk
        let synchronous = synchronousMode
        config.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            // SQLite's page cache is 2 MiB per connection by default, and a pool's writer
            // and readers fill theirs slowly over days: the soak's kiosk grew 27.6 MB an hour
            // with it, 1.6 with this (docs/benchmarks.md, "Soak"). The board's reads are a
            // round and its standings; the OS keeps the file's pages cached anyway.
            try db.execute(sql: "PRAGMA cache_size = -256")  // KiB per connection
        }
        let pool = try DatabasePool(path: path, configuration: config)
        do {
            // GRDB switches its writer to NORMAL when it enables WAL, after
            // prepareDatabase ran; the writer is one long-lived connection, so setting
            // FULL once here holds for every write.
            try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = \(synchronous)") }
            try quickCheck(pool, path: path)
            try migrator.migrate(pool)
            return pool
        } catch {
            try? pool.close()
            throw error
        }
    }

    /// A file that is not SQLite at all. SQLite reads a file shorter than one page as an
    /// empty database and would write a fresh one over it; this names it damaged first,
    /// so it is moved aside and kept instead.
    static func checkHeader(_ path: String) throws {
        guard let file = FileHandle(forReadingAtPath: path) else { return }
        defer { try? file.close() }
        let header = (try? file.read(upToCount: 16)) ?? Data()
        guard !header.isEmpty, header != Data("SQLite format 3\0".utf8) else { return }
        throw StorageFault.damaged(path: path, details: "not an SQLite database")
    }

    /// Damage is named by SQLite itself: an open that reads garbage fails with
    /// NOTADB/CORRUPT, and `quick_check` finds a page that does not hold together.
    static func quickCheck(_ reader: any DatabaseReader, path: String) throws {
        let check = try reader.read { db in try String.fetchAll(db, sql: "PRAGMA quick_check") }
        guard check == ["ok"] else {
            throw StorageFault.damaged(path: path, details: "integrity check failed: " + check.prefix(3).joined(separator: "; "))
        }
    }

    /// A database on a filesystem that refuses writes. A WAL database normally needs its
    /// `-shm` index, which cannot be created there: when it is missing the file is read as
    /// immutable, which is exact because nothing can change a file on a read-only mount.
    static func openReadOnly(at path: String, immutable: Bool = false, salvaging: Bool = false) throws -> DatabaseQueue {
        var config = Configuration()
        config.readonly = true
        config.busyMode = .timeout(5)
        if salvaging {
            // A truncated file is shorter than its header says, which SQLite refuses to
            // read at all unless the schema is "writable" (what its own .recover relies
            // on); the connection is read-only, so nothing is written either way.
            config.prepareDatabase { db in try db.execute(sql: "PRAGMA writable_schema = ON") }
        }
        let probe: @Sendable (Database) throws -> Void = { db in
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
        }
        do {
            guard !immutable else { throw StorageFault.readOnly(directory: path) }
            let queue = try DatabaseQueue(path: path, configuration: config)
            try queue.read(probe)
            return queue
        } catch {
            let immutable = URL(fileURLWithPath: path).absoluteString + "?immutable=1"
            let queue = try DatabaseQueue(path: immutable, configuration: config)
            try queue.read(probe)
            return queue
        }
    }

    /// The outbox on a read-only filesystem: the file if there is one (nothing is pushed
    /// while nothing can be marked sent), else an empty one in memory.
    private static func openReadOnlyOperational(at path: String) throws -> any DatabaseWriter {
        if FileManager.default.fileExists(atPath: path), let queue = try? openReadOnly(at: path) { return queue }
        let memory = try DatabaseQueue()
        try Schema.operationalMigrator.migrate(memory)
        return memory
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// A store opened read-only becomes writable again once its filesystem is: the
    /// writers are opened again and swapped in, without a restart. Called before each
    /// write and by `storageStatus()`. Returns true when the store is writable.
    @discardableResult
    public func reopenIfWritable() -> Bool {
        guard let directory, isReadOnly else { return true }
        let volume = Volume(directory.path)
        guard !volume.isReadOnly, (volume.freeBytes ?? .max) >= Volume.fullBelow,
            Volume.probeWrite(directory.path) == 0
        else { return false }
        return writers.withLock { current in
            // The read-only connections go first: SQLite shares one wal-index mapping
            // per file in a process, and one mapped read-only would make the new writer
            // read-only too.
            try? current.domain.close()
            try? current.operational.close()
            do {
                var (fresh, recoveries) = try Self.openFiles(in: directory, clock: clock, logger: logger)
                fresh.generation = current.generation + 1
                current = fresh
                guard fresh.unwritable == nil else { return false }
                logger.notice("storage in \(directory.path) is writable again; scores are saved (\(recoveries.count) repairs)")
                return true
            } catch {
                logger.notice("storage in \(directory.path) is still not writable: \(StorageFault.oneLine(for: error))")
                // Back to reading what is there, so the board keeps showing.
                let domainPath = directory.appendingPathComponent(Self.domainFileName).path
                if let domain = try? Self.openReadOnly(at: domainPath),
                    let operational = try? Self.openReadOnlyOperational(
                        at: directory.appendingPathComponent(Self.operationalFileName).path)
                {
                    current = Writers(
                        domain: domain, operational: operational,
                        unwritable: StorageFault.classify(error, path: domainPath) ?? current.unwritable,
                        generation: current.generation + 1)
                }
                return false
            }
        }
    }

    /// Throws the fault that keeps this store from writing now (opened read-only, or a
    /// disk without room for a page), without writing: sync asks before it downloads a
    /// page it could not store (issue 12).
    public func requireWritable() throws {
        guard let directory else { return }
        if let fault = standingFault() { throw fault }
        if let free = Volume(directory.path).freeBytes, free < Volume.fullBelow {
            throw StorageFault.full(directory: directory.path, freeBytes: free)
        }
    }

    /// The state of the storage for the kiosk's status line and the journal: nil when
    /// all is well, else the short sentence to show (read-only, low or no space).
    public func storageStatus() -> String? {
        guard let directory else { return nil }
        if let fault = standingFault() { return fault.short }
        return Volume(directory.path).warning
    }

    /// The fault that keeps a store opened read-only from writing, after one more try at
    /// swapping its writers back in; nil for a store that can write.
    private func standingFault() -> StorageFault? {
        guard isReadOnly, !reopenIfWritable() else { return nil }
        return writers.withLock { $0.unwritable }
    }

    /// Closes both databases (a test that then damages or removes a file). Any later call
    /// on this store throws.
    public func close() throws {
        try operational.close()
        try domain.close()
    }
}

// MARK: Running named reads and writes (`StoreWrite`, `StoreRead`: StoreOperations.swift)

extension HyzerDatabase {
    private func writer(_ target: StoreTarget) -> any DatabaseWriter {
        switch target {
        case .domain: domain
        case .operational: operational
        }
    }

    private var context: StoreContext { StoreContext(deviceID: deviceID, now: clock.date) }

    /// Runs a named write on the calling thread: for synchronous callers only (the kiosk's
    /// main thread). Async code uses the `await` overload.
    @discardableResult
    public func write<Value>(_ write: StoreWrite<Value>) throws -> Value {
        _ = reopenIfWritable()
        let context = self.context
        do {
            return try writer(write.target).write { db in try write.body(db, context) }
        } catch {
            throw named(error, write.target)
        }
    }

    /// Runs a named write without blocking a thread of Swift concurrency's pool while it
    /// waits for the writer and the commit's fsync.
    @discardableResult
    public func write<Value>(_ write: StoreWrite<Value>) async throws -> Value {
        _ = reopenIfWritable()
        let context = self.context
        do {
            return try await writer(write.target).write { db in try write.body(db, context) }
        } catch {
            throw named(error, write.target)
        }
    }

    /// A failed write's error as the storage fault it is (full, read-only, locked,
    /// damaged), logged once here for the journal; other errors pass through unchanged.
    private func named(_ error: any Error, _ target: StoreTarget) -> any Error {
        let file = target == .domain ? Self.domainFileName : Self.operationalFileName
        let path = directory?.appendingPathComponent(file).path ?? ":memory:"
        guard var fault = StorageFault.classify(error, path: path) else { return error }
        // A store opened read-only for a full disk says so, not "read-only".
        if case .readOnly = fault, case .full(let dir, _)? = writers.withLock({ $0.unwritable }) {
            fault = .full(directory: dir, freeBytes: Volume(dir).freeBytes ?? 0)
        }
        switch fault {
        case .damaged: logger.critical("\(fault)")
        // The filesystem went read-only under an open store (ext4's errors=remount-ro):
        // from now on every write first checks whether it is writable again.
        case .readOnly: writers.withLock { $0.unwritable = $0.unwritable ?? fault }
        default: break  // the caller reports it (one line on the CLI, a notice on the kiosk)
        }
        return fault
    }

    public func read<Value>(_ read: StoreRead<Value>) throws -> Value {
        try writer(read.target).read(read.body)
    }

    public func read<Value>(_ read: StoreRead<Value>) async throws -> Value {
        try await writer(read.target).read(read.body)
    }

    /// Bytes the domain database takes on disk once its WAL is folded in (NFR21 sizing);
    /// 0 for an in-memory store.
    public func domainSizeOnDisk() throws -> Int {
        guard let directory else { return 0 }
        try domain.writeWithoutTransaction { db in _ = try db.checkpoint(.truncate) }
        let path = directory.appendingPathComponent(Self.domainFileName).path
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }
}
