import Foundation
import GRDB
import HyzerSyncProtocol

/// A row of `device_authorizations`: one pair of codes, by their hashes (a copy of the
/// database can neither approve a device nor collect its token).
struct DeviceAuthorizationRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "device_authorizations"

    var deviceCodeHash: Data
    var userCodeHash: Data
    var deviceID: String
    var name: String
    var createdAt: Double
    var expiresAt: Double
    var pollInterval: Double
    var polledAt: Double?
    /// Set by the approval: the group the device joins.
    var groupID: String?
    var approvedAt: Double?
    var deniedAt: Double?
    /// Set when the device collected its token: the code is spent.
    var redeemedAt: Double?

    enum CodeColumn: String, ColumnExpression {
        case deviceCodeHash = "device_code_hash"
        case userCodeHash = "user_code_hash"
        case expiresAt = "expires_at"
        case redeemedAt = "redeemed_at"
        case deniedAt = "denied_at"
    }
}

/// The rules of a code's life, one copy for both backends: what a poll gets, and whether
/// the admin can still decide.
extension DeviceAuthorizationRow {
    /// What a poll with this code comes to, before anything is written.
    enum Poll: Equatable {
        /// Refused for good, or not yet (`authorizationPending`, `slowDown`).
        case refused(DeviceTokenRefusal, String)
        /// Approved: enroll the device in this group, and spend the code.
        case enroll(groupID: String)
    }

    /// Also notes the poll's time when the code is still waiting (the caller stores it).
    mutating func poll(at now: Double) -> Poll {
        // Single use: a spent code is refused even after its device was revoked, so a
        // copy of the code can never enroll the device again.
        if redeemedAt != nil {
            return .refused(.invalidGrant, "this device code was already exchanged for a token; ask for a new one")
        }
        if deniedAt != nil { return .refused(.accessDenied, "the group's admin denied this device") }
        guard now < expiresAt else {
            return .refused(.expiredToken, "the code expired before it was approved; ask for a new one")
        }
        guard let groupID else {
            let tooSoon = polledAt.map { now - $0 < pollInterval } ?? false
            polledAt = now
            return tooSoon
                ? .refused(.slowDown, "polled sooner than \(Int(pollInterval)) s after the last poll")
                : .refused(.authorizationPending, "waiting for the group's admin to approve the code")
        }
        return .enroll(groupID: groupID)
    }

    /// Why the admin can no longer approve or deny this code, or nil while it waits.
    func decisionProblem(at now: Double) -> DeviceApprovalError? {
        if groupID != nil || redeemedAt != nil { return .alreadyApproved }
        if deniedAt != nil { return .alreadyDenied }
        return now < expiresAt ? nil : .expired
    }
}

extension SQLiteStorage: DeviceAuthorizationStorage {
    public func authorizeDevice(
        deviceID: String, name: String, policy: DeviceCodePolicy
    ) async throws -> DeviceAuthorizationResponse {
        let trimmed = try Self.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        return try await pool.write { db in
            // Spent and long-expired codes are of no more use, even to answer "expired".
            try DeviceAuthorizationRow.filter(DeviceAuthorizationRow.CodeColumn.expiresAt < now - 86_400).deleteAll(db)
            let pending = try DeviceAuthorizationRow.filter(DeviceAuthorizationRow.CodeColumn.expiresAt > now).fetchCount(db)
            guard pending < policy.maxPending else { throw DeviceApprovalError.tooManyPending }
            let deviceCode = Tokens.generate(prefix: "hzc_")
            // A user code still in the table is drawn again (one chance in ~10^7 with a
            // thousand codes waiting).
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let userHash = Tokens.hash(letters)
                guard
                    try DeviceAuthorizationRow.filter(DeviceAuthorizationRow.CodeColumn.userCodeHash == userHash).fetchCount(db)
                        == 0
                else { continue }
                try DeviceAuthorizationRow(
                    deviceCodeHash: Tokens.hash(deviceCode), userCodeHash: userHash, deviceID: deviceID, name: trimmed,
                    createdAt: now, expiresAt: now + Double(policy.lifetime), pollInterval: Double(policy.interval)
                ).insert(db)
                return DeviceAuthorizationResponse(
                    deviceCode: deviceCode, userCode: DeviceUserCode.display(letters), expiresIn: policy.lifetime,
                    interval: policy.interval)
            }
            throw DeviceApprovalError.tooManyPending
        }
    }

    public func exchangeDeviceCode(_ deviceCode: String) async throws -> DeviceTokenOutcome {
        guard deviceCode.utf8.count <= Tokens.longest else { return .refused(.invalidGrant, "unknown device code") }
        let now = self.now
        let epoch = self.epoch
        return try await pool.write { db -> DeviceTokenOutcome in
            guard var row = try DeviceAuthorizationRow.fetchOne(db, key: Tokens.hash(deviceCode)) else {
                return .refused(.invalidGrant, "unknown device code; ask for a new one")
            }
            let groupID: String
            switch row.poll(at: now) {
            case .refused(let refusal, let message):
                if refusal == .authorizationPending || refusal == .slowDown { try row.update(db) }
                return .refused(refusal, message)
            case .enroll(let approved): groupID = approved
            }
            guard let group = try GroupRow.fetchOne(db, key: groupID) else {
                return .refused(.accessDenied, "the group this device was approved for no longer exists")
            }
            let token = try Self.insertEnrollment(db, groupID: groupID, deviceID: row.deviceID, name: row.name, at: now)
            row.redeemedAt = now
            try row.update(db)
            return .enrolled(
                EnrollResponse(groupID: group.id, groupName: group.name, deviceID: row.deviceID, deviceToken: token, epoch: epoch)
            )
        }
    }

    public func approveDevice(userCode: String, groupID: String) async throws -> DeviceApprovalResponse {
        let now = self.now
        return try await pool.write { db in
            var row = try Self.waitingCode(db, userCode, now: now)
            guard try GroupRow.fetchOne(db, key: groupID) != nil else { throw DeviceApprovalError.unknownGroup(groupID) }
            // Refused now rather than when the device comes for its token: the admin is
            // the one who can revoke the other device.
            if try Self.activeOwner(db, deviceID: row.deviceID) != nil { throw DeviceApprovalError.deviceTaken(row.deviceID) }
            row.groupID = groupID
            row.approvedAt = now
            try row.update(db)
            return DeviceApprovalResponse(groupID: groupID, deviceID: row.deviceID, name: row.name)
        }
    }

    public func denyDevice(userCode: String) async throws {
        let now = self.now
        try await pool.write { db in
            var row = try Self.waitingCode(db, userCode, now: now)
            row.deniedAt = now
            try row.update(db)
        }
    }

    /// The code's row, if it is still waiting for a decision.
    private static func waitingCode(_ db: Database, _ userCode: String, now: Double) throws -> DeviceAuthorizationRow {
        guard let letters = DeviceUserCode.normalize(userCode) else { throw DeviceApprovalError.malformed }
        guard
            let row = try DeviceAuthorizationRow.filter(DeviceAuthorizationRow.CodeColumn.userCodeHash == Tokens.hash(letters))
                .fetchOne(db)
        else { throw DeviceApprovalError.unknown }
        if let problem = row.decisionProblem(at: now) { throw problem }
        return row
    }

}
