import Foundation
import GRDB
import HyzerSyncProtocol

/// Enrolling, listing and revoking a group's devices.
extension SQLiteStorage {
    /// A device id belongs to one active enrollment on the whole server: a second device
    /// claiming it (in this group or another) is refused until the first is revoked.
    public func enroll(groupID: String, deviceID: String, name: String) async throws -> String {
        guard SyncProtocol.isValidDeviceID(deviceID) else {
            throw StorageError.invalid("device id must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else {
            throw StorageError.invalid("a device needs a name of 1–80 characters")
        }
        let token = Tokens.generate(prefix: "hzd_")
        let now = self.now
        // Re-enrolling a revoked device in the same group reuses its row: `save` updates it
        // (new name, new time, no longer revoked) or inserts a new one.
        let device = DeviceRow(groupID: groupID, deviceID: deviceID, name: trimmed, enrolledAt: now, revokedAt: nil)
        let credential = CredentialRow(
            tokenHash: Tokens.hash(token), groupID: groupID, role: Principal.Role.device.rawValue,
            deviceID: deviceID, createdAt: now, revokedAt: nil)
        try await pool.write { db in
            let owner =
                try DeviceRow
                .filter(DeviceRow.Columns.deviceID == deviceID && DeviceRow.Columns.revokedAt == nil)
                .select(DeviceRow.Columns.groupID, as: String.self)
                .fetchOne(db)
            if let owner {
                throw StorageError.conflict(
                    owner == groupID
                        ? "device \(deviceID) is already enrolled in this group; revoke it first to enroll it again"
                        : "device id \(deviceID) is already taken by another device")
            }
            try device.save(db)
            try credential.insert(db)
        }
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
