import Foundation
import GRDB
import HyzerSyncProtocol

/// Enrolling, listing and revoking a group's devices.
extension SQLiteStorage {
    /// A device id belongs to one active enrollment on the whole server: a second device
    /// claiming it (in this group or another) is refused until the first is revoked.
    public func enroll(groupID: String, deviceID: String, name: String) async throws -> String {
        let trimmed = try Self.validEnrollment(deviceID: deviceID, name: name)
        let now = self.now
        return try await pool.write { db in
            try Self.insertEnrollment(db, groupID: groupID, deviceID: deviceID, name: trimmed, at: now)
        }
    }

    /// The device's name, trimmed, when the id and the name are ones a device may have.
    static func validEnrollment(deviceID: String, name: String) throws -> String {
        guard SyncProtocol.isValidDeviceID(deviceID) else {
            throw StorageError.invalid("device id must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        return try validName(name, of: "a device")
    }

    /// A device's or a group's name, trimmed: 1–80 characters, none of them a control
    /// character (`SyncProtocol.hasControlCharacter`).
    static func validName(_ name: String, of what: String) throws -> String {
        guard !SyncProtocol.hasControlCharacter(name) else {
            throw StorageError.invalid("\(what)'s name cannot hold a control character (a tab, a line break, U+0000)")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else {
            throw StorageError.invalid("\(what) needs a name of 1–80 characters")
        }
        return trimmed
    }

    /// The group of the device id's active enrollment, if it has one.
    static func activeOwner(_ db: Database, deviceID: String) throws -> String? {
        try DeviceRow
            .filter(DeviceRow.Columns.deviceID == deviceID && DeviceRow.Columns.revokedAt == nil)
            .select(DeviceRow.Columns.groupID, as: String.self)
            .fetchOne(db)
    }

    /// Enrolls the device inside the caller's transaction (an admin's enrollment, or a
    /// device collecting its approved code) and returns its new token, shown once.
    /// `playerID` is the player it plays as, already checked (`checkClaim`).
    static func insertEnrollment(
        _ db: Database, groupID: String, deviceID: String, name: String, playerID: UUID? = nil, at now: Double
    ) throws
        -> String
    {
        let token = Tokens.generate(prefix: "hzd_")
        // Re-enrolling a revoked device in the same group reuses its row: `save` updates it
        // (new name, new time, no longer revoked, this enrollment's claim or none) or
        // inserts a new one.
        let device = DeviceRow(
            groupID: groupID, deviceID: deviceID, name: name, enrolledAt: now, revokedAt: nil, playerID: playerID)
        let credential = CredentialRow(
            tokenHash: Tokens.hash(token), groupID: groupID, role: Principal.Role.device.rawValue,
            deviceID: deviceID, createdAt: now, revokedAt: nil)
        if let owner = try activeOwner(db, deviceID: deviceID) {
            throw StorageError.conflict(
                owner == groupID
                    ? "device \(deviceID) is already enrolled in this group; revoke it first to enroll it again"
                    : "device id \(deviceID) is already taken by another device")
        }
        try device.save(db)
        try credential.insert(db)
        return token
    }

    /// Every enrollment of the group, revoked ones included, with the player each active
    /// device plays as (the player's name as its winning record has it now).
    public func devices(groupID: String) async throws -> [DeviceInfo] {
        try await pool.read { db in
            let rows =
                try DeviceRow
                .filter(DeviceRow.Columns.groupID == groupID)
                .order(DeviceRow.Columns.enrolledAt)
                .fetchAll(db)
            // A revoked row keeps no claim (revoking clears it), unless a restore revoked it.
            let claimed = Set(rows.filter { $0.revokedAt == nil }.compactMap(\.playerID))
            let names = try Self.playerNames(db, groupID: groupID, ids: claimed)
            return rows.map { row in
                let playerID = row.revokedAt == nil ? row.playerID : nil
                return DeviceInfo(
                    deviceID: row.deviceID, name: row.name, enrolledAt: row.enrolledAt, revokedAt: row.revokedAt,
                    playerID: playerID, playerName: playerID.flatMap { names[$0] })
            }
        }
    }

    /// Revokes the device and every token it holds; its records stay. The player it played
    /// as is free again.
    public func revoke(groupID: String, deviceID: String) async throws {
        let now = self.now
        try await pool.write { db in
            let revoked =
                try DeviceRow
                .filter(
                    DeviceRow.Columns.groupID == groupID && DeviceRow.Columns.deviceID == deviceID
                        && DeviceRow.Columns.revokedAt == nil
                )
                .updateAll(db, DeviceRow.Columns.revokedAt.set(to: now), DeviceRow.Columns.playerID.set(to: nil))
            guard revoked > 0 else { throw StorageError.notFound("no enrolled device \(deviceID) in this group") }
            try CredentialRow
                .filter(
                    CredentialRow.Columns.groupID == groupID && CredentialRow.Columns.deviceID == deviceID
                        && CredentialRow.Columns.revokedAt == nil
                )
                .updateAll(db, CredentialRow.Columns.revokedAt.set(to: now))
        }
    }

    /// Frees the player the device plays as, so another phone can claim it; the device
    /// stays enrolled. Returns the device as it was (with the player it released).
    public func releasePlayer(groupID: String, deviceID: String) async throws -> DeviceInfo {
        try await pool.write { db in
            let active =
                DeviceRow.Columns.groupID == groupID && DeviceRow.Columns.deviceID == deviceID
                && DeviceRow.Columns.revokedAt == nil
            guard let row = try DeviceRow.filter(active).fetchOne(db) else {
                throw StorageError.notFound("no enrolled device \(deviceID) in this group")
            }
            guard let playerID = row.playerID else { throw Self.noClaim(deviceID: deviceID, name: row.name) }
            try DeviceRow.filter(active).updateAll(db, DeviceRow.Columns.playerID.set(to: nil))
            return DeviceInfo(
                deviceID: row.deviceID, name: row.name, enrolledAt: row.enrolledAt, revokedAt: nil, playerID: playerID,
                playerName: try Self.playerNames(db, groupID: groupID, ids: [playerID])[playerID])
        }
    }

    /// Releasing a device that plays as nobody: one message for both backends.
    static func noClaim(deviceID: String, name: String) -> StorageError {
        .conflict("device \(deviceID) (\(name)) has not claimed a player; there is nothing to release")
    }
}
