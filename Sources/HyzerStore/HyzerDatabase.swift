import Foundation
import GRDB
import HyzerKit
import Logging

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
/// Each named write is written once and runs either way: `write(_:)` synchronously
/// (the CLI; the kiosk's main thread, which must show a saved score within a few ms) or
/// `await write(_:)` from async code, where GRDB suspends instead of blocking a thread of
/// the cooperative pool on the commit's fsync.
public final class HyzerDatabase: Sendable {
    public static let domainFileName = "hyzer.sqlite"
    public static let operationalFileName = "sync.sqlite"

    /// Where the files are; nil for an in-memory store.
    public let directory: URL?
    // Internal rather than private only so `@testable` tests can prove the SQL triggers
    // refuse raw writes; no other module reaches a connection.
    let domain: any DatabaseWriter
    let operational: any DatabaseWriter
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
        try self.init(domain: domain, operational: operational, directory: nil, recoveries: [], clock: clock)
    }

    /// A store that lives in memory only, with the same schema and triggers as a device's.
    public static func inMemory(clock: any HyzerClock = SystemClock()) throws -> HyzerDatabase {
        try HyzerDatabase(domain: DatabaseQueue(), operational: DatabaseQueue(), clock: clock)
    }

    /// Opens (creating if needed) both stores in `directory`, repairing per A3/A6:
    /// a damaged operational store is recreated; a damaged domain store is moved aside
    /// (never deleted: a person may still rescue scores from it), a clean one is started,
    /// and the operational store is reset with it so sync re-pulls everything.
    public convenience init(
        directory: URL, clock: any HyzerClock = SystemClock(),
        logger: Logger = Logger(label: "hyzer.store")
    ) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let domainPath = directory.appendingPathComponent(Self.domainFileName).path
        let operationalPath = directory.appendingPathComponent(Self.operationalFileName).path
        var recoveries: [Recovery] = []

        let domain: DatabasePool
        do {
            domain = try Self.openPool(at: domainPath, migrator: Schema.domainMigrator)
        } catch {
            let stamp = ISO8601DateFormatter().string(from: clock.date).replacingOccurrences(of: ":", with: "")
            let aside = domainPath + ".damaged-" + stamp
            try Self.moveAside(domainPath, to: aside)
            Self.remove(operationalPath)
            let recovery = Recovery(store: .domain, reason: "\(error)", movedTo: aside)
            logger.critical(
                """
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
            logger.error(
                "operational database \(operationalPath) was damaged (\(error)); recreated it. Sync state is rebuilt from the server."
            )
            operational = try Self.openPool(at: operationalPath, migrator: Schema.operationalMigrator)
        }
        try self.init(domain: domain, operational: operational, directory: directory, recoveries: recoveries, clock: clock)
    }

    private init(
        domain: any DatabaseWriter, operational: any DatabaseWriter, directory: URL?,
        recoveries: [Recovery], clock: any HyzerClock
    ) throws {
        self.domain = domain
        self.operational = operational
        self.directory = directory
        self.recoveries = recoveries
        self.clock = clock
        self.deviceID = try domain.write { db in
            if let id = try MetaRow.fetchOne(db, key: MetaRow.deviceIDKey)?.value { return id }
            let id = UUID().uuidString.lowercased()
            try MetaRow(key: MetaRow.deviceIDKey, value: id).insert(db)
            return id
        }
        // Only an in-memory store needs it: it counts what commits through this façade,
        // which there is everything there is. A file store is watched with data_version.
        if directory == nil { domain.add(transactionObserver: commits, extent: .databaseLifetime) }
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

    /// Closes both databases (a test that then damages or removes a file). Any later call
    /// on this store throws.
    public func close() throws {
        try operational.close()
        try domain.close()
    }
}

// MARK: Running named reads and writes

/// What a named write may read besides its arguments: the device and the store's clock,
/// read once when the write starts.
public struct StoreContext: Sendable {
    public var deviceID: String
    public var now: Date
}

/// Which of the two databases a named read or write runs on.
enum StoreTarget: Sendable { case domain, operational }

/// A named write of the store: one transaction that keeps its invariants. Built by the
/// store's own static functions (`.recordScore(_:)`, `.changeLedger { … }`), run with
/// `HyzerDatabase.write(_:)`, synchronously or with `await`.
public struct StoreWrite<Value: Sendable>: Sendable {
    typealias Target = StoreTarget
    let target: Target
    let body: @Sendable (Database, StoreContext) throws -> Value

    init(_ target: Target = .domain, _ body: @escaping @Sendable (Database, StoreContext) throws -> Value) {
        self.target = target
        self.body = body
    }
}

/// A named read of the store, in one read transaction so what it returns agrees.
public struct StoreRead<Value: Sendable>: Sendable {
    let target: StoreTarget
    let body: @Sendable (Database) throws -> Value

    init(_ target: StoreTarget = .domain, _ body: @escaping @Sendable (Database) throws -> Value) {
        self.target = target
        self.body = body
    }
}

/// A transaction's named access to one of the databases (`Outbox`, `ChangeLedger`): the
/// database it works on, and how a write or a read makes it from the connection. Its
/// metatype crosses into the database's closures, hence `SendableMetatype` (the scope
/// itself holds the connection and never leaves the transaction).
protocol StoreScope: SendableMetatype {
    static var target: StoreTarget { get }
    init(db: Database, now: Date)
}

extension StoreWrite {
    /// A write through `Scope`, in one transaction, at the time of the store's clock.
    static func scoped<Scope: StoreScope>(_ body: @escaping @Sendable (Scope) throws -> Value) -> Self {
        StoreWrite(Scope.target) { db, context in try body(Scope(db: db, now: context.now)) }
    }
}

extension StoreRead {
    /// A read through `Scope`. A read has no write time, so it gets the epoch; writes
    /// through it throw (the transaction is read-only).
    static func scoped<Scope: StoreScope>(_ body: @escaping @Sendable (Scope) throws -> Value) -> Self {
        StoreRead(Scope.target) { db in try body(Scope(db: db, now: Date(timeIntervalSince1970: 0))) }
    }
}

extension StoreRead {
    /// This read and `other` in one read transaction of the same database: what they
    /// return agrees, and async code makes one trip to a reader instead of two. (An async
    /// read of a pool crosses four queues: the reader pool's, the reader's, and the way
    /// back; the sync engine's loop measured them.)
    public func and<Other>(_ other: StoreRead<Other>) -> StoreRead<(Value, Other)> {
        precondition(target == other.target, "reads of two databases cannot share a transaction")
        let (first, second) = (body, other.body)
        return StoreRead<(Value, Other)>(target) { db in (try first(db), try second(db)) }
    }

    /// This read with its value transformed inside the transaction.
    public func map<Other>(_ transform: @escaping @Sendable (Value) -> Other) -> StoreRead<Other> {
        let body = self.body
        return StoreRead<Other>(target) { db in transform(try body(db)) }
    }

    /// `read` of each key, in one transaction; a key whose read throws is left out.
    public static func each<Key: Hashable & Sendable, Element>(
        _ keys: [Key], _ read: (Key) -> StoreRead<Element>
    ) -> StoreRead<[Key: Element]> where Value == [Key: Element] {
        let reads = keys.map { ($0, read($0)) }
        let target = reads.first?.1.target ?? .domain
        precondition(reads.allSatisfy { $0.1.target == target }, "reads of two databases cannot share a transaction")
        return StoreRead(target) { db in
            var values: [Key: Element] = [:]
            for (key, read) in reads { values[key] = try? read.body(db) }
            return values
        }
    }
}

extension StoreWrite {
    /// This write, then the read `next` makes from its value, in the same transaction:
    /// what the write left, read without another trip to the database.
    public func then<Next>(_ next: @escaping @Sendable (Value) -> StoreRead<Next>) -> StoreWrite<(Value, Next)> {
        let (body, target) = (self.body, self.target)
        return StoreWrite<(Value, Next)>(target) { db, context in
            let value = try body(db, context)
            let read = next(value)
            precondition(read.target == target, "reads of two databases cannot share a transaction")
            return (value, try read.body(db))
        }
    }
}

extension HyzerDatabase {
    private func writer(_ target: StoreTarget) -> any DatabaseWriter {
        switch target {
        case .domain: domain
        case .operational: operational
        }
    }

    private var context: StoreContext { StoreContext(deviceID: deviceID, now: clock.date) }

    /// Runs a named write on the calling thread: for synchronous callers only (the CLI,
    /// the kiosk's main thread). Async code uses the `await` overload.
    @discardableResult
    public func write<Value>(_ write: StoreWrite<Value>) throws -> Value {
        let context = self.context
        return try writer(write.target).write { db in try write.body(db, context) }
    }

    /// Runs a named write without blocking a thread of Swift concurrency's pool while it
    /// waits for the writer and the commit's fsync.
    @discardableResult
    public func write<Value>(_ write: StoreWrite<Value>) async throws -> Value {
        let context = self.context
        return try await writer(write.target).write { db in try write.body(db, context) }
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
