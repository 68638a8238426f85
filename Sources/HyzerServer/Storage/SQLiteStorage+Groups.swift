import Foundation
import GRDB
import HyzerKit

/// Groups, their admin tokens, and resolving a bearer token to who it is.
extension SQLiteStorage {
    public func createGroup(name: String) async throws -> (group: GroupInfo, adminToken: String) {
        let trimmed = try Self.validName(name, of: "a group")
        let group = GroupRow(id: UUID().uuidString.lowercased(), name: trimmed, createdAt: now)
        let token = Tokens.generate(prefix: "hza_")
        // Only the token's hash is stored: a copy of the database grants nothing.
        let credential = CredentialRow(
            tokenHash: Tokens.hash(token), groupID: group.id, role: Principal.Role.admin.rawValue,
            deviceID: nil, createdAt: group.createdAt, revokedAt: nil)
        try await pool.write { db in
            try group.insert(db)
            try credential.insert(db)
        }
        return (group.info, token)
    }

    public func groups() async throws -> [GroupInfo] {
        try await pool.read { db in
            try GroupRow.order(GroupRow.Columns.createdAt).fetchAll(db).map(\.info)
        }
    }

    public func group(id: String) async throws -> GroupInfo? {
        try await pool.read { db in try GroupRow.fetchOne(db, key: id)?.info }
    }

    public func setReopenWindow(groupID: String, seconds: Double) async throws -> GroupInfo {
        try GroupInfo.checkReopenWindow(seconds)
        return try await pool.write { db in
            guard var group = try GroupRow.fetchOne(db, key: groupID) else { throw StorageError.notFound("no group \(groupID)") }
            group.reopenWindow = seconds
            try group.update(db)
            return group.info
        }
    }

    /// The group's reopen window, inside a transaction the caller holds (a pull's, a push's).
    static func reopenWindow(_ db: Database, groupID: String) throws -> Double {
        try GroupRow.fetchOne(db, key: groupID)?.reopenWindow ?? Round.defaultReopenWindow
    }

    public func authenticate(token: String) async throws -> Principal? {
        try await pool.read { db in try Self.principal(db, token: token) }
    }

    /// The token's principal, inside a transaction the caller already holds; nil for an
    /// unknown or revoked token. A statement SQLite keeps prepared: every push and pull
    /// asks it, the push inside the single writer.
    static func principal(_ db: Database, token: String) throws -> Principal? {
        guard token.utf8.count <= Tokens.longest else { return nil }
        let statement = try db.cachedStatement(
            sql: "SELECT group_id, role, device_id FROM credentials WHERE token_hash = ? AND revoked_at IS NULL")
        guard let row = try Row.fetchOne(statement, arguments: [Tokens.hash(token)]) else { return nil }
        return Principal(groupID: row[0], storedRole: row[1], deviceID: row[2])
    }
}
