import Foundation
import HyzerKit
import HyzerSyncProtocol
import Logging
import PostgresNIO
import Synchronization

/// The server's PostgreSQL store, for a club or league hosting many groups on several
/// stateless server instances behind a load balancer (SQLite stays the default for one
/// group's own box). The tables and rules are SQLiteStorage's; what several instances add:
///
/// - **Pushes are committed together** (group commit, `commits`): the pushes that arrive
///   while this instance's push transaction is in flight wait for the next one, which takes
///   them all, whatever their groups (`commitPushes`).
/// - **Pushes to one group are serialised** by a transaction-scoped advisory lock on the
///   group, taken before a seq is drawn (a transaction takes the locks of all its groups in
///   one statement, in the locks' key order, so two instances' transactions never deadlock
///   on them). A transaction holding a lower seq therefore always commits before one
///   holding a higher seq of the same group, so a puller that has seen seq n can never
///   later find a record below n appear: the pull cursor never skips one. (Without it, two
///   concurrent pushes through two instances can commit out of seq order.)
/// - **Pokes reach every instance**: a push transaction sends `NOTIFY hyzer` with each
///   group's new head, delivered at commit; each instance's `PostgresFeedListener` hands it
///   to its PokeHub.
/// - **Checks that were safe under SQLite's single writer take row locks**: the pushing
///   device's credential (`FOR SHARE`, so a revocation waits for, or is seen by, the push),
///   a device code or invite being redeemed (`FOR UPDATE`), one active enrollment per
///   device id is a unique index, and a player claimed with an invite takes the group's
///   claim lock (`claimLockSpace`), with a unique index behind it.
///
/// The same validation runs as on SQLite (PushBatch over a `PostgresFeedLedger`).
public final class PostgresStorage: Sendable {
    public let location: PostgresLocation
    let client: PostgresClient
    private let runner: Task<Void, Never>
    /// Changes when a backup is restored; every instance hears of it (`NOTIFY hyzer`).
    private let currentEpoch: Mutex<String>
    public let clock: any HyzerClock
    let logger: Logger

    /// The channel of the instances' pokes and epoch changes.
    static let channel = "hyzer"
    /// The first key of the advisory locks this server takes on pushes and migrations (the
    /// second is the group's hash, or 0): keeps its locks apart from any other
    /// application's in the same database.
    static let lockSpace: Int32 = 8630
    /// The first key of a group's claim lock (the second is the group's hash), taken by a
    /// redeem that claims a player: a space of its own, so that a claim never waits for the
    /// group's pushes, nor a push for a claim.
    static let claimLockSpace: Int32 = 8631

    public var epoch: String { currentEpoch.withLock { $0 } }

    /// Seams for the tests of the push path (never set in production): whether pushes are
    /// serialised per group, whether the pushes of a failed transaction are committed again
    /// one by one, and a pause just before a push transaction commits (given all its
    /// records). The tests turn the first two off to show that they are what keeps a record
    /// from being skipped and a failing push from taking its batch with it.
    struct PushSeams: Sendable {
        var serialisesPushes = true
        var retriesAlone = true
        var beforeCommit: (@Sendable (_ records: [SyncRecord]) async -> Void)?
    }
    let pushSeams = Mutex(PushSeams())
    /// Pushes waiting for this instance's push transaction, committed together.
    let commits = PushCommitQueue<PostgresPendingPush>()
    /// Pushes whose shared transaction failed and that were committed again one by one.
    let pushesRetriedAlone = Atomic<Int>(0)

    /// Sets the epoch and returns the one it replaces.
    func currentEpochValue(replacingWith epoch: String) -> String {
        currentEpoch.withLock { current in
            defer { current = epoch }
            return current
        }
    }

    private init(
        location: PostgresLocation, client: PostgresClient, runner: Task<Void, Never>, epoch: String, clock: any HyzerClock,
        logger: Logger
    ) {
        self.location = location
        self.client = client
        self.runner = runner
        self.currentEpoch = Mutex(epoch)
        self.clock = clock
        self.logger = logger
    }

    /// Connects, applies the migrations this database lacks, and reads its epoch. A
    /// database that cannot be reached is named with what to check.
    public static func open(
        _ location: PostgresLocation, clock: any HyzerClock = SystemClock(),
        logger: Logger = Logger(label: "hyzer.server.storage")
    ) async throws -> PostgresStorage {
        // One plain connection first: the pool would retry an unreachable server with
        // backoff for a minute and then report only that its circuit breaker tripped; this
        // says at once what is wrong (no such socket, refused, authentication).
        do {
            let probe = try await PostgresConnection.connect(
                configuration: try location.connectionConfiguration(), id: 0, logger: logger)
            try await probe.close()
        } catch {
            throw StorageError.invalid("cannot use the PostgreSQL database \(location): \(Self.describe(error))")
        }
        var configuration = location.clientConfiguration
        configuration.options.maximumConnections = 16
        // The pool's own log, errors only: it warns when a lease comes before `run()` has
        // started in its task, which is only ever the first query after this line.
        var background = logger
        background.logLevel = max(logger.logLevel, .error)
        let client = PostgresClient(configuration: configuration, backgroundLogger: background)
        let runner = Task { await client.run() }
        do {
            try await migrate(client, clock: clock, logger: logger)
            let epoch = try await client.withConnection { connection in
                try await Self.metaValue(connection, key: "epoch", logger: logger)
            }
            guard let epoch else { throw StorageError.invalid("the database at \(location) has no epoch") }
            return PostgresStorage(location: location, client: client, runner: runner, epoch: epoch, clock: clock, logger: logger)
        } catch {
            runner.cancel()
            throw StorageError.invalid("cannot use the PostgreSQL database \(location): \(Self.describe(error))")
        }
    }

    public func close() async {
        runner.cancel()
    }

    /// Seconds since 1970 by the injected clock, the unit every `*_at` column stores.
    var now: Double { clock.date.timeIntervalSince1970 }

    // MARK: Migrations

    /// Applies the missing migrations, each in its own transaction, under an advisory lock
    /// so that instances starting together do not both run one.
    private static func migrate(_ client: PostgresClient, clock: any HyzerClock, logger: Logger) async throws {
        try await client.withConnection { connection in
            try await transaction(connection, logger: logger) { connection in
                try await connection.query("SELECT pg_advisory_xact_lock(\(lockSpace), 0)", logger: logger)
                try await connection.query(
                    """
                    CREATE TABLE IF NOT EXISTS hyzer_migrations (
                        name text PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """, logger: logger)
                var applied: Set<String> = []
                for try await name in try await connection.query("SELECT name FROM hyzer_migrations", logger: logger)
                    .decode(String.self)
                {
                    applied.insert(name)
                }
                for migration in PostgresSchema.migrations where !applied.contains(migration.name) {
                    for statement in migration.statements {
                        try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                    }
                    if migration.name == "v1 server" {
                        let epoch = UUID().uuidString.lowercased()
                        let created = ISO8601Time.string(from: clock.date)
                        try await connection.query(
                            "INSERT INTO server_meta (key, value) VALUES ('epoch', \(epoch)), ('created_at', \(created))",
                            logger: logger)
                    }
                    try await connection.query(
                        "INSERT INTO hyzer_migrations (name) VALUES (\(migration.name))", logger: logger)
                    logger.debug("migrated", metadata: ["migration": "\(migration.name)"])
                }
            }
        }
    }

    static func metaValue(_ connection: PostgresConnection, key: String, logger: Logger) async throws -> String? {
        for try await value in try await connection.query("SELECT value FROM server_meta WHERE key = \(key)", logger: logger)
            .decode(String.self)
        {
            return value
        }
        return nil
    }

    // MARK: Transactions

    /// Runs `body` in a transaction on one connection of the pool: committed when it
    /// returns, rolled back when it throws, and the body's own error rethrown (postgres-nio's
    /// `withTransaction` wraps it, which would hide a refusal from the routes).
    func transaction<Value: Sendable>(
        readOnly: Bool = false, _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await Self.transaction(connection, readOnly: readOnly, logger: logger, body)
        }
    }

    static func transaction<Value: Sendable>(
        _ connection: PostgresConnection, readOnly: Bool = false, logger: Logger,
        _ body: @Sendable (PostgresConnection) async throws -> Value
    ) async throws -> Value {
        // A read-only transaction is REPEATABLE READ: its statements share one snapshot, so
        // a page and the head it reports agree.
        try await connection.query(readOnly ? "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY" : "BEGIN", logger: logger)
        do {
            let value = try await body(connection)
            try await connection.query("COMMIT", logger: logger)
            return value
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }

    /// The first row of a query decoded as `T`, or nil.
    static func first<T: PostgresDecodable & Sendable>(
        _ connection: PostgresConnection, _ query: PostgresQuery, as type: T.Type, logger: Logger
    ) async throws -> T? {
        for try await value in try await connection.query(query, logger: logger).decode(T.self) { return value }
        return nil
    }

    /// A PostgreSQL error's message and SQLSTATE, which postgres-nio's description hides.
    static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] {
                return "\(message) (SQLSTATE \(error.serverInfo?[.sqlState] ?? "?"))"
            }
            if let underlying = error.underlying { return "\(underlying)" }
            return "\(error.code)"
        }
        return "\(error)"
    }

    /// The SQLSTATE of a PostgreSQL error, if it is one.
    static func sqlState(_ error: any Error) -> String? {
        (error as? PSQLError)?.serverInfo?[.sqlState]
    }
}
