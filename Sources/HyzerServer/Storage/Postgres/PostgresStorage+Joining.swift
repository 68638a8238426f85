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

    public func redeemInvite(code: String, deviceID: String, name: String, playerID: UUID?) async throws -> EnrollResponse {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let trimmed = try SQLiteStorage.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let epoch = self.epoch
        let logger = self.logger
        let hash = Tokens.hash(letters)
        return try await transaction { connection in
            let group = try await Self.liveInvite(connection, hash: hash, now: now, locking: true, logger: logger)
            if let playerID {
                // Two phones claiming the same player with two invites lock two different
                // invite rows: the group's claim lock makes each check and the enrollment
                // after it one step (the second waits, then sees the first's claim).
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Self.claimLockSpace), hashtext(\(group.id)))", logger: logger)
                try await Self.checkClaim(connection, groupID: group.id, playerID: playerID, logger: logger)
            }
            let token = try await Self.insertEnrollment(
                connection, groupID: group.id, deviceID: deviceID, name: trimmed, playerID: playerID, at: now, logger: logger)
            try await connection.query(
                "UPDATE invites SET redeemed_at = \(now), redeemed_by = \(deviceID) WHERE code_hash = \(hash)", logger: logger)
            return EnrollResponse(
                groupID: group.id, groupName: group.name, deviceID: deviceID, deviceToken: token, epoch: epoch,
                playerID: playerID)
        }
    }

    public func invitePlayers(code: String) async throws -> InvitePlayers {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let now = self.now
        let logger = self.logger
        let hash = Tokens.hash(letters)
        return try await transaction(readOnly: true) { connection in
            let group = try await Self.liveInvite(connection, hash: hash, now: now, locking: false, logger: logger)
            return InvitePlayers(
                groupName: group.name, players: try await Self.players(connection, groupID: group.id, logger: logger),
                claims: try await Self.claims(connection, groupID: group.id, logger: logger))
        }
    }

    /// The invite's group, when the invite can still be redeemed: the same refusals whether
    /// a phone lists the players or joins. `locking` holds the invite's row until the
    /// transaction ends (two instances redeeming the same invite at once: one waits, then
    /// sees it spent).
    private static func liveInvite(
        _ connection: PostgresConnection, hash: Data, now: Double, locking: Bool, logger: Logger
    ) async throws -> GroupInfo {
        var query: PostgresQuery = try "SELECT group_id, expires_at, redeemed_at FROM invites WHERE code_hash = \(hash)"
        if locking { query.sql += " FOR UPDATE" }
        var invite: (groupID: String, expiresAt: Double, redeemedAt: Double?)?
        for try await row in try await connection.query(query, logger: logger).decode((String, Double, Double?).self) {
            invite = row
        }
        guard let invite else { throw InviteError.unknown }
        if let problem = InviteRow.redemptionProblem(redeemedAt: invite.redeemedAt, expiresAt: invite.expiresAt, now: now) {
            throw problem
        }
        guard let group = try await Self.group(connection, id: invite.groupID, logger: logger) else { throw InviteError.unknown }
        return group
    }

    // MARK: Player claims

    /// Refuses to let a device play as someone who is not a registered player of the group,
    /// or whom another active device of the group plays as (SQLiteStorage.checkClaim's rule).
    /// Run under the group's claim lock.
    private static func checkClaim(
        _ connection: PostgresConnection, groupID: String, playerID: UUID, logger: Logger
    ) async throws {
        guard let player = try await players(connection, groupID: groupID, ids: [playerID], logger: logger).first else {
            throw PlayerClaimError.notAPlayer(playerID)
        }
        let holder = try await first(
            connection,
            "SELECT name FROM devices WHERE group_id = \(groupID) AND player_id = \(playerID) AND revoked_at IS NULL",
            as: String.self, logger: logger)
        if let holder { throw PlayerClaimError.claimed(player: player.displayName, by: holder) }
    }

    /// The winning version of each of the group's player records (of those in `ids` when
    /// given): the feed's row at the seq `current_records` holds.
    static func players(
        _ connection: PostgresConnection, groupID: String, ids: [UUID]? = nil, logger: Logger
    ) async throws -> [PlayerRecord] {
        let kind = RecordKind.player.rawValue
        let query: PostgresQuery =
            if let ids {
                """
                SELECT ch.payload FROM current_records c JOIN changes ch ON ch.seq = c.seq
                WHERE c.group_id = \(groupID) AND c.kind = \(kind) AND c.record_id = ANY(\(ids))
                """
            } else {
                """
                SELECT ch.payload FROM current_records c JOIN changes ch ON ch.seq = c.seq
                WHERE c.group_id = \(groupID) AND c.kind = \(kind)
                """
            }
        let decoder = SyncCoding.decoder()
        var players: [PlayerRecord] = []
        for try await payload in try await connection.query(query, logger: logger).decode(Data.self) {
            if let player = PlayerRecord.decoded(from: payload, decoder) { players.append(player) }
        }
        return players
    }

    /// The names of these players now, by id.
    static func playerNames(
        _ connection: PostgresConnection, groupID: String, ids: Set<UUID>, logger: Logger
    ) async throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try await players(connection, groupID: groupID, ids: Array(ids), logger: logger).namesByID
    }

    /// The name of the active device that plays as each claimed player of the group.
    private static func claims(
        _ connection: PostgresConnection, groupID: String, logger: Logger
    ) async throws -> [UUID: String] {
        let rows = try await connection.query(
            """
            SELECT player_id, name FROM devices
            WHERE group_id = \(groupID) AND revoked_at IS NULL AND player_id IS NOT NULL
            """, logger: logger)
        var claims: [UUID: String] = [:]
        for try await (player, device) in rows.decode((UUID, String).self) { claims[player] = device }
        return claims
    }
}
