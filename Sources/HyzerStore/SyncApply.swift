import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

extension HyzerDatabase {
    /// Applies one page of the server's change feed and moves the cursor to `next`, all in
    /// one transaction: either the page and the cursor are stored, or neither is.
    ///
    /// Records are applied in server order. Mutable records merge last-writer-wins by
    /// `ChangeStamp` (the rule the server uses), events are inserted once by id. What the
    /// server sends was validated there; a record this device still cannot store is
    /// reported in `rejected` and skipped.
    public func applyPulled(_ records: [PulledRecord], next: Int64, stream: String, epoch: String) throws -> PullApplyResult {
        try domain.write { db in
            let cursor = try Self.readCursor(db)
            guard cursor.stream == stream, cursor.epoch == epoch else {
                // The caller adopts the stream first; refusing here keeps a page from an old
                // epoch from ever landing under a new cursor.
                throw StoreError.corruptRecord("pulled page for \(stream) epoch \(epoch), but the cursor is on \(cursor.stream ?? "none") epoch \(cursor.epoch ?? "none")")
            }
            var result = PullApplyResult()
            var touchedRounds: [UUID: Void] = [:]
            for pulled in records {
                do {
                    try Self.applyRemote(pulled.record, into: &result, db)
                    switch pulled.record {
                    case .round(let r): touchedRounds[r.id] = ()
                    case .scoreEvent(let e): touchedRounds[e.roundID] = ()
                    default: break
                    }
                } catch let error as StoreError {
                    result.rejected[pulled.seq] = error.description
                } catch let error as DatabaseError {
                    result.rejected[pulled.seq] = error.message ?? "\(error)"
                }
            }
            // FR14 for remote scores too: the round may now be fully scored.
            for id in touchedRounds.keys {
                guard let round = try Rows.round(id: id, db), round.status == .active,
                      let course = try Rows.courses(db, where: "WHERE c.id = ?", [round.courseID]).first else { continue }
                if try Self.allCellsScored(round, course: course, db) {
                    var updated = round
                    updated.markAllScored()
                    try Rows.updateStatus(of: updated, db)
                    result.roundsChanged.insert(id)
                }
            }
            try Self.writeCursor(SyncCursor(stream: stream, epoch: epoch, cursor: max(cursor.cursor, next)), db)
            return result
        }
    }

    private static func applyRemote(_ record: SyncRecord, into result: inout PullApplyResult, _ db: Database) throws {
        if let stamp = record.stamp, let local = try localStamp(record.kind, record.id, db), stamp <= local {
            result.unchanged += 1
            // Same version as here: the server has it, so it is no longer pending.
            if stamp == local { try setSynced(record.kind, record.id, version: record.version, db) }
            return
        }
        switch record {
        case .course(let r):
            let course: Course
            do { course = try r.course() } catch { throw StoreError.course(error) }
            try Rows.save(course, at: Date(timeIntervalSince1970: r.updatedAt), db)
            try setSynced(.course, r.id, version: r.version, db)
            result.referenceDataChanged = true
        case .player(let r):
            let player: Player
            do { player = try r.player() } catch { throw StoreError.player(error) }
            try db.execute(sql: """
                INSERT INTO players (id, display_name, aliases, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name,
                    aliases = excluded.aliases, updated_at = excluded.updated_at
                """, arguments: [player.id, player.displayName, Rows.aliasesJSON(player.aliases), r.updatedAt])
            try setSynced(.player, r.id, version: r.version, db)
            result.referenceDataChanged = true
        case .round(let r):
            try applyRound(r, db)
            try setSynced(.round, r.id, version: r.version, db)
            result.roundsChanged.insert(r.id)
        case .scoreEvent(let r):
            if try applyEvent(r.event, db) {
                result.eventsInserted += 1
                result.roundsChanged.insert(r.roundID)
            } else {
                result.unchanged += 1
                return
            }
        }
        result.applied += 1
    }

    /// A newer version of a round. The participant list can only change while the round
    /// is in setup here (the SQL lock, FR13), so a new round is inserted in setup, given
    /// its participants, and only then moved to its status.
    private static func applyRound(_ r: RoundRecord, _ db: Database) throws {
        if let problem = r.problem() { throw StoreError.corruptRecord("round \(r.id): \(problem)") }
        guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM courses WHERE id = ?)", arguments: [r.courseID]) == true else {
            throw StoreError.notFound("course \(r.courseID) of round \(r.id)")
        }
        let local = try Rows.round(id: r.id, db)
        if local == nil {
            try db.execute(sql: """
                INSERT INTO rounds (id, course_id, organizer_id, status, created_at, updated_at)
                VALUES (?, ?, ?, 'setup', ?, ?)
                """, arguments: [r.id, r.courseID, r.organizerID, r.createdAt, r.updatedAt])
        }
        if local == nil || local?.status == .setup {
            try db.execute(sql: "UPDATE rounds SET course_id = ?, organizer_id = ? WHERE id = ?",
                           arguments: [r.courseID, r.organizerID, r.id])
            if local?.participants.map(ParticipantRecord.init) != r.participants {
                try db.execute(sql: "DELETE FROM round_participants WHERE round_id = ?", arguments: [r.id])
                for (ordinal, p) in r.participants.enumerated() {
                    try db.execute(sql: """
                        INSERT INTO round_participants (round_id, participant_id, ordinal, name, kind) VALUES (?, ?, ?, ?, ?)
                        """, arguments: [r.id, p.id, ordinal, p.name, p.kind.rawValue])
                }
            }
        }
        // Once started the list is locked here; a differing remote list can only come
        // from a concurrent setup elsewhere, and the server refuses it, so keep ours.
        try db.execute(sql: """
            UPDATE rounds SET status = ?, started_at = ?, completed_at = ?, updated_at = ? WHERE id = ?
            """, arguments: [r.status.rawValue, r.startedAt, r.completedAt, r.updatedAt, r.id])
    }

    /// Inserts a remote score event once. The server accepted it while the round was open,
    /// and its order is the truth: if this device already finished the round, the event is
    /// still stored (the round is reopened for the insert and closed again, inside this
    /// transaction), or this device would disagree with every other one forever.
    private static func applyEvent(_ event: ScoreEvent, _ db: Database) throws -> Bool {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM score_events WHERE id = ?)", arguments: [event.id]) == true {
            try setSynced(.scoreEvent, event.id, version: event.id, db)
            return false
        }
        guard let round = try Rows.round(id: event.roundID, db) else { throw StoreError.notFound("round \(event.roundID)") }
        guard let course = try Rows.courses(db, where: "WHERE c.id = ?", [round.courseID]).first else {
            throw StoreError.notFound("course \(round.courseID)")
        }
        let known = try Rows.events(round: round.id, participant: event.participantID, hole: event.hole, db)
        var open = round
        if round.status == .completed || round.status == .setup {
            open = Round(id: round.id, courseID: round.courseID, organizerID: round.organizerID,
                         participants: round.participants, status: .active, createdAt: round.createdAt)
        }
        do throws(ScoringError) {
            try event.validate(in: open, course: course, known: Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) }))
        } catch { throw StoreError.scoring(error) }

        if round.status.acceptsScores {
            try Rows.insert(event, db)
        } else {
            // Reopen, insert, restore; and put back the round's sync bookkeeping, which the
            // two status updates would otherwise mark as a new local version.
            let saved = try Row.fetchOne(db, sql: "SELECT version, pending FROM sync_records WHERE kind = 'round' AND record_id = ?",
                                         arguments: [round.id])
            try db.execute(sql: "UPDATE rounds SET status = 'active' WHERE id = ?", arguments: [round.id])
            try Rows.insert(event, db)
            try db.execute(sql: "UPDATE rounds SET status = ? WHERE id = ?", arguments: [round.status.rawValue, round.id])
            if let saved {
                try db.execute(sql: "UPDATE sync_records SET version = ?, pending = ? WHERE kind = 'round' AND record_id = ?",
                               arguments: [saved["version"] as UUID, saved["pending"] as Int, round.id])
            }
        }
        try setSynced(.scoreEvent, event.id, version: event.id, db)
        return true
    }
}
