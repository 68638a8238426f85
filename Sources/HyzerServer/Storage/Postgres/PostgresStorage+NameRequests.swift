import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO

/// Names typed on a phone, on PostgreSQL, with the rules of SQLiteStorage+NameRequests. A
/// code being answered is locked (`FOR UPDATE`): two phones answering the same code through
/// two instances at once cannot both win.
extension PostgresStorage: NameRequestStorage {
    public func createNameRequest(
        groupID: String, createdBy: String, label: String, lifetime: Int
    ) async throws
        -> NameRequest
    {
        let label = try NameRequestError.validLabel(label)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            guard try await Self.group(connection, id: groupID, logger: logger) != nil else {
                throw StorageError.notFound("no group \(groupID)")
            }
            try await connection.query("DELETE FROM name_requests WHERE expires_at < \(now - 86_400)", logger: logger)
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let inserted = try await Self.first(
                    connection,
                    """
                    INSERT INTO name_requests (code_hash, group_id, created_by, label, created_at, expires_at)
                    VALUES (\(Tokens.hash(letters)), \(groupID), \(createdBy), \(label), \(now), \(now + Double(lifetime)))
                    ON CONFLICT DO NOTHING RETURNING group_id
                    """, as: String.self, logger: logger)
                guard inserted != nil else { continue }
                return NameRequest(code: letters, path: "/n/\(letters)", expiresIn: lifetime)
            }
            throw StorageError.conflict("could not draw an unused name code; try again")
        }
    }

    public func nameRequestPrompt(code: String) async throws -> NameRequestPrompt {
        let hash = try SQLiteStorage.nameRequestHash(code)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            let row = try await Self.answerable(connection, hash: hash, now: now, lock: false, logger: logger)
            return NameRequestPrompt(
                label: row.label, expiresIn: NameRequestRow.secondsLeft(expiresAt: row.expiresAt, now: now))
        }
    }

    public func answerNameRequest(code: String, name: String) async throws -> NameAnswer {
        let hash = try SQLiteStorage.nameRequestHash(code)
        let name = try NameRequestError.validName(name)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            _ = try await Self.answerable(connection, hash: hash, now: now, lock: true, logger: logger)
            try await connection.query(
                "UPDATE name_requests SET answered_at = \(now), name = \(name) WHERE code_hash = \(hash)", logger: logger)
            return NameAnswer(name: name)
        }
    }

    public func nameRequestAnswer(code: String, groupID: String) async throws -> NameAnswer? {
        let hash = try SQLiteStorage.nameRequestHash(code)
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            guard let row = try await Self.nameRequest(connection, hash: hash, lock: false, logger: logger),
                row.groupID == groupID
            else { throw NameRequestError.unknown }
            return try NameRequestRow.kioskAnswer(name: row.name, expiresAt: row.expiresAt, now: now)
        }
    }

    /// The row of a code a phone may still answer (locked when it is being answered), or why
    /// it may not.
    private static func answerable(
        _ connection: PostgresConnection, hash: Data, now: Double, lock: Bool, logger: Logger
    ) async throws -> (groupID: String, label: String, expiresAt: Double, answeredAt: Double?, name: String?) {
        guard let row = try await nameRequest(connection, hash: hash, lock: lock, logger: logger) else {
            throw NameRequestError.unknown
        }
        if let problem = NameRequestRow.answerProblem(answeredAt: row.answeredAt, expiresAt: row.expiresAt, now: now) {
            throw problem
        }
        return row
    }

    private static func nameRequest(
        _ connection: PostgresConnection, hash: Data, lock: Bool, logger: Logger
    ) async throws -> (groupID: String, label: String, expiresAt: Double, answeredAt: Double?, name: String?)? {
        var query: PostgresQuery =
            try "SELECT group_id, label, expires_at, answered_at, name FROM name_requests WHERE code_hash = \(hash)"
        if lock { query.sql += " FOR UPDATE" }
        for try await row in try await connection.query(query, logger: logger)
            .decode((String, String, Double, Double?, String?).self)
        {
            return (row.0, row.1, row.2, row.3, row.4)
        }
        return nil
    }
}
