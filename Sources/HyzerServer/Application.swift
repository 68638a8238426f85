import Foundation
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol
import Logging
import ServiceLifecycle

public struct ServerConfiguration: Sendable {
    public var dataDirectory: URL
    /// 0.0.0.0 for a group server phones reach; tests and `make run` use 127.0.0.1.
    public var host: String
    /// 0 picks a free port (tests); `onServerRunning` reports the real one.
    public var port: Int
    public var logLevel: Logger.Level

    public init(dataDirectory: URL, host: String = "0.0.0.0", port: Int = 8630, logLevel: Logger.Level = .info) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.logLevel = logLevel
    }
}

/// The routes, without a server: `buildApplication` serves them, tests may drive them
/// with HummingbirdTesting's `.router` framework.
public func buildRouter(storage: any SyncStorage, hub: PokeHub) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    router.middlewares.add(LogRequestsMiddleware(.debug))
    router.middlewares.add(AuthMiddleware(storage: storage))
    HealthController(storage: storage).addRoutes(to: router)
    let v1 = router.group("v1")
    DeviceController(storage: storage).addRoutes(to: v1)
    SyncController(storage: storage, hub: hub).addRoutes(to: v1)
    LiveController(storage: storage, hub: hub).addRoutes(to: router)
    return router
}

/// Ends live sockets when the server shuts down gracefully (they would otherwise keep
/// the shutdown waiting), and closes the database last.
/// The application plus the one thing its shutdown needs first: the live sockets must
/// end *as soon as* a graceful shutdown starts. (Inside the application's own service
/// group the HTTP server is shut down first and waits for open connections, so a hub
/// closed after it would keep SIGTERM waiting on every open socket.)
public struct GroupServer<App: ApplicationProtocol>: Service {
    /// The Hummingbird application (HummingbirdTesting drives it directly).
    public let app: App
    let hub: PokeHub
    let logger: Logger

    public func run() async throws {
        let hub = self.hub, logger = self.logger
        try await withGracefulShutdownHandler {
            try await app.run()
        } onGracefulShutdown: {
            Task {
                await hub.finishAll()
                logger.info("shutting down: live sockets closed")
            }
        }
    }
}

/// Opens the storage in the data directory and builds the HTTP + WebSocket application.
/// Run it with `runService()` or inside a `ServiceGroup`; it stops on graceful shutdown.
public func buildApplication(
    _ config: ServerConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> GroupServer<some ApplicationProtocol> {
    var logger = Logger(label: "hyzer.server")
    logger.logLevel = config.logLevel
    let storage = try SQLiteStorage(directory: config.dataDirectory, logger: logger)
    return buildApplication(config, storage: storage, logger: logger, onServerRunning: onServerRunning)
}

/// The same, around a storage the caller opened (tests keep a handle on it).
public func buildApplication(
    _ config: ServerConfiguration, storage: SQLiteStorage, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> GroupServer<some ApplicationProtocol> {
    let hub = PokeHub()
    let router = buildRouter(storage: storage, hub: hub)
    logger.info("storage open", metadata: ["data": "\(config.dataDirectory.path)", "epoch": "\(storage.epoch)"])
    let runningLogger = logger
    let app = Application(
        router: router,
        // Idle keep-alive connections close after 5 s (longer than the 4-s poll, and a
        // connection a client opened but never used cannot hold a shutdown up), and the
        // WebSocket close handshake is short: a vanished phone must not keep SIGTERM waiting.
        server: .http1WebSocketUpgrade(webSocketRouter: router,
                                       configuration: .init(http1: .init(idleTimeout: .seconds(5)),
                                                            ws: .init(autoPing: .enabled(timePeriod: .seconds(30)),
                                                                      closeTimeout: .seconds(2)))),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "hyzer-server"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            runningLogger.info("listening", metadata: ["host": "\(config.host)", "port": "\(port)"])
            await onServerRunning(port)
        },
        logger: logger
    )
    return GroupServer(app: app, hub: hub, logger: logger)
}

/// A server running in this process, for tests, benchmarks and `make run`-style demos:
/// started on a port (0 = any free one), stopped gracefully like SIGTERM would.
public final class RunningServer: Sendable {
    public let port: Int
    public let baseURL: String
    public let storage: SQLiteStorage
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(port: Int, host: String, storage: SQLiteStorage, group: ServiceGroup, task: Task<Void, any Error>) {
        self.port = port
        self.storage = storage
        self.baseURL = "http://\(host):\(port)"
        self.group = group
        self.task = task
    }

    public static func start(_ config: ServerConfiguration) async throws -> RunningServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        var appLogger = Logger(label: "hyzer.server")
        appLogger.logLevel = config.logLevel
        let storage = try SQLiteStorage(directory: config.dataDirectory, logger: appLogger)
        let app = buildApplication(config, storage: storage, logger: appLogger) { port in
            continuation.yield(port)
            continuation.finish()
        }
        var logger = Logger(label: "hyzer.server.group")
        logger.logLevel = .warning
        var groupConfig = ServiceGroupConfiguration(services: [app], logger: logger)
        // A peer that never closes its connection must not hold a stop up for long.
        groupConfig.maximumGracefulShutdownDuration = .seconds(5)
        let group = ServiceGroup(configuration: groupConfig)
        // If the server cannot start (port taken), the stream ends without a port.
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else {
            task.cancel()
            throw StorageError.invalid("the server did not start")
        }
        let host = config.host == "0.0.0.0" ? "127.0.0.1" : config.host
        return RunningServer(port: port, host: host, storage: storage, group: group, task: task)
    }

    /// Graceful: in-flight requests finish, live sockets close, then the storage closes.
    public func stop(within seconds: Double = 5) async {
        await group.triggerGracefulShutdown()
        // Waits for the shutdown, but not forever: a peer that keeps a connection open
        // (seen now and then with a poke socket that both ends have already let go of)
        // would otherwise hold the caller until its keep-alive gives up.
        let task = self.task
        let finished: Bool = await withCheckedContinuation { continuation in
            let resumed = LockedValue(false)
            let resume: @Sendable (Bool) -> Void = { value in
                let first = resumed.withLock { done -> Bool in
                    defer { done = true }
                    return !done
                }
                if first { continuation.resume(returning: value) }
            }
            Task { _ = try? await task.value; resume(true) }
            Task { try? await Task.sleep(nanoseconds: UInt64(seconds * 1e9)); resume(false) }
        }
        if !finished { task.cancel() }
        try? storage.close()
    }
}
