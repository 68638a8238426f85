import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

/// A row of `view_tokens`: the SHA-256 of a board link's token and the group it reads.
struct ViewTokenRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "view_tokens"

    var tokenHash: Data
    var groupID: String
    var createdAt: Double
    var revokedAt: Double?
}

/// A row of `summary_links`: the SHA-256 of a summary link's token and the round it reads.
struct SummaryLinkRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "summary_links"

    var tokenHash: Data
    var groupID: String
    var roundID: UUID
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
        guard token.utf8.count <= Tokens.longest else { return nil }
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
            let live = ServerColumn.groupID == groupID && ServerColumn.revokedAt == nil
            return try ViewTokenRow.filter(live).updateAll(db, ServerColumn.revokedAt.set(to: now))
                + SummaryLinkRow.filter(live).updateAll(db, ServerColumn.revokedAt.set(to: now))
        }
    }

    public func createSummaryLink(groupID: String, roundID: UUID) async throws -> String {
        let token = Tokens.generate(prefix: "hzs_")
        let now = self.now
        try await pool.write { db in
            guard try GroupRow.exists(db, key: groupID) else { throw StorageError.notFound("no group \(groupID)") }
            try SummaryLinkRow(tokenHash: Tokens.hash(token), groupID: groupID, roundID: roundID, createdAt: now)
                .insert(db)
        }
        return token
    }

    public func summaryRound(token: String) async throws -> (groupID: String, roundID: UUID)? {
        guard token.utf8.count <= Tokens.longest else { return nil }
        let hash = Tokens.hash(token)
        let row = try await pool.read { db in
            try SummaryLinkRow.filter(key: hash).filter(ServerColumn.revokedAt == nil).fetchOne(db)
        }
        return row.map { ($0.groupID, $0.roundID) }
    }

    public func roundSource(groupID: String, roundID: UUID) async throws -> LiveBoardSource? {
        try await pool.read { db in
            guard
                let seq = try CurrentRecordRow.filter(
                    CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue
                        && CurrentRecordRow.Columns.recordID == roundID
                )
                .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchOne(db)
            else { return nil }
            // A league night's card: its summary is the night's, every card ranked together.
            return try Self.boardSourceWithNights(db, groupID: groupID, roundSeqs: [seq])
        }
    }

    public func liveBoardSource(groupID: String) async throws -> LiveBoardSource? {
        try await pool.read { db in try Self.liveBoardSource(db, groupID: groupID) }
    }

    public func seasonSource(groupID: String, day: String?) async throws -> SeasonBoardSource? {
        try await pool.read { db in
            let decoder = SyncCoding.decoder()
            func current(_ kind: RecordKind, _ filter: SQLExpression? = nil) throws -> [SyncRecord] {
                var request = CurrentRecordRow.filter(
                    CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == kind.rawValue)
                if let filter { request = request.filter(filter) }
                let seqs = try request.select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
                return try FeedEntry.filter(keys: seqs).fetchAll(db).compactMap {
                    try? decoder.decode(SyncRecord.self, from: $0.payload)
                }
            }
            var (season, since): (Season?, Double?) = (nil, nil)
            if let day {
                let seasons = try current(.season).compactMap { if case .season(let s) = $0 { s } else { nil } }
                guard let found = SeasonBoardSource.current(seasons, on: day) else { return nil }
                (season, since) = found
            }
            var finished = CurrentRecordRow.filter(
                CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue
            )
            .filter(literal: "lifecycle % \(ChangeStamp.roundStages) = \(ChangeStamp.lifecycle(of: .completed))")
            if let since { finished = finished.filter(CurrentRecordRow.Columns.updatedAt >= since) }
            var seqs = try finished.select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
            let shown = try finished.select(CurrentRecordRow.Columns.recordID, as: UUID.self).fetchAll(db)
            let allNights = try current(
                .event, CurrentRecordRow.Columns.lifecycle == ChangeStamp.eventLifecycle(discarded: false)
            ).compactMap { if case .event(let n) = $0 { n } else { nil } }
            let nights = LiveBoardSource.nights(showing: Set(shown), among: allNights)
            // A night's cards not finished yet are ranked with it, as on a device.
            let cards = Set(nights.flatMap(\.rounds)).subtracting(shown)
            if !cards.isEmpty {
                seqs += try CurrentRecordRow.filter(
                    CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue
                        && cards.contains(CurrentRecordRow.Columns.recordID)
                ).select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
            }
            guard var board = try Self.boardSource(db, groupID: groupID, roundSeqs: seqs) else { return nil }
            board.nights = nights
            let players = try current(.player).compactMap { if case .player(let p) = $0 { p } else { nil } }
            return SeasonBoardSource(season: season, board: board, players: players)
        }
    }

    /// How many finished rounds, newest first, are looked at for one with scores when no
    /// round is in play (a discarded round is a completed round without any).
    static let finishedRoundsLookedAt = 20

    static func liveBoardSource(_ db: Database, groupID: String) throws -> LiveBoardSource? {
        func hasScores(_ roundID: UUID) throws -> Bool {
            try EventRow.filter(EventRow.Columns.groupID == groupID && EventRow.Columns.roundID == roundID).isEmpty(db) == false
        }
        // A round's lifecycle is its stage plus four per reopening (`ChangeStamp`): the
        // stage is the remainder.
        let inPlay = [RoundStatus.active, .awaitingFinalization].map { ChangeStamp.lifecycle(of: $0) }
        let stages = ChangeStamp.roundStages
        let current = CurrentRecordRow.filter(
            CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue)
        var roundSeqs = try current.filter(literal: "lifecycle % \(stages) IN \(inPlay)")
            .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        if roundSeqs.isEmpty {
            // Nothing in play: the last round that was finished with scores, so the wall
            // shows last week's result rather than an empty screen.
            let finished = try current.filter(literal: "lifecycle % \(stages) = \(ChangeStamp.lifecycle(of: .completed))")
                .order(CurrentRecordRow.Columns.updatedAt.desc)
                .limit(finishedRoundsLookedAt)
                .fetchAll(db)
            if let last = try finished.first(where: { try hasScores($0.recordID) }) { roundSeqs = [last.seq] }
        }
        return try boardSourceWithNights(db, groupID: groupID, roundSeqs: roundSeqs)
    }

    /// `boardSource` for these rounds and the league nights (issue 36) with a card among
    /// them, with all their cards, so each night is ranked together.
    static func boardSourceWithNights(_ db: Database, groupID: String, roundSeqs: [Int64]) throws -> LiveBoardSource? {
        var roundSeqs = roundSeqs
        let current = CurrentRecordRow.filter(
            CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.round.rawValue)
        let shown = try current.filter(roundSeqs.contains(CurrentRecordRow.Columns.seq))
            .select(CurrentRecordRow.Columns.recordID, as: UUID.self).fetchAll(db)
        let nightSeqs = try CurrentRecordRow.filter(
            CurrentRecordRow.Columns.groupID == groupID && CurrentRecordRow.Columns.kind == RecordKind.event.rawValue
                && CurrentRecordRow.Columns.lifecycle == ChangeStamp.eventLifecycle(discarded: false)
        )
        .order(CurrentRecordRow.Columns.updatedAt.desc).limit(LiveBoardSource.nightsLookedAt)
        .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        let decoder = SyncCoding.decoder()
        let candidates = try FeedEntry.filter(keys: nightSeqs).fetchAll(db).compactMap { entry -> EventRecord? in
            if case .event(let n) = try? decoder.decode(SyncRecord.self, from: entry.payload) { return n }
            return nil
        }
        let nights = LiveBoardSource.nights(showing: Set(shown), among: candidates)
        let cards = Set(nights.flatMap(\.rounds)).subtracting(shown)
        if !cards.isEmpty {
            roundSeqs += try current.filter(cards.contains(CurrentRecordRow.Columns.recordID))
                .select(CurrentRecordRow.Columns.seq, as: Int64.self).fetchAll(db)
        }
        var source = try boardSource(db, groupID: groupID, roundSeqs: roundSeqs)
        source?.nights = nights
        return source
    }

    /// These rounds (by their current records' feed seqs) with their courses and score events.
    static func boardSource(_ db: Database, groupID: String, roundSeqs: [Int64]) throws -> LiveBoardSource? {
        guard let group = try GroupRow.fetchOne(db, key: groupID)?.info else { return nil }
        let decoder = SyncCoding.decoder()
        func records(_ seqs: [Int64]) throws -> [SyncRecord] {
            try FeedEntry.filter(keys: seqs).fetchAll(db).compactMap { try? decoder.decode(SyncRecord.self, from: $0.payload) }
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
