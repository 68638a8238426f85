import Foundation
import HTTPTypes
import Hummingbird
import HyzerSyncProtocol
import Logging

extension NameRequestError {
    var http: HTTPError {
        switch self {
        case .malformed, .badLabel, .badName: HTTPError(.badRequest, message: description)
        case .unknown: HTTPError(.notFound, message: description)
        case .expired, .used: HTTPError(.conflict, message: description)
        }
    }
}

/// Names typed on a phone (issue 32): entering a name with the knob takes 9–16 actions, so
/// wherever the kiosk asks for one it also shows a QR code of `/n/CODE` (the page is served
/// by `WebPages`). The phone that scans it needs no token and joins nothing: the code is the
/// grant, for one name, for `lifetime` seconds. The kiosk polls for the answer with its own
/// device token.
struct NameRequestController<Storage: NameRequestStorage> {
    let storage: Storage
    /// Seconds a code lives: long enough to fetch a phone from a bag, short enough that a
    /// code photographed at the tee is soon worthless.
    var lifetime = 300

    /// `POST /v1/name-requests` and `GET /v1/name-requests/:code/answer`, with a device's
    /// or the admin's token (looked up by AuthMiddleware).
    func addAuthenticatedRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("name-requests", use: create)
        group.get("name-requests/:code/answer", use: answer)
    }

    /// `GET /v1/name-requests/:code` (what the name is for) and `POST` on the same path (the
    /// name): no token, the phone has none.
    func addOpenRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get("name-requests/:code", use: prompt)
        group.post("name-requests/:code", use: send)
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        let body = try await JSONBody.decode(NameRequestCreation.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        let made = try await refusing {
            try await storage.createNameRequest(
                groupID: principal.groupID, createdBy: principal.deviceID ?? "admin", label: body.label, lifetime: lifetime)
        }
        context.logger.info(
            "name request created", metadata: ["group": "\(principal.groupID)", "by": "\(principal.deviceID ?? "admin")"])
        return try JSONBody.uncached(made, status: .created)
    }

    @Sendable func answer(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        let code = try context.parameters.require("code")
        let answer: NameAnswer?
        do {
            answer = try await storage.nameRequestAnswer(code: code, groupID: principal.groupID)
        } catch NameRequestError.expired {
            // Gone, not "conflict": the kiosk stops asking and shows a new code.
            throw HTTPError(.gone, message: NameRequestError.expired.description)
        } catch let error as NameRequestError {
            throw error.http
        }
        guard let answer else { return Response(status: .noContent, headers: [.cacheControl: "no-store"]) }
        return try JSONBody.uncached(answer)
    }

    @Sendable func prompt(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        return try JSONBody.uncached(try await refusing { try await storage.nameRequestPrompt(code: code) })
    }

    @Sendable func send(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        let body = try await JSONBody.decode(NameAnswer.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        let sent = try await refusing { try await storage.answerNameRequest(code: code, name: body.name) }
        context.logger.info("a name was typed on a phone")
        return try JSONBody.uncached(sent)
    }

    private func refusing<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as NameRequestError {
            throw error.http
        } catch let error as StorageError {
            throw error.http
        }
    }
}
