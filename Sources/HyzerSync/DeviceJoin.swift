import AsyncHTTPClient
import Foundation
import HyzerSyncProtocol
import NIOCore

/// What one poll of `/v1/device/token` said.
public enum DeviceTokenPoll: Sendable {
    /// Approved: the device's own token and group (the code is now spent).
    case enrolled(EnrollResponse)
    /// No token (yet, or ever: `refusal` says which) and the server's message.
    case refused(DeviceTokenRefusal, String)
}

/// The device's and the admin's calls of the device-authorization flow (RFC 8628): a
/// device that cannot type a token joins with a code the admin approves.
extension SyncClient {
    /// Asks for a pair of codes; the device shows `userCode` and keeps `deviceCode`.
    public static func authorizeDevice(
        server: String, deviceID: String, name: String, http: HTTPClient = .sync, ca: String? = nil
    ) async throws(SyncClientError) -> DeviceAuthorizationResponse {
        let body = try encode(DeviceAuthorizationRequest(deviceID: deviceID, name: name))
        return try await send(
            http, "POST", ServerLink.normalize(server) + "/v1/device/authorize", token: nil, deviceID: nil, body: body,
            timeout: .seconds(10), tls: ServerTrust.configuration(caFile: ca))
    }

    /// One poll. A 400 with one of RFC 8628's codes is an answer, not an error; anything
    /// else the server refuses throws `.http`.
    public static func pollDeviceToken(
        server: String, deviceCode: String, http: HTTPClient = .sync, ca: String? = nil
    ) async throws(SyncClientError) -> DeviceTokenPoll {
        let body = try encode(DeviceTokenRequest(deviceCode: deviceCode))
        let (status, data) = try await exchange(
            http, "POST", ServerLink.normalize(server) + "/v1/device/token", token: nil, deviceID: nil, body: body,
            timeout: .seconds(10), tls: ServerTrust.configuration(caFile: ca))
        if (200..<300).contains(status) { return .enrolled(try decode(data)) }
        let detail = try? SyncCoding.decoder().decode(ErrorResponse.self, from: data).error
        if status == 400, let refusal = detail?.code.flatMap(DeviceTokenRefusal.init(rawValue:)) {
            return .refused(refusal, detail?.message ?? refusal.rawValue)
        }
        throw .http(status: status, message: detail?.message ?? String(decoding: data.prefix(200), as: UTF8.self))
    }

    /// The admin's approval over the API, with the group's admin token. `groupID`, when
    /// given, must be the token's group (403 otherwise).
    public static func approveDevice(
        server: String, adminToken: String, userCode: String, groupID: String? = nil, http: HTTPClient = .sync,
        ca: String? = nil
    ) async throws(SyncClientError) -> DeviceApprovalResponse {
        let body = try encode(DeviceApprovalRequest(userCode: userCode, groupID: groupID))
        return try await send(
            http, "POST", ServerLink.normalize(server) + "/v1/device/approve", token: adminToken, deviceID: nil, body: body,
            timeout: .seconds(10), tls: ServerTrust.configuration(caFile: ca))
    }
}

extension ServerLink {
    /// The link an enrollment answer gives this device (`hyzer device enroll`, or a
    /// kiosk's approved code).
    public init(server: String, enrolled answer: EnrollResponse, deviceName: String, at date: Date, caFile: String? = nil) {
        self.init(
            serverURL: server, groupID: answer.groupID, groupName: answer.groupName, deviceID: answer.deviceID,
            deviceName: deviceName, deviceToken: answer.deviceToken, enrolledAt: date, caFile: caFile)
    }
}
