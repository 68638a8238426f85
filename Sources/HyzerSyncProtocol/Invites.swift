import Foundation

// A phone's way into a group: an invite the kiosk shows as a QR code, redeemed by the
// phone's browser, which may say first which registered player it is.

/// `POST /v1/invites` (a device's or the admin's token): a phone's way into the group. The
/// kiosk shows `path` on the server as a QR code; it lasts `expiresIn` seconds and works once.
public struct Invite: Codable, Sendable, Hashable {
    /// 8 letters from `DeviceUserCode.alphabet`.
    public var code: String
    /// `/join/CODE`, the page a phone opens.
    public var path: String
    public var expiresIn: Int

    public init(code: String, path: String, expiresIn: Int) {
        self.code = code
        self.path = path
        self.expiresIn = expiresIn
    }
}

/// `POST /v1/invites/redeem`, no token: the phone's browser enrolls itself with an invite,
/// under a device id it made up, and gets an `EnrollResponse` with its own device token.
public struct InviteRedemption: Codable, Sendable, Hashable {
    public var code: String
    public var deviceID: String
    public var name: String
    /// "Which player am I?": one of the group's registered players (`InvitePlayers`) the
    /// phone plays as. Optional: without it the phone joins as before, as nobody in particular.
    public var playerID: UUID?

    public init(code: String, deviceID: String, name: String, playerID: UUID? = nil) {
        self.code = code
        self.deviceID = deviceID
        self.name = name
        self.playerID = playerID
    }
}

/// `GET /v1/invites/{code}/players`, no token (the live invite is the grant, as for
/// redeeming it): who the phone may say it is before it joins. The group's registered
/// players, by name, each with the device that already plays as them.
public struct InvitePlayers: Codable, Sendable, Hashable {
    public struct Player: Codable, Sendable, Hashable {
        public var id: UUID
        public var name: String
        /// The name of the active device that claimed this player ("Nate's phone"), or nil:
        /// sent as JSON `null`, never left out, so the page tells "free" from "unknown".
        public var claimedBy: String?

        public init(id: UUID, name: String, claimedBy: String?) {
            self.id = id
            self.name = name
            self.claimedBy = claimedBy
        }

        enum CodingKeys: String, CodingKey { case id, name, claimedBy }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(claimedBy, forKey: .claimedBy)
        }
    }

    public var groupName: String
    /// Sorted by name (case ignored).
    public var players: [Player]

    public init(groupName: String, players: [Player]) {
        self.groupName = groupName
        self.players = players
    }
}
