import Foundation
import Hummingbird
import HummingbirdWebSocket
import HyzerKit
import HyzerSyncProtocol
import Logging
import NIOSSL
import ServiceLifecycle

public struct ServerConfiguration: Sendable {
    public var dataDirectory: URL
    /// 0.0.0.0 for a group server phones reach; tests and `make run` use 127.0.0.1.
    public var host: String
    /// 0 picks a free port (tests); `onServerRunning` reports the real one.
    public var port: Int
    public var logLevel: Logger.Level
    /// Where the storage's timestamps come from: the system clock in production, a
    /// `ManualClock` in tests that check them.
    public var clock: any HyzerClock
    /// How long a joining device's codes live and how often it may poll.
    public var deviceCodes: DeviceCodePolicy
    /// The pages for browsers (assets/web); nil serves none (the API still works).
    public var webDirectory: URL?
    /// The live board's event stream.
    public var liveBoard: LiveBoardPolicy
    /// PostgreSQL instead of SQLite in `dataDirectory` (`--database postgres://…`).
    public var database: PostgresLocation?
    /// Server operations (docs/architecture.md, "Server operations"): HTTPS and WSS with
    /// this configuration (`ServerTLS`; nil serves plain HTTP), who reads `/metrics`, and
    /// each bearer token's rate (off unless given: `hyzer-server serve` sets its default).
    public var tls: TLSConfiguration?
    public var metrics: MetricsAccess = .open
    public var rateLimit: RateLimitPolicy = .off

    public init(
        dataDirectory: URL, host: String = "0.0.0.0", port: Int = 8630, logLevel: Logger.Level = .info,
        clock: any HyzerClock = SystemClock(), deviceCodes: DeviceCodePolicy = DeviceCodePolicy(),
        webDirectory: URL? = HyzerPaths.assetsDirectory(containing: "web/phone.html")?.appendingPathComponent(
            "web", isDirectory: true),
        liveBoard: LiveBoardPolicy = LiveBoardPolicy(), database: PostgresLocation? = nil
    ) {
        self.dataDirectory = dataDirectory
        self.host = host
        self.port = port
        self.logLevel = logLevel
        self.clock = clock
        self.deviceCodes = deviceCodes
        self.webDirectory = webDirectory
        self.liveBoard = liveBoard
        self.database = database
    }
}

/// The routes, without a server: `buildApplication` serves them, tests may drive them
/// with HummingbirdTesting's `.router` framework.
public func buildRouter(
    storage: some ServerStorage, hub: PokeHub,
    deviceCodes: DeviceCodePolicy = DeviceCodePolicy(), pages: WebPages = WebPages(directory: nil),
    liveBoard: LiveBoardPolicy = LiveBoardPolicy(), clock: any HyzerClock = SystemClock(),
    operations: ServerOperations = ServerOperations()
) -> Router<ServerRequestContext> {
    let router = Router(context: ServerRequestContext.self)
    if let metrics = operations.metrics { router.middlewares.add(MetricsMiddleware(metrics: metrics)) }
    router.middlewares.add(LogRequestsMiddleware(.debug))
    router.middlewares.add(StorageFaultMiddleware())
    router.middlewares.add(BearerTokenMiddleware())
    if let limiter = operations.limiter { router.middlewares.add(RateLimitMiddleware(limiter: limiter)) }
    HealthController(storage: storage).addRoutes(to: router)
    // Push and pull check the token in their own transaction; the other routes have it
    // looked up first.
    SyncController(storage: storage, hub: hub).addRoutes(to: router.group("v1"))
    let deviceAuthorization = DeviceAuthorizationController(storage: storage, policy: deviceCodes)
    deviceAuthorization.addDeviceRoutes(to: router.group("v1"))
    let invites = InviteController(storage: storage, lifetime: deviceCodes.lifetime)
    invites.addOpenRoutes(to: router.group("v1"))
    // One cache of net nights' handicaps for the board and the summary pages.
    let handicaps = NightHandicapCache()
    let summaries = SummaryController(storage: storage, handicaps: handicaps)
    summaries.addOpenRoutes(to: router.group("v1"))
    let names = NameRequestController(storage: storage)
    names.addOpenRoutes(to: router.group("v1"))
    let authenticated = router.group().add(middleware: AuthMiddleware(storage: storage))
    DeviceController(storage: storage).addRoutes(to: authenticated.group("v1"))
    deviceAuthorization.addAdminRoutes(to: authenticated.group("v1"))
    invites.addAuthenticatedRoutes(to: authenticated.group("v1"))
    summaries.addAuthenticatedRoutes(to: authenticated.group("v1"))
    names.addAuthenticatedRoutes(to: authenticated.group("v1"))
    LiveController(storage: storage, hub: hub).addRoutes(to: authenticated)
    operations.addMetricsRoute(to: authenticated, hub: hub)
    // The board takes view tokens only, looked up by its own routes (never by AuthMiddleware).
    BoardController(storage: storage, hub: hub, policy: liveBoard, clock: clock, handicaps: handicaps).addRoutes(to: router)
    pages.addRoutes(to: router)
    ServerRoutes.addMethodNotAllowed(to: router, metricsServed: operations.servesMetrics)
    return router
}

/// The application plus the one thing its shutdown needs first: the live sockets must
/// end *as soon as* a graceful shutdown starts. (Inside the application's own service
/// group the HTTP server is shut down first and waits for open connections, so a hub
/// closed after it would keep SIGTERM waiting on every open socket.)
public struct GroupServer<App: ApplicationProtocol>: Service {
    /// The Hummingbird application (HummingbirdTesting drives it directly).
    public let app: App
    let hub: PokeHub
    let logger: Logger
    /// What the storage runs beside the app (PostgreSQL's listener), stopped with it.
    var services: [any Service] = []

    public func run() async throws {
        let hub = self.hub
        let logger = self.logger
        try await withThrowingTaskGroup(of: Void.self) { group in
            for service in services { group.addTask { try await service.run() } }
            try await withGracefulShutdownHandler {
                try await app.run()
            } onGracefulShutdown: {
                Task {
                    await hub.finishAll()
                    logger.info("shutting down: live sockets closed")
                }
            }
            group.cancelAll()
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
    let storage = try await openServerStorage(
        data: config.dataDirectory, database: config.database, clock: config.clock, logger: logger)
    return buildApplication(config, storage: storage, logger: logger, onServerRunning: onServerRunning)
}

/// The same, around a storage the caller opened (tests keep a handle on it). The
/// storage's clock is the caller's; `config.clock` is only used to open one.
public func buildApplication(
    _ config: ServerConfiguration, storage: any ServerStorage, logger: Logger,
    onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }
) -> GroupServer<some ApplicationProtocol> {
    let hub = PokeHub()
    let router = buildRouter(
        storage: storage, hub: hub, deviceCodes: config.deviceCodes, pages: WebPages(directory: config.webDirectory),
        liveBoard: config.liveBoard, clock: storage.clock, operations: ServerOperations(config, storage: storage))
    let place = config.database.map(\.description) ?? config.dataDirectory.path
    logger.info("storage open", metadata: ["data": "\(place)", "epoch": "\(storage.epoch)"])
    let runningLogger = logger
    let app = Application(
        router: router,
        // Idle keep-alive connections close after 5 s (longer than the 4-s poll, and a
        // connection a client opened but never used cannot hold a shutdown up), and the
        // WebSocket close handshake is short: a vanished phone must not keep SIGTERM waiting.
        // UpgradeGate: a request with an Upgrade header that is no WebSocket handshake is
        // served as plain HTTP instead of being dropped unanswered.
        server: .gatedHTTP1WebSocketUpgrade(
            webSocketRouter: router,
            configuration: .init(
                http1: .init(idleTimeout: .seconds(5)),
                ws: .init(
                    autoPing: .enabled(timePeriod: .seconds(30)),
                    closeTimeout: .seconds(2)))
        ).secured(by: config.tls),
        configuration: .init(address: .hostname(config.host, port: config.port), serverName: "hyzer-server"),
        onServerRunning: { channel in
            let port = channel.localAddress?.port ?? config.port
            runningLogger.info("listening", metadata: ["host": "\(config.host)", "port": "\(port)"])
            await onServerRunning(port)
        },
        logger: logger
    )
    return GroupServer(app: app, hub: hub, logger: logger, services: storage.services(hub: hub, logger: logger))
}
