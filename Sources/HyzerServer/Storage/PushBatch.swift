import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

/// A record of a group's, by (kind, id), whatever its version: the key of its current version.
/// (A device names one version of a record with HyzerSync's `RecordVersionKey`.)
struct RecordIdentity: Hashable, Sendable {
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
    /// Seconds after its finish a round can be reopened (issue 35): the group's, set by the
    /// caller when `reopens(records)`.
    var reopenWindow: Double = Round.defaultReopenWindow

    /// Whether a batch may hold a reopening (a round of a later generation), so the caller
    /// reads the group's window only then.
    static func reopens(_ records: [SyncRecord]) -> Bool {
        records.contains { if case .round(let r) = $0 { (r.generation ?? 0) > 0 } else { false } }
    }

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
            // Issue 35: a new generation only as the restore of a deleted course (or a
            // restore already deleted again, when the device made both before syncing).
            if let current = try course(c.id), (c.generation ?? 0) > (current.generation ?? 0) {
                guard current.isTombstone, c.generation == (current.generation ?? 0) + 1 else {
                    return "course \(c.id): a course is restored only from its deletion, one generation at a time"
                }
            }
        case .player(let p):
            if let problem = p.problem() { return "player \(p.id): \(problem)" }
            if let target = p.mergedInto {
                guard case .player(let into)? = try currentPayload(.player, target) else {
                    return "player \(p.id): merged into unknown player \(target)"
                }
                // The one merged into must still be on the roster, so merges never form a loop.
                if into.retirement != nil { return "player \(p.id): \(into.displayName) is no longer on the roster" }
            }
        case .round(let r):
            if let problem = r.problem() { return "round \(r.id): \(problem)" }
            if let current = try round(r.id), (r.generation ?? 0) > (current.generation ?? 0),
                let problem = reopeningProblem(r, current)
            {
                return "round \(r.id): \(problem)"
            }
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
        case .event(let n):
            return try leagueNightProblem(n).map { "league night \(n.id): \($0)" }
        // A season names no other record: its shape is all there is to check.
        case .season(let s):
            return s.problem().map { "season \(s.id): \($0)" }
        }
        return nil
    }

    /// Issue 36: a league night's cards are rounds the group has, on the night's course;
    /// a closest-to-the-pin hole is a hole of it; its winners and the ace pot's players
    /// play on one of the cards.
    private mutating func leagueNightProblem(_ n: EventRecord) throws -> String? {
        if let problem = n.problem() { return problem }
        var players = Set<UUID>()
        var holes = 0
        for id in n.rounds {
            guard let r = try round(id) else { return "unknown round \(id)" }
            guard r.courseID == n.courseID else { return "round \(id) is not on the night's course" }
            players.formUnion(r.participants.map(\.id))
            holes = max(holes, try playedCourse(r)?.holeCount ?? 0)
        }
        if let ctp = n.closestToPin.first(where: { $0.hole > holes }) {
            return "closest-to-the-pin hole \(ctp.hole) is not on a course of \(holes) holes"
        }
        if let winner = n.closestToPin.compactMap(\.winner).first(where: { !players.contains($0) }) {
            return "closest-to-the-pin winner \(winner) plays on none of the cards"
        }
        if let player = n.acePot?.players.first(where: { !players.contains($0) }) {
            return "ace-pot player \(player) plays on none of the cards"
        }
        return nil
    }

    /// Issue 35: a round of a later generation is the reopening of a finished one, within
    /// the group's window, by one generation, with the same participants and pars.
    private func reopeningProblem(_ r: RoundRecord, _ current: RoundRecord) -> String? {
        guard current.status == .completed, current.completedAt != nil else {
            return "only a completed round can be reopened"
        }
        guard r.generation == (current.generation ?? 0) + 1 else { return "a round is reopened one generation at a time" }
        guard r.status != .setup, r.participants == current.participants, (r.pars ?? []) == (current.pars ?? []) else {
            return "a reopened round keeps its participants and pars"
        }
        let reopenedAt = r.actions?.last(where: { $0.kind == .reopened })?.at ?? Date(timeIntervalSince1970: r.updatedAt)
        guard current.round.canReopen(at: reopenedAt, window: reopenWindow) else {
            return RoundError.reopenWindowPassed(hours: reopenWindow / 3600).description
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
