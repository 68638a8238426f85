import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one source of time for every shell: the kiosk's loops, the knob, the sync engine,
/// the stores' timestamps and the server. Pure machines never read it; their shells do and
/// pass `now` in, so tests drive everything with a `ManualClock`.
///
/// Two readings because they answer two questions. `uptime` is monotonic, for deadlines,
/// backoff and animation (a Pi sets its wall clock from NTP after boot, often by years).
/// `date` is the wall clock, for what is stored and shown ("synced 2 min ago").
public protocol HyzerClock: Sendable {
    /// Monotonic time since an arbitrary origin, on the same base as the kernel's GPIO
    /// event timestamps (CLOCK_MONOTONIC) for the system clock.
    var uptime: Duration { get }
    /// Wall-clock time.
    var date: Date { get }
    /// Suspends until `uptime` reaches `deadline`. Throws `CancellationError` when the task
    /// is cancelled first.
    func sleep(until deadline: Duration) async throws
}

extension HyzerClock {
    /// Suspends for `duration` of this clock's time.
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: uptime + duration)
    }

    /// `uptime` in whole nanoseconds (the knob's time base).
    public var uptimeNanoseconds: UInt64 { UInt64(max(0, uptime.nanoseconds)) }

    /// `uptime` in whole milliseconds (the screens' time base).
    public var uptimeMilliseconds: Int64 { uptime.nanoseconds / 1_000_000 }
}

extension Duration {
    /// Whole nanoseconds, saturating (a `Duration` holds far more than 292 years).
    public var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        return scaled.addingReportingOverflow(attoseconds / 1_000_000_000).partialValue
    }
}

/// The machine's clocks: CLOCK_MONOTONIC and the wall clock.
public struct SystemClock: HyzerClock {
    public init() {}

    public var uptime: Duration {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return .seconds(Int64(ts.tv_sec)) + .nanoseconds(Int64(ts.tv_nsec))
    }

    public var date: Date { Date() }

    public func sleep(until deadline: Duration) async throws {
        let remaining = deadline - uptime
        if remaining > .zero { try await Task.sleep(for: remaining) } else { try Task.checkCancellation() }
    }
}

/// A clock that moves only when told to: tests, and replays that run on recorded time.
/// Sleepers wake, in deadline order, when `advance` reaches their deadline.
public final class ManualClock: HyzerClock {
    private struct Sleeper {
        var id: UInt64
        var deadline: Duration
        var continuation: CheckedContinuation<Void, any Error>
    }

    /// A test waiting for a task to sleep until a deadline it accepts (`sleeper(where:)`).
    private struct Watcher {
        var id: UInt64
        var accepts: @Sendable (Duration) -> Bool
        var continuation: CheckedContinuation<Duration, any Error>
    }

    private struct State {
        var uptime: Duration
        var date: Date
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var watchers: [Watcher] = []
    }

    private let state: Mutex<State>

    public init(uptime: Duration = .zero, date: Date = Date(timeIntervalSince1970: 1_790_000_000)) {
        state = Mutex(State(uptime: uptime, date: date))
    }

    public var uptime: Duration { state.withLock { $0.uptime } }
    public var date: Date { state.withLock { $0.date } }

    /// How many tasks are sleeping on this clock (tests wait for a shell to settle).
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Moves both readings forward by `duration` and wakes every sleeper now due.
    public func advance(by duration: Duration) {
        precondition(duration >= .zero, "a clock never goes back")
        let due = state.withLock { state -> [Sleeper] in
            state.uptime += duration
            state.date += Double(duration.nanoseconds) / 1e9
            return Self.takeDue(&state)
        }
        for sleeper in due.sorted(by: { $0.deadline < $1.deadline }) { sleeper.continuation.resume() }
    }

    /// Moves `uptime` to `instant` if that is later (a replay following recorded time).
    ///
    /// One lock and no sleeper scan when nobody sleeps: a knob replay calls this for every
    /// one of millions of edges.
    public func advance(to instant: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            guard instant > state.uptime else { return [] }
            state.date += Double((instant - state.uptime).nanoseconds) / 1e9
            state.uptime = instant
            return state.sleepers.isEmpty ? [] : Self.takeDue(&state)
        }
        for sleeper in due.sorted(by: { $0.deadline < $1.deadline }) { sleeper.continuation.resume() }
    }

    /// Sets the wall clock alone, as NTP does after boot.
    public func setDate(_ date: Date) { state.withLock { $0.date = date } }

    public func sleep(until deadline: Duration) async throws {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let (resumeNow, watchers): (Result<Void, any Error>?, [Watcher]) = state.withLock { state in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.uptime { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    var due: [Watcher] = []
                    state.watchers.removeAll { watcher in
                        guard watcher.accepts(deadline) else { return false }
                        due.append(watcher)
                        return true
                    }
                    return (nil, due)
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
                for watcher in watchers { watcher.continuation.resume(returning: deadline) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Returns the deadline of a task that sleeps on this clock until a deadline `accepts`
    /// takes, at once when one already does: how a test knows that a shell has settled on
    /// its next timer (a retry's backoff, a poll) without waiting in real time, and then
    /// advances the clock to it. `accepts` runs under the clock's lock: it must not read
    /// the clock (take `uptime` before). Throws `CancellationError` when cancelled first.
    public func sleeper(where accepts: @escaping @Sendable (_ deadline: Duration) -> Bool) async throws -> Duration {
        let id = state.withLock { state -> UInt64 in
            state.nextID += 1
            return state.nextID
        }
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Duration, any Error>) in
                let resumeNow: Result<Duration, any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let asleep = state.sleepers.first(where: { accepts($0.deadline) }) { return .success(asleep.deadline) }
                    state.watchers.append(Watcher(id: id, accepts: accepts, continuation: continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(with: resumeNow) }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Watcher? in
                guard let index = state.watchers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.watchers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    private static func takeDue(_ state: inout State) -> [Sleeper] {
        let now = state.uptime
        let due = state.sleepers.filter { $0.deadline <= now }
        state.sleepers.removeAll { $0.deadline <= now }
        return due
    }
}
