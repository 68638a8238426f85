import Foundation
import HyzerKit
import HyzerSyncProtocol
import Logging
import PostgresNIO

/// The live board and summary links on PostgreSQL, with SQLiteStorage+Board's rules.
extension PostgresStorage: LiveBoardStorage {
    public func createViewToken(groupID: String) async throws -> String {
        let token = Tokens.generate(prefix: "hzv_")
        try await insert(
            "INSERT INTO view_tokens (token_hash, group_id, created_at) VALUES (\(Tokens.hash(token)), \(groupID), \(now))",
            forGroup: groupID)
        return token
    }

    public func createSummaryLink(groupID: String, roundID: UUID) async throws -> String {
        let token = Tokens.generate(prefix: "hzs_")
        try await insert(
            """
            INSERT INTO summary_links (token_hash, group_id, round_id, created_at)
            VALUES (\(Tokens.hash(token)), \(groupID), \(roundID), \(now))
            """, forGroup: groupID)
        return token
    }

    /// One insert of a row that names a group: the foreign key answers for an unknown group.
    private func insert(_ query: PostgresQuery, forGroup groupID: String) async throws {
        do {
            try await client.query(query, logger: logger)
        } catch  where Self.sqlState(error) == "23503" {
            throw StorageError.notFound("no group \(groupID)")
        }
    }

    public func viewGroup(token: String) async throws -> String? {
        guard token.utf8.count <= Tokens.longest else { return nil }
        let hash = Tokens.hash(token)
        let logger = self.logger
        return try await client.withConnection { connection in
            try await Self.first(
                connection, "SELECT group_id FROM view_tokens WHERE token_hash = \(hash) AND revoked_at IS NULL",
                as: String.self, logger: logger)
        }
    }

    public func revokeViewTokens(groupID: String) async throws -> Int {
        let now = self.now
        let logger = self.logger
        return try await transaction { connection in
            let views = try await Self.first(
                connection,
                """
                WITH revoked AS (
                    UPDATE view_tokens SET revoked_at = \(now) WHERE group_id = \(groupID) AND revoked_at IS NULL RETURNING 1)
                SELECT count(*) FROM revoked
                """, as: Int64.self, logger: logger)
            let links = try await Self.first(
                connection,
                """
                WITH revoked AS (
                    UPDATE summary_links SET revoked_at = \(now) WHERE group_id = \(groupID) AND revoked_at IS NULL RETURNING 1)
                SELECT count(*) FROM revoked
                """, as: Int64.self, logger: logger)
            return Int((views ?? 0) + (links ?? 0))
        }
    }

    public func summaryRound(token: String) async throws -> (groupID: String, roundID: UUID)? {
        guard token.utf8.count <= Tokens.longest else { return nil }
        let rows = try await client.query(
            "SELECT group_id, round_id FROM summary_links WHERE token_hash = \(Tokens.hash(token)) AND revoked_at IS NULL",
            logger: logger)
        for try await (groupID, roundID) in rows.decode((String, UUID).self) { return (groupID, roundID) }
        return nil
    }

    public func roundSource(groupID: String, roundID: UUID) async throws -> LiveBoardSource? {
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            guard
                let seq = try await Self.first(
                    connection,
                    """
                    SELECT seq FROM current_records
                    WHERE group_id = \(groupID) AND kind = \(RecordKind.round.rawValue) AND record_id = \(roundID)
                    """, as: Int64.self, logger: logger)
            else { return nil }
            // A league night's card: its summary is the night's, every card ranked together.
            return try await Self.boardSourceWithNights(connection, groupID: groupID, roundSeqs: [seq], logger: logger)
        }
    }

    public func seasonSource(groupID: String, day: String?) async throws -> SeasonBoardSource? {
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            let decoder = SyncCoding.decoder()
            func current(_ kind: RecordKind) async throws -> [SyncRecord] {
                var records: [SyncRecord] = []
                for try await payload in try await connection.query(
                    """
                    SELECT ch.payload FROM current_records c JOIN changes ch ON ch.seq = c.seq
                    WHERE c.group_id = \(groupID) AND c.kind = \(kind.rawValue)
                    """, logger: logger
                ).decode(Data.self) {
                    if let record = try? decoder.decode(SyncRecord.self, from: payload) { records.append(record) }
                }
                return records
            }
            var (season, since): (Season?, Double?) = (nil, nil)
            if let day {
                let seasons = try await current(.season).compactMap { if case .season(let s) = $0 { s } else { nil } }
                guard let found = SeasonBoardSource.current(seasons, on: day) else { return nil }
                (season, since) = found
            }
            var seqs: [Int64] = []
            var shown: Set<UUID> = []
            for try await (seq, id) in try await connection.query(
                """
                SELECT seq, record_id FROM current_records
                WHERE group_id = \(groupID) AND kind = \(RecordKind.round.rawValue)
                      AND lifecycle % \(ChangeStamp.roundStages) = \(ChangeStamp.lifecycle(of: .completed))
                      AND updated_at >= \(since ?? -Double.greatestFiniteMagnitude)
                """, logger: logger
            ).decode((Int64, UUID).self) {
                seqs.append(seq)
                shown.insert(id)
            }
            let allNights = try await current(.event).compactMap { if case .event(let n) = $0 { n } else { nil } }
            let nights = LiveBoardSource.nights(showing: shown, among: allNights)
            // A night's cards not finished yet are ranked with it, as on a device.
            let cards = Array(Set(nights.flatMap(\.rounds)).subtracting(shown))
            if !cards.isEmpty {
                for try await seq in try await connection.query(
                    """
                    SELECT seq FROM current_records
                    WHERE group_id = \(groupID) AND kind = \(RecordKind.round.rawValue) AND record_id = ANY(\(cards))
                    """, logger: logger
                ).decode(Int64.self) {
                    seqs.append(seq)
                }
            }
            guard var board = try await Self.boardSource(connection, groupID: groupID, roundSeqs: seqs, logger: logger)
            else { return nil }
            board.nights = nights
            let players = try await current(.player).compactMap { if case .player(let p) = $0 { p } else { nil } }
            return SeasonBoardSource(season: season, board: board, players: players)
        }
    }

    public func liveBoardSource(groupID: String) async throws -> LiveBoardSource? {
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            // The stage is the lifecycle's remainder by four (`ChangeStamp`: reopened rounds).
            let inPlay = [RoundStatus.active, .awaitingFinalization].map { ChangeStamp.lifecycle(of: $0) }
            let stages = ChangeStamp.roundStages
            let round = RecordKind.round.rawValue
            var roundSeqs: [Int64] = []
            for try await seq in try await connection.query(
                """
                SELECT seq FROM current_records
                WHERE group_id = \(groupID) AND kind = \(round) AND lifecycle % \(stages) = ANY(\(inPlay))
                """, logger: logger
            ).decode(Int64.self) {
                roundSeqs.append(seq)
            }
            if roundSeqs.isEmpty {
                // Nothing in play: the last round finished with scores (as on SQLite, among
                // the newest `finishedRoundsLookedAt`).
                let last = try await Self.first(
                    connection,
                    """
                    SELECT c.seq FROM (
                        SELECT seq, record_id, updated_at FROM current_records
                        WHERE group_id = \(groupID) AND kind = \(round)
                              AND lifecycle % \(stages) = \(ChangeStamp.lifecycle(of: .completed))
                        ORDER BY updated_at DESC LIMIT \(SQLiteStorage.finishedRoundsLookedAt)
                    ) c
                    WHERE EXISTS (SELECT 1 FROM events e WHERE e.group_id = \(groupID) AND e.round_id = c.record_id)
                    ORDER BY c.updated_at DESC LIMIT 1
                    """, as: Int64.self, logger: logger)
                if let last { roundSeqs = [last] }
            }
            return try await Self.boardSourceWithNights(connection, groupID: groupID, roundSeqs: roundSeqs, logger: logger)
        }
    }

    /// `boardSource` for these rounds and the league nights (issue 36) with a card among
    /// them, with all their cards, as on SQLite.
    private static func boardSourceWithNights(
        _ connection: PostgresConnection, groupID: String, roundSeqs: [Int64], logger: Logger
    ) async throws -> LiveBoardSource? {
        var roundSeqs = roundSeqs
        let round = RecordKind.round.rawValue
        var shown: [UUID] = []
        for try await id in try await connection.query(
            "SELECT record_id FROM current_records WHERE seq = ANY(\(roundSeqs))", logger: logger
        ).decode(UUID.self) {
            shown.append(id)
        }
        var candidates: [EventRecord] = []
        let decoder = SyncCoding.decoder()
        for try await payload in try await connection.query(
            """
            SELECT ch.payload FROM current_records c JOIN changes ch ON ch.seq = c.seq
            WHERE c.group_id = \(groupID) AND c.kind = \(RecordKind.event.rawValue)
                  AND c.lifecycle = \(ChangeStamp.eventLifecycle(discarded: false))
            ORDER BY c.updated_at DESC LIMIT \(LiveBoardSource.nightsLookedAt)
            """, logger: logger
        ).decode(Data.self) {
            if case .event(let n) = try? decoder.decode(SyncRecord.self, from: payload) { candidates.append(n) }
        }
        let nights = LiveBoardSource.nights(showing: Set(shown), among: candidates)
        let cards = Array(Set(nights.flatMap(\.rounds)).subtracting(shown))
        if !cards.isEmpty {
            for try await seq in try await connection.query(
                """
                SELECT seq FROM current_records
                WHERE group_id = \(groupID) AND kind = \(round) AND record_id = ANY(\(cards))
                """, logger: logger
            ).decode(Int64.self) {
                roundSeqs.append(seq)
            }
        }
        var source = try await Self.boardSource(connection, groupID: groupID, roundSeqs: roundSeqs, logger: logger)
        source?.nights = nights
        return source
    }

    /// These rounds (by their current records' feed seqs) with their courses and score events.
    private static func boardSource(
        _ connection: PostgresConnection, groupID: String, roundSeqs: [Int64], logger: Logger
    ) async throws -> LiveBoardSource? {
        guard let group = try await Self.group(connection, id: groupID, logger: logger) else { return nil }
        let decoder = SyncCoding.decoder()
        func records(_ query: PostgresQuery) async throws -> [SyncRecord] {
            var records: [SyncRecord] = []
            for try await payload in try await connection.query(query, logger: logger).decode(Data.self) {
                if let record = try? decoder.decode(SyncRecord.self, from: payload) { records.append(record) }
            }
            return records
        }
        let rounds = try await records("SELECT payload FROM changes WHERE seq = ANY(\(roundSeqs))").compactMap {
            record -> RoundRecord? in
            if case .round(let r) = record { return r }
            return nil
        }
        var courses: [UUID: CourseRecord] = [:]
        for case .course(let c) in try await records(
            """
            SELECT ch.payload FROM current_records c JOIN changes ch ON ch.seq = c.seq
            WHERE c.group_id = \(groupID) AND c.kind = \(RecordKind.course.rawValue)
                  AND c.record_id = ANY(\(Array(Set(rounds.map(\.courseID)))))
            """)
        {
            courses[c.id] = c
        }
        var events: [UUID: [ScoreEvent]] = [:]
        for case .scoreEvent(let e) in try await records(
            """
            SELECT ch.payload FROM events e JOIN changes ch ON ch.seq = e.seq
            WHERE e.group_id = \(groupID) AND e.round_id = ANY(\(rounds.map(\.id)))
            """)
        {
            events[e.roundID, default: []].append(e.event)
        }
        return LiveBoardSource(
            group: group, head: try await head(connection, groupID: groupID, logger: logger), rounds: rounds, courses: courses,
            events: events)
    }
}
