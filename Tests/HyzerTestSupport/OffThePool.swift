import Foundation

/// Runs blocking work (a wait on SDL, a whole-system sync) on a thread of its own and awaits
/// it, so the cooperative pool's threads stay free for everything else in the test process.
public func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
