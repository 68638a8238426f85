import Foundation

/// When the poke socket reconnects: a pure machine like `SyncScheduler`. The socket's
/// loop reports each attempt and its end with the clock's time and sleeps for the delay
/// it is handed; tests drive it with made-up times.
public struct ReconnectScheduler: Sendable, Equatable {
    public let backoff: Backoff
    /// A connection that held this long was fine: the backoff starts over.
    public let healthyAfter: Double
    /// Attempts since the last healthy connection, the one under way included.
    public private(set) var attempt = 0
    /// When the attempt under way started (monotonic seconds); nil between attempts.
    public private(set) var attemptStartedAt: Double?

    public init(backoff: Backoff, healthyAfter: Double = 30) {
        self.backoff = backoff
        self.healthyAfter = healthyAfter
    }

    /// A connection attempt starts.
    public mutating func connecting(now: Double) {
        attemptStartedAt = now
    }

    /// The attempt ended: refused, or a connection that dropped. Returns the seconds to
    /// wait before the next attempt.
    public mutating func ended(now: Double, using rng: inout some RandomNumberGenerator) -> Double {
        if let started = attemptStartedAt, now - started > healthyAfter { attempt = 0 }
        attemptStartedAt = nil
        attempt += 1
        return backoff.delay(attempt: attempt, using: &rng)
    }
}
