import Foundation
import GRDB
import HyzerSyncProtocol

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

    public func redeemInvite(code: String, deviceID: String, name: String, playerID: UUID?) async throws -> EnrollResponse {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let trimmed = try Self.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        let epoch = self.epoch
        return try await pool.write { db in
            let (live, group) = try Self.liveInvite(db, letters, now: now)
            var invite = live
            // In the single writer: no other claim can come between this check and the
            // enrollment below (devices_one_per_player would refuse it anyway). A refusal
            // throws before anything is written, so the invite stays unspent.
            if let playerID { try Self.checkClaim(db, groupID: group.id, playerID: playerID) }
            let token = try Self.insertEnrollment(
                db, groupID: group.id, deviceID: deviceID, name: trimmed, playerID: playerID, at: now)
            invite.redeemedAt = now
            invite.redeemedBy = deviceID
            try invite.update(db)
            return EnrollResponse(
                groupID: group.id, groupName: group.name, deviceID: deviceID, deviceToken: token, epoch: epoch,
                playerID: playerID)
        }
    }

    public func invitePlayers(code: String) async throws -> InvitePlayers {
        guard let letters = DeviceUserCode.normalize(code) else { throw InviteError.malformed }
        let now = self.now
        return try await pool.read { db in
            let (_, group) = try Self.liveInvite(db, letters, now: now)
            return InvitePlayers(
                groupName: group.name, players: try Self.players(db, groupID: group.id),
                claims: try Self.claims(db, groupID: group.id))
        }
    }

    /// The invite and its group, when the invite can still be redeemed; the same refusals
    /// whether a phone lists the players or joins.
    private static func liveInvite(_ db: Database, _ letters: String, now: Double) throws -> (InviteRow, GroupRow) {
        guard let invite = try InviteRow.fetchOne(db, key: Tokens.hash(letters)) else { throw InviteError.unknown }
        if let problem = InviteRow.redemptionProblem(redeemedAt: invite.redeemedAt, expiresAt: invite.expiresAt, now: now) {
            throw problem
        }
        guard let group = try GroupRow.fetchOne(db, key: invite.groupID) else { throw InviteError.unknown }
        return (invite, group)
    }

    /// Refuses to let a device play as someone who is not a registered player of the group,
    /// or whom another active device of the group plays as.
    static func checkClaim(_ db: Database, groupID: String, playerID: UUID) throws {
        guard let player = try players(db, groupID: groupID, ids: [playerID]).first else {
            throw PlayerClaimError.notAPlayer(playerID)
        }
        let holder =
            try DeviceRow
            .filter(
                DeviceRow.Columns.groupID == groupID && DeviceRow.Columns.playerID == playerID
                    && DeviceRow.Columns.revokedAt == nil
            )
            .fetchOne(db)
        if let holder { throw PlayerClaimError.claimed(player: player.displayName, by: holder.name) }
    }

    /// The winning version of each of the group's player records (of those in `ids` when
    /// given), read from the feed at the seq `current_records` holds: the version every
    /// device settles on. Player records have no guests (a guest lives only in its round)
    /// and no tombstones, so every one is a registered player.
    static func players(_ db: Database, groupID: String, ids: Set<UUID>? = nil) throws -> [PlayerRecord] {
        var current = CurrentRecordRow.filter(
            CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.player.rawValue)
        if let ids { current = current.filter(ids.contains(CurrentRecordRow.Columns.recordID)) }
        let seqs = try current.select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        let decoder = SyncCoding.decoder()
        return try FeedEntry.filter(keys: seqs).fetchAll(db).compactMap { PlayerRecord.decoded(from: $0.payload, decoder) }
    }

    /// The names of these players now, by id.
    static func playerNames(_ db: Database, groupID: String, ids: Set<UUID>) throws -> [UUID: String] {
        guard !ids.isEmpty else { return [:] }
        return try players(db, groupID: groupID, ids: ids).namesByID
    }

    /// The name of the active device that plays as each claimed player of the group.
    static func claims(_ db: Database, groupID: String) throws -> [UUID: String] {
        let claiming =
            try DeviceRow
            .filter(
                DeviceRow.Columns.groupID == groupID && DeviceRow.Columns.revokedAt == nil
                    && DeviceRow.Columns.playerID != nil
            )
            .fetchAll(db)
        var claims: [UUID: String] = [:]
        for device in claiming { if let player = device.playerID { claims[player] = device.name } }
        return claims
    }
}
