import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO
import ServiceLifecycle

/// Hears the other instances' pushes: `LISTEN hyzer` on one connection of the pool, and a
/// poke to this instance's live sockets for each (a device connected to instance A learns
/// within the usual latency of a score pushed through instance B). Also hears a restore's
/// new epoch, so every instance answers with it at once.
///
/// A service of the server's group: it runs until graceful shutdown, and reconnects (after
/// a second) when its connection drops. Pokes sent while it reconnects are lost; the
/// devices' poll fallback covers them, as for any dropped socket.
public struct PostgresFeedListener: Service {
    let storage: PostgresStorage
    let hub: PokeHub
    let logger: Logger

    public init(storage: PostgresStorage, hub: PokeHub, logger: Logger) {
        self.storage = storage
        self.hub = hub
        self.logger = logger
    }

    /// The message a push sends: its group's new head.
    static func feedMessage(groupID: String, head: Int64) -> String { "feed \(head) \(groupID)" }
    /// The message a restore sends.
    static func epochMessage(_ epoch: String) -> String { "epoch \(epoch)" }

    enum Message: Equatable {
        case feed(groupID: String, head: Int64)
        case epoch(String)
    }

    static func parse(_ payload: String) -> Message? {
        let parts = payload.split(separator: " ", maxSplits: 2).map(String.init)
        switch (parts.first, parts.count) {
        case ("feed", 3): return Int64(parts[1]).map { .feed(groupID: parts[2], head: $0) }
        case ("epoch", 2): return .epoch(parts[1])
        default: return nil
        }
    }

    public func run() async throws {
        try await cancelWhenGracefulShutdown {
            while !Task.isCancelled {
                do {
                    try await listenOnce()
                } catch  where !Task.isCancelled {
                    logger.warning("not hearing other instances", metadata: ["error": "\(PostgresStorage.describe(error))"])
                    try? await Task.sleep(for: .seconds(1))
                }
            }
        }
    }

    private func listenOnce() async throws {
        try await storage.client.withConnection { connection in
            try await connection.listen(on: PostgresStorage.channel) { notifications in
                // A restore while this was not listening is caught here.
                try await storage.refreshEpoch(connection)
                for try await notification in notifications {
                    switch Self.parse(notification.payload) {
                    case .feed(let groupID, let head)?:
                        await hub.publish(groupID: groupID, poke: Poke(epoch: storage.epoch, head: head))
                    case .epoch(let epoch)?:
                        storage.adoptEpoch(epoch)
                    case nil:
                        logger.debug("unknown notification", metadata: ["payload": "\(notification.payload)"])
                    }
                }
            }
        }
    }
}
