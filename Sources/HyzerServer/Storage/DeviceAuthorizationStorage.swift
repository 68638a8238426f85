import Foundation
import HyzerSyncProtocol

/// How long a device's codes live and how often it may poll. The defaults are RFC 8628's
/// usual ones; `hyzer-server serve --device-code-lifetime` shortens them for tests.
public struct DeviceCodePolicy: Sendable, Equatable {
    /// Seconds until an unused pair of codes expires: ten minutes, long enough to walk to
    /// the admin and type eight letters, short enough that a code read off a screen
    /// by a passer-by is soon worthless.
    public var lifetime: Int
    /// Seconds the device waits between polls.
    public var interval: Int
    /// Codes not yet expired, server-wide, beyond which a new one is refused: the
    /// request needs no token, so nothing else bounds the table.
    public var maxPending: Int

    public init(lifetime: Int = 600, interval: Int = 5, maxPending: Int = 1000) {
        self.lifetime = lifetime
        self.interval = interval
        self.maxPending = maxPending
    }
}

/// The answer to a device's poll: its token, or why not yet (or never).
public enum DeviceTokenOutcome: Sendable {
    case enrolled(EnrollResponse)
    case refused(DeviceTokenRefusal, String)
}

/// Why a code cannot be approved (or denied): each says what to do next.
public enum DeviceApprovalError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed
    case unknown
    case expired
    case alreadyApproved
    case alreadyDenied
    case unknownGroup(String)
    case otherGroup
    case deviceTaken(String)
    case tooManyPending

    public var description: String {
        switch self {
        case .malformed:
            "not a code: it is 8 letters from \(String(DeviceUserCode.alphabet)), as XXXX-XXXX on the kiosk's screen"
        case .unknown: "no device is waiting with that code; check the code on the kiosk's screen"
        case .expired: "that code has expired; on the kiosk, choose Join a group again for a new one"
        case .alreadyApproved: "that code was already approved; each code is used once"
        case .alreadyDenied: "that code was denied; on the kiosk, ask for a new one"
        case .unknownGroup(let id): "no group \(id) on this server (hyzer-server group list)"
        case .otherGroup: "this admin token belongs to another group than the one named"
        case .deviceTaken(let id): "device id \(id) is already enrolled; revoke it first to enroll it again"
        case .tooManyPending: "too many devices are waiting to join; try again in a few minutes"
        }
    }
}

/// The device-authorization flow's storage, apart from `SyncStorage` so that the sync
/// contract stays what a second backend must honour for push and pull.
public protocol DeviceAuthorizationStorage: Sendable {
    func authorizeDevice(deviceID: String, name: String, policy: DeviceCodePolicy) async throws -> DeviceAuthorizationResponse
    func exchangeDeviceCode(_ deviceCode: String) async throws -> DeviceTokenOutcome
    func approveDevice(userCode: String, groupID: String) async throws -> DeviceApprovalResponse
    func denyDevice(userCode: String) async throws
}
