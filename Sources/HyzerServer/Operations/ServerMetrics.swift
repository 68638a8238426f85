import Foundation
import HTTPTypes
import Hummingbird
import HyzerKit
import Prometheus

/// Who may read `GET /metrics`. Operators usually scrape over a private network, so it is
/// open by default; `admin` asks for any group's admin token, `off` does not serve it.
public enum MetricsAccess: String, Sendable, CaseIterable {
    case open
    case admin
    case off
}

/// The server's Prometheus metrics, in a registry of its own: never swift-metrics' global
/// bootstrap, so several servers in one test process each count only their own requests.
public final class ServerMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let clock: any HyzerClock
    let pushDuration: DurationHistogram
    let pullDuration: DurationHistogram
    let liveSockets: Gauge

    static var requests: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "hyzer", subsystem: "http", metricName: "requests", unitName: "total",
            helpText: "Requests answered, by method and route pattern (unmatched paths are route \"none\")")
    }
    static var errors: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "hyzer", subsystem: "http", metricName: "errors", unitName: "total",
            helpText: "Requests answered with a 4xx or 5xx status, by method, route pattern and status")
    }
    static var records: MetricNameDescriptor {
        MetricNameDescriptor(
            namespace: "hyzer", metricName: "records_stored", unitName: "",
            helpText: "Record versions in each group's feed (read from the storage at each scrape)")
    }

    /// From a LAN round trip to a slow SD card's fsync; pushes and pulls past 5 s would
    /// break the 5-second update requirement anyway.
    static let buckets: [Duration] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5].map {
        .nanoseconds(Int64($0 * 1e9))
    }

    public init(clock: any HyzerClock) {
        self.clock = clock
        pushDuration = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "hyzer", metricName: "push_duration", unitName: "seconds",
                helpText: "Time to answer a successful push (the commit included)"),
            buckets: Self.buckets)
        pullDuration = registry.makeDurationHistogram(
            descriptor: MetricNameDescriptor(
                namespace: "hyzer", metricName: "pull_duration", unitName: "seconds",
                helpText: "Time to answer a successful pull"),
            buckets: Self.buckets)
        liveSockets = registry.makeGauge(
            descriptor: MetricNameDescriptor(
                namespace: "hyzer", metricName: "live_sockets", unitName: "",
                helpText: "Poke sockets open (devices that get updates within a second)"))
    }

    func answered(method: HTTPRequest.Method, route: String?, status: HTTPResponse.Status, started: Duration) {
        // Hummingbird names an unmatched path "NotFound"; either way it is no route of ours.
        let route = route.flatMap { $0 == "NotFound" ? nil : ServerRoutes.key($0) } ?? "none"
        registry.makeCounter(descriptor: Self.requests, labels: [("method", method.rawValue), ("route", route)]).increment()
        if status.code >= 400 {
            registry.makeCounter(
                descriptor: Self.errors, labels: [("method", method.rawValue), ("route", route), ("status", "\(status.code)")]
            ).increment()
        } else if status.kind == .successful {
            switch route {
            case "/v1/push": pushDuration.record(clock.uptime - started)
            case "/v1/pull": pullDuration.record(clock.uptime - started)
            default: break
            }
        }
    }

    /// The exposition, with the gauges read now: sockets from the hub, records from the
    /// storage (one grouped count over an index).
    func exposition(hub: PokeHub, recordCounts: [String: Int]) async -> String {
        liveSockets.set(Double(await hub.totalSubscribers))
        for (group, count) in recordCounts {
            registry.makeGauge(descriptor: Self.records, labels: [("group", group)]).set(Double(count))
        }
        return registry.emitToString()
    }
}

/// Counts every answer by route pattern (Hummingbird's endpoint path, never the raw path,
/// which would make a series per device id or token) and times pushes and pulls. First in
/// the chain, so refusals by the other middlewares (401, 429, 503) are counted too.
struct MetricsMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        let started = metrics.clock.uptime
        do {
            let response = try await next(request, context)
            metrics.answered(method: request.method, route: context.endpointPath, status: response.status, started: started)
            return response
        } catch {
            let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
            metrics.answered(method: request.method, route: context.endpointPath, status: status, started: started)
            throw error
        }
    }
}

/// `GET /metrics`: Prometheus' text format, version 0.0.4.
struct MetricsController: Sendable {
    let metrics: ServerMetrics
    let access: MetricsAccess
    let hub: PokeHub
    let recordCounts: @Sendable () async throws -> [String: Int]

    func addRoutes(to router: RouterGroup<ServerRequestContext>) {
        guard access != .off else { return }
        router.get("metrics") { _, context -> Response in
            if access == .admin { _ = try context.requireAdmin() }
            let text = await metrics.exposition(hub: hub, recordCounts: try await recordCounts())
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: text)))
        }
    }
}
