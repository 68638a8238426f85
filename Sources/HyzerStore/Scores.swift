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
    /// How it was entered, when not by hand ("voice", issue 38).
    public var input: ScoreEvent.Input?

    public init(
        roundID: UUID, participantID: UUID, hole: Int, strokes: Int, reportedBy: UUID, deviceName: String? = nil,
        input: ScoreEvent.Input? = nil
    ) {
        self.roundID = roundID
        self.participantID = participantID
        self.hole = hole
        self.strokes = strokes
        self.reportedBy = reportedBy
        self.deviceName = deviceName
        self.input = input
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

    /// Issue 35: a score of a *finished* round corrected without reopening it. A new
    /// event, as every correction is (NFR19), that supersedes the cell's current leaves,
    /// counts whatever was said before, and marks the cell corrected everywhere.
    public static func correctFinishedScore(_ entry: ScoreEntry, authority: Authority, at date: Date? = nil) -> Self {
        writeScore(entry, resolution: false, correction: authority, at: date)
    }

    private static func writeScore(
        _ entry: ScoreEntry, resolution: Bool, correction: Authority? = nil, at date: Date?
    ) -> Self {
        StoreWrite { db, context in
            guard var round = try Rows.round(id: entry.roundID, db) else { throw StoreError.notFound("round \(entry.roundID)") }
            if correction != nil, round.status != .completed {
                throw StoreError.refused("the round is still being played: enter the score as usual")
            }
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
                supersedes: before.supersedable, reportedBy: entry.reportedBy, deviceID: context.deviceID,
                createdAt: date ?? context.now, isResolution: resolution, deviceName: entry.deviceName,
                correction: correction, input: entry.input)
            try Rows.insertChecked(event, in: round, course: course, cell: existing, db)
            let after = CellResolution.resolve(event.cell, events: existing + [event])
            if round.status == .active, try Rows.allCellsScored(round, course: course, db) {
                round.markAllScored()
                try Rows.updateStatus(of: round, at: Rows.seconds(context.now), db)
            }
            return RecordedScore(event: event, cell: after, roundStatus: round.status)
        }
    }
}

extension StoreWrite where Value == RecordedScore {
    /// Issue 35's "Undo" toast: withdraws the score `entry` that this device saved in the
    /// cell a moment ago, by a retraction (a new event; nothing is deleted). The cell is
    /// as it was before the save: the value it had, or empty.
    ///
    /// Refused when the saved score is no longer what counts (another device changed the
    /// cell since), and when the round has every score in and the undo would empty a cell:
    /// a round that reached "all scores recorded" does not go back (docs/sync-protocol.md).
    public static func retractScore(_ entry: ScoreEntry, at date: Date? = nil) -> Self {
        StoreWrite { db, context in
            guard let round = try Rows.round(id: entry.roundID, db) else { throw StoreError.notFound("round \(entry.roundID)") }
            guard let course = try Rows.course(of: round, db) else { throw StoreError.notFound("course \(round.courseID)") }
            let existing = try Rows.events(round: round.id, participant: entry.participantID, hole: entry.hole, db)
            let cell = ScoreCell(participantID: entry.participantID, hole: entry.hole)
            guard
                let saved = existing.last(where: { $0.deviceID == context.deviceID && !$0.isRetraction }),
                saved.strokes == entry.strokes,
                CellResolution.resolve(cell, events: existing).leaves.contains(saved)
            else {
                throw StoreError.refused("that score was changed since: enter the right one instead")
            }
            var event = ScoreEvent(
                roundID: round.id, participantID: entry.participantID, hole: entry.hole, strokes: saved.strokes,
                supersedes: [saved.id], reportedBy: entry.reportedBy, deviceID: context.deviceID,
                createdAt: date ?? context.now, deviceName: entry.deviceName, retraction: true)
            // The value after the undo does not depend on the retraction's own strokes.
            let value = CellResolution.resolve(cell, events: existing + [event]).value
            if value == nil, round.status != .active {
                throw StoreError.refused("every score of the round is in: enter the right one instead")
            }
            // What a device older than retractions shows: the value after the undo.
            event.strokes = value ?? saved.strokes
            try Rows.insertChecked(event, in: round, course: course, cell: existing, db)
            return RecordedScore(
                event: event, cell: CellResolution.resolve(cell, events: existing + [event]), roundStatus: round.status)
        }
    }
}

extension Rows {
    /// Stores a score this device makes, once it is valid in its round, on its course,
    /// among the `existing` events of its cell (whatever it supersedes must be there).
    fileprivate static func insertChecked(
        _ event: ScoreEvent, in round: Round, course: Course, cell existing: [ScoreEvent], _ db: Database
    ) throws {
        do throws(ScoringError) {
            try event.validate(
                in: round, course: course, known: Dictionary(uniqueKeysWithValues: existing.map { ($0.id, $0) }))
        } catch { throw StoreError.scoring(error) }
        try insert(event, db)
    }
}

extension StoreRead where Value == [ScoreEvent] {
    public static func events(round: UUID) -> Self { StoreRead { db in try Rows.events(round: round, db) } }
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
