import Foundation
import HyzerSyncProtocol
import Synchronization

/// Fans "the head moved" out to every live socket of a group. Each subscriber keeps only
/// the newest poke (a slow socket needs the latest head, not every intermediate one),
/// so a stuck client can never make the server buffer without bound.
///
/// A class behind a `Mutex` rather than an actor: every operation is a few dictionary
/// steps that never suspend, so callers (the push handler, socket handlers, shutdown)
/// need no `await` and no hop to another executor.
public final class PokeHub: Sendable {
    private let subscribers = Mutex<[String: [UUID: AsyncStream<Poke>.Continuation]]>([:])

    public init() {}

    public func subscribe(groupID: String) -> (id: UUID, stream: AsyncStream<Poke>) {
        let (stream, continuation) = AsyncStream<Poke>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        subscribers.withLock { $0[groupID, default: [:]][id] = continuation }
        return (id, stream)
    }

    public func unsubscribe(groupID: String, id: UUID) {
        let removed = subscribers.withLock { subscribers -> AsyncStream<Poke>.Continuation? in
            defer { if subscribers[groupID]?.isEmpty == true { subscribers[groupID] = nil } }
            return subscribers[groupID]?.removeValue(forKey: id)
        }
        removed?.finish()
    }

    public func publish(groupID: String, poke: Poke) {
        // Yield outside the lock: resuming a waiting socket task is not work to hold it for.
        let continuations = subscribers.withLock { Array(($0[groupID] ?? [:]).values) }
        for continuation in continuations { continuation.yield(poke) }
    }

    public func subscriberCount(groupID: String) -> Int { subscribers.withLock { $0[groupID]?.count ?? 0 } }

    /// Ends every stream (server shutdown), so socket handlers return and close cleanly.
    public func finishAll() {
        let all = subscribers.withLock { subscribers -> [AsyncStream<Poke>.Continuation] in
            defer { subscribers = [:] }
            return subscribers.values.flatMap(\.values)
        }
        for continuation in all { continuation.finish() }
    }
}
