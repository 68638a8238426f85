import Foundation
import HTTPTypes
import Hummingbird
import HyzerSyncProtocol
import Logging

extension InviteError {
    var http: HTTPError {
        switch self {
        case .malformed: HTTPError(.badRequest, message: description)
        case .unknown: HTTPError(.notFound, message: description)
        case .expired, .used: HTTPError(.conflict, message: description)
        }
    }
}

extension PlayerClaimError {
    var http: HTTPError {
        switch self {
        // Well-formed, but names nobody the phone may play as.
        case .notAPlayer: HTTPError(.unprocessableContent, message: description)
        case .claimed: HTTPError(.conflict, message: description)
        }
    }
}

/// Phones joining a group: the kiosk (or the admin) asks for an invite and shows it as a QR
/// code of `/join/CODE`; that page, in the phone's browser, redeems it for a device token of
/// the phone's own, and the phone is one more device from then on (`/phone/`).
struct InviteController<Storage: InviteStorage> {
    let storage: Storage
    /// Seconds an invite lives: the same ten minutes as a joining device's code.
    let lifetime: Int

    /// `POST /v1/invites`, with a device's or the admin's token (looked up by AuthMiddleware).
    func addAuthenticatedRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("invites", use: create)
    }

    /// `POST /v1/invites/redeem` and `GET /v1/invites/{code}/players`: no token, the phone
    /// has none yet; the code is the grant.
    func addOpenRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("invites/redeem", use: redeem)
        group.get("invites/:code/players", use: players)
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        let invite = try await storage.createInvite(
            groupID: principal.groupID, createdBy: principal.deviceID ?? "admin", lifetime: lifetime)
        context.logger.info(
            "invite created", metadata: ["group": "\(principal.groupID)", "by": "\(principal.deviceID ?? "admin")"])
        return try JSONBody.uncached(invite, status: .created)
    }

    @Sendable func redeem(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let body = try await JSONBody.decode(InviteRedemption.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        do {
            let enrolled = try await storage.redeemInvite(
                code: body.code, deviceID: body.deviceID, name: body.name, playerID: body.playerID)
            context.logger.info(
                "phone joined with an invite",
                metadata: [
                    "group": "\(enrolled.groupID)", "device": "\(body.deviceID)", "name": "\(body.name)",
                    "player": "\(enrolled.playerID?.uuidString.lowercased() ?? "none")",
                ])
            return try JSONBody.uncached(enrolled, status: .created)
        } catch let error as InviteError {
            context.logger.notice("invite refused", metadata: ["reason": "\(error)"])
            throw error.http
        } catch let error as PlayerClaimError {
            context.logger.notice("claim refused; the invite is kept", metadata: ["reason": "\(error)"])
            throw error.http
        } catch let error as StorageError {
            throw error.http
        }
    }

    /// "Which player am I?": the group's registered players and who already plays as each,
    /// for the join page to offer before the phone joins. Only a live invite opens it (an
    /// expired or spent one is refused as redeeming it would be), and it does not spend it.
    @Sendable func players(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let code = try context.parameters.require("code")
        do {
            // Who plays as whom changes with every phone that joins: never cached.
            return try JSONBody.uncached(try await storage.invitePlayers(code: code))
        } catch let error as InviteError {
            throw error.http
        }
    }
}
