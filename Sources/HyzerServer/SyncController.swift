import Foundation
import Hummingbird
import HyzerSyncProtocol
import Logging

/// Push and pull, with a device token.
struct SyncController<Storage: SyncStorage> {
    let storage: Storage
    let hub: PokeHub
    let recentTokens = RecentDeviceTokens()

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("push", use: push)
        group.get("pull", use: pull)
    }

    @Sendable func push(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let claim = try context.deviceClaim(request)
        // A token not seen valid lately (or a request without its device header) is checked
        // before the body is parsed, so a stranger never gets a megabyte of JSON decoded and
        // every refusal is the same whatever the body; a known one is checked in the push's
        // own transaction, below (revocation included).
        if claim.device == nil || !recentTokens.contains(claim.token) { try await authenticate(claim) }
        let body = try await JSONBody.decode(PushRequest.self, from: request, limit: SyncProtocol.maxPushBytes)
        guard body.deviceID == claim.device else {
            throw HTTPError(.forbidden, message: "the body names device \(body.deviceID) but the token belongs to another device")
        }
        guard body.records.count <= SyncProtocol.maxPushRecords else {
            throw HTTPError(
                .contentTooLarge, message: "at most \(SyncProtocol.maxPushRecords) records per push, got \(body.records.count)")
        }
        // Returns only after the commit: every ack below is durable.
        let (principal, response) = try await refusing(claim) { try await storage.push(as: claim, records: body.records) }
        let deviceID = body.deviceID
        var created = 0
        var duplicate = 0
        var rejected = 0
        for r in response.results {
            switch r.status {
            case .created: created += 1
            case .duplicate: duplicate += 1
            case .rejected: rejected += 1
            }
        }
        context.logger.info(
            "push",
            metadata: [
                "group": "\(principal.groupID)", "device": "\(deviceID)", "records": "\(body.records.count)",
                "created": "\(created)", "duplicate": "\(duplicate)", "rejected": "\(rejected)", "head": "\(response.head)",
            ])
        if rejected > 0, let first = response.results.first(where: { $0.status == .rejected }) {
            context.logger.notice(
                "push rejected records",
                metadata: [
                    "group": "\(principal.groupID)", "device": "\(deviceID)",
                    "first": "\(first.reason ?? "")",
                ])
        }
        if created > 0 { await hub.publish(groupID: principal.groupID, poke: Poke(epoch: response.epoch, head: response.head)) }
        // The other devices are poked first: the state file and the free-space look are
        // not on the path of a score to them.
        storage.noteCommitted(head: response.head)
        return try JSONBody.response(response)
    }

    @Sendable func pull(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let claim = try context.deviceClaim(request)
        let page: (after: Int64, limit: Int, protocol: Int)
        do {
            page = try Self.page(request)
        } catch {
            // A refused token is answered before a malformed query, as on every route.
            try await authenticate(claim)
            throw error
        }
        var response = try await refusing(claim) {
            try await storage.pull(as: claim, after: page.after, limit: page.limit)
        }
        // A kind newer than the device's protocol would stop its decoder (an older device
        // has no case for it), and a night ranked by net would be read as gross: left out
        // of its page. `next` still moves past it, so the device never asks for it again,
        // and `hasMore` is unchanged.
        response.records.removeAll { $0.record.sinceProtocol > page.protocol }
        return try JSONBody.response(response)
    }

    /// The page asked for. `protocol` is the device's `SyncProtocol.version`; a device
    /// older than the parameter (protocol 1 or 2) sends none, and knows the kinds of 2.
    static func page(_ request: Request) throws -> (after: Int64, limit: Int, protocol: Int) {
        let query = request.uri.queryParameters
        var after: Int64 = 0
        if let text = query["after"] {
            guard let value = Int64(String(text)), value >= 0 else {
                throw HTTPError(.badRequest, message: "after must be a sequence number ≥ 0")
            }
            after = value
        }
        var limit = SyncProtocol.defaultPullLimit
        if let text = query["limit"] {
            guard let value = Int(String(text)), (1...SyncProtocol.maxPullLimit).contains(value) else {
                throw HTTPError(.badRequest, message: "limit must be between 1 and \(SyncProtocol.maxPullLimit)")
            }
            limit = value
        }
        var version = 2
        if let text = query["protocol"] {
            guard let value = Int(String(text)), value >= 1 else {
                throw HTTPError(.badRequest, message: "protocol must be a protocol version ≥ 1")
            }
            version = value
        }
        return (after, limit, version)
    }

    /// The early check: a trip of its own, for a token not seen lately.
    private func authenticate(_ claim: DeviceClaim) async throws {
        _ = try await refusing(claim) {
            try await storage.authenticate(token: claim.token).requireDevice(claimed: claim.device)
        }
    }

    /// Runs a storage call that checks the claim, remembering the token when it passed and
    /// forgetting it when it was refused (revoked, say); refusals become 4xx answers.
    private func refusing<Value>(_ claim: DeviceClaim, _ body: () async throws -> Value) async throws -> Value {
        do {
            let value = try await body()
            recentTokens.insert(claim.token)
            return value
        } catch let refusal as AccessRefusal {
            recentTokens.remove(claim.token)
            throw refusal.http
        }
    }
}
