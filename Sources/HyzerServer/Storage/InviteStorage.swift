import Foundation
import HyzerSyncProtocol

/// Phones joining from a QR code: a short-lived, single-use invite that a group's device
/// (the kiosk) or admin asks for, and that a phone's browser redeems for a device token of
/// its own. Like every code and token, only its hash is stored.
public protocol InviteStorage: Sendable {
    /// A new invite to `groupID`, made by `createdBy` (a device id, or "admin").
    func createInvite(groupID: String, createdBy: String, lifetime: Int) async throws -> Invite
    /// Enrolls the phone and spends the invite, in one transaction; with `playerID`, the
    /// phone plays as that registered player (refused with `PlayerClaimError`, and the
    /// invite kept, when it is none of the group's or another active device has claimed it).
    func redeemInvite(code: String, deviceID: String, name: String, playerID: UUID?) async throws -> EnrollResponse
    /// The group's registered players and who plays as each, for a phone holding a live
    /// invite (the invite is the grant, and it is not spent); `InviteError` otherwise.
    func invitePlayers(code: String) async throws -> InvitePlayers
}

extension InviteStorage {
    /// Joining as nobody in particular, as phones did before claims.
    public func redeemInvite(code: String, deviceID: String, name: String) async throws -> EnrollResponse {
        try await redeemInvite(code: code, deviceID: deviceID, name: name, playerID: nil)
    }
}

/// Why an invite cannot be redeemed; each says what to do next.
public enum InviteError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed
    case unknown
    case expired
    case used

    public var description: String {
        switch self {
        case .malformed: "not an invite code: it is 8 letters from \(String(DeviceUserCode.alphabet))"
        case .unknown: "no such invite; scan the code on the kiosk again"
        case .expired: "this invite has expired (they last 10 minutes); ask the kiosk for a new one"
        case .used: "this invite was already used (each works once); ask the kiosk for a new one"
        }
    }
}
