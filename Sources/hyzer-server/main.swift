// hyzer-server: the group's sync server. Thin: everything lives in HyzerServer.
import ArgumentParser
import Foundation
import HyzerKit
import HyzerServer
import HyzerSystem
import Logging
import SQLiteFaults
import ServiceLifecycle

/// Where the data is: `--data DIR` (SQLite, the default) or `--database postgres://…`.
struct DataDirectory: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(HyzerPaths.Owner.server.dataOptionHelp))
    var data: String?
    @Option(
        name: .long,
        help: ArgumentHelp(
            "A PostgreSQL database instead of SQLite in --data: postgres://USER[:PASSWORD]@HOST[:PORT]/DB, or over a Unix socket postgres://USER@/DB?host=/run/postgresql (default: the settings file's database).",
            valueName: "url"))
    var database: String?

    var url: URL { HyzerPaths.dataDirectory(explicit: data, for: .server) }

    /// `--data`, else the settings file's `data`, else the default.
    func url(file: ConfigFile?) -> URL {
        HyzerPaths.dataDirectory(explicit: data ?? file?.string("data"), for: .server)
    }

    /// `--database`, else the settings file's `database`; nil for SQLite.
    func location(file: ConfigFile? = nil) throws -> PostgresLocation? {
        guard let text = database ?? file?.string("database") else { return nil }
        do { return try PostgresLocation(url: text) } catch { throw ValidationError(error.description) }
    }

    /// Opens the storage these options name, with a message that says where it failed.
    func open(file: ConfigFile? = nil) async throws -> any ServerStorage {
        let location = try location(file: file)
        let directory = url(file: file)
        do {
            return try await openServerStorage(data: directory, database: location)
        } catch let error as StorageError {
            throw Fail(description: error.description)
        } catch {
            throw Fail(description: StorageFault.cannotOpen("the server database", in: directory.path, error))
        }
    }
}

/// An admin subcommand that works on the server's database: it names what it does with
/// the storage, and opening the storage (`--data` or `--database`) is written once, here.
protocol StorageCommand: AsyncParsableCommand {
    var data: DataDirectory { get }
    func run(on storage: any ServerStorage) async throws
}

extension StorageCommand {
    func run() async throws {
        let storage = try await data.open()
        do {
            try await run(on: storage)
        } catch {
            try? await storage.close()
            throw error
        }
        try await storage.close()
    }
}

struct Fail: Error, CustomStringConvertible {
    var description: String
}

@main
struct HyzerServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hyzer-server",
        abstract: "The Hyzer group server: push/pull sync with a live poke socket.",
        subcommands: [Serve.self, GroupCommand.self, DeviceCommand.self, Backup.self, Restore.self],
        defaultSubcommand: Serve.self)
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve", abstract: "Serve (the default): hyzer-server --data DIR --port N")

    @OptionGroup var data: DataDirectory
    @Option(help: "Port to listen on (0 = any free port; default: the file's port, else 8630).") var port: Int?
    @Option(help: "Address to bind (default: the file's host, else 0.0.0.0).") var host: String?
    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp("\(HyzerLogging.levels.joined(separator: ", ")) (default: the file's log_level, else info)."))
    var logLevel: String?
    @Option(help: ArgumentHelp("The settings file (default: \(ServerSettingsFile.defaultPath) if it exists).", valueName: "path"))
    var config: String?
    @Flag(name: .customLong("check-config"), help: "Check the settings file, say what is wrong, and exit.")
    var checkConfig = false
    @Option(
        name: .customLong("device-code-lifetime"),
        help: "Seconds a joining device's code stays valid (tests shorten it).")
    var deviceCodeLifetime = DeviceCodePolicy().lifetime
    @Option(name: .customLong("device-code-interval"), help: "Seconds a joining device waits between polls.")
    var deviceCodeInterval = DeviceCodePolicy().interval
    @OptionGroup var operations: OperationsOptions

    func validate() throws {
        if let logLevel {
            do { _ = try HyzerLogging.level(logLevel) } catch { throw ValidationError("\(error)") }
        }
        guard deviceCodeLifetime > 0, deviceCodeInterval > 0 else {
            throw ValidationError("--device-code-lifetime and --device-code-interval must be at least 1 second")
        }
        try operations.validate()
    }

    func run() async throws {
        let file: ConfigFile?
        do {
            file = try ServerSettingsFile.read(path: config)
        } catch {
            // EX_CONFIG: the unit does not restart on it (RestartPreventExitStatus=78).
            FileHandle.standardError.write(Data("hyzer-server: \(error)\n".utf8))
            throw ExitCode(78)
        }
        let level = HyzerLogging.level(flag: logLevel, file: file)
        HyzerLogging.bootstrap(level: level)
        if checkConfig {
            print("\(file?.path ?? "no settings file (\(ServerSettingsFile.defaultPath))"): ok")
            return
        }
        let dataDirectory = data.url(file: file)
        var config = ServerConfiguration(
            dataDirectory: dataDirectory, host: host ?? file?.string("host") ?? "0.0.0.0",
            port: port ?? file?.int("port") ?? 8630, logLevel: level,
            deviceCodes: DeviceCodePolicy(lifetime: deviceCodeLifetime, interval: deviceCodeInterval),
            database: try data.location(file: file))
        do {
            try operations.apply(to: &config, file: file)
        } catch {
            FileHandle.standardError.write(Data("hyzer-server: \(error)\n".utf8))
            throw ExitCode(78)
        }
        // Type=notify: started once it listens.
        let notifier = SystemdNotifier()
        let app: any Service
        do {
            app = try await buildApplication(config) { _ in notifier.ready() }
        } catch let error as StorageError {
            throw Fail(description: error.description)
        } catch {
            throw Fail(description: StorageFault.cannotOpen("the server database", in: dataDirectory.path, error))
        }
        // SIGTERM (systemd stop) and SIGINT finish in-flight requests, close the live
        // sockets, then exit 0.
        var groupConfig = ServiceGroupConfiguration(
            services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: Logger(label: "hyzer.server.lifecycle"))
        // Well inside systemd's TimeoutStopSec=20: a client that never closes its
        // connection cannot turn a clean stop into a SIGKILL.
        groupConfig.maximumGracefulShutdownDuration = .seconds(10)
        let group = ServiceGroup(configuration: groupConfig)
        try await group.run()
        notifier.stopping()
    }
}

struct GroupCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "group", abstract: "Manage groups.",
        subcommands: [Create.self, List.self, BoardLink.self, BoardUnlink.self, Invite.self])

    struct Create: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Create a group; prints its admin token (shown once).")
        @Argument(help: "The group's name.") var name: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let (group, token) = try await storage.createGroup(name: name)
            FileHandle.standardError.write(
                Data("created group \"\(group.name)\" (\(group.id)); its admin token follows, keep it safe:\n".utf8))
            print(token)
        }
    }

    struct List: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "List groups.")
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            for group in try await storage.groups() {
                let devices = try await storage.devices(groupID: group.id)
                print("\(group.id)  \(group.name)  (\(devices.filter { $0.revokedAt == nil }.count) devices)")
            }
        }
    }
}

extension GroupCommand {
    /// The group named by its id or, when no id matches, by its exact name (refused when two
    /// groups share it).
    static func find(_ name: String, in storage: any ServerStorage) async throws -> GroupInfo {
        let groups = try await storage.groups()
        if let byID = groups.first(where: { $0.id == name }) { return byID }
        let named = groups.filter { $0.name == name }
        guard named.count == 1 else {
            throw Fail(
                description: named.isEmpty
                    ? "no group \"\(name)\" (see hyzer-server group list)"
                    : "\(named.count) groups are named \"\(name)\"; give the id (hyzer-server group list)")
        }
        return named[0]
    }

    struct BoardLink: StorageCommand {
        static let configuration = CommandConfiguration(
            commandName: "board-link",
            abstract: "Make a read-only link to the group's live board; prints the URL last.",
            discussion: "Anyone with the link can see the standings and nothing else. Open it on a TV or a phone.")
        @Argument(help: "The group's id or name.") var group: String
        @Option(
            name: .customLong("base-url"),
            help: "How phones reach this server (default: http://HOSTNAME:8630).")
        var baseURL: String?
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let trimmed = try GroupCommand.baseURL(baseURL)
            let token = try await storage.createViewToken(groupID: group.id)
            FileHandle.standardError.write(
                Data("live board of \"\(group.name)\": read-only; `hyzer-server group board-unlink` revokes every link\n".utf8))
            print("\(trimmed)/g/\(group.id)/board#view=\(token)")
        }
    }

    struct Invite: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "Invite a phone: prints a link that works once, for 10 minutes (the kiosk shows it as a QR code).")
        @Argument(help: "The group's id or name.") var group: String
        @Option(name: .customLong("base-url"), help: "How phones reach this server (default: http://HOSTNAME:8630).")
        var baseURL: String?
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let base = try GroupCommand.baseURL(baseURL)
            let invite = try await storage.createInvite(
                groupID: group.id, createdBy: "admin", lifetime: DeviceCodePolicy().lifetime)
            FileHandle.standardError.write(
                Data("a phone that opens this joins \"\(group.name)\" as a scorer; it works once, for 10 minutes\n".utf8))
            print(base + invite.path)
        }
    }

    /// `--base-url` checked, without a trailing slash; by default this machine on port 8630.
    static func baseURL(_ given: String?) throws -> String {
        let base = given ?? "http://\(ProcessInfo.processInfo.hostName):8630"
        guard let url = URL(string: base), let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil
        else { throw ValidationError("--base-url must be an http:// or https:// URL, got \"\(base)\"") }
        return base.hasSuffix("/") ? String(base.dropLast()) : base
    }

    struct BoardUnlink: StorageCommand {
        static let configuration = CommandConfiguration(
            commandName: "board-unlink",
            abstract: "Revoke every live-board link and round-summary link of the group (links shared too widely).")
        @Argument(help: "The group's id or name.") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            let group = try await GroupCommand.find(self.group, in: storage)
            let count = try await storage.revokeViewTokens(groupID: group.id)
            print("revoked \(count) board and summary link\(count == 1 ? "" : "s") of \"\(group.name)\"")
        }
    }
}

struct DeviceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device", abstract: "List, revoke, approve or deny a group's devices, or release their players.",
        subcommands: [List.self, Revoke.self, Release.self, Approve.self, Deny.self])

    struct List: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "List a group's devices, and the player each phone plays as.")
        @Argument(help: "Group id.") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            for d in try await storage.devices(groupID: group) {
                // The player last, after the columns scripts already read.
                let player = d.playerID.map { "  (plays as \(d.playerName ?? $0.uuidString.lowercased()))" } ?? ""
                print("\(d.deviceID)  \(d.name)  \(d.revokedAt == nil ? "active" : "revoked")\(player)")
            }
        }
    }

    struct Revoke: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a device and its token.")
        @Argument(help: "Group id.") var group: String
        @Argument(help: "Device id.") var device: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do { try await storage.revoke(groupID: group, deviceID: device) } catch { throw Fail(description: "\(error)") }
            print("revoked \(device)")
        }
    }

    struct Release: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract: "Free the player a phone plays as, so another phone can claim it; the phone stays in the group.")
        @Argument(help: "Group id.") var group: String
        @Argument(help: "Device id (hyzer-server device list).") var device: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do {
                let released = try await storage.releasePlayer(groupID: group, deviceID: device)
                let player = released.playerName ?? released.playerID?.uuidString.lowercased() ?? "its player"
                print("released \(player) from \(released.name) (\(device)); another phone may claim them now")
            } catch let error as StorageError {
                throw Fail(description: "cannot release \(device): \(error)")
            }
        }
    }
}

extension DeviceCommand {
    /// The admin's half of joining from the kiosk's screen: the kiosk shows CODE.
    struct Approve: StorageCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "Let a device join a group with the code its screen shows (hyzer-server device approve BCDF-GHJK --group G).")
        @Argument(help: "The code on the device's screen (XXXX-XXXX; case and dash do not matter).") var code: String
        @Option(help: "Group id (hyzer-server group list).") var group: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do {
                let approved = try await storage.approveDevice(userCode: code, groupID: group)
                print("approved \(approved.name) (\(approved.deviceID)); it joins the group at its next poll")
            } catch let error as DeviceApprovalError {
                throw Fail(description: "cannot approve \(code): \(error)")
            }
        }
    }

    struct Deny: StorageCommand {
        static let configuration = CommandConfiguration(abstract: "Refuse a device's code: it will not join.")
        @Argument(help: "The code on the device's screen.") var code: String
        @OptionGroup var data: DataDirectory

        func run(on storage: any ServerStorage) async throws {
            do { try await storage.denyDevice(userCode: code) } catch let error as DeviceApprovalError {
                throw Fail(description: "cannot deny \(code): \(error)")
            }
            print("denied \(code)")
        }
    }
}

struct Backup: StorageCommand {
    static let configuration = CommandConfiguration(abstract: "Write a consistent copy of the database (safe while serving).")
    @OptionGroup var data: DataDirectory
    @Option(help: "Backup file to write.") var to: String

    func run(on storage: any ServerStorage) async throws {
        try await storage.backup(to: URL(fileURLWithPath: to))
        print("backed up to \(to)")
    }
}

struct Restore: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract:
            "Replace the database with a backup (SQLite: server stopped). Gives it a new epoch: devices re-pull and re-push.")
    @OptionGroup var data: DataDirectory
    @Option(help: "Backup file to restore.") var from: String

    func run() async throws {
        guard FileManager.default.fileExists(atPath: from) else { throw Fail(description: "no backup file at \(from)") }
        let backup = URL(fileURLWithPath: from)
        let epoch: String
        if let location = try data.location() {
            // PostgreSQL: the instances may keep running; they hear the new epoch.
            do { epoch = try await PostgresStorage.restore(backup: backup, into: location) } catch let error as StorageError {
                throw Fail(description: error.description)
            }
        } else {
            epoch = try SQLiteStorage.restore(backup: backup, into: data.url)
        }
        print("restored \(from); new epoch \(epoch)")
    }
}

/// `serve`'s operations flags: TLS, who reads `/metrics`, and each token's rate. Each
/// overrides the settings file's key of the same name (tls_cert, tls_key, metrics,
/// rate_limit, burst).
struct OperationsOptions: ParsableArguments {
    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("Serve HTTPS and WSS with this PEM certificate chain (with --tls-key).", valueName: "file"))
    var tlsCert: String?
    @Option(
        name: .customLong("tls-key"), help: ArgumentHelp("The certificate's PEM private key, unencrypted.", valueName: "file"))
    var tlsKey: String?
    @Option(
        help: ArgumentHelp(
            "Who may read GET /metrics: open (default), admin (any group's admin token) or off.", valueName: "access"))
    var metrics: String?
    @Option(
        name: .customLong("rate-limit"),
        help: ArgumentHelp(
            "Requests each bearer token may make: N/s or N/min (default 20/s; 0 switches limiting off).", valueName: "rate"))
    var rateLimit: String?
    @Option(help: ArgumentHelp("Requests a token may make back to back (default 60).", valueName: "n")) var burst: Int?

    static let defaultPolicy = RateLimitPolicy()

    func validate() throws {
        if let metrics, MetricsAccess(rawValue: metrics) == nil {
            throw ValidationError("--metrics takes open, admin or off, got \"\(metrics)\"")
        }
        if let rateLimit, RateLimitPolicy.parseRate(rateLimit) == nil {
            throw ValidationError("--rate-limit takes N/s or N/min (0 for none), got \"\(rateLimit)\"")
        }
        if let burst, burst < 0 { throw ValidationError("--burst must be 0 or more") }
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The flags, else the file, else the defaults; TLS files are read and checked here, so
    /// a wrong one stops the start (exit 78, as any setting's mistake).
    func apply(to config: inout ServerConfiguration, file: ConfigFile?) throws {
        let cert = tlsCert ?? file?.string("tls_cert")
        let key = tlsKey ?? file?.string("tls_key")
        switch (cert, key) {
        case (nil, nil): config.tls = nil
        case (let cert?, let key?): config.tls = try ServerTLS.configuration(certificate: cert, key: key)
        default: throw Failure(description: "TLS needs both a certificate and a key (--tls-cert and --tls-key)")
        }
        config.metrics = (metrics ?? file?.string("metrics")).flatMap(MetricsAccess.init(rawValue:)) ?? .open
        let rate = (rateLimit ?? file?.string("rate_limit")).flatMap(RateLimitPolicy.parseRate) ?? Self.defaultPolicy.rate
        config.rateLimit = RateLimitPolicy(rate: rate, burst: burst ?? file?.int("burst") ?? Self.defaultPolicy.burst)
    }
}
