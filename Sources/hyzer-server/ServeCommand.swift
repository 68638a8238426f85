import ArgumentParser
import Foundation
import HyzerServer
import HyzerSystem
import Logging
import SQLiteFaults
import ServiceLifecycle
import UnixSignals

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
