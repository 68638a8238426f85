import Foundation
import HTTPTypes
import Hummingbird
import HyzerKit
import Logging
import Synchronization

/// How many requests one bearer token may make: `rate` a second on average, `burst` at
/// once. A group's phones and kiosk each have their own token; a device's normal traffic
/// is a push per score and a pull per poke (well under 1/s), and its largest burst is
/// catching up after a day offline (pages of 500 back to back), so the default leaves
/// that room while a runaway or hostile client is held to 20 requests a second.
public struct RateLimitPolicy: Sendable, Equatable {
    /// Requests a second refilled into each token's bucket; 0 switches limiting off.
    public var rate: Double
    /// The bucket's size: requests a token may make back to back after a quiet spell.
    public var burst: Int

    public init(rate: Double = 20, burst: Int = 60) {
        self.rate = rate
        self.burst = burst
    }

    public static let off = RateLimitPolicy(rate: 0, burst: 0)

    public var isOff: Bool { rate <= 0 || burst <= 0 }

    /// `--rate-limit`: "20/s", "600/min", "20" (a second), or "0" (off).
    public static func parseRate(_ text: String) -> Double? {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        guard let count = parts.first.flatMap(Double.init), count >= 0, count.isFinite else { return nil }
        guard parts.count == 2 else { return count }
        switch parts[1] {
        case "s", "sec", "second": return count
        case "m", "min", "minute": return count / 60
        case "h", "hour": return count / 3600
        default: return nil
        }
    }
}

/// One token's bucket, a pure value: time comes in as a parameter (monotonic), so tests
/// drive it without sleeping.
public struct TokenBucket: Sendable, Equatable {
    public let rate: Double
    public let capacity: Double
    public private(set) var tokens: Double
    public private(set) var updatedAt: Duration

    public init(rate: Double, capacity: Int, now: Duration) {
        self.rate = rate
        self.capacity = Double(capacity)
        self.tokens = Double(capacity)
        self.updatedAt = now
    }

    /// Takes one request's token. nil: allowed; otherwise the whole seconds until the
    /// next token (what `Retry-After` says; at least 1, since the header has no fractions
    /// and "0" would invite an immediate retry that is refused again).
    public mutating func take(now: Duration) -> Int? {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return max(1, Int(((1 - tokens) / rate).rounded(.up)))
    }

    /// A bucket back to full holds nothing worth keeping (a new one would be the same).
    public func isFull(now: Duration) -> Bool {
        var copy = self
        copy.refill(now: now)
        return copy.tokens >= capacity
    }

    private mutating func refill(now: Duration) {
        let elapsed = Double((now - updatedAt).nanoseconds) / 1e9
        if elapsed > 0 { tokens = min(capacity, tokens + elapsed * rate) }
        updatedAt = max(updatedAt, now)
    }
}

/// The buckets of every token seen lately, keyed by the token's hash (as
/// `RecentDeviceTokens`: no token is kept in the clear). An unknown token gets a bucket too:
/// a client guessing tokens is limited like any other. The table is bounded: when it is
/// full, buckets that are back to full are dropped (they carry nothing), and if none is,
/// the table starts over, which at worst lets each token one extra burst.
public final class RateLimiter: Sendable {
    public let policy: RateLimitPolicy
    let clock: any HyzerClock
    let capacity: Int
    private let buckets = Mutex<[Data: TokenBucket]>([:])

    public init(policy: RateLimitPolicy, clock: any HyzerClock, capacity: Int = 10_000) {
        self.policy = policy
        self.clock = clock
        self.capacity = capacity
    }

    /// nil: go ahead; otherwise refused, retry after that many seconds.
    public func take(token: String) -> Int? {
        guard !policy.isOff else { return nil }
        let key = Tokens.hash(token)
        let now = clock.uptime
        return buckets.withLock { buckets in
            if buckets[key] == nil, buckets.count >= capacity {
                buckets = buckets.filter { !$0.value.isFull(now: now) }
                if buckets.count >= capacity { buckets.removeAll(keepingCapacity: true) }
            }
            var bucket = buckets[key] ?? TokenBucket(rate: policy.rate, capacity: policy.burst, now: now)
            let refusal = bucket.take(now: now)
            buckets[key] = bucket
            return refusal
        }
    }
}

/// 429 with `Retry-After` for a bearer token over its rate, on the routes that take a
/// token (`ServerRoutes`); requests without one (the health check, the pages) are not
/// limited here. Runs before the token is looked up, so a flood costs no database trip.
struct RateLimitMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let limiter: RateLimiter

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let token = context.bearerToken, ServerRoutes.takesToken(context.endpointPath, method: request.method) else {
            return try await next(request, context)
        }
        if let seconds = limiter.take(token: token) {
            context.logger.notice(
                "rate limited", metadata: ["retry_after": "\(seconds)", "route": "\(context.endpointPath ?? "")"])
            throw HTTPError(
                .tooManyRequests, headers: [.retryAfter: "\(seconds)"],
                message: "too many requests with this token (over \(limiter.policy.describedRate)); retry after \(seconds) s")
        }
        return try await next(request, context)
    }
}

extension RateLimitPolicy {
    var describedRate: String {
        let rate = self.rate.rounded() == self.rate ? "\(Int(self.rate))" : "\(self.rate)"
        return "\(rate)/s, burst \(burst)"
    }
}
