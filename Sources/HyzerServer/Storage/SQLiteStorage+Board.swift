import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

/// What the live board needs from a storage backend: read-only view tokens, and the
/// current records a board is computed from. A capability of its own, apart from
/// `SyncStorage`: no sync route can reach a view token, so a leaked board link can read
/// the standings and nothing else.
public protocol LiveBoardStorage: Sendable {
    /// A new view token for the group (shown once; only its hash is stored).
    func createViewToken(groupID: String) async throws -> String
    /// The group a live view token reads; nil for an unknown or revoked one.
    func viewGroup(token: String) async throws -> String?
    /// Revokes every view token of the group (a link shared too widely); returns how many.
    func revokeViewTokens(groupID: String) async throws -> Int
    /// The records of the group's board, read in one transaction; nil for an unknown group.
    func liveBoardSource(groupID: String) async throws -> LiveBoardSource?
}

/// A row of `view_tokens`: the SHA-256 of a board link's token and the group it reads.
struct ViewTokenRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "view_tokens"

    var tokenHash: Data
    var groupID: String
    var createdAt: Double
    var revokedAt: Double?
}

extension SQLiteStorage: LiveBoardStorage {
    public func createViewToken(groupID: String) async throws -> String {
        let token = Tokens.generate(prefix: "hzv_")
        let now = self.now
        try await pool.write { db in
            guard try GroupRow.exists(db, key: groupID) else { throw StorageError.notFound("no group \(groupID)") }
            try ViewTokenRow(tokenHash: Tokens.hash(token), groupID: groupID, createdAt: now, revokedAt: nil).insert(db)
        }
        return token
    }

    public func viewGroup(token: String) async throws -> String? {
        // Longer than any token this server issues: refused without hashing or a query.
        guard token.utf8.count <= 200 else { return nil }
        let hash = Tokens.hash(token)
        return try await pool.read { db in
            try ViewTokenRow
                .filter(key: hash)
                .filter(ViewTokenRow.Columns.revokedAt == nil)
                .select(ViewTokenRow.Columns.groupID, as: String.self)
                .fetchOne(db)
        }
    }

    public func revokeViewTokens(groupID: String) async throws -> Int {
        let now = self.now
        return try await pool.write { db in
            try ViewTokenRow
                .filter(ViewTokenRow.Columns.groupID == groupID && ViewTokenRow.Columns.revokedAt == nil)
                .updateAll(db, ViewTokenRow.Columns.revokedAt.set(to: now))
        }
    }

    public func liveBoardSource(groupID: String) async throws -> LiveBoardSource? {
        try await pool.read { db in try Self.liveBoardSource(db, groupID: groupID) }
    }

    /// How many finished rounds, newest first, are looked at for one with scores when no
    /// round is in play (a discarded round is a completed round without any).
    static let finishedRoundsLookedAt = 20

    static func liveBoardSource(_ db: Database, groupID: String) throws -> LiveBoardSource? {
        guard let group = try GroupRow.fetchOne(db, key: groupID)?.info else { return nil }
        let decoder = SyncCoding.decoder()
        func records(_ seqs: [Int64]) throws -> [SyncRecord] {
            try FeedEntry.filter(keys: seqs).fetchAll(db).compactMap { try? decoder.decode(SyncRecord.self, from: $0.payload) }
        }
        func hasScores(_ roundID: UUID) throws -> Bool {
            try EventRow.filter(EventRow.Columns.groupID == groupID && EventRow.Columns.roundID == roundID).isEmpty(db) == false
        }
        let inPlay = [RoundStatus.active, .awaitingFinalization].map(ChangeStamp.lifecycle(of:))
        let current = CurrentRecordRow.filter(
            CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue)
        var roundSeqs = try current.filter(inPlay.contains(CurrentRecordRow.Columns.lifecycle))
            .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        if roundSeqs.isEmpty {
            // Nothing in play: the last round that was finished with scores, so the wall
            // shows last week's result rather than an empty screen.
            let finished = try current.filter(CurrentRecordRow.Columns.lifecycle == ChangeStamp.lifecycle(of: .completed))
                .order(CurrentRecordRow.Columns.updatedAt.desc)
                .limit(finishedRoundsLookedAt)
                .fetchAll(db)
            if let last = try finished.first(where: { try hasScores($0.recordID) }) { roundSeqs = [last.seq] }
        }
        let rounds = try records(roundSeqs).compactMap { record -> RoundRecord? in
            if case .round(let r) = record { return r }
            return nil
        }
        let courseSeqs =
            try CurrentRecordRow
            .filter(
                CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.course.rawValue
                    && Set(rounds.map(\.courseID)).contains(CurrentRecordRow.Columns.recordID)
            )
            .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        var courses: [UUID: CourseRecord] = [:]
        for case .course(let c) in try records(courseSeqs) { courses[c.id] = c }
        var events: [UUID: [ScoreEvent]] = [:]
        for round in rounds {
            // events_by_cell (group_id, round_id, …) serves this filter.
            let seqs = try EventRow.filter(EventRow.Columns.groupID == groupID && EventRow.Columns.roundID == round.id)
                .select(EventRow.Columns.seq, as: Int64.self).fetchAll(db)
            for case .scoreEvent(let e) in try records(seqs) { events[round.id, default: []].append(e.event) }
        }
        return LiveBoardSource(
            group: group, head: try ChangeRow.head(db, groupID: groupID), rounds: rounds, courses: courses, events: events)
    }
}
