import AsyncHTTPClient
import Foundation
import HyzerSyncProtocol
import NIOCore
import NIOHTTP1
import NIOSSL

/// Why a request did not produce an answer.
public enum SyncClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer at all (refused, reset, timed out, DNS): the device is offline as far as
    /// sync is concerned. Always worth retrying.
    case unreachable(String)
    /// The server answered with an error status and message.
    case http(status: Int, message: String)
    /// The server answered something this client cannot read.
    case badResponse(String)
    /// The server's TLS certificate was refused (signed by no CA this device trusts, or
    /// for another name): retrying will not help, a person must give the right CA.
    case untrusted(String)
    /// 429: this device's token is over the server's rate; no request before
    /// `retryAfter` seconds (its `Retry-After`).
    case rateLimited(retryAfter: Double, message: String)
    /// 404 or 410 for something this device asked for and that is no more (a name
    /// request that expired unanswered, or one the server does not know): asking for a new
    /// one is the way on, not retrying. Only the calls that say so answer it.
    case gone(status: Int, message: String)

    public var description: String {
        switch self {
        case .unreachable(let why): "server unreachable: \(why)"
        case .http(let status, let message): "server refused (\(status)): \(message)"
        case .badResponse(let why): "unexpected server response: \(why)"
        case .untrusted(let why): "server's certificate refused: \(why)"
        case .rateLimited(let seconds, let message): "server busy (429): \(message) (retry after \(Int(seconds)) s)"
        case .gone(let status, let message): "no longer on the server (\(status)): \(message)"
        }
    }

    /// How long the server asked this device to wait, when it did.
    public var retryAfter: Double? {
        if case .rateLimited(let seconds, _) = self { return seconds }
        return nil
    }

    /// 401/403: the token is wrong or revoked; retrying soon will not help.
    public var isAuthFailure: Bool {
        if case .http(let status, _) = self { return status == 401 || status == 403 }
        return false
    }
}

extension HTTPClient {
    /// The client sync uses: AsyncHTTPClient's own retry of refused connections is off,
    /// because the engine has its own backoff and must learn "offline" at once rather
    /// than at the request deadline. Shared and never shut down (process lifetime).
    public static let sync: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.connectionPool.retryConnectionEstablishment = false
        // Idle connections are closed here before the server closes its end (hyzer-server:
        // 5 s), so a request is rarely sent down a connection the server is closing; the
        // retry in `exchange` covers the rest (a busy machine's late timers).
        configuration.connectionPool.idleTimeout = .seconds(3)
        configuration.timeout.connect = .seconds(5)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()
}

/// The HTTP half of the protocol over AsyncHTTPClient (URLSession's WebSocket task does
/// not exist on Linux; the socket half lives in `LiveSocket`).
public struct SyncClient: Sendable {
    public var baseURL: String
    public var deviceID: String
    public var token: String
    public var timeout: TimeAmount
    private let http: HTTPClient
    /// The link's private CA, when it has one (`ServerTrust`).
    private let tls: TLSConfiguration?

    public init(link: ServerLink, timeout: TimeAmount = .seconds(10), http: HTTPClient = .sync) {
        self.baseURL = link.serverURL
        self.deviceID = link.deviceID
        self.token = link.deviceToken
        self.timeout = timeout
        self.http = http
        self.tls = ServerTrust.configuration(caFile: link.caFile)
    }

    public func push(_ records: [SyncRecord]) async throws(SyncClientError) -> PushResponse {
        let body = try Self.encode(PushRequest(deviceID: deviceID, records: records))
        // A push is idempotent: the server acknowledges a record it already holds.
        return try await Self.send(
            http, "POST", baseURL + "/v1/push", token: token, deviceID: deviceID, body: body, timeout: timeout, tls: tls,
            idempotent: true)
    }

    public func pull(after: Int64, limit: Int = SyncProtocol.defaultPullLimit) async throws(SyncClientError) -> PullResponse {
        try await Self.send(
            http, "GET", baseURL + "/v1/pull?after=\(after)&limit=\(limit)&protocol=\(SyncProtocol.version)", token: token,
            deviceID: deviceID,
            body: nil, timeout: timeout, tls: tls, idempotent: true)
    }

    /// A phone's invite to this device's group (`POST /v1/invites`): the kiosk shows it as a
    /// QR code of `serverURL + invite.path`.
    public func createInvite() async throws(SyncClientError) -> Invite {
        try await Self.send(
            http, "POST", baseURL + "/v1/invites", token: token, deviceID: deviceID, body: nil, timeout: timeout, tls: tls)
    }

    /// The group's devices (`GET /v1/devices`): their names, for attribution.
    public func devices() async throws(SyncClientError) -> DeviceList {
        try await Self.send(
            http, "GET", baseURL + "/v1/devices", token: token, deviceID: deviceID, body: nil, timeout: timeout, tls: tls,
            idempotent: true)
    }

    /// A link to a round's summary page (`POST /v1/rounds/ROUND/summary-link`): the kiosk's
    /// summary card shows it as a QR code of `serverURL + link.path`.
    public func createSummaryLink(roundID: UUID) async throws(SyncClientError) -> SummaryLink {
        try await Self.send(
            http, "POST", baseURL + "/v1/rounds/\(roundID.uuidString)/summary-link", token: token, deviceID: deviceID,
            body: nil, timeout: timeout, tls: tls)
    }

    /// A code for typing a name on a phone (`POST /v1/name-requests`, issue 32): the kiosk
    /// shows `serverURL + request.path` as a QR code; `label` is what the name is for.
    public func createNameRequest(label: String) async throws(SyncClientError) -> NameRequest {
        let body = try Self.encode(NameRequestCreation(label: label))
        return try await Self.send(
            http, "POST", baseURL + "/v1/name-requests", token: token, deviceID: deviceID, body: body, timeout: timeout,
            tls: tls)
    }

    /// The name typed for request `code` (`GET /v1/name-requests/CODE/answer`): nil while
    /// the phone has not sent it (204); `.gone` once the code expired unanswered (410) or
    /// when the server does not know it (404: another group's, or forgotten).
    public func nameAnswer(code: String) async throws(SyncClientError) -> NameAnswer? {
        let (status, data) = try await Self.exchange(
            http, "GET", baseURL + "/v1/name-requests/\(code)/answer", token: token, deviceID: deviceID, body: nil,
            timeout: timeout, tls: tls, idempotent: true)
        switch status {
        case 204: return nil
        case 200..<300: return try Self.decode(data) as NameAnswer
        case 404, 410: throw .gone(status: status, message: Self.errorMessage(data))
        default: throw .http(status: status, message: Self.errorMessage(data))
        }
    }

    /// Enrolls a device with the group's admin token; the answer carries its own token.
    public static func enroll(
        server: String, groupToken: String, deviceID: String, name: String,
        http: HTTPClient = .sync, ca: String? = nil
    ) async throws(SyncClientError) -> EnrollResponse {
        let body = try encode(EnrollRequest(deviceID: deviceID, name: name))
        return try await send(
            http, "POST", ServerLink.normalize(server) + "/v1/devices", token: groupToken, deviceID: nil,
            body: body, timeout: .seconds(10), tls: ServerTrust.configuration(caFile: ca))
    }

    public static func health(
        server: String, http: HTTPClient = .sync, ca: String? = nil
    ) async throws(SyncClientError) -> HealthResponse {
        try await send(
            http, "GET", ServerLink.normalize(server) + "/health", token: nil, deviceID: nil, body: nil, timeout: .seconds(5),
            tls: ServerTrust.configuration(caFile: ca))
    }

    static func encode<T: Encodable>(_ value: T) throws(SyncClientError) -> Data {
        do { return try SyncCoding.encoder().encode(value) } catch { throw .badResponse("cannot encode request: \(error)") }
    }

    static func send<T: Decodable>(
        _ http: HTTPClient, _ method: String, _ url: String, token: String?, deviceID: String?,
        body: Data?, timeout: TimeAmount, tls: TLSConfiguration? = nil, idempotent: Bool = false
    ) async throws(SyncClientError) -> T {
        let (status, data) = try await exchange(
            http, method, url, token: token, deviceID: deviceID, body: body, timeout: timeout, tls: tls,
            idempotent: idempotent)
        guard (200..<300).contains(status) else { throw .http(status: status, message: errorMessage(data)) }
        return try decode(data)
    }

    /// The server's sentence in an error's body, or the body's start when it sent another shape.
    static func errorMessage(_ data: Data) -> String {
        (try? SyncCoding.decoder().decode(ErrorResponse.self, from: data).error.message)
            ?? String(decoding: data.prefix(200), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ data: Data) throws(SyncClientError) -> T {
        do { return try SyncCoding.decoder().decode(T.self, from: data) } catch { throw .badResponse("\(error)") }
    }

    /// One request and its answer, whatever its status (the device-token poll reads the
    /// body of a 400); only no answer at all throws.
    ///
    /// An `idempotent` request whose connection the server closed under it (a keep-alive
    /// connection the server's idle timeout ended while the request was on its way: a reset,
    /// a broken pipe, a close before the answer) is sent once more, on a new connection. The
    /// engine would retry it anyway, but only after its backoff, with the kiosk showing
    /// "offline" meanwhile for a server that is up. Others are not resent: the server may have
    /// acted on them (an invite, a device code).
    static func exchange(
        _ http: HTTPClient, _ method: String, _ url: String, token: String?, deviceID: String?,
        body: Data?, timeout: TimeAmount, tls: TLSConfiguration? = nil, idempotent: Bool = false
    ) async throws(SyncClientError) -> (status: Int, data: Data) {
        var request = HTTPClientRequest(url: url)
        request.tlsConfiguration = tls
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let deviceID { request.headers.add(name: SyncProtocol.deviceHeader, value: deviceID) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        func answer() async throws -> (status: Int, bytes: ByteBuffer, retryAfter: String?) {
            let response = try await http.execute(request, timeout: timeout)
            return (
                Int(response.status.code), try await response.body.collect(upTo: 64 << 20),
                response.headers.first(name: "Retry-After")
            )
        }
        let (status, bytes, retryAfter): (Int, ByteBuffer, String?)
        do {
            do {
                (status, bytes, retryAfter) = try await answer()
            } catch  where idempotent && isClosedUnderRequest(error) {
                // Once more, on a new connection: the pool has dropped the one that closed.
                (status, bytes, retryAfter) = try await answer()
            }
        } catch {
            throw ServerTrust.failure(error, privateCA: tls != nil) ?? .unreachable("\(error)")
        }
        if status == 429 {
            let message =
                (try? SyncCoding.decoder().decode(ErrorResponse.self, from: Data(bytes.readableBytesView)).error.message)
                ?? "too many requests"
            // Seconds, as this server sends it; a date or nothing waits one second.
            throw .rateLimited(retryAfter: max(1, retryAfter.flatMap(Double.init) ?? 1), message: message)
        }
        return (status, Data(bytes.readableBytesView))
    }

    /// Whether `error` is the peer closing the connection during a request (a reset, a broken
    /// pipe, an end of stream before the answer), as against a refusal, a timeout or TLS.
    static func isClosedUnderRequest(_ error: any Error) -> Bool {
        switch error {
        case let error as IOError: [ECONNRESET, EPIPE].contains(error.errnoCode)
        case let error as HTTPClientError: error == .remoteConnectionClosed
        case let error as ChannelError: error == .ioOnClosedChannel || error == .eof
        default: false
        }
    }
}
