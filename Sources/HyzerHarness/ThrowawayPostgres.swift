import Foundation
import HyzerServer
import HyzerSyncSimulation

/// A throwaway PostgreSQL server for the tests and `hyzer-bench sync-sim --postgres`, from
/// Debian's `postgresql` package (`make deps` installs it): `initdb` in a temporary
/// directory, `pg_ctl start` listening on a Unix socket in that directory only (no TCP port
/// to collide with anything), and a fresh database for each test or seed. Nothing assumes a
/// PostgreSQL is already running.
///
/// Started once per process, on first use. A watchdog shell (its own session, so it
/// outlives a crash of the process) stops the server and removes the directory when the
/// process is gone.
///
/// As root (CI), initdb refuses to run; the server then runs as the `postgres` user the
/// package creates, through runuser.
public actor ThrowawayPostgres {
    public static let shared = ThrowawayPostgres()

    public struct Server: Sendable {
        public var directory: String
        public var socketDirectory: String { directory }
        public var port: Int
        public var user: String
        public var bin: String
    }

    private var server: Server?
    private var starting: Task<Server, any Error>?

    /// A new, empty database on the shared server.
    public func freshDatabase() async throws -> PostgresLocation {
        let server = try await running()
        let name = "hyzer_\(UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(16))"
        try await Self.psql(server, database: "postgres", "CREATE DATABASE \(name)")
        return PostgresLocation(
            user: server.user, port: server.port, database: name, socketDirectory: server.socketDirectory, tls: .disable)
    }

    /// Removes a database `freshDatabase` made, with any connection still open to it.
    public func drop(_ location: PostgresLocation) async throws {
        try await Self.psql(
            try await running(), database: "postgres", "DROP DATABASE IF EXISTS \(location.database) WITH (FORCE)")
    }

    /// The running server, started on first use.
    public func running() async throws -> Server {
        if let server { return server }
        if let starting { return try await starting.value }
        let task = Task { try await Self.start() }
        starting = task
        do {
            let started = try await task.value
            server = started
            return started
        } catch {
            starting = nil
            throw error
        }
    }

    /// The newest installed server's programs (/usr/lib/postgresql/N/bin).
    static func binDirectory() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last, FileManager.default.isExecutableFile(atPath: "\(root)/\(newest)/bin/initdb") else {
            throw ThrowawayPostgresError(
                "no PostgreSQL server installed under \(root): run `make deps` (Debian's postgresql package)")
        }
        return "\(root)/\(newest)/bin"
    }

    static var runsAsRoot: Bool { geteuid() == 0 }

    /// Runs a server program, as `postgres` when the tests run as root.
    static func serverProgram(
        _ server: (bin: String, user: String), _ name: String, _ arguments: [String]
    ) async throws
        -> Binary.Result
    {
        if runsAsRoot {
            return try await Binary.run(
                executable: URL(fileURLWithPath: "/usr/sbin/runuser"),
                ["-u", "postgres", "--", "\(server.bin)/\(name)"] + arguments)
        }
        return try await Binary.run(executable: URL(fileURLWithPath: "\(server.bin)/\(name)"), arguments)
    }

    private static func start() async throws -> Server {
        let bin = try binDirectory()
        let directory = "/tmp/hyzer-pg-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let user = "hyzer"
        if runsAsRoot {
            let chown = try await Binary.run(executable: URL(fileURLWithPath: "/bin/chown"), ["postgres:postgres", directory])
            guard chown.status == 0 else { throw ThrowawayPostgresError("chown \(directory): \(chown.stderr)") }
        }
        let port = 5432
        let initdb = try await serverProgram(
            (bin, user), "initdb",
            ["-D", "\(directory)/data", "-U", user, "-A", "trust", "-E", "UTF8", "--no-sync", "--locale", "C"])
        guard initdb.status == 0 else { throw ThrowawayPostgresError("initdb failed: \(initdb.stderr)") }
        // A socket in the directory only; durability settings off (a test database need not
        // survive a power cut, and fsyncs would dominate the suite's time).
        let options =
            "-k \(directory) -c listen_addresses='' -p \(port) -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
        let start = try await serverProgram(
            (bin, user), "pg_ctl",
            ["-D", "\(directory)/data", "-o", options, "-l", "\(directory)/log", "-w", "-t", "60", "start"])
        guard start.status == 0 else {
            let log = (try? String(contentsOfFile: "\(directory)/log", encoding: .utf8)) ?? ""
            throw ThrowawayPostgresError("pg_ctl start failed: \(start.stderr)\n\(log)")
        }
        let server = Server(directory: directory, port: port, user: user, bin: bin)
        try await watch(server)
        return server
    }

    /// Stops the server and removes its directory once this process has exited.
    private static func watch(_ server: Server) async throws {
        let stop = "\(server.bin)/pg_ctl -D \(server.directory)/data -m immediate stop"
        let asOwner = runsAsRoot ? "runuser -u postgres -- \(stop)" : stop
        let script = """
            while kill -0 \(getpid()) 2>/dev/null; do sleep 1; done
            \(asOwner) >/dev/null 2>&1
            rm -rf \(server.directory)
            """
        _ = try await ChildProcess.start(
            URL(fileURLWithPath: "/usr/bin/setsid"), ["-f", "/bin/sh", "-c", script], environment: nil)
    }

    static func psql(_ server: Server, database: String, _ sql: String) async throws {
        let result = try await Binary.run(
            executable: URL(fileURLWithPath: "\(server.bin)/psql"),
            [
                "-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", server.socketDirectory, "-p", "\(server.port)", "-U", server.user,
                "-d", database, "-c", sql,
            ])
        guard result.status == 0 else { throw ThrowawayPostgresError("psql \(sql): \(result.stderr)") }
    }

    /// Runs SQL in a test's database (for checks the storage API does not offer, such as
    /// trying to rewrite the feed).
    public func execute(_ sql: String, in location: PostgresLocation) async throws -> Binary.Result {
        let server = try await running()
        return try await Binary.run(
            executable: URL(fileURLWithPath: "\(server.bin)/psql"),
            [
                "-X", "-q", "-A", "-t", "-h", server.socketDirectory, "-p", "\(server.port)", "-U", server.user,
                "-d", location.database, "-c", sql,
            ])
    }
}

extension SyncSimulation.PostgresDatabases {
    /// On the throwaway server (`ThrowawayPostgres`, started on first use): the simulation's
    /// tests and `hyzer-bench sync-sim --postgres`.
    public static var throwaway: Self {
        Self(make: { try await ThrowawayPostgres.shared.freshDatabase() }, drop: { try await ThrowawayPostgres.shared.drop($0) })
    }
}

public struct ThrowawayPostgresError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
