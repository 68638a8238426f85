import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol

/// The request context of every route, HTTP and WebSocket alike; `principal` is filled
/// by `AuthMiddleware` from the bearer token.
public struct ServerRequestContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<ServerRequestContext>
    public var principal: Principal?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        principal = nil
    }

    /// Bodies are collected explicitly with a per-route limit; this is the ceiling.
    public var maxUploadSize: Int { SyncProtocol.maxPushBytes }

    func requireAdmin() throws -> Principal {
        guard let principal else { throw HTTPError(.unauthorized, message: "missing, unknown or revoked token") }
        guard principal.role == .admin else { throw HTTPError(.forbidden, message: "this needs the group's admin token") }
        return principal
    }

    /// A device token, used by the device it was issued to: the `X-Hyzer-Device` header
    /// must name that device, or the request is refused (a device claiming another's id).
    func requireDevice(_ request: Request) throws -> (principal: Principal, deviceID: String) {
        guard let principal else { throw HTTPError(.unauthorized, message: "missing, unknown or revoked token") }
        guard principal.role == .device, let deviceID = principal.deviceID else {
            throw HTTPError(.forbidden, message: "this needs a device token (enroll the device first)")
        }
        guard let claimed = request.headers[HTTPField.Name(SyncProtocol.deviceHeader)!] else {
            throw HTTPError(.badRequest, message: "missing \(SyncProtocol.deviceHeader) header")
        }
        guard claimed == deviceID else {
            throw HTTPError(.forbidden, message: "this token belongs to another device than \(claimed)")
        }
        return (principal, deviceID)
    }
}

/// Resolves `Authorization: Bearer …` to a principal. An unknown token is not an error
/// here (the health check needs none); the routes that need one refuse with 401.
struct AuthMiddleware<Storage: SyncStorage>: RouterMiddleware {
    typealias Context = ServerRequestContext
    let storage: Storage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var context = context
        if let header = request.headers[.authorization] {
            guard header.hasPrefix("Bearer ") else {
                throw HTTPError(.unauthorized, message: "Authorization must be \"Bearer TOKEN\"")
            }
            let token = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
            context.principal = try await storage.authenticate(token: token)
        }
        return try await next(request, context)
    }
}
