import Foundation
import Hummingbird
import HummingbirdWebSocket
import HyzerSyncProtocol
import Logging
import ServiceLifecycle

/// JSON answers and bodies, with the protocol's coder and explicit size limits.
enum JSONBody {
    static func response<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        let data = try SyncCoding.encoder().encode(value)
        return Response(
            status: status, headers: [.contentType: "application/json; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    /// `response`, never kept by a browser or a proxy: for answers that are a grant (a code,
    /// a token) or change with the next request (who plays as whom, the board).
    static func uncached<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        var response = try response(value, status: status)
        response.headers[.cacheControl] = "no-store"
        return response
    }

    /// Collects at most `limit` bytes (413 beyond) and decodes, answering 400 with the
    /// decoder's reason for anything malformed.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> T {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw HTTPError(.contentTooLarge, message: "request body of \(length) bytes is over the \(limit)-byte limit")
        }
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw HTTPError(.contentTooLarge, message: "request body is over the \(limit)-byte limit")
        }
        guard buffer.readableBytes > 0 else { throw HTTPError(.badRequest, message: "empty request body; JSON expected") }
        do {
            return try SyncCoding.decoder().decode(T.self, from: Data(buffer.readableBytesView))
        } catch let error as DecodingError {
            throw HTTPError(.badRequest, message: "malformed JSON body: \(describe(error))")
        } catch {
            throw HTTPError(.badRequest, message: "malformed JSON body")
        }
    }

    static func describe(_ error: DecodingError) -> String {
        func path(_ keys: [any CodingKey]) -> String {
            keys.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let c):
            return "missing field \"\(key.stringValue)\" at \(path(c.codingPath).isEmpty ? "top level" : path(c.codingPath))"
        case .typeMismatch(_, let c), .valueNotFound(_, let c):
            return "wrong type at \(path(c.codingPath)): \(c.debugDescription)"
        case .dataCorrupted(let c):
            return c.codingPath.isEmpty ? "not valid JSON" : "invalid value at \(path(c.codingPath)): \(c.debugDescription)"
        @unknown default: return "\(error)"
        }
    }
}

extension StorageError {
    var http: HTTPError {
        switch self {
        case .notFound(let m): HTTPError(.notFound, message: m)
        case .conflict(let m): HTTPError(.conflict, message: m)
        case .invalid(let m): HTTPError(.badRequest, message: m)
        }
    }
}

struct HealthController<Storage: SyncStorage> {
    let storage: Storage

    func addRoutes(to router: Router<ServerRequestContext>) {
        router.get("health") { _, _ in
            try JSONBody.response(HealthResponse(status: "ok", protocolVersion: SyncProtocol.version, epoch: storage.epoch))
        }
    }
}

/// Enrollment and revocation, with the group admin token.
struct DeviceController<Storage: SyncStorage> {
    let storage: Storage

    func addRoutes(to group: RouterGroup<ServerRequestContext>) {
        group.post("devices", use: enroll)
        group.get("devices", use: list)
        group.delete("devices/:deviceID", use: revoke)
        group.delete("devices/:deviceID/player", use: release)
    }

    @Sendable func enroll(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let body = try await JSONBody.decode(EnrollRequest.self, from: request, limit: SyncProtocol.maxSmallBodyBytes)
        guard let group = try await storage.group(id: admin.groupID) else {
            throw HTTPError(.unauthorized, message: "group no longer exists")
        }
        do {
            let token = try await storage.enroll(groupID: admin.groupID, deviceID: body.deviceID, name: body.name)
            context.logger.info(
                "device enrolled", metadata: ["group": "\(group.id)", "device": "\(body.deviceID)", "name": "\(body.name)"])
            return try JSONBody.response(
                EnrollResponse(
                    groupID: group.id, groupName: group.name, deviceID: body.deviceID,
                    deviceToken: token, epoch: storage.epoch), status: .created)
        } catch let error as StorageError {
            context.logger.notice(
                "enrollment refused", metadata: ["group": "\(group.id)", "device": "\(body.deviceID)", "reason": "\(error)"])
            throw error.http
        }
    }

    /// The admin's list, and every device's: a device of the group may name the others
    /// (attribution, "from Nate's phone"); tokens are never listed.
    @Sendable func list(_ request: Request, context: ServerRequestContext) async throws -> Response {
        guard let principal = context.principal else { throw AccessRefusal.unauthenticated.http }
        return try JSONBody.response(
            DeviceList(groupID: principal.groupID, devices: try await storage.devices(groupID: principal.groupID)))
    }

    @Sendable func revoke(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let deviceID = try context.parameters.require("deviceID")
        do {
            try await storage.revoke(groupID: admin.groupID, deviceID: deviceID)
        } catch let error as StorageError { throw error.http }
        context.logger.info("device revoked", metadata: ["group": "\(admin.groupID)", "device": "\(deviceID)"])
        return Response(status: .noContent)
    }

    /// The admin frees the player a device plays as (a phone lent to someone else, a claim
    /// made by mistake); the device stays enrolled. Admin only: a phone cannot take
    /// another's player by releasing it first.
    @Sendable func release(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let admin = try context.requireAdmin()
        let deviceID = try context.parameters.require("deviceID")
        let released: DeviceInfo
        do {
            released = try await storage.releasePlayer(groupID: admin.groupID, deviceID: deviceID)
        } catch let error as StorageError { throw error.http }
        context.logger.info(
            "player released",
            metadata: [
                "group": "\(admin.groupID)", "device": "\(deviceID)",
                "player": "\(released.playerID?.uuidString.lowercased() ?? "")",
            ])
        return Response(status: .noContent)
    }
}

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
        let page: (after: Int64, limit: Int)
        do {
            page = try Self.page(request)
        } catch {
            // A refused token is answered before a malformed query, as on every route.
            try await authenticate(claim)
            throw error
        }
        let response = try await refusing(claim) {
            try await storage.pull(as: claim, after: page.after, limit: page.limit)
        }
        return try JSONBody.response(response)
    }

    static func page(_ request: Request) throws -> (after: Int64, limit: Int) {
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
        return (after, limit)
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

/// The poke socket: after upgrade it sends the current head, then one poke per commit
/// in the group. Clients send nothing (anything they send is ignored).
struct LiveController<Storage: SyncStorage> {
    let storage: Storage
    let hub: PokeHub

    /// What a request to the socket that is no handshake the server can complete is told
    /// (RFC 6455 §4.2.1, §4.4): another WebSocket version, 426 naming 13; a handshake
    /// missing a part (`Connection: Upgrade`, `Upgrade: websocket`, one key, the version),
    /// 400 saying what it takes; a plain GET, 426.
    static func notAHandshake(_ request: Request) -> HTTPError {
        let versions = request.headers[values: .secWebSocketVersion]
        if let version = versions.first, versions.count == 1, version.trimmingCharacters(in: .whitespaces) != "13" {
            return HTTPError(
                .upgradeRequired, headers: [.secWebSocketVersion: "13"],
                message: "this server speaks WebSocket version 13, not \(version)")
        }
        if !versions.isEmpty || request.headers[.secWebSocketKey] != nil {
            return HTTPError(
                .badRequest,
                message: "incomplete WebSocket handshake: it takes Connection: Upgrade, Upgrade: websocket, "
                    + "one Sec-WebSocket-Key (16 bytes in base64) and Sec-WebSocket-Version: 13")
        }
        return HTTPError(
            .upgradeRequired, headers: [.secWebSocketVersion: "13"],
            message: "this is a WebSocket: send the upgrade handshake (Sec-WebSocket-Version: 13)")
    }

    func addRoutes(to router: RouterGroup<ServerRequestContext>) {
        let storage = self.storage
        let hub = self.hub
        router.ws("v1/live") { request, context in
            _ = try context.requireDevice(request)
            // Here without `Upgrade: websocket` (a plain GET, or a handshake `UpgradeGate`
            // took it off, one NIO could not complete) the route would answer an empty 200.
            guard request.headers[.upgrade]?.lowercased() == "websocket" else { throw Self.notAHandshake(request) }
            return .upgrade([:])
        } onUpgrade: { inbound, outbound, wsContext in
            guard let principal = wsContext.requestContext.principal else { return }
            let groupID = principal.groupID
            let (id, pokes) = await hub.subscribe(groupID: groupID)
            let encoder = SyncCoding.encoder()
            func send(_ poke: Poke) async throws {
                try await outbound.write(.text(String(decoding: try encoder.encode(poke), as: UTF8.self)))
            }
            do {
                try await send(Poke(epoch: storage.epoch, head: try await storage.head(groupID: groupID)))
            } catch {
                await hub.unsubscribe(groupID: groupID, id: id)
                return
            }
            // The handler returns (and the socket closes) as soon as either side is done:
            // the client went away, or the poke stream ended (shutdown). Reader and writer
            // are separate tasks so neither can hold the other up: a peer that never
            // answers cannot keep a SIGTERM waiting.
            let (done, finished) = AsyncStream<Void>.makeStream()
            let reader = Task {
                do { for try await _ in inbound {} } catch {}
                finished.finish()
            }
            let writer = Task {
                for await poke in pokes {
                    do { try await send(poke) } catch { break }
                }
                finished.finish()
            }
            await withGracefulShutdownHandler {
                for await _ in done {}
            } onGracefulShutdown: {
                finished.finish()
            }
            reader.cancel()
            writer.cancel()
            await hub.unsubscribe(groupID: groupID, id: id)
        }
    }
}
