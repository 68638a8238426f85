import AsyncHTTPClient
import Foundation
import HyzerSyncProtocol
import NIOCore
import NIOHTTP1

/// Why a request did not produce an answer.
public enum SyncClientError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No answer at all (refused, reset, timed out, DNS): the device is offline as far as
    /// sync is concerned. Always worth retrying.
    case unreachable(String)
    /// The server answered with an error status and message.
    case http(status: Int, message: String)
    /// The server answered something this client cannot read.
    case badResponse(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "server unreachable: \(why)"
        case .http(let status, let message): "server refused (\(status)): \(message)"
        case .badResponse(let why): "unexpected server response: \(why)"
        }
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

    public init(link: ServerLink, timeout: TimeAmount = .seconds(10), http: HTTPClient = .sync) {
        self.baseURL = link.serverURL
        self.deviceID = link.deviceID
        self.token = link.deviceToken
        self.timeout = timeout
        self.http = http
    }

    public func push(_ records: [SyncRecord]) async throws(SyncClientError) -> PushResponse {
        let body = try Self.encode(PushRequest(deviceID: deviceID, records: records))
        return try await Self.send(
            http, "POST", baseURL + "/v1/push", token: token, deviceID: deviceID, body: body, timeout: timeout)
    }

    public func pull(after: Int64, limit: Int = SyncProtocol.defaultPullLimit) async throws(SyncClientError) -> PullResponse {
        try await Self.send(
            http, "GET", baseURL + "/v1/pull?after=\(after)&limit=\(limit)", token: token, deviceID: deviceID,
            body: nil, timeout: timeout)
    }

    /// A phone's invite to this device's group (`POST /v1/invites`): the kiosk shows it as a
    /// QR code of `serverURL + invite.path`.
    public func createInvite() async throws(SyncClientError) -> Invite {
        try await Self.send(http, "POST", baseURL + "/v1/invites", token: token, deviceID: deviceID, body: nil, timeout: timeout)
    }

    /// The group's devices (`GET /v1/devices`): their names, for attribution.
    public func devices() async throws(SyncClientError) -> DeviceList {
        try await Self.send(http, "GET", baseURL + "/v1/devices", token: token, deviceID: deviceID, body: nil, timeout: timeout)
    }

    /// A link to a round's summary page (`POST /v1/rounds/ROUND/summary-link`): the kiosk's
    /// summary card shows it as a QR code of `serverURL + link.path`.
    public func createSummaryLink(roundID: UUID) async throws(SyncClientError) -> SummaryLink {
        try await Self.send(
            http, "POST", baseURL + "/v1/rounds/\(roundID.uuidString)/summary-link", token: token, deviceID: deviceID,
            body: nil, timeout: timeout)
    }

    /// Enrolls a device with the group's admin token; the answer carries its own token.
    public static func enroll(
        server: String, groupToken: String, deviceID: String, name: String,
        http: HTTPClient = .sync
    ) async throws(SyncClientError) -> EnrollResponse {
        let body = try encode(EnrollRequest(deviceID: deviceID, name: name))
        return try await send(
            http, "POST", ServerLink.normalize(server) + "/v1/devices", token: groupToken, deviceID: nil,
            body: body, timeout: .seconds(10))
    }

    public static func health(server: String, http: HTTPClient = .sync) async throws(SyncClientError) -> HealthResponse {
        try await send(
            http, "GET", ServerLink.normalize(server) + "/health", token: nil, deviceID: nil, body: nil, timeout: .seconds(5))
    }

    static func encode<T: Encodable>(_ value: T) throws(SyncClientError) -> Data {
        do { return try SyncCoding.encoder().encode(value) } catch { throw .badResponse("cannot encode request: \(error)") }
    }

    static func send<T: Decodable>(
        _ http: HTTPClient, _ method: String, _ url: String, token: String?, deviceID: String?,
        body: Data?, timeout: TimeAmount
    ) async throws(SyncClientError) -> T {
        let (status, data) = try await exchange(
            http, method, url, token: token, deviceID: deviceID, body: body, timeout: timeout)
        guard (200..<300).contains(status) else {
            let message =
                (try? SyncCoding.decoder().decode(ErrorResponse.self, from: data).error.message)
                ?? String(decoding: data.prefix(200), as: UTF8.self)
            throw .http(status: status, message: message)
        }
        return try decode(data)
    }

    static func decode<T: Decodable>(_ data: Data) throws(SyncClientError) -> T {
        do { return try SyncCoding.decoder().decode(T.self, from: data) } catch { throw .badResponse("\(error)") }
    }

    /// One request and its answer, whatever its status (the device-token poll reads the
    /// body of a 400); only no answer at all throws.
    static func exchange(
        _ http: HTTPClient, _ method: String, _ url: String, token: String?, deviceID: String?,
        body: Data?, timeout: TimeAmount
    ) async throws(SyncClientError) -> (status: Int, data: Data) {
        var request = HTTPClientRequest(url: url)
        request.method = HTTPMethod(rawValue: method)
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        if let deviceID { request.headers.add(name: SyncProtocol.deviceHeader, value: deviceID) }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let status: Int
        let bytes: ByteBuffer
        do {
            let response = try await http.execute(request, timeout: timeout)
            status = Int(response.status.code)
            bytes = try await response.body.collect(upTo: 64 << 20)
        } catch {
            throw .unreachable("\(error)")
        }
        return (status, Data(bytes.readableBytesView))
    }
}
