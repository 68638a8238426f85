import Foundation
import HyzerKit
import Synchronization

/// Wakes the engine loop early: a local write or a poke while it waits for a timer.
/// A signal that arrives while nobody waits is kept (one, however many arrive), so none
/// is ever lost. One consumer: the engine's loop.
final class Wakeup: Sendable {
    private let clock: any HyzerClock
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation
    /// Whether a signal is buffered in `stream` (tests check none is left behind).
    private let signaled = Mutex(false)

    init(clock: any HyzerClock) {
        self.clock = clock
        (stream, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// A signal is remembered for the next wait.
    var isSignaled: Bool { signaled.withLock { $0 } }

    func signal() {
        signaled.withLock { $0 = true }
        continuation.yield()
    }

    /// Ends every wait for good (graceful shutdown).
    func finish() { continuation.finish() }

    /// Returns on a signal, when `clock` reaches `deadline`, or on cancellation, whichever
    /// comes first. False once `finish()` was called or the waiting task was cancelled.
    func wait(until deadline: Duration) async -> Bool {
        guard deadline > clock.uptime else { return true }
        let timer = Task {
            // A timer cancelled because the wait already ended must not signal: that
            // stale signal would end the next wait at once, whose cancelled timer would
            // signal again, and the engine loop would spin a core forever.
            do { try await self.clock.sleep(until: deadline) } catch { return }
            self.signal()
        }
        defer { timer.cancel() }
        var iterator = stream.makeAsyncIterator()
        let woke = await iterator.next() != nil
        signaled.withLock { $0 = false }
        return woke
    }
}

/// Hands every value to every current subscriber (AsyncStream is single-consumer).
final class Broadcaster<Value: Sendable>: Sendable {
    private let subscribers = Mutex([UUID: AsyncStream<Value>.Continuation]())

    func subscribe(
        initial: Value? = nil, policy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded
    ) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: policy)
        let id = UUID()
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in _ = self?.subscribers.withLock { $0.removeValue(forKey: id) } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func send(_ value: Value) {
        for c in subscribers.withLock({ Array($0.values) }) { c.yield(value) }
    }

    func finish() {
        for c in subscribers.withLock({ s in
            defer { s = [:] }
            return Array(s.values)
        }) { c.finish() }
    }
}
