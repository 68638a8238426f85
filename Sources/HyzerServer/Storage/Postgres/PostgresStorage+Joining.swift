import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO

/// Joining a group on PostgreSQL: device codes (RFC 8628) and phone invites, with the rules
/// of SQLiteStorage+DeviceAuthorization and +Invites. A code or invite being spent is
/// locked (`FOR UPDATE`): two instances redeeming the same one at once cannot both win.
extension PostgresStorage: DeviceAuthorizationStorage, InviteStorage {
    public func authorizeDevice(
        deviceID: String, name: String, policy: DeviceCodePolicy
    ) async throws -> DeviceAuthorizationResponse {
        let trimmed = try SQLiteStorage.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            // Spent and long-expired codes are of no more use, even to answer "expired".
            try await connection.query("DELETE FROM device_authorizations WHERE expires_at < \(now - 86_400)", logger: logger)
            let pending =
                try await Self.first(
                    connection, "SELECT count(*) FROM device_authorizations WHERE expires_at > \(now)", as: Int64.self,
                    logger: logger) ?? 0
            guard pending < policy.maxPending else { throw DeviceApprovalError.tooManyPending }
            let deviceCode = Tokens.generate(prefix: "hzc_")
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let inserted = try await Self.first(
                    connection,
                    """
                    INSERT INTO device_authorizations
                        (device_code_hash, user_code_hash, device_id, name, created_at, expires_at, poll_interval)
                    VALUES (\(Tokens.hash(deviceCode)), \(Tokens.hash(letters)), \(deviceID), \(trimmed), \(now),
                            \(now + Double(policy.lifetime)), \(Double(policy.interval)))
                    ON CONFLICT DO NOTHING RETURNING device_id
                    """, as: String.self, logger: logger)
                // A user code still in the table is drawn again.
                guard inserted != nil else { continue }
                return DeviceAuthorizationResponse(
                    deviceCode: deviceCode, userCode: DeviceUserCode.display(letters), expiresIn: policy.lifetime,
                    interval: policy.interval)
            }
            throw DeviceApprovalError.tooManyPending
        }
    }

    /// The code's row, locked until the transaction ends (two instances redeeming the same
    /// code at once: one waits, then sees it spent).
    private static func code(
        _ connection: PostgresConnection, where condition: PostgresQuery, logger: Logger
    ) async throws
        -> DeviceAuthorizationRow?
    {
        var query: PostgresQuery = """
            SELECT device_code_hash, user_code_hash, device_id, name, created_at, expires_at, poll_interval, polled_at,
                   group_id, approved_at, denied_at, redeemed_at
            FROM device_authorizations WHERE
            """
        query.sql += " " + condition.sql + " FOR UPDATE"
        query.binds = condition.binds
        let rows = try await connection.query(query, logger: logger)
        for try await row in rows.decode(
            (Data, Data, String, String, Double, Double, Double, Double?, String?, Double?, Double?, Double?).self)
        {
            return DeviceAuthorizationRow(
                deviceCodeHash: row.0, userCodeHash: row.1, deviceID: row.2, name: row.3, createdAt: row.4, expiresAt: row.5,
                pollInterval: row.6, polledAt: row.7, groupID: row.8, approvedAt: row.9, deniedAt: row.10, redeemedAt: row.11)
        }
        return nil
    }

    public func exchangeDeviceCode(_ deviceCode: String) async throws -> DeviceTokenOutcome {
        guard deviceCode.utf8.count <= Tokens.longest else { return .refused(.invalidGrant, "unknown device code") }
        let now = self.now
        let epoch = self.epoch
        let logger = self.logger
        let hash = Tokens.hash(deviceCode)
        return try await transaction { connection -> DeviceTokenOutcome in
            guard var row = try await Self.code(connection, where: "device_code_hash = \(hash)", logger: logger) else {
                return .refused(.invalidGrant, "unknown device code; ask for a new one")
            }
            let groupID: String
            switch row.poll(at: now) {
            case .refused(let refusal, let message):
                if refusal == .authorizationPending || refusal == .slowDown {
                    try await connection.query(
                        "UPDATE device_authorizations SET polled_at = \(row.polledAt) WHERE device_code_hash = \(hash)",
                        logger: logger)
                }
                return .refused(refusal, message)
            case .enroll(let approved): groupID = approved
            }
            guard let group = try await Self.group(connection, id: groupID, logger: logger) else {
                return .refused(.accessDenied, "the group this device was approved for no longer exists")
            }
            let token = try await Self.insertEnrollment(
                connection, groupID: groupID, deviceID: row.deviceID, name: row.name, at: now, logger: logger)
            try await connection.query(
                "UPDATE device_authorizations SET redeemed_at = \(now) WHERE device_code_hash = \(hash)", logger: logger)
            return .enrolled(
                EnrollResponse(groupID: group.id, groupName: group.name, deviceID: row.deviceID, deviceToken: token, epoch: epoch)
            )
        }
    }

    public func approveDevice(userCode: String, groupID: String) async throws -> DeviceApprovalResponse {
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            let row = try await Self.waitingCode(connection, userCode, now: now, logger: logger)
            guard try await Self.group(connection, id: groupID, logger: logger) != nil else {
                throw DeviceApprovalError.unknownGroup(groupID)
            }
            if try await Self.activeOwner(connection, deviceID: row.deviceID, logger: logger) != nil {
                throw DeviceApprovalError.deviceTaken(row.deviceID)
            }
            try await connection.query(
                """
                UPDATE device_authorizations SET group_id = \(groupID), approved_at = \(now)
                WHERE device_code_hash = \(row.deviceCodeHash)
                """, logger: logger)
            return DeviceApprovalResponse(groupID: groupID, deviceID: row.deviceID, name: row.name)
        }
    }

    public func denyDevice(userCode: String) async throws {
        let now = self.now
        let logger = self.logger
        try await transaction { connection in
            let row = try await Self.waitingCode(connection, userCode, now: now, logger: logger)
            try await connection.query(
                "UPDATE device_authorizations SET denied_at = \(now) WHERE device_code_hash = \(row.deviceCodeHash)",
                logger: logger)
        }
    }

    /// The code's row, locked, if it is still waiting for a decision.
    private static func waitingCode(
        _ connection: PostgresConnection, _ userCode: String, now: Double, logger: Logger
    )
        async throws -> DeviceAuthorizationRow
    {
        guard let letters = DeviceUserCode.normalize(userCode) else { throw DeviceApprovalError.malformed }
        guard let row = try await code(connection, where: "user_code_hash = \(Tokens.hash(letters))", logger: logger) else {
            throw DeviceApprovalError.unknown
        }
        if let problem = row.decisionProblem(at: now) { throw problem }
        return row
    }

    // MARK: Invites

    public func createInvite(groupID: String, createdBy: String, lifetime: Int) async throws -> Invite {
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            guard try await Self.group(connection, id: groupID, logger: logger) != nil else {
                throw StorageError.notFound("no group \(groupID)")
            }
            // Long-expired invites are of no more use, even to answer "expired".
            try await connection.query("DELETE FROM invites WHERE expires_at < \(now - 86_400)", logger: logger)
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let inserted = try await Self.first(
                    connection,
                    """
                    INSERT INTO invites (code_hash, group_id, created_by, created_at, expires_at)
                    VALUES (\(Tokens.hash(letters)), \(groupID), \(createdBy), \(now), \(now + Double(lifetime)))
                    ON CONFLICT DO NOTHING RETURNING group_id
                    """, as: String.self, logger: logger)
                guard inserted != nil else { continue }
                return Invite(code: letters, path: "/join/\(letters)", expiresIn: lifetime)
            }
            throw StorageError.conflict("could not draw an unused invite code; try again")
        }
    }

    public func redeemInvite(code: String, deviceID: String, name: String) async throws -> EnrollResponse {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let trimmed = try SQLiteStorage.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let epoch = self.epoch
        let logger = self.logger
        let hash = Tokens.hash(letters)
        return try await transaction { connection in
            let rows = try await connection.query(
                "SELECT group_id, expires_at, redeemed_at FROM invites WHERE code_hash = \(hash) FOR UPDATE", logger: logger)
            var invite: (groupID: String, expiresAt: Double, redeemedAt: Double?)?
            for try await row in rows.decode((String, Double, Double?).self) { invite = row }
            guard let invite else { throw InviteError.unknown }
            if let problem = InviteRow.redemptionProblem(redeemedAt: invite.redeemedAt, expiresAt: invite.expiresAt, now: now) {
                throw problem
            }
            guard let group = try await Self.group(connection, id: invite.groupID, logger: logger) else {
                throw InviteError.unknown
            }
            let token = try await Self.insertEnrollment(
                connection, groupID: group.id, deviceID: deviceID, name: trimmed, at: now, logger: logger)
            try await connection.query(
                "UPDATE invites SET redeemed_at = \(now), redeemed_by = \(deviceID) WHERE code_hash = \(hash)", logger: logger)
            return EnrollResponse(groupID: group.id, groupName: group.name, deviceID: deviceID, deviceToken: token, epoch: epoch)
        }
    }
}
