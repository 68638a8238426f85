import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO

/// Groups, credentials and devices on PostgreSQL: the same rules as SQLiteStorage+Groups
/// and +Devices.
extension PostgresStorage {
    public func createGroup(name: String) async throws -> (group: GroupInfo, adminToken: String) {
        let trimmed = try SQLiteStorage.validName(name, of: "a group")
        let group = GroupInfo(id: UUID().uuidString.lowercased(), name: trimmed)
        let token = Tokens.generate(prefix: "hza_")
        let now = self.now
        let logger = self.logger
        // Only the token's hash is stored: a copy of the database grants nothing.
        try await transaction { connection in
            try await connection.query(
                "INSERT INTO groups (id, name, created_at) VALUES (\(group.id), \(group.name), \(now))", logger: logger)
            try await connection.query(
                """
                INSERT INTO credentials (token_hash, group_id, role, device_id, created_at)
                VALUES (\(Tokens.hash(token)), \(group.id), \(Principal.Role.admin.rawValue), NULL, \(now))
                """, logger: logger)
        }
        return (group, token)
    }

    public func groups() async throws -> [GroupInfo] {
        let rows = try await client.query(
            "SELECT id, name, reopen_window FROM groups ORDER BY created_at, id", logger: logger)
        var groups: [GroupInfo] = []
        for try await (id, name, window) in rows.decode((String, String, Double).self) {
            groups.append(GroupInfo(id: id, name: name, reopenWindow: window))
        }
        return groups
    }

    public func setReopenWindow(groupID: String, seconds: Double) async throws -> GroupInfo {
        try GroupInfo.checkReopenWindow(seconds)
        let logger = self.logger
        return try await transaction { connection in
            try await connection.query(
                "UPDATE groups SET reopen_window = \(seconds) WHERE id = \(groupID)", logger: logger)
            guard let group = try await Self.group(connection, id: groupID, logger: logger) else {
                throw StorageError.notFound("no group \(groupID)")
            }
            return group
        }
    }

    public func group(id: String) async throws -> GroupInfo? {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await Self.group(connection, id: id, logger: logger)
        }
    }

    static func group(_ connection: PostgresConnection, id: String, logger: Logger) async throws -> GroupInfo? {
        for try await (name, window) in try await connection.query(
            "SELECT name, reopen_window FROM groups WHERE id = \(id)", logger: logger
        ).decode((String, Double).self) {
            return GroupInfo(id: id, name: name, reopenWindow: window)
        }
        return nil
    }

    public func authenticate(token: String) async throws -> Principal? {
        let logger = self.logger
        return try await client.withConnection { connection in
            try await Self.principal(connection, token: token, logger: logger)
        }
    }

    /// The token's principal; nil for an unknown or revoked token. (A push reads and locks
    /// its credential in `PostgresStatements.PushLocks` instead.)
    static func principal(_ connection: PostgresConnection, token: String, logger: Logger) async throws -> Principal? {
        guard token.utf8.count <= Tokens.longest else { return nil }
        let hash = Tokens.hash(token)
        let query: PostgresQuery =
            try "SELECT group_id, role, device_id FROM credentials WHERE token_hash = \(hash) AND revoked_at IS NULL"
        for try await (groupID, role, deviceID) in try await connection.query(query, logger: logger)
            .decode((String, String, String?).self)
        {
            return Principal(groupID: groupID, storedRole: role, deviceID: deviceID)
        }
        return nil
    }

    // MARK: Devices

    public func enroll(groupID: String, deviceID: String, name: String) async throws -> String {
        let trimmed = try SQLiteStorage.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            try await Self.insertEnrollment(
                connection, groupID: groupID, deviceID: deviceID, name: trimmed, at: now, logger: logger)
        }
    }

    /// Enrolls the device inside the caller's transaction and returns its new token.
    /// `playerID` is the player it plays as, already checked under the group's claim lock
    /// (`checkClaim`).
    static func insertEnrollment(
        _ connection: PostgresConnection, groupID: String, deviceID: String, name: String, playerID: UUID? = nil,
        at now: Double, logger: Logger
    ) async throws -> String {
        if let owner = try await activeOwner(connection, deviceID: deviceID, logger: logger) {
            throw taken(deviceID, owner: owner, groupID: groupID)
        }
        let token = Tokens.generate(prefix: "hzd_")
        do {
            // Re-enrolling a revoked device in the same group reuses its row, with this
            // enrollment's claim or none.
            try await connection.query(
                """
                INSERT INTO devices (group_id, device_id, name, enrolled_at, revoked_at, player_id)
                VALUES (\(groupID), \(deviceID), \(name), \(now), NULL, \(playerID))
                ON CONFLICT (group_id, device_id) DO UPDATE SET
                    name = excluded.name, enrolled_at = excluded.enrolled_at, revoked_at = NULL,
                    player_id = excluded.player_id
                """, logger: logger)
        } catch  where sqlState(error) == "23505" {
            // The transaction is aborted, so nothing more can be read to say who.
            if (error as? PSQLError)?.serverInfo?[.constraintName] == "devices_one_per_player" {
                // Only a claim made without the group's claim lock could get here.
                throw StorageError.conflict("another device claimed that player a moment ago; pick another name")
            }
            // Another request enrolled the same id a moment ago (devices_one_active).
            throw StorageError.conflict("device id \(deviceID) was enrolled a moment ago; revoke it first to enroll it again")
        }
        try await connection.query(
            """
            INSERT INTO credentials (token_hash, group_id, role, device_id, created_at)
            VALUES (\(Tokens.hash(token)), \(groupID), \(Principal.Role.device.rawValue), \(deviceID), \(now))
            """, logger: logger)
        return token
    }

    private static func taken(_ deviceID: String, owner: String, groupID: String) -> StorageError {
        .conflict(
            owner == groupID
                ? "device \(deviceID) is already enrolled in this group; revoke it first to enroll it again"
                : "device id \(deviceID) is already taken by another device")
    }

    static func activeOwner(_ connection: PostgresConnection, deviceID: String, logger: Logger) async throws -> String? {
        try await first(
            connection, "SELECT group_id FROM devices WHERE device_id = \(deviceID) AND revoked_at IS NULL", as: String.self,
            logger: logger)
    }

    /// Every enrollment of the group, revoked ones included, with the player each active
    /// device plays as (its name as the player's winning record has it now), read in one
    /// snapshot.
    public func devices(groupID: String) async throws -> [DeviceInfo] {
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            let rows = try await connection.query(
                """
                SELECT device_id, name, enrolled_at, revoked_at, player_id FROM devices WHERE group_id = \(groupID)
                ORDER BY enrolled_at, device_id
                """, logger: logger)
            var devices: [DeviceInfo] = []
            for try await (id, name, enrolledAt, revokedAt, playerID) in rows.decode(
                (String, String, Double, Double?, UUID?).self)
            {
                // A revoked row keeps no claim (revoking clears it), unless a restore revoked it.
                devices.append(
                    DeviceInfo(
                        deviceID: id, name: name, enrolledAt: enrolledAt, revokedAt: revokedAt,
                        playerID: revokedAt == nil ? playerID : nil))
            }
            let names = try await Self.playerNames(
                connection, groupID: groupID, ids: Set(devices.compactMap(\.playerID)), logger: logger)
            for i in devices.indices { devices[i].playerName = devices[i].playerID.flatMap { names[$0] } }
            return devices
        }
    }

    /// Revokes the device and every token it holds; its records stay. The player it played
    /// as is free again.
    public func revoke(groupID: String, deviceID: String) async throws {
        let now = self.now
        let logger = self.logger
        try await transaction { connection in
            let revoked = try await Self.first(
                connection,
                """
                UPDATE devices SET revoked_at = \(now), player_id = NULL
                WHERE group_id = \(groupID) AND device_id = \(deviceID) AND revoked_at IS NULL RETURNING device_id
                """, as: String.self, logger: logger)
            guard revoked != nil else { throw StorageError.notFound("no enrolled device \(deviceID) in this group") }
            try await connection.query(
                """
                UPDATE credentials SET revoked_at = \(now)
                WHERE group_id = \(groupID) AND device_id = \(deviceID) AND revoked_at IS NULL
                """, logger: logger)
        }
    }

    /// Frees the player the device plays as, so another phone can claim it; the device
    /// stays enrolled. Returns the device as it was (with the player it released).
    public func releasePlayer(groupID: String, deviceID: String) async throws -> DeviceInfo {
        let logger = self.logger
        return try await transaction { connection in
            let rows = try await connection.query(
                """
                SELECT name, enrolled_at, player_id FROM devices
                WHERE group_id = \(groupID) AND device_id = \(deviceID) AND revoked_at IS NULL FOR UPDATE
                """, logger: logger)
            var found: (name: String, enrolledAt: Double, playerID: UUID?)?
            for try await row in rows.decode((String, Double, UUID?).self) { found = row }
            guard let device = found else { throw StorageError.notFound("no enrolled device \(deviceID) in this group") }
            guard let playerID = device.playerID else { throw SQLiteStorage.noClaim(deviceID: deviceID, name: device.name) }
            try await connection.query(
                "UPDATE devices SET player_id = NULL WHERE group_id = \(groupID) AND device_id = \(deviceID)", logger: logger)
            let names = try await Self.playerNames(connection, groupID: groupID, ids: [playerID], logger: logger)
            return DeviceInfo(
                deviceID: deviceID, name: device.name, enrolledAt: device.enrolledAt, revokedAt: nil, playerID: playerID,
                playerName: names[playerID])
        }
    }
}
