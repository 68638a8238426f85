import Foundation
import PostgresNIO

/// Where a PostgreSQL database is, from a `postgres://` URL as libpq writes them:
/// `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`, or over a Unix socket with the
/// socket's directory as `?host=/path/to/dir` (the host part may then be empty:
/// `postgres://hyzer@/hyzer?host=/run/postgresql`, `&port=N` for another port). `sslmode=disable|prefer|require`
/// chooses TLS over TCP (default `prefer`, libpq's default).
public struct PostgresLocation: Sendable, Equatable, CustomStringConvertible {
    public enum TLSMode: String, Sendable, Equatable { case disable, prefer, require }

    public var user: String
    public var password: String?
    /// A host name for TCP; nil with `socketDirectory`.
    public var host: String?
    public var port: Int
    public var database: String
    /// The directory of the server's Unix socket (`.s.PGSQL.PORT` inside it).
    public var socketDirectory: String?
    public var tls: TLSMode

    public init(
        user: String, password: String? = nil, host: String? = nil, port: Int = 5432, database: String,
        socketDirectory: String? = nil, tls: TLSMode = .prefer
    ) {
        self.user = user
        self.password = password
        self.host = host
        self.port = port
        self.database = database
        self.socketDirectory = socketDirectory
        self.tls = tls
    }

    /// Parses a URL; the error says what is missing, with an example.
    public init(url text: String) throws(StorageError) {
        let example = "postgres://USER@HOST/DATABASE, or postgres://USER@/DATABASE?host=/run/postgresql"
        guard let url = URLComponents(string: text), ["postgres", "postgresql"].contains(url.scheme ?? "") else {
            throw .invalid("--database must be a postgres:// URL (\(example)), got \"\(text)\"")
        }
        let database = url.path.hasPrefix("/") ? String(url.path.dropFirst()) : url.path
        guard !database.isEmpty, !database.contains("/") else {
            throw .invalid("the database URL names no database (\(example))")
        }
        guard let user = url.user, !user.isEmpty else { throw .invalid("the database URL names no user (\(example))") }
        let query = Dictionary((url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { _, b in b })
        let socket = query["host"].flatMap { $0.hasPrefix("/") ? $0 : nil }
        let host = url.host.flatMap { $0.isEmpty ? nil : $0 }
        guard socket != nil || host != nil else { throw .invalid("the database URL names no host or socket (\(example))") }
        var tls = TLSMode.prefer
        if let mode = query["sslmode"] {
            guard let known = TLSMode(rawValue: mode) else {
                throw .invalid("sslmode must be disable, prefer or require, got \"\(mode)\"")
            }
            tls = known
        }
        var port = url.port ?? 5432
        if let text = query["port"] {
            guard let number = Int(text), (1...65535).contains(number) else {
                throw .invalid("port must be 1–65535, got \"\(text)\"")
            }
            port = number
        }
        self.init(
            user: user, password: url.password, host: socket == nil ? host : nil, port: port, database: database,
            socketDirectory: socket, tls: tls)
    }

    /// The location as a URL `init(url:)` reads back (with its password, if it has one).
    public var url: String {
        let credentials = user + (password.map { ":\($0)" } ?? "")
        if let socketDirectory {
            return "postgres://\(credentials)@/\(database)?host=\(socketDirectory)" + (port == 5432 ? "" : "&port=\(port)")
        }
        return "postgres://\(credentials)@\(host ?? "localhost"):\(port)/\(database)?sslmode=\(tls.rawValue)"
    }

    /// The location without its password, for logs and messages.
    public var description: String {
        if let socketDirectory { return "postgres://\(user)@/\(database)?host=\(socketDirectory)" }
        return "postgres://\(user)@\(host ?? ""):\(port)/\(database)"
    }

    var clientConfiguration: PostgresClient.Configuration {
        if let socketDirectory {
            return PostgresClient.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        let mode: PostgresClient.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(.makeClientConfiguration())
            case .require: .require(.makeClientConfiguration())
            }
        return PostgresClient.Configuration(
            host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: mode)
    }

    /// The same, for one connection outside the pool (`PostgresStorage.open`'s first try).
    func connectionConfiguration() throws -> PostgresConnection.Configuration {
        if let socketDirectory {
            return PostgresConnection.Configuration(
                unixSocketPath: "\(socketDirectory)/.s.PGSQL.\(port)", username: user, password: password, database: database)
        }
        let mode: PostgresConnection.Configuration.TLS =
            switch tls {
            case .disable: .disable
            case .prefer: .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        return PostgresConnection.Configuration(
            host: host ?? "localhost", port: port, username: user, password: password, database: database, tls: mode)
    }

    /// The arguments and environment that point pg_dump and pg_restore (libpq) here; the
    /// password goes in the environment, never on a command line others can read.
    var libpq: (arguments: [String], environment: [String: String]) {
        var environment: [String: String] = [:]
        if let password { environment["PGPASSWORD"] = password }
        if socketDirectory == nil { environment["PGSSLMODE"] = tls.rawValue }
        return (
            ["--host", socketDirectory ?? host ?? "localhost", "--port", "\(port)", "--username", user, "--dbname", database],
            environment
        )
    }
}
