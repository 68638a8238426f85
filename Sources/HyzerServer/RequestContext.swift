import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol

/// The request context of every route, HTTP and WebSocket alike. `bearerToken` is read
/// from the `Authorization` header by `BearerTokenMiddleware` on every route; `principal`
/// is filled by `AuthMiddleware` on the routes that look the token up before they run.
/// Push and pull do not: they check the token in their own transaction (`DeviceClaim`).
public struct ServerRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<ServerRequestContext>
    public var bearerToken: String?
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        bearerToken = nil
        principal = nil
    }

    /// Bodies are collected explicitly with a per-route limit; this is the ceiling.
    public var maxUploadSize: Int { SyncProtocol.maxPushBytes }

    func requireAdmin() throws -> Principal {
        guard let principal else { throw AccessRefusal.unauthenticated.http }
        do { return try principal.requireAdmin() } catch { throw error.http }
    }

    /// A device token, used by the device it was issued to: the `X-Hyzer-Device` header
    /// must name that device, or the request is refused (a device claiming another's id).
    func requireDevice(_ request: Request) throws -> (principal: Principal, deviceID: String) {
        do { return try principal.requireDevice(claimed: request.deviceHeader) } catch { throw error.http }
    }

    /// What a sync request claims, for the storage to check in its transaction.
    func deviceClaim(_ request: Request) throws -> DeviceClaim {
        guard let bearerToken else { throw AccessRefusal.unauthenticated.http }
        return DeviceClaim(token: bearerToken, device: request.deviceHeader)
    }
}

extension Request {
    var deviceHeader: String? { headers[HTTPField.Name(SyncProtocol.deviceHeader)!] }
}
