import Foundation

// Joining a group from a device that cannot type (the kiosk's knob): the device
// authorization flow of RFC 8628, adapted to this protocol's JSON shapes. The device asks
// for a pair of codes, shows the short one, and polls with the long one until the group's
// admin approves the short one (`hyzer-server device approve CODE --group G`).

/// `POST /v1/device/authorize`, no token: who is asking to join, in the same shape as an
/// admin's enrollment (`{"deviceID", "name"}`).
public typealias DeviceAuthorizationRequest = EnrollRequest

/// The codes: `deviceCode` stays on the device (a secret, as long as a token),
/// `userCode` is what the screen shows and the admin types.
public struct DeviceAuthorizationResponse: Codable, Sendable, Equatable {
    public var deviceCode: String
    /// `XXXX-XXXX` from `DeviceUserCode.alphabet`.
    public var userCode: String
    /// Seconds until both codes expire.
    public var expiresIn: Int
    /// The shortest wait, in seconds, between two polls of `/v1/device/token`.
    public var interval: Int

    public init(deviceCode: String, userCode: String, expiresIn: Int, interval: Int) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.expiresIn = expiresIn
        self.interval = interval
    }
}

/// `POST /v1/device/token`, no token: the device's poll.
public struct DeviceTokenRequest: Codable, Sendable {
    public var deviceCode: String

    public init(deviceCode: String) { self.deviceCode = deviceCode }
}

/// Why a poll got no token yet, or never will: RFC 8628 §3.5's error codes, sent as the
/// `code` of a 400 answer's error body.
public enum DeviceTokenRefusal: String, Codable, Sendable, CaseIterable {
    /// Not approved yet: poll again after `interval`.
    case authorizationPending = "authorization_pending"
    /// Polled sooner than `interval` after the last poll: wait longer.
    case slowDown = "slow_down"
    /// The code expired before the device collected its token: ask for a new one.
    case expiredToken = "expired_token"
    /// The admin refused it.
    case accessDenied = "access_denied"
    /// The code is unknown, or was already exchanged (each code is used once).
    case invalidGrant = "invalid_grant"
}

/// `POST /v1/device/approve` with the group's admin token.
public struct DeviceApprovalRequest: Codable, Sendable {
    public var userCode: String
    /// The group the admin means; optional (the token says which), refused with 403 when
    /// it names another group than the token's.
    public var groupID: String?

    public init(userCode: String, groupID: String? = nil) {
        self.userCode = userCode
        self.groupID = groupID
    }
}

/// What an approval let in.
public struct DeviceApprovalResponse: Codable, Sendable, Equatable {
    public var groupID: String
    public var deviceID: String
    public var name: String

    public init(groupID: String, deviceID: String, name: String) {
        self.groupID = groupID
        self.deviceID = deviceID
        self.name = name
    }
}

/// The user code's form: 8 letters from an alphabet without vowels (no words by chance) and
/// without letters that read alike from 3 m or on a keyboard (no I/L/1, O/0, no U/V): the
/// alphabet RFC 8628 §6.1 suggests. 20^8 ≈ 2.6 × 10^10 codes.
public enum DeviceUserCode {
    public static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    public static let length = 8

    /// A fresh code from the system's random source (getrandom(2) on Linux): 20^8, about
    /// 2.6 × 10^10 codes, and each lives minutes and works once.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    /// `XXXX-XXXX` for the screen.
    public static func display(_ letters: String) -> String {
        letters.count == length ? "\(letters.prefix(4))-\(letters.suffix(4))" : letters
    }

    /// What the admin typed, as the server compares it: case, spaces and dashes ignored;
    /// nil when it cannot be a code (wrong length or a letter outside the alphabet).
    public static func normalize(_ typed: String) -> String? {
        let letters = typed.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        guard letters.count == length, letters.allSatisfy(alphabet.contains) else { return nil }
        return letters
    }
}
