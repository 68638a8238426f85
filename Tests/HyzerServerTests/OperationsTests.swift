import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import HyzerTestSupport
import Testing

@testable import HyzerServer

/// Server operations: rate limits per bearer token, and `GET /metrics`.
@Suite struct RateLimitTests {
    /// The bucket on its own, time as a parameter: a burst, then one token per 1/rate s.
    @Test func aBucketAllowsItsBurstThenOneRequestPerRefill() {
        var bucket = TokenBucket(rate: 2, capacity: 3, now: .zero)
        #expect((0..<3).map { _ in bucket.take(now: .zero) } == [nil, nil, nil])
        #expect(bucket.take(now: .zero) == 1)  // half a second to the next token: 1 s, rounded up
        #expect(bucket.take(now: .milliseconds(499)) == 1)
        #expect(bucket.take(now: .milliseconds(500)) == nil)
        #expect(bucket.take(now: .milliseconds(500)) == 1)
        // A long pause fills it to its size, never beyond.
        #expect((0..<4).map { _ in bucket.take(now: .seconds(60)) } == [nil, nil, nil, 1])
        var slow = TokenBucket(rate: 0.1, capacity: 1, now: .zero)
        #expect(slow.take(now: .zero) == nil)
        #expect(slow.take(now: .zero) == 10)
        #expect(slow.take(now: .seconds(4)) == 6)
    }

    @Test func ratesParseAsAnOperatorWritesThem() {
        #expect(RateLimitPolicy.parseRate("20/s") == 20)
        #expect(RateLimitPolicy.parseRate("600/min") == 10)
        #expect(RateLimitPolicy.parseRate("5") == 5)
        #expect(RateLimitPolicy.parseRate("0") == 0)
        for bad in ["", "fast", "-1/s", "20/fortnight", "/s", "20/", "inf"] {
            #expect(RateLimitPolicy.parseRate(bad) == nil, "\(bad)")
        }
        #expect(RateLimitPolicy(rate: 0, burst: 60).isOff)
        #expect(!RateLimitPolicy().isOff)
    }

    /// Past the burst a token is answered 429 with `Retry-After` and an error body like
    /// every other; another device's token is not affected; the token is allowed again once
    /// the injected clock has moved by the time it was told. Negative control: the same
    /// requests with limiting off are all answered.
    @Test func pastTheBurstATokenIs429WithRetryAfterAndOthersAreNot() async throws {
        let clock = ManualClock()
        let h = try Harness(clock: clock)
        let one = try await h.group()
        let two = try await h.group("Other League")
        try await h.test(h.config.with(\.rateLimit, RateLimitPolicy(rate: 0.5, burst: 3))) { client in
            func pull(_ g: (admin: String, device: String, token: String, groupID: String)) async throws -> TestResponse {
                try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: g.token, device: g.device))
            }
            for _ in 0..<3 { #expect(try await pull(one).status == .ok) }
            let refused = try await pull(one)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "2")
            #expect(refused.headers[.contentType]?.hasPrefix("application/json") == true)
            #expect(errorMessage(refused).contains("retry after 2 s"), "\(errorMessage(refused))")
            // Any route that takes a token counts against the same bucket.
            let devices = try await client.execute(
                uri: "/v1/devices", method: .get, headers: headers(token: one.token, device: one.device))
            #expect(devices.status == .tooManyRequests)
            // Another token has its own bucket; requests without a token are not limited.
            #expect(try await pull(two).status == .ok)
            for _ in 0..<10 { #expect(try await client.execute(uri: "/health", method: .get).status == .ok) }
            clock.advance(by: .milliseconds(1_900))
            #expect(try await pull(one).status == .tooManyRequests)
            clock.advance(by: .milliseconds(100))
            #expect(try await pull(one).status == .ok)
        }
        try await h.test(h.config.with(\.rateLimit, .off)) { client in
            for _ in 0..<10 {
                let r = try await client.execute(
                    uri: "/v1/pull", method: .get, headers: headers(token: one.token, device: one.device))
                #expect(r.status == .ok)
            }
        }
    }

    /// An unknown token is limited like a known one: guessing tokens costs a bucket of
    /// their own, and refusals before the lookup cost no database trip.
    @Test func unknownTokensAreLimitedToo() async throws {
        let h = try Harness(clock: ManualClock())
        try await h.test(h.config.with(\.rateLimit, RateLimitPolicy(rate: 1, burst: 2))) { client in
            let statuses = try await (0..<3).asyncMap { _ in
                try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: "hzd_guess", device: "x")).status
            }
            #expect(statuses == [.unauthorized, .unauthorized, .tooManyRequests])
        }
    }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var result: [T] = []
        for element in self { result.append(try await transform(element)) }
        return result
    }
}

@Suite struct MetricsTests {
    func scrape(_ client: any TestClientProtocol, token: String? = nil) async throws -> PrometheusText {
        let r = try await client.execute(uri: "/metrics", method: .get, headers: headers(token: token))
        #expect(r.status == .ok, "\(String(buffer: r.body))")
        #expect(r.headers[.contentType]?.hasPrefix("text/plain; version=0.0.4") == true)
        return try PrometheusText(String(buffer: r.body))
    }

    /// The exposition parses strictly, and a push moves the request counter of its route
    /// pattern, the push histogram and the group's record gauge; a refused request moves
    /// the error counter by its status. Paths with ids are counted by their pattern.
    @Test func valuesMoveAfterAPushAndTheTextIsStrictPrometheus() async throws {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        try await h.test { client in
            let before = try await scrape(client)
            #expect(before.families["hyzer_push_duration_seconds"]?.type == "histogram")
            #expect(before.families["hyzer_pull_duration_seconds"]?.type == "histogram")
            #expect(before.families["hyzer_live_sockets"]?.type == "gauge")
            #expect(before.value("hyzer_push_duration_seconds_count") == 0)
            #expect(before.value("hyzer_live_sockets") == 0)
            let push = PushRequest(deviceID: g.device, records: f.setupRecords + [.scoreEvent(f.event())])
            try await client.execute(
                uri: "/v1/push", method: .post, headers: headers(token: g.token, device: g.device), body: try body(push)
            ) { r in #expect(r.status == .ok) }
            try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: "hzd_wrong", device: g.device)) {
                r in #expect(r.status == .unauthorized)
            }
            try await client.execute(uri: "/v1/devices/\(UUID())", method: .delete, headers: headers(token: g.admin)) { r in
                #expect(r.status == .notFound)
            }
            try await client.execute(uri: "/no/such/path", method: .get) { r in #expect(r.status == .notFound) }
            let after = try await scrape(client)
            #expect(after.value("hyzer_http_requests_total", ["method": "POST", "route": "/v1/push"]) == 1)
            #expect(after.value("hyzer_push_duration_seconds_count") == 1)
            #expect(after.value("hyzer_push_duration_seconds_bucket", ["le": "+Inf"]) == 1)
            #expect(after.value("hyzer_records_stored", ["group": g.groupID]) == 3)
            #expect(after.value("hyzer_http_errors_total", ["method": "GET", "route": "/v1/pull", "status": "401"]) == 1)
            #expect(after.value("hyzer_pull_duration_seconds_count") == 0, "refusals are not timed")
            #expect(
                after.value("hyzer_http_errors_total", ["method": "DELETE", "route": "/v1/devices/{deviceID}", "status": "404"])
                    == 1)
            #expect(after.value("hyzer_http_errors_total", ["method": "GET", "route": "none", "status": "404"]) == 1)
            // The first scrape itself was counted; no raw path became a label.
            #expect(after.value("hyzer_http_requests_total", ["method": "GET", "route": "/metrics"]) == 1)
            #expect(!after.samples.contains { $0.labels["route"]?.contains("/no/such") == true })
        }
    }

    /// Each application has its own registry: a second server in the same process counts
    /// nothing of the first's traffic.
    @Test func twoServersInOneProcessDoNotShareCounters() async throws {
        let a = try Harness()
        let b = try Harness()
        let g = try await a.group()
        try await a.test { client in
            for _ in 0..<3 {
                _ = try await client.execute(uri: "/v1/pull", method: .get, headers: headers(token: g.token, device: g.device))
            }
            #expect(try await scrape(client).value("hyzer_http_requests_total", ["method": "GET", "route": "/v1/pull"]) == 3)
        }
        try await b.test { client in
            let other = try await scrape(client)
            #expect(other.value("hyzer_http_requests_total", ["method": "GET", "route": "/v1/pull"]) == nil)
        }
    }

    /// `--metrics admin` asks for an admin token (a device's is refused); `off` serves none.
    @Test func metricsCanRequireTheAdminTokenOrBeSwitchedOff() async throws {
        let h = try Harness()
        let g = try await h.group()
        try await h.test(h.config.with(\.metrics, .admin)) { client in
            #expect(try await client.execute(uri: "/metrics", method: .get).status == .unauthorized)
            let device = try await client.execute(uri: "/metrics", method: .get, headers: headers(token: g.token))
            #expect(device.status == .forbidden)
            _ = try await scrape(client, token: g.admin)
        }
        try await h.test(h.config.with(\.metrics, .off)) { client in
            let get = try await client.execute(uri: "/metrics", method: .get, headers: headers(token: g.admin))
            #expect(get.status == .notFound)
            // Not a 405 either: the path does not exist.
            let post = try await client.execute(uri: "/metrics", method: .post)
            #expect(post.status == .notFound)
        }
    }

    /// A strict reader must refuse what a scraper would: a control for the checks above.
    @Test func theStrictReaderRefusesBrokenExpositions() throws {
        let good = """
            # HELP x_total Things.
            # TYPE x_total counter
            x_total{a="1"} 2
            # TYPE h histogram
            h_bucket{le="1"} 1
            h_bucket{le="+Inf"} 2
            h_sum 3.5
            h_count 2

            """
        let parsed = try PrometheusText(good)
        #expect(parsed.value("x_total", ["a": "1"]) == 2)
        let broken = [
            good.replacingOccurrences(of: "h_count 2", with: "h_count 3"),  // +Inf != count
            good.replacingOccurrences(of: "le=\"1\"} 1", with: "le=\"1\"} 3"),  // not cumulative
            good.replacingOccurrences(of: "# TYPE x_total counter\n", with: ""),  // no TYPE
            good.replacingOccurrences(of: "{a=\"1\"}", with: "{1a=\"1\"}"),  // label name
            good.replacingOccurrences(of: "x_total{", with: "x-total{"),  // metric name
            good.replacingOccurrences(of: "{a=\"1\"}", with: "{a=\"1}"),  // unterminated
            good.replacingOccurrences(of: " 2\n# TYPE h", with: " two\n# TYPE h"),  // value
            good + "x_total{a=\"2\"} 1\n",  // split family
            good.replacingOccurrences(of: "h_bucket{le=\"+Inf\"} 2\n", with: ""),  // no +Inf
        ]
        for text in broken { #expect(throws: PrometheusText.Failure.self, "\(text)") { try PrometheusText(text) } }
    }
}

extension ServerConfiguration {
    /// This configuration with one setting changed.
    func with<Value>(_ key: WritableKeyPath<ServerConfiguration, Value>, _ value: Value) -> ServerConfiguration {
        var copy = self
        copy[keyPath: key] = value
        return copy
    }
}
