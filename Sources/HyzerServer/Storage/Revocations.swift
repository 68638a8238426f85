import Foundation

/// What a database has revoked: device tokens, devices, board links and summary links, by
/// their keys. A restore carries these from the database it replaces into the backup it
/// puts in place, on both backends: a backup taken before a phone was stolen must not
/// bring the phone's token back to life.
///
/// Only revocations travel (never new grants), and only onto rows the backup has and
/// still holds live; the time of each is kept.
public struct Revocations: Sendable, Equatable {
    public struct Credential: Sendable, Equatable {
        var tokenHash: Data
        var revokedAt: Double
    }

    public struct Device: Sendable, Equatable {
        var groupID: String
        var deviceID: String
        var revokedAt: Double
    }

    var credentials: [Credential] = []
    var devices: [Device] = []
    var viewTokens: [Credential] = []
    var summaryLinks: [Credential] = []

    public init() {}

    public var count: Int { credentials.count + devices.count + viewTokens.count + summaryLinks.count }
}
