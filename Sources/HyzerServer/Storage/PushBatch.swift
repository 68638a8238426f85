import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol
import Synchronization

/// A record of a group's, by (kind, id): the key of its current version.
struct RecordKey: Hashable, Sendable {
    var kind: String
    var id: UUID
}

/// A statement already in a group's feed, by (kind, id, version): the key a retried push
/// is recognised by.
struct StatementKey: Hashable, Sendable {
    var kind: String
    var id: UUID
    var version: UUID
}

/// What a push batch reads from and appends to, one per backend. PushBatch decides every
/// result (validation, duplicates, which version is current); a ledger only stores. The
/// SQLite ledger reads as it goes inside GRDB's write transaction; the PostgreSQL one reads
/// everything a batch can ask for up front and records the writes, because postgres-nio is
/// asynchronous and the decisions are not (one copy of the rules for both backends).
protocol FeedLedger {
    /// The stored statements these records might repeat.
    func storedStatements(groupID: String, records: [SyncRecord]) throws -> [StatementKey: FeedEntry]
    /// The cells of these score events, those that are stored.
    func eventCells(groupID: String, ids: Set<UUID>) throws -> [UUID: EventRow]
    /// The stamp of a record's current version, nil when the group has none.
    func currentStamp(groupID: String, kind: RecordKind, id: UUID) throws -> ChangeStamp?
    /// The statement that is a record's current version.
    func currentRecord(groupID: String, kind: RecordKind, id: UUID) throws -> SyncRecord?
    /// Appends a statement to the feed; returns its seq.
    mutating func append(_ change: ChangeRow) throws -> Int64
    /// Makes `record` (appended as `row.seq`) the record's current version.
    mutating func makeCurrent(_ row: CurrentRecordRow, record: SyncRecord) throws
    /// Indexes a score event by its cell.
    mutating func insertEvent(_ row: EventRow) throws
}

/// One push transaction: validates each record against what the group already has
/// (including earlier records of the same batch) and appends the accepted ones.
///
/// What a batch looks up record by record (is this statement already stored? which cell
/// is a superseded event in?) is read up front in one query each, then kept current as the
/// batch appends: building a query-interface request per record cost a third of a push.
struct PushBatch<Ledger: FeedLedger> {
    let groupID: String
    private(set) var ledger: Ledger
    /// The stored statements this batch's records might repeat, by (kind, id, version).
    private var stored: [StatementKey: FeedEntry] = [:]
    /// The cells of the score events this batch's corrections supersede, by event id.
    private var cells: [UUID: EventRow] = [:]
    /// The current round and course of each id looked up so far, nil for unknown: a batch
    /// of 200 events for one round validates against one read, not 200.
    private var rounds: [UUID: RoundRecord?] = [:]
    private var courses: [UUID: CourseRecord?] = [:]
    /// The course each round is played on (its own pars), by round id: made once a batch,
    /// not once an event (a `Course` validates its name and pars as it is made).
    private var playedCourses: [UUID: Course?] = [:]
    private let decoder = SyncCoding.decoder()

    init(groupID: String, ledger: Ledger, records: [SyncRecord]) throws {
        self.groupID = groupID
        self.ledger = ledger
        stored = try ledger.storedStatements(groupID: groupID, records: records)
        let superseded = Set(
            records.flatMap { record -> [UUID] in
                if case .scoreEvent(let e) = record { return e.supersedes }
                return []
            })
        if !superseded.isEmpty { cells = try ledger.eventCells(groupID: groupID, ids: superseded) }
    }

    mutating func apply(_ record: SyncRecord, deviceID: String, now: Double, encoder: JSONEncoder) throws -> PushResult {
        func result(_ status: PushStatus, seq: Int64? = nil, reason: String? = nil) -> PushResult {
            PushResult(kind: record.kind, id: record.id, version: record.version, status: status, seq: seq, reason: reason)
        }
        let payload = try encoder.encode(record)
        let key = StatementKey(kind: record.kind.rawValue, id: record.id, version: record.version)
        if let existing = stored[key] {
            // Same key, same statement: a retry. Same key, other content: a bug or a forgery.
            if existing.payload != payload, (try? decoder.decode(SyncRecord.self, from: existing.payload)) != record {
                return result(
                    .rejected,
                    reason:
                        "\(record.kind.rawValue) \(record.id) version \(record.version) is already stored with different content")
            }
            return result(.duplicate, seq: existing.seq)
        }
        if let reason = try problem(with: record) { return result(.rejected, reason: reason) }

        let seq = try ledger.append(
            ChangeRow(
                seq: nil, groupID: groupID, kind: record.kind.rawValue, recordID: record.id,
                version: record.version, payload: payload, pushedBy: deviceID, receivedAt: now))
        stored[key] = FeedEntry(seq: seq, payload: payload)
        if let stamp = record.stamp {
            let current = try ledger.currentStamp(groupID: groupID, kind: record.kind, id: record.id)
            // An older version is still appended to the feed (every device applies the
            // same rule and ignores it), but it does not become current.
            if current.map({ $0 < stamp }) ?? true {
                try ledger.makeCurrent(
                    CurrentRecordRow(
                        groupID: groupID, kind: record.kind.rawValue, recordID: record.id, seq: seq,
                        lifecycle: stamp.lifecycle, updatedAt: stamp.updatedAt, version: stamp.version),
                    record: record)
                switch record {
                case .round(let r):
                    rounds[r.id] = r
                    playedCourses[r.id] = nil
                case .course(let c):
                    courses[c.id] = c
                    playedCourses.removeAll()
                default: break
                }
            }
        } else if case .scoreEvent(let e) = record {
            let cell = EventRow(
                groupID: groupID, eventID: e.id, roundID: e.roundID, participantID: e.participantID,
                hole: e.hole, seq: seq)
            try ledger.insertEvent(cell)
            cells[e.id] = cell
        }
        return result(.created, seq: seq)
    }

    /// Why a record cannot be accepted, or nil.
    private mutating func problem(with record: SyncRecord) throws -> String? {
        switch record {
        case .course(let c):
            if let problem = c.problem() { return "course \(c.id): \(problem)" }
        case .player(let p):
            do { _ = try p.player() } catch { return "player \(p.id): \(error.description)" }
        case .round(let r):
            if let problem = r.problem() { return "round \(r.id): \(problem)" }
            guard let course = try course(r.courseID) else { return "round \(r.id): unknown course \(r.courseID)" }
            // A round from a device older than round pars, on a course deleted since:
            // nothing says what its holes are.
            guard r.playedCourse(course) != nil else {
                return "round \(r.id): course \(course.name) was deleted, and the round names no pars of its own"
            }
            if let current = try round(r.id), current.status != .setup, r.status != .setup,
                current.participants != r.participants
            {
                return "round \(r.id): the participant list cannot change once the round has started"
            }
        case .scoreEvent(let e):
            guard let roundRecord = try round(e.roundID) else { return "event \(e.id): unknown round \(e.roundID)" }
            guard let course = try playedCourse(roundRecord) else {
                return "event \(e.id): unknown course \(roundRecord.courseID)"
            }
            let event = e.event
            // Only the superseded events matter to validation (they must be in the same
            // cell); an unknown one is allowed, it may simply not have arrived yet. Only the
            // cell of a stored event is read back, so the rest of it is filler.
            var known: [ScoreEvent] = []
            for target in Set(e.supersedes) {
                guard let row = cells[target] else { continue }
                known.append(
                    ScoreEvent(
                        id: target, roundID: row.roundID, participantID: row.participantID,
                        hole: row.hole, strokes: 1, reportedBy: target, deviceID: "-", createdAt: event.createdAt))
            }
            do throws(ScoringError) {
                try event.validate(
                    in: roundRecord.round, course: course,
                    known: Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
            } catch {
                return "event \(e.id): \(error.description)"
            }
        }
        return nil
    }

    private mutating func round(_ id: UUID) throws -> RoundRecord? {
        if let cached = rounds[id] { return cached }
        let found = try currentPayload(.round, id).flatMap { record -> RoundRecord? in
            if case .round(let r) = record { return r }
            return nil
        }
        rounds[id] = found
        return found
    }

    private mutating func playedCourse(_ round: RoundRecord) throws -> Course? {
        if let cached = playedCourses[round.id] { return cached }
        let found = round.playedCourse(try course(round.courseID))
        playedCourses[round.id] = found
        return found
    }

    /// The current record of a course, a tombstone included.
    private mutating func course(_ id: UUID) throws -> CourseRecord? {
        if let cached = courses[id] { return cached }
        let found = try currentPayload(.course, id).flatMap { record -> CourseRecord? in
            if case .course(let c) = record { return c }
            return nil
        }
        courses[id] = found
        return found
    }

    private func currentPayload(_ kind: RecordKind, _ id: UUID) throws -> SyncRecord? {
        try ledger.currentRecord(groupID: groupID, kind: kind, id: id)
    }
}

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
        var asked: Set<RecordKey> = []
        for record in records {
            let kind = record.kind.rawValue
            // Every stored version of the id comes back, once however many the batch names.
            guard asked.insert(RecordKey(kind: kind, id: record.id)).inserted else { continue }
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
