import Foundation
import GRDB
import HyzerSyncProtocol
import Synchronization

/// The SQLite ledger: reads and writes inside GRDB's write transaction, as it goes.
///
/// Every statement here is SQL text that SQLite keeps prepared (`cachedStatement`), not a
/// query-interface request like the rest of the server: this is the one stretch of code
/// that runs inside the single writer for every record pushed, and building requests and
/// encoding records through `Codable` there (GRDB's persistence methods) was most of a
/// push's time in the writer, which is the server's ceiling. The values stay bound, and
/// the ids are bound as `UUID` (16-byte blobs) exactly as the records store them.
struct SQLiteFeedLedger: FeedLedger {
    let db: Database
    /// Decoded current records by seq, shared by the storage's pushes (nil: decode each time).
    var memo: RecordMemo? = nil
    private let decoder = SyncCoding.decoder()

    func storedStatements(groupID: String, records: [SyncRecord]) throws -> [StatementKey: FeedEntry] {
        // One prepared lookup an id, on the unique index (group_id, kind, record_id, version).
        let statement = try db.cachedStatement(
            sql: "SELECT version, seq, payload FROM changes WHERE group_id = ? AND kind = ? AND record_id = ?")
        var stored: [StatementKey: FeedEntry] = [:]
        var asked: Set<RecordIdentity> = []
        for record in records {
            let kind = record.kind.rawValue
            // Every stored version of the id comes back, once however many the batch names.
            guard asked.insert(RecordIdentity(kind: kind, id: record.id)).inserted else { continue }
            let rows = try Row.fetchCursor(statement, arguments: [groupID, kind, record.id])
            while let row = try rows.next() {
                stored[StatementKey(kind: kind, id: record.id, version: row[0])] = FeedEntry(seq: row[1], payload: row[2])
            }
        }
        return stored
    }

    func eventCells(groupID: String, ids: Set<UUID>) throws -> [UUID: EventRow] {
        let statement = try db.cachedStatement(
            sql: "SELECT round_id, participant_id, hole, seq FROM events WHERE group_id = ? AND event_id = ?")
        var cells: [UUID: EventRow] = [:]
        for id in ids {
            guard let row = try Row.fetchOne(statement, arguments: [groupID, id]) else { continue }
            cells[id] = EventRow(groupID: groupID, eventID: id, roundID: row[0], participantID: row[1], hole: row[2], seq: row[3])
        }
        return cells
    }

    func currentStamp(groupID: String, kind: RecordKind, id: UUID) throws -> ChangeStamp? {
        let statement = try db.cachedStatement(
            sql: "SELECT lifecycle, updated_at, version FROM current_records WHERE group_id = ? AND kind = ? AND record_id = ?")
        return try Row.fetchOne(statement, arguments: [groupID, kind.rawValue, id]).map {
            ChangeStamp(lifecycle: $0[0], updatedAt: $0[1], version: $0[2])
        }
    }

    /// The statement that is the current version of a record: the seq `current_records`
    /// names, then its payload, decoded once per seq (`RecordMemo`): this runs for every
    /// score event pushed (its round and course).
    func currentRecord(groupID: String, kind: RecordKind, id: UUID) throws -> SyncRecord? {
        let current = try db.cachedStatement(
            sql: "SELECT seq FROM current_records WHERE group_id = ? AND kind = ? AND record_id = ?")
        guard let seq = try Int64.fetchOne(current, arguments: [groupID, kind.rawValue, id]) else { return nil }
        if let known = memo?.record(seq: seq) { return known }
        let statement = try db.cachedStatement(sql: "SELECT payload FROM changes WHERE seq = ?")
        guard let payload = try Data.fetchOne(statement, arguments: [seq]),
            let record = try? decoder.decode(SyncRecord.self, from: payload)
        else { return nil }
        memo?.remember(record, seq: seq)
        return record
    }

    mutating func append(_ change: ChangeRow) throws -> Int64 {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO changes (group_id, kind, record_id, version, payload, pushed_by, received_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """)
        try statement.execute(arguments: [
            change.groupID, change.kind, change.recordID, change.version, change.payload, change.pushedBy, change.receivedAt,
        ])
        return db.lastInsertedRowID
    }

    mutating func makeCurrent(_ row: CurrentRecordRow, record: SyncRecord) throws {
        let statement = try db.cachedStatement(
            sql: """
                INSERT INTO current_records (group_id, kind, record_id, seq, lifecycle, updated_at, version)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                ON CONFLICT (group_id, kind, record_id) DO UPDATE SET
                    seq = excluded.seq, lifecycle = excluded.lifecycle, updated_at = excluded.updated_at,
                    version = excluded.version
                """)
        try statement.execute(arguments: [
            row.groupID, row.kind, row.recordID, row.seq, row.lifecycle, row.updatedAt, row.version,
        ])
    }

    mutating func insertEvent(_ row: EventRow) throws {
        let statement = try db.cachedStatement(
            sql: "INSERT INTO events (group_id, event_id, round_id, participant_id, hole, seq) VALUES (?, ?, ?, ?, ?, ?)")
        try statement.execute(arguments: [row.groupID, row.eventID, row.roundID, row.participantID, row.hole, row.seq])
    }
}

/// Decoded statements by seq, kept across pushes: validating a score event needs its round
/// and course, and decoding both from JSON for every event was most of what a push did
/// besides its fsync. A seq names one statement for good (`changes` refuses UPDATE and
/// DELETE, and a storage instance serves one epoch: a restore is a new instance), so an
/// entry never goes stale. Bounded: past `capacity` it starts again empty (the current
/// rounds and courses of the groups in play come back at their next push).
final class RecordMemo: Sendable {
    static let capacity = 4096
    private let state = Mutex<(records: [Int64: SyncRecord], committedThrough: Int64)>(([:], 0))

    func record(seq: Int64) -> SyncRecord? { state.withLock { $0.records[seq] } }

    /// Only a committed statement is remembered: a seq a rolled-back transaction drew can
    /// be drawn again by another statement.
    func remember(_ record: SyncRecord, seq: Int64) {
        state.withLock { state in
            guard seq <= state.committedThrough else { return }
            if state.records.count >= Self.capacity { state.records.removeAll(keepingCapacity: true) }
            state.records[seq] = record
        }
    }

    /// Every seq up to `head` is committed.
    func committed(through head: Int64) {
        state.withLock { state in state.committedThrough = max(state.committedThrough, head) }
    }
}
