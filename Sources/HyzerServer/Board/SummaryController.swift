import Foundation
import HTTPTypes
import Hummingbird
import HyzerSyncProtocol
import Logging

/// A finished round's summary page: the kiosk's summary card asks for a link with its
/// device token and shows it as a QR code; the page (`/s/TOKEN`, served by `WebPages`)
/// reads the round's summary as JSON with the token in its path. The token reads that one
/// round and nothing else, and `hyzer-server group board-unlink` revokes it with the
/// group's board links.
struct SummaryController<Storage: LiveBoardStorage> {
    let storage: Storage
    /// A night ranked by net is summed up with its players' handicaps, as on its board.
    let handicaps: NightHandicapCache
    /// Seconds the page waits before asking again for a round that has not arrived yet.
    static var retryAfter: Int { 3 }

    /// `POST /v1/rounds/:round/summary-link`, with a device's or the admin's token.
    func addAuthenticatedRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("rounds/:round/summary-link", use: create)
    }

    /// `GET /v1/summaries/:token`: the token in the path is the grant.
    func addOpenRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.get("summaries/:token", use: summary)
    }

    @Sendable func create(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        let text = try context.parameters.require("round")
        guard let roundID = UUID(uuidString: text) else {
            throw HTTPError(.badRequest, message: "\(text) is not a round id (a UUID)")
        }
        let token = try await storage.createSummaryLink(groupID: principal.groupID, roundID: roundID)
        context.logger.info(
            "summary link created",
            metadata: ["group": "\(principal.groupID)", "round": "\(roundID)", "by": "\(principal.deviceID ?? "admin")"])
        return try JSONBody.uncached(SummaryLink(path: "/s/" + token), status: .created)
    }

    @Sendable func summary(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let token = try context.parameters.require("token")
        guard let (groupID, roundID) = try await storage.summaryRound(token: token) else {
            throw HTTPError(.notFound, message: "unknown or revoked summary link; scan the kiosk's summary card again")
        }
        guard let source = try await storage.roundSource(groupID: groupID, roundID: roundID) else {
            // The kiosk asks for the link as the round finishes; its push can still be on
            // the way (or waiting for the network). Not an error of the server's (no 5xx):
            // the link is good and the page asks again after Retry-After.
            var response = try JSONBody.uncached(
                SummaryPending(
                    message: "this round has not reached the server yet; the page asks again in \(Self.retryAfter) s",
                    retryAfter: Self.retryAfter),
                status: .accepted)
            response.headers[.retryAfter] = String(Self.retryAfter)
            return response
        }
        let filled = try await handicaps.filling(source, groupID: groupID, storage: storage)
        guard let summary = RoundSummary(filled, roundID: roundID) else {
            throw HTTPError(.unprocessableContent, message: "this round's course cannot be read on the server")
        }
        return try JSONBody.uncached(summary)
    }
}

/// The answer for a summary whose round is still on its way (202).
struct SummaryPending: Codable, Sendable {
    var message: String
    var retryAfter: Int
}
