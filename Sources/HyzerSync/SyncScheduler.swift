import Foundation

/// Exponential backoff with jitter: attempt n (1-based) waits a random time in
/// [½, 1] × min(cap, base × 2ⁿ⁻¹). The random half spreads a whole group of devices that
/// lost the server at the same moment, so they do not all come back in lockstep.
public struct Backoff: Sendable, Equatable {
    public var base: Double
    public var cap: Double

    public init(base: Double, cap: Double) {
        self.base = base
        self.cap = cap
    }

    public func ceiling(attempt: Int) -> Double {
        guard attempt > 0 else { return 0 }
        return min(cap, base * pow(2, Double(min(attempt - 1, 30))))
    }

    public func delay(attempt: Int, using rng: inout some RandomNumberGenerator) -> Double {
        let ceiling = ceiling(attempt: attempt)
        return ceiling * Double.random(in: 0.5...1, using: &rng)
    }
}

/// The timing policy of sync, in seconds.
public struct SyncPolicy: Sendable, Equatable {
    /// With the poke socket down, poll this often while a round is being played (the
    /// 5-second requirement includes the pull itself, so the interval stays under it)…
    public var pollActiveRound: Double = 4
    /// …and this often otherwise (30–60 s).
    public var pollIdle: Double = 45
    /// With the socket up pokes do the work; a slow poll still catches a lost poke.
    public var pollWithSocket: Double = 60
    /// Retries of push/pull after a failure.
    public var retry = Backoff(base: 0.5, cap: 60)
    /// Reconnects of the poke socket.
    public var reconnect = Backoff(base: 1, cap: 30)
    /// Records per push (the server accepts up to `SyncProtocol.maxPushRecords`).
    public var pushBatch = 250
    public var pullLimit = 500

    public init() {}

    public func pollInterval(socketConnected: Bool, activeRound: Bool) -> Double {
        socketConnected ? pollWithSocket : (activeRound ? pollActiveRound : pollIdle)
    }
}

/// What the engine should do next. A pure state machine (swift-nio style): events go
/// in, a decision comes out, time is a parameter. The engine does the I/O; tests drive
/// this with made-up clocks and a seeded random generator.
public struct SyncScheduler: Sendable {
    public enum Decision: Equatable, Sendable {
        case push
        case pull
        /// Nothing to do before this time (monotonic seconds) unless an event arrives.
        case wait(until: Double)
    }

    public let policy: SyncPolicy
    public private(set) var pushWanted = true
    public private(set) var pullWanted = true
    public private(set) var failures = 0
    /// While set, no request goes out before this time (backoff after a failure).
    public private(set) var retryAt: Double?
    /// The server's own "not before" (a 429's `Retry-After`). Kept apart from `retryAt`
    /// because a poke socket coming up clears the backoff but must not clear this: the
    /// server is reachable, it asked for a pause.
    public private(set) var notBefore: Double?
    public private(set) var lastPullAt: Double?
    public private(set) var socketConnected = false
    public private(set) var activeRound = false

    public init(policy: SyncPolicy = SyncPolicy()) {
        self.policy = policy
    }

    public var pollInterval: Double { policy.pollInterval(socketConnected: socketConnected, activeRound: activeRound) }

    public func next(now: Double) -> Decision {
        if let notBefore, now < notBefore { return .wait(until: max(notBefore, retryAt ?? 0)) }
        if let retryAt, now < retryAt { return .wait(until: retryAt) }
        if pushWanted { return .push }
        if pullWanted { return .pull }
        guard let lastPullAt else { return .pull }
        let due = lastPullAt + pollInterval
        return now >= due ? .pull : .wait(until: due)
    }

    // MARK: Events

    /// Something was written locally: push it.
    public mutating func localWrite() { pushWanted = true }

    /// The server's head moved past what this device has.
    public mutating func poked(head: Int64, cursor: Int64) {
        if head > cursor { pullWanted = true }
    }

    /// A socket connection proves the server is reachable again: retry now, and catch up
    /// on whatever was committed while it was down.
    public mutating func socketUp() {
        socketConnected = true
        failures = 0
        retryAt = nil
        pullWanted = true
    }

    public mutating func socketDown() { socketConnected = false }

    public mutating func activeRoundChanged(_ active: Bool) { activeRound = active }

    public mutating func pushSucceeded(more: Bool) {
        failures = 0
        retryAt = nil
        pushWanted = more
    }

    public mutating func pullSucceeded(more: Bool, now: Double) {
        failures = 0
        retryAt = nil
        pullWanted = more
        lastPullAt = now
    }

    /// A request failed (unreachable or refused): what was wanted stays wanted, and
    /// nothing goes out again before the backoff delay.
    /// `retryAfter`: the seconds the server asked for (429); no request goes out before
    /// they pass, however short the backoff at this attempt.
    public mutating func failed(now: Double, retryAfter: Double? = nil, using rng: inout some RandomNumberGenerator) {
        failures += 1
        retryAt = now + policy.retry.delay(attempt: failures, using: &rng)
        if let retryAfter { notBefore = max(notBefore ?? now, now + retryAfter) }
    }
}
