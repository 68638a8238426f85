import Hummingbird

/// What `buildRouter` adds for operations: the metrics (nil: none counted, no route) and
/// the rate limiter (nil: no limit). Empty by default, as the router tests want it.
public struct ServerOperations: Sendable {
    public var metrics: ServerMetrics?
    public var metricsAccess: MetricsAccess
    public var limiter: RateLimiter?
    /// Records per group, read at each scrape.
    public var recordCounts: @Sendable () async throws -> [String: Int]

    public init(
        metrics: ServerMetrics? = nil, metricsAccess: MetricsAccess = .off, limiter: RateLimiter? = nil,
        recordCounts: @escaping @Sendable () async throws -> [String: Int] = { [:] }
    ) {
        self.metrics = metrics
        self.metricsAccess = metricsAccess
        self.limiter = limiter
        self.recordCounts = recordCounts
    }

    /// A served application's: metrics unless switched off, and the configured limit, on
    /// the storage's clock (tests hand it a `ManualClock` and move time themselves).
    public init(_ config: ServerConfiguration, storage: any ServerStorage) {
        self.init(
            metrics: config.metrics == .off ? nil : ServerMetrics(clock: storage.clock), metricsAccess: config.metrics,
            limiter: config.rateLimit.isOff ? nil : RateLimiter(policy: config.rateLimit, clock: storage.clock),
            recordCounts: { try await storage.recordCounts() })
    }

    var servesMetrics: Bool { metrics != nil && metricsAccess != .off }

    func addMetricsRoute(to router: RouterGroup<ServerRequestContext>, hub: PokeHub) {
        guard let metrics, servesMetrics else { return }
        MetricsController(metrics: metrics, access: metricsAccess, hub: hub, recordCounts: recordCounts).addRoutes(to: router)
    }
}
