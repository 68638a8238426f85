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
struct ServerLifecycleService: Service {
    let hub: PokeHub
    let storage: SQLiteStorage
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        await hub.finishAll()
        logger.info("shutting down: live sockets closed")
    }
}

/// Opens the storage in the data directory and builds the HTTP + WebSocket application.
/// Run it with `runService()` or inside a `ServiceGroup`; it stops on graceful shutdown.
public func buildApplication(
    _ config: ServerConfiguration,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) async throws -> some ApplicationProtocol {
    var logger = Logger(label: "hyzer.server")
    logger.logLevel = config.logLevel
    let storage = try SQLiteStorage(directory: config.dataDirectory, logger: logger)
    return buildApplication(config, storage: storage, logger: logger, onServerRunning: onServerRunning)
}

/// The same, around a storage the caller opened (tests keep a handle on it).
public func buildApplication(
    _ config: ServerConfiguration, storage: SQLiteStorage, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> some ApplicationProtocol {
    let hub = PokeHub()
    let router = buildRouter(storage: storage, hub: hub)
    logger.info("storage open", metadata: ["data": "\(config.dataDirectory.path)", "epoch": "\(storage.epoch)"])
    let runningLogger = logger
    return Application(
        router: router,
        server: .http1WebSocketUpgrade(webSocketRouter: router),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "hyzer-server"),
        services: [ServerLifecycleService(hub: hub, storage: storage, logger: logger)],
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            runningLogger.info("listening", metadata: ["host": "\(config.host)", "port": "\(port)"])
            await onServerRunning(port)
        },
        logger: logger
    )
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
        groupConfig.maximumCancellationDuration = .seconds(2)
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
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        try? storage.close()
    }
}
