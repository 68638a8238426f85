import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

/// A row of `name_requests`.
struct NameRequestRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "name_requests"
    enum NameRequestColumn: String, ColumnExpression {
        case expiresAt = "expires_at"
    }

    var codeHash: Data
    var groupID: String
    var createdBy: String
    var label: String
    var createdAt: Double
    var expiresAt: Double
    var answeredAt: Double?
    var name: String?

    /// Seconds left, at least 1 while the code lives (a page that says "0 seconds" would
    /// still be answered): one rule for both backends.
    static func secondsLeft(expiresAt: Double, now: Double) -> Int { max(1, Int((expiresAt - now).rounded(.down))) }
}

extension NameRequestRow {
    /// Why the phone cannot answer this code now, or nil: one rule for both backends.
    static func answerProblem(answeredAt: Double?, expiresAt: Double, now: Double) -> NameRequestError? {
        if answeredAt != nil { return .used }
        return expiresAt > now ? nil : .expired
    }

    /// What the kiosk gets: the name once answered (even after the expiry: it came in
    /// time), nil while it may still come.
    static func kioskAnswer(name: String?, expiresAt: Double, now: Double) throws(NameRequestError) -> NameAnswer? {
        if let name { return NameAnswer(name: name) }
        guard expiresAt > now else { throw .expired }
        return nil
    }
}

extension SQLiteStorage: NameRequestStorage {
    public func createNameRequest(
        groupID: String, createdBy: String, label: String, lifetime: Int
    ) async throws
        -> NameRequest
    {
        let label = try NameRequestError.validLabel(label)
        let now = self.now
        return try await pool.write { db in
            guard try GroupRow.exists(db, key: groupID) else { throw StorageError.notFound("no group \(groupID)") }
            try NameRequestRow.filter(NameRequestRow.NameRequestColumn.expiresAt < now - 86_400).deleteAll(db)
            for _ in 0..<8 {
                let letters = DeviceUserCode.random()
                let hash = Tokens.hash(letters)
                guard try !NameRequestRow.exists(db, key: hash) else { continue }
                try NameRequestRow(
                    codeHash: hash, groupID: groupID, createdBy: createdBy, label: label, createdAt: now,
                    expiresAt: now + Double(lifetime), answeredAt: nil, name: nil
                ).insert(db)
                return NameRequest(code: letters, path: "/n/\(letters)", expiresIn: lifetime)
            }
            throw StorageError.conflict("could not draw an unused name code; try again")
        }
    }

    public func nameRequestPrompt(code: String) async throws -> NameRequestPrompt {
        let hash = try Self.nameRequestHash(code)
        let now = self.now
        return try await pool.read { db in
            let row = try Self.answerable(db, hash: hash, now: now)
            return NameRequestPrompt(
                label: row.label, expiresIn: NameRequestRow.secondsLeft(expiresAt: row.expiresAt, now: now))
        }
    }

    public func answerNameRequest(code: String, name: String) async throws -> NameAnswer {
        let hash = try Self.nameRequestHash(code)
        let name = try NameRequestError.validName(name)
        let now = self.now
        return try await pool.write { db in
            var row = try Self.answerable(db, hash: hash, now: now)
            row.answeredAt = now
            row.name = name
            try row.update(db)
            return NameAnswer(name: name)
        }
    }

    public func nameRequestAnswer(code: String, groupID: String) async throws -> NameAnswer? {
        let hash = try Self.nameRequestHash(code)
        let now = self.now
        return try await pool.read { db in
            guard let row = try NameRequestRow.fetchOne(db, key: hash), row.groupID == groupID else {
                throw NameRequestError.unknown
            }
            return try NameRequestRow.kioskAnswer(name: row.name, expiresAt: row.expiresAt, now: now)
        }
    }

    /// The row of a code a phone may still answer, or why it may not.
    private static func answerable(_ db: Database, hash: Data, now: Double) throws -> NameRequestRow {
        guard let row = try NameRequestRow.fetchOne(db, key: hash) else { throw NameRequestError.unknown }
        if let problem = NameRequestRow.answerProblem(answeredAt: row.answeredAt, expiresAt: row.expiresAt, now: now) {
            throw problem
        }
        return row
    }

    /// The stored hash of a code as typed or scanned (dashes and case do not matter).
    static func nameRequestHash(_ code: String) throws(NameRequestError) -> Data {
        guard let letters = DeviceUserCode.normalize(code) else { throw .malformed }
        return Tokens.hash(letters)
    }
}
