import Foundation
import HTTPTypes
import Hummingbird

/// Every path the server serves, its methods and whether it takes a bearer token, as
/// docs/openapi.yaml declares them (`ServerRoutesTests` holds the two to each other).
/// Two uses: an undeclared method on a declared path answers 405 with `Allow` (Hummingbird
/// answers 404, as if the path did not exist), and only the routes that take a token are
/// rate limited (so the 429s the document declares are exactly the ones that can happen).
public enum ServerRoutes {
    public struct Route: Sendable, Equatable {
        /// As in the document: `{name}` for a parameter.
        public var path: String
        public var methods: [HTTPRequest.Method]
        public var takesToken: Bool
    }

    public static let all: [Route] = [
        Route(path: "/health", methods: [.get], takesToken: false),
        Route(path: "/metrics", methods: [.get], takesToken: true),
        Route(path: "/v1/devices", methods: [.post, .get], takesToken: true),
        Route(path: "/v1/devices/{deviceID}", methods: [.delete], takesToken: true),
        Route(path: "/v1/devices/{deviceID}/player", methods: [.delete], takesToken: true),
        Route(path: "/v1/push", methods: [.post], takesToken: true),
        Route(path: "/v1/pull", methods: [.get], takesToken: true),
        Route(path: "/v1/live", methods: [.get], takesToken: true),
        Route(path: "/g/{group}/board", methods: [.get], takesToken: false),
        Route(path: "/web/{file}", methods: [.get], takesToken: false),
        Route(path: "/web/fonts/{file}", methods: [.get], takesToken: false),
        Route(path: "/v1/groups/{group}/board", methods: [.get], takesToken: true),
        Route(path: "/v1/groups/{group}/board/events", methods: [.get], takesToken: true),
        Route(path: "/join/{code}", methods: [.get], takesToken: false),
        Route(path: "/phone/", methods: [.get], takesToken: false),
        Route(path: "/phone/sw.js", methods: [.get], takesToken: false),
        Route(path: "/phone/manifest.webmanifest", methods: [.get], takesToken: false),
        Route(path: "/s/sw.js", methods: [.get], takesToken: false),
        Route(path: "/v1/invites", methods: [.post], takesToken: true),
        Route(path: "/s/{token}", methods: [.get], takesToken: false),
        Route(path: "/v1/rounds/{round}/summary-link", methods: [.post], takesToken: true),
        Route(path: "/v1/summaries/{token}", methods: [.get], takesToken: false),
        Route(path: "/v1/invites/redeem", methods: [.post], takesToken: false),
        Route(path: "/v1/invites/{code}/players", methods: [.get], takesToken: false),
        Route(path: "/v1/name-requests", methods: [.post], takesToken: true),
        Route(path: "/v1/name-requests/{code}", methods: [.get, .post], takesToken: false),
        Route(path: "/v1/name-requests/{code}/answer", methods: [.get], takesToken: true),
        Route(path: "/n/{code}", methods: [.get], takesToken: false),
        Route(path: "/v1/device/authorize", methods: [.post], takesToken: false),
        Route(path: "/v1/device/token", methods: [.post], takesToken: false),
        Route(path: "/v1/device/approve", methods: [.post], takesToken: true),
    ]

    /// The methods a client may send; any of them not declared on a path answers 405.
    static let methods: [HTTPRequest.Method] = [.get, .head, .post, .put, .patch, .delete, .options, .trace]

    /// Hummingbird's endpoint path drops a trailing slash (`/phone/` is `/phone`).
    static func key(_ path: String) -> String { path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path }

    private static let byPath: [String: Route] = Dictionary(all.map { (key($0.path), $0) }, uniquingKeysWith: { a, _ in a })

    /// Whether a matched route (`context.endpointPath`) with this method takes a token.
    static func takesToken(_ endpointPath: String?, method: HTTPRequest.Method) -> Bool {
        guard let endpointPath, let route = byPath[key(endpointPath)] else { return false }
        return route.takesToken && route.methods.contains(method)
    }

    /// The declared route a request path names (`{name}` matches one segment), if any.
    static func route(matching path: String) -> Route? {
        let segments = key(path).split(separator: "/", omittingEmptySubsequences: false)
        return all.first { route in
            let pattern = key(route.path).split(separator: "/", omittingEmptySubsequences: false)
            return pattern.count == segments.count
                && zip(pattern, segments).allSatisfy { p, s in p.hasPrefix("{") ? !s.isEmpty : p == s }
        }
    }

    /// Registers 405 for every method a path does not declare. Call last, after the real
    /// routes; `/metrics` only when it is served (switched off, it is not found at all).
    /// Methods outside `methods` (QUERY, CONNECT, a made-up one) have no route to register:
    /// `OtherMethodMiddleware` answers them the same.
    static func addMethodNotAllowed(to router: Router<ServerRequestContext>, metricsServed: Bool) {
        router.middlewares.add(OtherMethodMiddleware(metricsServed: metricsServed))
        for route in all where metricsServed || route.path != "/metrics" {
            let allow = route.methods.map(\.rawValue).joined(separator: ", ")
            for method in methods where !route.methods.contains(method) {
                let path = route.path
                router.on(RouterPath(path), method: method) { request, _ -> HTTPResponse.Status in
                    throw HTTPError(
                        .methodNotAllowed, headers: [.allow: allow],
                        message: "\(request.method.rawValue) is not allowed on \(path); it takes \(allow)")
                }
            }
        }
    }
}

/// 405 for a method the router has no route for at all on a declared path (the routes in
/// `ServerRoutes.addMethodNotAllowed` cover the usual methods; Hummingbird would answer
/// anything else 404).
struct OtherMethodMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let metricsServed: Bool

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws
        -> Response
    {
        guard !ServerRoutes.methods.contains(request.method), let route = ServerRoutes.route(matching: request.uri.path),
            metricsServed || route.path != "/metrics", !route.methods.contains(request.method)
        else { return try await next(request, context) }
        let allow = route.methods.map(\.rawValue).joined(separator: ", ")
        throw HTTPError(
            .methodNotAllowed, headers: [.allow: allow],
            message: "\(request.method.rawValue) is not allowed on \(route.path); it takes \(allow)")
    }
}
