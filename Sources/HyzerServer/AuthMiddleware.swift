import Foundation
import Hummingbird

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
