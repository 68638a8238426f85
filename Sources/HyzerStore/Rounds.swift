import Foundation
import GRDB
import HyzerKit

/// A score to record. The store decides what it supersedes, its id, time and device.
public struct ScoreEntry: Sendable, Hashable {
    public var roundID: UUID
    public var participantID: UUID
    public var hole: Int
    public var strokes: Int
    /// Who entered it (attribution, "scored by"); `ScoreEvent.nobody` at a shared device.
    public var reportedBy: UUID
    /// This device's name, when it has one (the name it enrolled in its group with).
    public var deviceName: String?

    public init(
        roundID: UUID, participantID: UUID, hole: Int, strokes: Int, reportedBy: UUID, deviceName: String? = nil
    ) {
        self.roundID = roundID
        self.participantID = participantID
        self.hole = hole
        self.strokes = strokes
        self.reportedBy = reportedBy
        self.deviceName = deviceName
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

extension StoreWrite where Value == Round {
    // MARK: Round setup

    /// FR10, FR16: the organizer creates a round on a course, in `setup`.
    public static func createRound(
        courseID: UUID, organizerID: UUID, participants: [Participant] = [], at date: Date? = nil
    ) -> Self {
        StoreWrite { db, context in
            let course = try Rows.courseInUse(id: courseID, db)
            let date = date ?? context.now
            var round = Round(courseID: courseID, organizerID: organizerID, createdAt: date)
            do throws(RoundError) {
                for p in participants { try round.add(p) }
                try round.takePars(of: course)
            } catch { throw StoreError.round(error) }
            try RoundRow(
                id: round.id, courseID: courseID, organizerID: organizerID, status: RoundStatus.setup.rawValue,
                createdAt: Rows.seconds(date), startedAt: nil, completedAt: nil,
                updatedAt: Rows.seconds(date), pars: Rows.parsText(round.pars)
            ).insert(db)
            for (ordinal, participant) in round.participants.enumerated() {
                try Rows.insertParticipant(participant, ordinal: ordinal, round: round.id, db)
            }
            return round
        }
    }

    public static func addParticipant(_ participant: Participant, to roundID: UUID) -> Self {
        mutateRound(roundID) { round, db, _ in
            do throws(RoundError) { try round.add(participant) } catch { throw StoreError.round(error) }
            try Rows.insertParticipant(participant, ordinal: round.participants.count - 1, round: roundID, db)
        }
    }

    public static func removeParticipant(_ participantID: UUID, from roundID: UUID) -> Self {
        mutateRound(roundID) { round, db, _ in
            do throws(RoundError) { try round.remove(participantID: participantID) } catch { throw StoreError.round(error) }
            try ParticipantRow
                .filter(ParticipantRow.Columns.roundID == roundID && ParticipantRow.Columns.participantID == participantID)
                .deleteAll(db)
        }
    }

    /// `setup → active`; from here the participant list is locked (FR13), and the round
    /// keeps the pars its course has now (issue 14). If the course was deleted meanwhile
    /// on another device, the round keeps the pars it was set up with.
    public static func startRound(_ roundID: UUID, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            let course = try Rows.liveCourse(id: round.courseID, db)
            do throws(RoundError) {
                if let course { try round.takePars(of: course) }
                try round.start(at: date ?? context.now)
            } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    /// FR15: finish now; holes without a value are DNF. Also finalizes an
    /// `awaitingFinalization` round ("All scores recorded. Finalize round?").
    public static func finishRound(_ roundID: UUID, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            do throws(RoundError) { try round.finish(at: date ?? context.now) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    /// Issue 9: drops a round started by mistake, while it has no score events. It is
    /// finished with nothing in it: the same round record every device already merges (a
    /// completed round never moves back), and history leaves a completed round without
    /// events out. docs/sync-protocol.md says how it syncs.
    public static func discardRound(_ roundID: UUID, at date: Date? = nil) -> Self {
        mutateRound(roundID) { round, db, context in
            guard try ScoreEventRow.filter(ScoreEventRow.Columns.roundID == roundID).isEmpty(db) else {
                throw StoreError.roundHasScores(roundID)
            }
            do throws(RoundError) { try round.finish(at: date ?? context.now) } catch { throw StoreError.round(error) }
            try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
        }
    }

    private static func mutateRound(
        _ id: UUID, _ body: @escaping @Sendable (inout Round, Database, StoreContext) throws -> Void
    ) -> Self {
        StoreWrite { db, context in
            guard var round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
            try body(&round, db, context)
            return round
        }
    }
}

extension StoreWrite where Value == RecordedScore {
    // MARK: Scoring

    /// Records a score (FR17, FR35). When the cell already has a value this is a
    /// correction (FR19, FR37): the new event supersedes every current leaf, so the
    /// entered value is what counts afterwards.
    public static func recordScore(_ entry: ScoreEntry, at date: Date? = nil) -> Self {
        writeScore(entry, resolution: false, at: date)
    }

    /// FR51–FR52: an authoritative value that supersedes every conflicting leaf.
    public static func resolveDiscrepancy(_ entry: ScoreEntry, at date: Date? = nil) -> Self {
        writeScore(entry, resolution: true, at: date)
    }

    private static func writeScore(_ entry: ScoreEntry, resolution: Bool, at date: Date?) -> Self {
        StoreWrite { db, context in
            guard var round = try Rows.round(id: entry.roundID, db) else { throw StoreError.notFound("round \(entry.roundID)") }
            guard let course = try Rows.course(of: round, db) else {
                throw StoreError.notFound("course \(round.courseID)")
            }
            let existing = try Rows.events(round: round.id, participant: entry.participantID, hole: entry.hole, db)
            let before = CellResolution.resolve(
                ScoreCell(participantID: entry.participantID, hole: entry.hole),
                events: existing)
            if resolution && before.discrepancy == nil {
                throw StoreError.noDiscrepancy(participant: entry.participantID, hole: entry.hole)
            }
            let event = ScoreEvent(
                roundID: round.id, participantID: entry.participantID, hole: entry.hole, strokes: entry.strokes,
                supersedes: before.leaves.map(\.id), reportedBy: entry.reportedBy, deviceID: context.deviceID,
                createdAt: date ?? context.now, isResolution: resolution, deviceName: entry.deviceName)
            do throws(ScoringError) {
                try event.validate(
                    in: round, course: course,
                    known: Dictionary(uniqueKeysWithValues: existing.map { ($0.id, $0) }))
            } catch { throw StoreError.scoring(error) }
            try Rows.insert(event, db)
            let after = CellResolution.resolve(event.cell, events: existing + [event])
            if round.status == .active, try Rows.allCellsScored(round, course: course, db) {
                round.markAllScored()
                try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
            }
            return RecordedScore(event: event, cell: after, roundStatus: round.status)
        }
    }
}

// MARK: Reads

extension StoreRead where Value == Round? {
    public static func round(id: UUID) -> Self { StoreRead { db in try Rows.round(id: id, db) } }
}

extension StoreRead where Value == [Round] {
    /// Rounds being played (active or awaiting finalization), newest first.
    public static var activeRounds: Self {
        StoreRead { db in
            try RoundRow
                .filter(
                    [RoundStatus.active.rawValue, RoundStatus.awaitingFinalization.rawValue]
                        .contains(RoundRow.Columns.status)
                )
                .order(RoundRow.Columns.createdAt.desc)
                .fetchAll(db).map { try Rows.round($0, db) }
        }
    }

    /// Rounds still in setup, newest first.
    public static var roundsInSetup: Self {
        StoreRead { db in
            try RoundRow.filter(RoundRow.Columns.status == RoundStatus.setup.rawValue)
                .order(RoundRow.Columns.createdAt.desc)
                .fetchAll(db).map { try Rows.round($0, db) }
        }
    }
}

extension StoreRead where Value == [RoundSummary] {
    /// FR59: completed rounds, newest first. A completed round without score events is a
    /// discarded one (`discardRound`) and is left out: `scored_rounds` (History.swift) holds
    /// the rounds that have events, and `rounds_history` reads them in order.
    public static func history(limit: Int = 500) -> Self {
        StoreRead { db in
            // One constant statement, the participant count as a correlated subquery, kept
            // in the connection's statement cache. Built with the query interface it read
            // the same rows 25% slower (0.76 against 0.60 ms for 250 rounds, release, runs
            // alternated); as a cached constant, 0.56–0.58 against the previous commit's 0.59–0.60.
            let request = SQLRequest<Row>(
                sql: """
                    SELECT r.id, c.name AS course_name, r.status, r.created_at, r.completed_at,
                           (SELECT COUNT(*) FROM round_participants p WHERE p.round_id = r.id) AS participant_count
                    FROM rounds r INDEXED BY rounds_history
                    JOIN scored_rounds s ON s.round_id = r.id
                    JOIN courses c ON c.id = r.course_id
                    WHERE r.status = 'completed'
                    ORDER BY COALESCE(r.completed_at, r.created_at) DESC, r.id DESC LIMIT ?
                    """, arguments: [limit], cached: true)
            return try Row.fetchAll(db, request).map { row in
                RoundSummary(
                    id: row[RoundRow.Columns.id], courseName: row["course_name"],
                    status: RoundStatus(rawValue: row[RoundRow.Columns.status]) ?? .completed,
                    createdAt: Date(timeIntervalSince1970: row[RoundRow.Columns.createdAt]),
                    completedAt: Rows.date(row[RoundRow.Columns.completedAt]),
                    participantCount: row["participant_count"])
            }
        }
    }
}

extension StoreRead where Value == [ScoreEvent] {
    public static func events(round: UUID) -> Self { StoreRead { db in try Rows.events(round: round, db) } }
}

extension StoreRead where Value == RoundSnapshot {
    /// Round, course, events and aliases read in one transaction, so they agree.
    public static func snapshot(round id: UUID) -> Self { StoreRead { db in try HyzerDatabase.snapshot(id, db) } }
}

extension HyzerDatabase {
    public func createRound(
        courseID: UUID, organizerID: UUID, participants: [Participant] = [],
        at date: Date? = nil
    ) throws -> Round {
        try write(.createRound(courseID: courseID, organizerID: organizerID, participants: participants, at: date))
    }

    public func addParticipant(_ participant: Participant, to roundID: UUID) throws -> Round {
        try write(.addParticipant(participant, to: roundID))
    }

    public func removeParticipant(_ participantID: UUID, from roundID: UUID) throws -> Round {
        try write(.removeParticipant(participantID, from: roundID))
    }

    public func startRound(_ roundID: UUID, at date: Date? = nil) throws -> Round { try write(.startRound(roundID, at: date)) }

    public func finishRound(_ roundID: UUID, at date: Date? = nil) throws -> Round { try write(.finishRound(roundID, at: date)) }

    public func discardRound(_ roundID: UUID, at date: Date? = nil) throws -> Round {
        try write(.discardRound(roundID, at: date))
    }

    @discardableResult
    public func recordScore(_ entry: ScoreEntry, at date: Date? = nil) throws -> RecordedScore {
        try write(.recordScore(entry, at: date))
    }

    @discardableResult
    public func resolveDiscrepancy(_ entry: ScoreEntry, at date: Date? = nil) throws -> RecordedScore {
        try write(.resolveDiscrepancy(entry, at: date))
    }

    public func round(id: UUID) throws -> Round? { try read(.round(id: id)) }
    public func activeRounds() throws -> [Round] { try read(.activeRounds) }
    public func roundsInSetup() throws -> [Round] { try read(.roundsInSetup) }
    public func history(limit: Int = 500) throws -> [RoundSummary] { try read(.history(limit: limit)) }
    public func events(round: UUID) throws -> [ScoreEvent] { try read(.events(round: round)) }
    public func snapshot(round id: UUID) throws -> RoundSnapshot { try read(.snapshot(round: id)) }

    static func snapshot(_ id: UUID, _ db: Database) throws -> RoundSnapshot {
        guard let round = try Rows.round(id: id, db) else { throw StoreError.notFound("round \(id)") }
        guard let course = try Rows.course(of: round, db) else {
            throw StoreError.notFound("course \(round.courseID)")
        }
        let participantIDs = ParticipantRow.filter(ParticipantRow.Columns.roundID == id)
            .select(ParticipantRow.Columns.participantID)
        var aliases: [UUID: [String]] = [:]
        for row in try PlayerRow.filter(participantIDs.contains(Column("id"))).fetchAll(db) {
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

extension StoreWrite where Value == ImportResult {
    /// Stores events that other devices made (sync pull, bulk loads) in one transaction.
    /// Each is validated like a local score; a bad one is reported, never stored, and
    /// never blocks the rest.
    public static func importEvents(_ events: [ScoreEvent]) -> Self {
        StoreWrite { db, context in
            var result = ImportResult()
            var rounds: [UUID: (Round, Course)?] = [:]
            for event in events {
                if try Rows.eventExists(event.id, db) {
                    result.duplicates.append(event.id)
                    continue
                }
                if rounds[event.roundID] == nil {
                    let round = try Rows.round(id: event.roundID, db)
                    let course = try round.flatMap { try Rows.course(of: $0, db) }
                    rounds[event.roundID] = round.flatMap { r in course.map { (r, $0) } }
                }
                guard let (round, course) = rounds[event.roundID] ?? nil else {
                    result.rejected[event.id] = "unknown round \(event.roundID)"
                    continue
                }
                let known = try Rows.events(round: round.id, participant: event.participantID, hole: event.hole, db)
                do throws(ScoringError) {
                    try event.validate(
                        in: round, course: course,
                        known: Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) }))
                } catch {
                    result.rejected[event.id] = error.description
                    continue
                }
                try Rows.insert(event, db)
                result.inserted.append(event.id)
            }
            for case (let round, let course)? in rounds.values where round.status == .active {
                if try Rows.allCellsScored(round, course: course, db) {
                    var updated = round
                    updated.markAllScored()
                    try Rows.updateStatus(of: updated, at: Rows.seconds(context.now), db)
                    result.completedRounds.append(round.id)
                }
            }
            return result
        }
    }
}

extension HyzerDatabase {
    public func importEvents(_ events: [ScoreEvent]) throws -> ImportResult { try write(.importEvents(events)) }
}
