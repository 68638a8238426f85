import Foundation
import GRDB
import HyzerKit

/// A score to record. The store decides what it supersedes, its id, time and device.
public struct ScoreEntry: Sendable, Hashable {
    public var roundID: UUID
    public var participantID: UUID
    public var hole: Int
    public var strokes: Int
    /// Who entered it (attribution, "scored by").
    public var reportedBy: UUID

    public init(roundID: UUID, participantID: UUID, hole: Int, strokes: Int, reportedBy: UUID) {
        self.roundID = roundID
        self.participantID = participantID
        self.hole = hole
        self.strokes = strokes
        self.reportedBy = reportedBy
    }
}

/// What a score write did.
public struct RecordedScore: Sendable {
    public var event: ScoreEvent
    /// The cell after the write: its counting value and any discrepancy.
    public var cell: CellResolution
    /// The round's status after the write (it moves to awaitingFinalization, FR14).
    public var roundStatus: RoundStatus
}

/// One line of round history (FR59).
public struct RoundSummary: Sendable, Hashable {
    public var id: UUID
    public var courseName: String
    public var status: RoundStatus
    public var createdAt: Date
    public var completedAt: Date?
    public var participantCount: Int
}

extension HyzerDatabase {
    // MARK: Round setup

    /// FR10, FR16: the organizer creates a round on a course, in `setup`.
    public func createRound(
        courseID: UUID, organizerID: UUID, participants: [Participant] = [], at date: Date = Date()
    ) throws -> Round {
        try domain.write { db in
            guard try Rows.courses(db, where: "WHERE c.id = ?", [courseID]).first != nil else {
                throw StoreError.notFound("course \(courseID)")
            }
            var round = Round(courseID: courseID, organizerID: organizerID, createdAt: date)
            do throws(RoundError) { for p in participants { try round.add(p) } } catch { throw StoreError.round(error) }
            try db.execute(sql: """
                INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at)
                VALUES (?, ?, ?, 'setup', ?, ?)
                """, arguments: [round.id, courseID, organizerID, Rows.seconds(date), Rows.seconds(date)])
            for (ordinal, participant) in round.participants.enumerated() {
                try Self.insertParticipant(participant, ordinal: ordinal, round: round.id, db)
            }
            return round
        }
    }

    public func addParticipant(_ participant: Participant, to roundID: UUID) throws -> Round {
        try mutateRound(roundID) { round, db in
            do throws(RoundError) { try round.add(participant) } catch { throw StoreError.round(error) }
            try Self.insertParticipant(participant, ordinal: round.participants.count - 1, round: roundID, db)
        }
    }

    public func removeParticipant(_ participantID: UUID, from roundID: UUID) throws -> Round {
        try mutateRound(roundID) { round, db in
            do throws(RoundError) { try round.remove(participantID: participantID) } catch { throw StoreError.round(error) }
            try db.execute(sql: "DELETE FROM round_participants WHERE round_id = ? AND participant_id = ?",
                           arguments: [roundID, participantID])
        }
    }

    /// `setup → active`; from here the participant list is locked (FR13).
    public func startRound(_ roundID: UUID, at date: Date = Date()) throws -> Round {
        try mutateRound(roundID) { round, db in
            do throws(RoundError) { try round.start(at: date) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, db)
        }
    }

    /// FR15: finish now; holes without a value are DNF. Also finalizes an
    /// `awaitingFinalization` round ("All scores recorded. Finalize round?").
    public func finishRound(_ roundID: UUID, at date: Date = Date()) throws -> Round {
        try mutateRound(roundID) { round, db in
            do throws(RoundError) { try round.finish(at: date) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, db)
        }
    }

    private func mutateRound(_ id: UUID, _ body: (inout Round, Database) throws -> Void) throws -> Round {
        try domain.write { db in
            guard var round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
            try body(&round, db)
            return round
        }
    }

    private static func insertParticipant(_ p: Participant, ordinal: Int, round: UUID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind) VALUES (?, ?, ?, ?, ?)
            """, arguments: [round, p.id, ordinal, p.name, p.kind.rawValue])
    }

    // MARK: Scoring

    /// Records a score (FR17, FR35). When the cell already has a value this is a
    /// correction (FR19, FR37): the new event supersedes every current leaf, so the
    /// entered value is what counts afterwards.
    @discardableResult
    public func recordScore(_ entry: ScoreEntry, at date: Date = Date()) throws -> RecordedScore {
        try writeScore(entry, resolution: false, at: date)
    }

    /// FR51–FR52: an authoritative value that supersedes every conflicting leaf.
    @discardableResult
    public func resolveDiscrepancy(_ entry: ScoreEntry, at date: Date = Date()) throws -> RecordedScore {
        try writeScore(entry, resolution: true, at: date)
    }

    private func writeScore(_ entry: ScoreEntry, resolution: Bool, at date: Date) throws -> RecordedScore {
        try domain.write { db in
            guard var round = try Rows.round(id: entry.roundID, db) else { throw StoreError.notFound("round \(entry.roundID)") }
            guard let course = try Rows.courses(db, where: "WHERE c.id = ?", [round.courseID]).first else {
                throw StoreError.notFound("course \(round.courseID)")
            }
            let existing = try Rows.events(round: round.id, participant: entry.participantID, hole: entry.hole, db)
            let before = CellResolution.resolve(ScoreCell(participantID: entry.participantID, hole: entry.hole),
                                                events: existing)
            if resolution && before.discrepancy == nil {
                throw StoreError.noDiscrepancy(participant: entry.participantID, hole: entry.hole)
            }
            let event = ScoreEvent(
                roundID: round.id, participantID: entry.participantID, hole: entry.hole, strokes: entry.strokes,
                supersedes: before.leaves.map(\.id), reportedBy: entry.reportedBy, deviceID: deviceID,
                createdAt: date, isResolution: resolution)
            do throws(ScoringError) {
                try event.validate(in: round, course: course,
                                   known: Dictionary(uniqueKeysWithValues: existing.map { ($0.id, $0) }))
            } catch { throw StoreError.scoring(error) }
            try Rows.insert(event, db)
            let after = CellResolution.resolve(event.cell, events: existing + [event])
            if round.status == .active, try Self.allCellsScored(round, course: course, db) {
                round.markAllScored()
                try Rows.updateStatus(of: round, db)
            }
            return RecordedScore(event: event, cell: after, roundStatus: round.status)
        }
    }

    /// FR14 in SQL: a cell with any event always has a value (a leaf always exists), so
    /// counting distinct scored cells is enough.
    static func allCellsScored(_ round: Round, course: Course, _ db: Database) throws -> Bool {
        let scored = try Int.fetchOne(db, sql: """
            SELECT COUNT(*) FROM (SELECT DISTINCT participant_id, hole FROM score_events WHERE round_id = ?)
            """, arguments: [round.id]) ?? 0
        return !round.participants.isEmpty && scored >= round.participants.count * course.holeCount
    }

    // MARK: Reads

    public func round(id: UUID) throws -> Round? {
        try domain.read { db in try Rows.round(id: id, db) }
    }

    /// Rounds being played (active or awaiting finalization), newest first.
    public func activeRounds() throws -> [Round] {
        try domain.read { db in
            try Row.fetchAll(db, sql: """
                SELECT * FROM rounds WHERE status IN ('active', 'awaitingFinalization') ORDER BY created_at DESC
                """).map { try Rows.round($0, db) }
        }
    }

    /// Rounds still in setup, newest first.
    public func roundsInSetup() throws -> [Round] {
        try domain.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM rounds WHERE status = 'setup' ORDER BY created_at DESC")
                .map { try Rows.round($0, db) }
        }
    }

    /// FR59: completed rounds, newest first.
    public func history(limit: Int = 500) throws -> [RoundSummary] {
        try domain.read { db in
            try Row.fetchAll(db, sql: """
                SELECT r.id, c.name AS course_name, r.status, r.created_at, r.completed_at,
                       (SELECT COUNT(*) FROM round_participants p WHERE p.round_id = r.id) AS participant_count
                FROM rounds r JOIN courses c ON c.id = r.course_id
                WHERE r.status = 'completed'
                ORDER BY COALESCE(r.completed_at, r.created_at) DESC LIMIT ?
                """, arguments: [limit]).map { row in
                RoundSummary(id: row["id"], courseName: row["course_name"],
                             status: RoundStatus(rawValue: row["status"]) ?? .completed,
                             createdAt: Date(timeIntervalSince1970: row["created_at"]),
                             completedAt: Rows.date(row["completed_at"]), participantCount: row["participant_count"])
            }
        }
    }

    public func events(round: UUID) throws -> [ScoreEvent] {
        try domain.read { db in try Rows.events(round: round, db) }
    }

    /// Round, course, events and aliases read in one transaction, so they agree.
    public func snapshot(round id: UUID) throws -> RoundSnapshot {
        try domain.read { db in try Self.snapshot(id, db) }
    }

    static func snapshot(_ id: UUID, _ db: Database) throws -> RoundSnapshot {
        guard let round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
        guard let course = try Rows.courses(db, where: "WHERE c.id = ?", [round.courseID]).first else {
            throw StoreError.notFound("course \(round.courseID)")
        }
        var aliases: [UUID: [String]] = [:]
        for row in try Row.fetchAll(db, sql: """
            SELECT p.* FROM players p JOIN round_participants rp ON rp.participant_id = p.id WHERE rp.round_id = ?
            """, arguments: [id]) {
            let player = try Rows.player(row)
            aliases[player.id] = player.aliases
        }
        return RoundSnapshot(round: round, course: course, events: try Rows.events(round: id, db), aliases: aliases)
    }

    /// In-process observation of a round: a new snapshot after every commit that changes
    /// it, never the same one twice. (Another process's writes: `ChangeMonitor`.)
    public func observe(round id: UUID) -> AsyncValueObservation<RoundSnapshot> {
        ValueObservation.tracking { db in try Self.snapshot(id, db) }.removeDuplicates().values(in: domain)
    }
}

/// What an import of events made elsewhere did.
public struct ImportResult: Sendable, Equatable {
    public var inserted: [UUID] = []
    /// Already stored (same id): imports are idempotent, the id is the key.
    public var duplicates: [UUID] = []
    /// Refused, with the reason (unknown round, completed round, bad values, …).
    public var rejected: [UUID: String] = [:]
    /// Rounds that moved to awaitingFinalization because of this import.
    public var completedRounds: [UUID] = []

    public init() {}
}

extension HyzerDatabase {
    /// Stores events that other devices made (sync pull, bulk loads) in one transaction.
    /// Each is validated like a local score; a bad one is reported, never stored, and
    /// never blocks the rest.
    public func importEvents(_ events: [ScoreEvent]) throws -> ImportResult {
        try domain.write { db in
            var result = ImportResult()
            var rounds: [UUID: (Round, Course)?] = [:]
            for event in events {
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM score_events WHERE id = ?)",
                                     arguments: [event.id]) == true {
                    result.duplicates.append(event.id)
                    continue
                }
                if rounds[event.roundID] == nil {
                    let round = try Rows.round(id: event.roundID, db)
                    let course = try round.flatMap { try Rows.courses(db, where: "WHERE c.id = ?", [$0.courseID]).first }
                    rounds[event.roundID] = round.flatMap { r in course.map { (r, $0) } }
                }
                guard let (round, course) = rounds[event.roundID] ?? nil else {
                    result.rejected[event.id] = "unknown round \(event.roundID)"
                    continue
                }
                let known = try Rows.events(round: round.id, participant: event.participantID, hole: event.hole, db)
                do throws(ScoringError) {
                    try event.validate(in: round, course: course,
                                       known: Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) }))
                } catch {
                    result.rejected[event.id] = error.description
                    continue
                }
                try Rows.insert(event, db)
                result.inserted.append(event.id)
            }
            for case let (round, course)? in rounds.values where round.status == .active {
                if try Self.allCellsScored(round, course: course, db) {
                    var updated = round
                    updated.markAllScored()
                    try Rows.updateStatus(of: updated, db)
                    result.completedRounds.append(round.id)
                }
            }
            return result
        }
    }
}
