import Foundation
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol
import ServiceLifecycle

/// The poke socket: after upgrade it sends the current head, then one poke per commit
/// in the group. Clients send nothing (anything they send is ignored).
struct LiveController<Storage: SyncStorage> {
    let storage: Storage
    let hub: PokeHub

    func addRoutes(to router: RouterGroup<ServerRequestContext>) {
        let storage = self.storage
        let hub = self.hub
        router.ws("v1/live") { request, context in
            _ = try context.requireDevice(request)
            // A plain GET (no WebSocket handshake) would otherwise get an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else {
                throw HTTPError(.upgradeRequired, message: "this is a WebSocket: send the upgrade handshake")
            }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, wsContext in
            guard let principal = wsContext.requestContext.principal else { return }
            let groupID = principal.groupID
            let (id, pokes) = await hub.subscribe(groupID: groupID)
            let encoder = SyncCoding.encoder()
            func send(_ poke: Poke) async throws {
                try await outbound.write(.text(String(decoding: try encoder.encode(poke), as: UTF8.self)))
            }
            do {
                try await send(Poke(epoch: storage.epoch, head: try await storage.head(groupID: groupID)))
            } catch {
                await hub.unsubscribe(groupID: groupID, id: id)
                return
            }
            // The handler returns (and the socket closes) as soon as either side is done:
            // the client went away, or the poke stream ended (shutdown). Reader and writer
            // are separate tasks so neither can hold the other up: a peer that never
            // answers cannot keep a SIGTERM waiting.
            let (done, finished) = AsyncStream<Void>.makeStream()
            let reader = Task {
                do { for try await _ in inbound {} } catch {}
                finished.finish()
            }
            let writer = Task {
                for await poke in pokes {
                    do { try await send(poke) } catch { break }
                }
                finished.finish()
            }
            await withGracefulShutdownHandler {
                for await _ in done {}
            } onGracefulShutdown: {
                finished.finish()
            }
            reader.cancel()
            writer.cancel()
            await hub.unsubscribe(groupID: groupID, id: id)
        }
    }
}
