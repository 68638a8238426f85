import Foundation

/// `POST /v1/name-requests`, with a device's token: the kiosk asks for a name typed on a
/// phone (issue 32: a name takes 9–16 actions on the knob, and a phone's own keyboard
/// types any script). `label` is what the kiosk asks for ("Guest's name"), shown as the
/// phone page's heading.
public struct NameRequestCreation: Codable, Sendable, Hashable {
    public var label: String

    public init(label: String) { self.label = label }
}

/// The answer to a `NameRequestCreation` (201): the kiosk shows `serverURL + path` as a QR
/// code. The code works once, for this one name, for `expiresIn` seconds, and needs no
/// join: the phone that opens the page only types the name.
public struct NameRequest: Codable, Sendable, Hashable {
    /// 8 letters from `DeviceUserCode.alphabet`, as an invite's.
    public var code: String
    /// `/n/CODE`, the page a phone opens.
    public var path: String
    public var expiresIn: Int

    public init(code: String, path: String, expiresIn: Int) {
        self.code = code
        self.path = path
        self.expiresIn = expiresIn
    }
}

/// `GET /v1/name-requests/CODE/answer`, with the token of the device that asked: 200 with
/// the name once the phone sent it; 204 (no body) while it waits; 404 for a code that is
/// unknown or another group's; 410 once it expired unanswered. The kiosk checks the name as
/// it checks one from the knob (a player's rules), so a name the board cannot take is
/// refused on its screen, where the knob can mend it.
public struct NameAnswer: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) { self.name = name }
}
