import Hummingbird
import HyzerSyncProtocol

/// `GET /health`: the protocol version and the storage's epoch, no token.
struct HealthController<Storage: SyncStorage> {
    let storage: Storage

    func addRoutes(to router: Router<ServerRequestContext>) {
        router.get("health") { _, _ in
            try JSONBody.response(HealthResponse(status: "ok", protocolVersion: SyncProtocol.version, epoch: storage.epoch))
        }
    }
}
