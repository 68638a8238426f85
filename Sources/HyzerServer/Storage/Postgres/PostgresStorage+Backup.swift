import Foundation
import HyzerKit
import Logging
import PostgresNIO
import Subprocess

/// The epoch, backup and restore on PostgreSQL: pg_dump and pg_restore, with the epoch rule
/// of SQLite (a restored database gets a new epoch, so every device re-pulls and re-pushes
/// what the backup lacks).
extension PostgresStorage {
    /// Takes the epoch another instance announced (a restore).
    func adoptEpoch(_ epoch: String) {
        let old = currentEpochValue(replacingWith: epoch)
        if old != epoch { logger.warning("new epoch", metadata: ["epoch": "\(epoch)", "reason": "the database was restored"]) }
    }

    /// Reads the epoch again (the listener does on every reconnect).
    func refreshEpoch(_ connection: PostgresConnection) async throws {
        if let epoch = try await Self.metaValue(connection, key: "epoch", logger: logger) { adoptEpoch(epoch) }
    }

    /// A consistent copy of the whole database (pg_dump's custom format, one snapshot), safe
    /// while serving.
    public func backup(to url: URL) async throws {
        try? FileManager.default.removeItem(at: url)
        try await Self.run(
            "pg_dump", ["--format=custom", "--no-owner", "--file", url.path] + location.libpq.arguments,
            environment: location.libpq.environment)
    }

    /// Replaces the database's tables with a backup's (every instance may keep running:
    /// they hear the new epoch) and gives it a new epoch. Returns the epoch.
    public static func restore(
        backup: URL, into location: PostgresLocation, logger: Logger = Logger(label: "hyzer.server.storage")
    ) async throws -> String {
        guard FileManager.default.fileExists(atPath: backup.path) else {
            throw StorageError.notFound("no backup file at \(backup.path)")
        }
        let carried = try await revocations(of: location, logger: logger)
        try await run(
            "pg_restore",
            ["--clean", "--if-exists", "--no-owner", "--single-transaction"] + location.libpq.arguments + [backup.path],
            environment: location.libpq.environment)
        let storage = try await open(location, logger: logger)
        defer { Task { await storage.close() } }
        let epoch = UUID().uuidString.lowercased()
        try await storage.transaction { connection in
            if let carried {
                let applied = try await apply(carried, connection, logger: logger)
                if applied > 0 {
                    logger.notice("revocations made since the backup carried over", metadata: ["rows": "\(applied)"])
                }
            }
            try await connection.query("UPDATE server_meta SET value = \(epoch) WHERE key = 'epoch'", logger: logger)
            try await connection.query(
                "SELECT pg_notify(\(Self.channel), \(PostgresFeedListener.epochMessage(epoch)))", logger: logger)
        }
        return epoch
    }

    /// The revocations of the database a restore is about to replace (SQLiteStorage's rule):
    /// nil (with a warning) when they cannot be read, or the database has no schema yet.
    static func revocations(of location: PostgresLocation, logger: Logger) async throws -> Revocations? {
        do {
            let storage = try await open(location, logger: logger)
            defer { Task { await storage.close() } }
            return try await storage.transaction(readOnly: true) { connection in
                var r = Revocations()
                func hashes(_ query: PostgresQuery) async throws -> [Revocations.Credential] {
                    var found: [Revocations.Credential] = []
                    for try await (hash, at) in try await connection.query(query, logger: logger).decode((Data, Double).self) {
                        found.append(.init(tokenHash: hash, revokedAt: at))
                    }
                    return found
                }
                // In token-hash order, the order a push transaction locks credentials in
                // (`PostgresStatements.PushLocks`): applying these never deadlocks with one.
                r.credentials = try await hashes(
                    "SELECT token_hash, revoked_at FROM credentials WHERE revoked_at IS NOT NULL ORDER BY token_hash")
                r.viewTokens = try await hashes("SELECT token_hash, revoked_at FROM view_tokens WHERE revoked_at IS NOT NULL")
                r.summaryLinks = try await hashes(
                    "SELECT token_hash, revoked_at FROM summary_links WHERE revoked_at IS NOT NULL")
                let devices = try await connection.query(
                    "SELECT group_id, device_id, revoked_at FROM devices WHERE revoked_at IS NOT NULL", logger: logger)
                for try await (group, device, at) in devices.decode((String, String, Double).self) {
                    r.devices.append(.init(groupID: group, deviceID: device, revokedAt: at))
                }
                return r
            }
        } catch {
            logger.warning(
                "cannot read the revocations of the database being replaced; revoke again what was revoked since the backup",
                metadata: ["error": "\(describe(error))"])
            return nil
        }
    }

    /// Applies revocations to the rows still live; returns how many it revoked.
    static func apply(_ r: Revocations, _ connection: PostgresConnection, logger: Logger) async throws -> Int {
        var applied = 0
        func count(_ query: PostgresQuery) async throws {
            for try await _ in try await connection.query(query, logger: logger).decode(Int.self) { applied += 1 }
        }
        for c in r.credentials {
            try await count(
                """
                UPDATE credentials SET revoked_at = \(c.revokedAt) WHERE token_hash = \(c.tokenHash) AND revoked_at IS NULL
                RETURNING 1
                """)
        }
        for c in r.viewTokens {
            try await count(
                """
                UPDATE view_tokens SET revoked_at = \(c.revokedAt) WHERE token_hash = \(c.tokenHash) AND revoked_at IS NULL
                RETURNING 1
                """)
        }
        for c in r.summaryLinks {
            try await count(
                """
                UPDATE summary_links SET revoked_at = \(c.revokedAt) WHERE token_hash = \(c.tokenHash) AND revoked_at IS NULL
                RETURNING 1
                """)
        }
        for d in r.devices {
            try await count(
                """
                UPDATE devices SET revoked_at = \(d.revokedAt)
                WHERE group_id = \(d.groupID) AND device_id = \(d.deviceID) AND revoked_at IS NULL RETURNING 1
                """)
        }
        return applied
    }

    /// Runs a PostgreSQL client program to its end; its error output becomes the message.
    /// Through swift-subprocess, which awaits the child without blocking a thread of Swift
    /// concurrency's pool. Not Foundation's `Process`: in Swift 6.3.1 its `run()` reads past
    /// glibc's readdir buffer once about 1,350 descriptors are open (a server hosting many
    /// groups holds that many connections) and crashes the process (swift-corelibs-foundation
    /// #5472; it crashed CI's test process at stop 49).
    static func run(_ program: String, _ arguments: [String], environment: [String: String]) async throws {
        let status: TerminationStatus
        let said: String?
        do {
            let result = try await Subprocess.run(
                .name(program), arguments: Arguments(arguments),
                environment: .inherit.updating(
                    Dictionary(uniqueKeysWithValues: environment.map { (Environment.Key(stringLiteral: $0.key), $0.value) })),
                output: .discarded, error: .string(limit: 64 * 1024))
            (status, said) = (result.terminationStatus, result.standardError)
        } catch {
            throw StorageError.invalid("cannot run \(program) (install the postgresql-client package): \(error)")
        }
        switch status {
        case .exited(0): return
        case .exited(let code):
            let message = (said ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
            throw StorageError.invalid("\(program) failed (exit \(code)): \(message)")
        case .signaled(let signal):
            throw StorageError.invalid("\(program) was killed by signal \(signal)")
        }
    }
}
