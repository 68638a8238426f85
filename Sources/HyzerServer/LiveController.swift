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

    /// What a request to the socket that is no handshake the server can complete is told
    /// (RFC 6455 §4.2.1, §4.4): another WebSocket version, 426 naming 13; a handshake
    /// missing a part (`Connection: Upgrade`, `Upgrade: websocket`, one key, the version),
    /// 400 saying what it takes; a plain GET, 426.
    static func notAHandshake(_ request: Request) -> HTTPError {
        let versions = request.headers[values: .secWebSocketVersion]
        if let version = versions.first, versions.count == 1, version.trimmingCharacters(in: .whitespaces) != "13" {
            return HTTPError(
                .upgradeRequired, headers: [.secWebSocketVersion: "13"],
                message: "this server speaks WebSocket version 13, not \(version)")
        }
        if !versions.isEmpty || request.headers[.secWebSocketKey] != nil {
            return HTTPError(
                .badRequest,
                message: "incomplete WebSocket handshake: it takes Connection: Upgrade, Upgrade: websocket, "
                    + "one Sec-WebSocket-Key (16 bytes in base64) and Sec-WebSocket-Version: 13")
        }
        return HTTPError(
            .upgradeRequired, headers: [.secWebSocketVersion: "13"],
            message: "this is a WebSocket: send the upgrade handshake (Sec-WebSocket-Version: 13)")
    }

    func addRoutes(to router: RouterGroup<ServerRequestContext>) {
        let storage = self.storage
        let hub = self.hub
        router.ws("v1/live") { request, context in
            _ = try context.requireDevice(request)
            // Here without `Upgrade: websocket` (a plain GET, or a handshake `UpgradeGate`
            // took it off, one NIO could not complete) the route would answer an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else { throw Self.notAHandshake(request) }
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
