import Foundation
import HyzerSyncProtocol

/// Fans "the head moved" out to every live socket of a group. Each subscriber keeps only
/// the newest poke (a slow socket needs the latest head, not every intermediate one),
/// so a stuck client can never make the server buffer without bound.
///
/// An actor, not a class around a `Mutex`, on measurement: with the publish done inline
/// in the push handler, the sync benchmark's p99 (score on A → standings on B) grew from
/// 26–30 to 45–61 ms (debug build, runs alternated); the hop to the actor lets the socket
/// writers send the poke before the handler goes on to answer.
public actor PokeHub {
    private var subscribers: [String: [UUID: AsyncStream<Poke>.Continuation]] = [:]
    /// The last poke sent to each group. With several instances over PostgreSQL a push is
    /// announced twice on its own instance (by the route, and by the database's NOTIFY that
    /// every instance hears): a poke that does not move the head of its epoch is dropped.
    private var lastPoke: [String: Poke] = [:]

    public init() {}

    public func subscribe(groupID: String) -> (id: UUID, stream: AsyncStream<Poke>) {
        let (stream, continuation) = AsyncStream<Poke>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let id = UUID()
        subscribers[groupID, default: [:]][id] = continuation
        return (id, stream)
    }

    public func unsubscribe(groupID: String, id: UUID) {
        subscribers[groupID]?[id]?.finish()
        subscribers[groupID]?[id] = nil
    }

    public func publish(groupID: String, poke: Poke) {
        if let last = lastPoke[groupID], last.epoch == poke.epoch, last.head >= poke.head { return }
        lastPoke[groupID] = poke
        for continuation in subscribers[groupID, default: [:]].values { continuation.yield(poke) }
    }

    public func subscriberCount(groupID: String) -> Int { subscribers[groupID]?.count ?? 0 }

    /// Ends every stream (server shutdown), so socket handlers return and close cleanly.
    public func finishAll() {
        for group in subscribers.values { for c in group.values { c.finish() } }
        subscribers = [:]
    }
}

extension PokeHub {
    /// Open sockets over all groups (`/metrics`' live-socket gauge).
    public var totalSubscribers: Int { subscribers.values.reduce(0) { $0 + $1.count } }
}
