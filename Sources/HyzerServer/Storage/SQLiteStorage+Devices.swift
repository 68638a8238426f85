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
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else {
            throw StorageError.invalid("a device needs a name of 1–80 characters")
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
    static func insertEnrollment(
        _ db: Database, groupID: String, deviceID: String, name: String, at now: Double
    ) throws
        -> String
    {
        let token = Tokens.generate(prefix: "hzd_")
        // Re-enrolling a revoked device in the same group reuses its row: `save` updates it
        // (new name, new time, no longer revoked) or inserts a new one.
        let device = DeviceRow(groupID: groupID, deviceID: deviceID, name: name, enrolledAt: now, revokedAt: nil)
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

    public func devices(groupID: String) async throws -> [DeviceInfo] {
        try await pool.read { db in
            try DeviceRow
                .filter(DeviceRow.Columns.groupID == groupID)
                .order(DeviceRow.Columns.enrolledAt)
                .fetchAll(db)
                .map { DeviceInfo(deviceID: $0.deviceID, name: $0.name, enrolledAt: $0.enrolledAt, revokedAt: $0.revokedAt) }
        }
    }

    /// Revokes the device and every token it holds; its records stay.
    public func revoke(groupID: String, deviceID: String) async throws {
        let now = self.now
        try await pool.write { db in
            let revoked =
                try DeviceRow
                .filter(
                    DeviceRow.Columns.groupID == groupID && DeviceRow.Columns.deviceID == deviceID
                        && DeviceRow.Columns.revokedAt == nil
                )
                .updateAll(db, DeviceRow.Columns.revokedAt.set(to: now))
            guard revoked > 0 else { throw StorageError.notFound("no enrolled device \(deviceID) in this group") }
            try CredentialRow
                .filter(
                    CredentialRow.Columns.groupID == groupID && CredentialRow.Columns.deviceID == deviceID
                        && CredentialRow.Columns.revokedAt == nil
                )
                .updateAll(db, CredentialRow.Columns.revokedAt.set(to: now))
        }
    }
}
