import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol
import SQLiteFaults

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

/// Reads `Authorization: Bearer …`, on every route, without looking it up. A malformed
/// header is refused here; a missing one is not (the health check needs none).
struct BearerTokenMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        guard let header = request.headers[.authorization] else { return try await next(request, context) }
        guard header.hasPrefix("Bearer ") else {
            throw HTTPError(.unauthorized, message: "Authorization must be \"Bearer TOKEN\"")
        }
        var context = context
        context.bearerToken = String(header.dropFirst("Bearer ".count)).trimmingCharacters(in: .whitespaces)
        return try await next(request, context)
    }
}

/// Resolves the bearer token to a principal before the route runs. An unknown token is not
/// an error here; the routes that need one refuse with 401.
struct AuthMiddleware<Storage: SyncStorage>: RouterMiddleware {
    typealias Context = ServerRequestContext
    let storage: Storage

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        var context = context
        if let token = context.bearerToken {
            context.principal = try await storage.authenticate(token: token)
        }
        return try await next(request, context)
    }
}

/// A storage fault (a full or read-only disk, a locked database) is the server's state, not
/// a bug in the request: 503 with its one line ("Storage is full: …"), so a device keeps
/// the batch in its outbox and an admin reading the answer or the log knows what to do.
struct StorageFaultMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response
    {
        do {
            return try await next(request, context)
        } catch let fault as StorageFault {
            throw HTTPError(.serviceUnavailable, message: fault.description)
        }
    }
}
