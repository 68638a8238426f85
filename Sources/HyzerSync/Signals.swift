import Foundation

/// A value behind a lock, for state shared with nonisolated entry points.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}

/// Wakes the engine loop early: a local write or a poke while it waits for a timer.
/// Signals that arrive while nobody waits are remembered, so none is ever lost.
final class Wakeup: Sendable {
    private struct State {
        var signaled = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// A signal is remembered for the next wait (tests check none is left behind).
    var isSignaled: Bool { state.withLock { $0.signaled } }

    func signal() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            if let w = s.waiter {
                s.waiter = nil
                return w
            }
            s.signaled = true
            return nil
        }
        waiter?.resume()
    }

    /// Returns on a signal, after `seconds`, or on cancellation, whichever comes first.
    func wait(seconds: Double) async {
        guard seconds > 0 else { return }
        let timer = Task { [weak self] in
            // A timer cancelled because the wait already ended must not signal: that
            // stale signal would end the next wait at once, whose cancelled timer would
            // signal again, and the engine loop would spin a core forever.
            do { try await Task.sleep(nanoseconds: UInt64(min(seconds, 3600) * 1e9)) } catch { return }
            self?.signal()
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { s -> Bool in
                    if s.signaled || Task.isCancelled {
                        s.signaled = false
                        return true
                    }
                    s.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            self.signal()
        }
        // Consume a signal that raced in after we were resumed by another one.
        state.withLock { $0.signaled = false }
        timer.cancel()
    }
}

/// Hands every value to every current subscriber (AsyncStream is single-consumer).
final class Broadcaster<Value: Sendable>: Sendable {
    private let subscribers = Locked([UUID: AsyncStream<Value>.Continuation]())

    func subscribe(initial: Value? = nil, policy: AsyncStream<Value>.Continuation.BufferingPolicy = .unbounded) -> AsyncStream<Value> {
        let (stream, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: policy)
        let id = UUID()
        if let initial { continuation.yield(initial) }
        continuation.onTermination = { [weak self] _ in self?.subscribers.withLock { $0[id] = nil } }
        subscribers.withLock { $0[id] = continuation }
        return stream
    }

    func send(_ value: Value) {
        for c in subscribers.withLock({ Array($0.values) }) { c.yield(value) }
    }

    func finish() {
        for c in subscribers.withLock({ s in defer { s = [:] }; return Array(s.values) }) { c.finish() }
    }
}
