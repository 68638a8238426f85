import Foundation

/// A name typed on a phone instead of with the knob (issue 32): wherever the kiosk asks for
/// a name it also shows a QR code of `/n/CODE`; the phone that scans it types the name with
/// its own keyboard, in any script, without joining the group; the kiosk polls for it and
/// shows it to be confirmed with a press. The code works once, for one name, for a few
/// minutes.

/// `POST /v1/name-requests` (a device's token): what the name is for, said on the phone's page.
public struct NameRequestCreation: Codable, Sendable, Hashable {
    /// The kiosk's heading, "Guest's name": at most `maxLabelLength` characters.
    public var label: String

    public static let maxLabelLength = 60

    public init(label: String) { self.label = label }
}

/// The answer to `POST /v1/name-requests`: the code, the page a phone opens (`/n/CODE`,
/// shown as a QR code), and how many seconds it lasts. The same short-lived, single-use
/// code as an invite's (`/join/CODE`), for one name instead of one phone.
public typealias NameRequest = Invite

/// `GET /v1/name-requests/{code}` (no token; the code is the grant): what the phone's page
/// asks for, and how long is left.
public struct NameRequestPrompt: Codable, Sendable, Hashable {
    public var label: String
    public var expiresIn: Int

    public init(label: String, expiresIn: Int) {
        self.label = label
        self.expiresIn = expiresIn
    }
}

/// The name itself: what the phone sends (`POST /v1/name-requests/{code}`, no token) and what
/// the kiosk gets (`GET /v1/name-requests/{code}/answer`, with the kiosk's token).
public struct NameAnswer: Codable, Sendable, Hashable {
    public var name: String

    public init(name: String) { self.name = name }
}
