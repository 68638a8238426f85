import Foundation
import GRDB
import HyzerSyncProtocol

/// Phones joining from a QR code: a short-lived, single-use invite that a group's device
/// (the kiosk) or admin asks for, and that a phone's browser redeems for a device token of
/// its own. Like every code and token, only its hash is stored.
public protocol InviteStorage: Sendable {
    /// A new invite to `groupID`, made by `createdBy` (a device id, or "admin").
    func createInvite(groupID: String, createdBy: String, lifetime: Int) async throws -> Invite
    /// Enrolls the phone and spends the invite, in one transaction.
    func redeemInvite(code: String, deviceID: String, name: String) async throws -> EnrollResponse
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

/// A row of `invites`.
struct InviteRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "invites"
    enum InviteColumn: String, ColumnExpression {
        case expiresAt = "expires_at"
    }

    var codeHash: Data
    var groupID: String
    var createdBy: String
    var createdAt: Double
    var expiresAt: Double
    var redeemedAt: Double?
    var redeemedBy: String?
}

extension InviteRow {
    /// Why this invite cannot be redeemed now, or nil: one rule for both backends.
    static func redemptionProblem(redeemedAt: Double?, expiresAt: Double, now: Double) -> InviteError? {
        if redeemedAt != nil { return .used }
        return expiresAt > now ? nil : .expired
    }
}

extension SQLiteStorage: InviteStorage {
    public func createInvite(groupID: String, createdBy: String, lifetime: Int) async throws -> Invite {
        let now = self.now
        return try await pool.write { db in
            guard try GroupRow.exists(db, key: groupID) else { throw StorageError.notFound("no group \(groupID)") }
            // Long-expired invites are of no more use, even to answer "expired".
            try InviteRow.filter(InviteRow.InviteColumn.expiresAt < now - 86_400).deleteAll(db)
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let hash = Tokens.hash(letters)
                guard try !InviteRow.exists(db, key: hash) else { continue }
                try InviteRow(
                    codeHash: hash, groupID: groupID, createdBy: createdBy, createdAt: now,
                    expiresAt: now + Double(lifetime), redeemedAt: nil, redeemedBy: nil
                ).insert(db)
                return Invite(code: letters, path: "/join/\(letters)", expiresIn: lifetime)
            }
            throw StorageError.conflict("could not draw an unused invite code; try again")
        }
    }

    public func redeemInvite(code: String, deviceID: String, name: String) async throws -> EnrollResponse {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let trimmed = try Self.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let epoch = self.epoch
        return try await pool.write { db in
            guard var invite = try InviteRow.fetchOne(db, key: Tokens.hash(letters)) else { throw InviteError.unknown }
            if let problem = InviteRow.redemptionProblem(redeemedAt: invite.redeemedAt, expiresAt: invite.expiresAt, now: now) {
                throw problem
            }
            guard let group = try GroupRow.fetchOne(db, key: invite.groupID) else { throw InviteError.unknown }
            let token = try Self.insertEnrollment(db, groupID: group.id, deviceID: deviceID, name: trimmed, at: now)
            invite.redeemedAt = now
            invite.redeemedBy = deviceID
            try invite.update(db)
            return EnrollResponse(groupID: group.id, groupName: group.name, deviceID: deviceID, deviceToken: token, epoch: epoch)
        }
    }
}
