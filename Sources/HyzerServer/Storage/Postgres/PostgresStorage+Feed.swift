import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO

/// Push and pull on PostgreSQL: the feed, its head, and the pokes to other instances.
extension PostgresStorage: SyncStorage {
    public func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse {
        try await push(records: records) { _ in (Principal(groupID: groupID, role: .device, deviceID: deviceID), deviceID) }
            .response
    }

    public func push(as claim: DeviceClaim, records: [SyncRecord]) async throws -> (principal: Principal, response: PushResponse)
    {
        let logger = self.logger
        return try await push(records: records) { connection in
            try await Self.principal(connection, token: claim.token, lockingCredential: true, logger: logger)
                .requireDevice(claimed: claim.device)
        }
    }

    /// Nothing to do after a commit here: the database server keeps its own disk, and every
    /// instance already heard of the head through NOTIFY.
    public func noteCommitted(head: Int64) {}

    /// One transaction per batch, committed before this returns (`synchronous_commit` on:
    /// the commit is on the server's disk), so the caller's acknowledgement is never ahead
    /// of it.
    private func push(
        records: [SyncRecord],
        access: @escaping @Sendable (PostgresConnection) async throws -> (principal: Principal, deviceID: String)
    ) async throws -> (principal: Principal, response: PushResponse) {
        let now = self.now
        let logger = self.logger
        let seams = pushSeams.withLock { $0 }
        let (principal, results, head) = try await transaction { connection in
            let (principal, deviceID) = try await access(connection)
            let groupID = principal.groupID
            // Serialises the group's pushes until this commits: no later push of the group
            // can draw a seq before this one's rows are visible (the pull cursor's safety).
            if seams.serialisesPushes {
                try await connection.query(
                    "SELECT pg_advisory_xact_lock(\(Self.lockSpace), hashtext(\(groupID)))", logger: logger)
            }
            let ledger = try await PostgresFeedLedger.read(connection, groupID: groupID, records: records, logger: logger)
            var batch = try PushBatch(groupID: groupID, ledger: ledger, records: records)
            let encoder = SyncCoding.encoder()
            var results: [PushResult] = []
            results.reserveCapacity(records.count)
            for record in records {
                results.append(try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder))
            }
            let seqs = try await batch.ledger.write(connection, logger: logger)
            results = results.map { result in
                var result = result
                if let seq = result.seq { result.seq = seqs.real(seq) }
                return result
            }
            let head = try await Self.head(connection, groupID: groupID, logger: logger)
            if seqs.count > 0 {
                // Delivered to every listening instance when (and only if) this commits.
                try await connection.query(
                    "SELECT pg_notify(\(Self.channel), \(PostgresFeedListener.feedMessage(groupID: groupID, head: head)))",
                    logger: logger)
            }
            await seams.beforeCommit?(records)
            return (principal, results, head)
        }
        return (principal, PushResponse(epoch: epoch, head: head, results: results))
    }

    /// Records stored, by group (`/metrics`): one grouped count over the feed's index.
    public func recordCounts() async throws -> [String: Int] {
        var counts: [String: Int] = [:]
        let rows = try await client.query("SELECT group_id, count(*) FROM changes GROUP BY group_id", logger: logger)
        for try await (group, count) in rows.decode((String, Int).self) { counts[group] = count }
        return counts
    }

    public func head(groupID: String) async throws -> Int64 {
        let logger = self.logger
        return try await client.withConnection { connection in try await Self.head(connection, groupID: groupID, logger: logger) }
    }

    static func head(_ connection: PostgresConnection, groupID: String, logger: Logger) async throws -> Int64 {
        try await first(
            connection, "SELECT coalesce(max(seq), 0) FROM changes WHERE group_id = \(groupID)", as: Int64.self, logger: logger)
            ?? 0
    }

    public func pull(groupID: String, after: Int64, limit: Int) async throws -> PullResponse {
        let epoch = self.epoch
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            try await Self.page(connection, groupID: groupID, after: after, limit: limit, epoch: epoch, logger: logger)
        }
    }

    public func pull(as claim: DeviceClaim, after: Int64, limit: Int) async throws -> PullResponse {
        let epoch = self.epoch
        let logger = self.logger
        return try await transaction(readOnly: true) { connection in
            let (principal, _) = try await Self.principal(connection, token: claim.token, logger: logger)
                .requireDevice(claimed: claim.device)
            return try await Self.page(
                connection, groupID: principal.groupID, after: after, limit: limit, epoch: epoch, logger: logger)
        }
    }

    private static func page(
        _ connection: PostgresConnection, groupID: String, after: Int64, limit: Int, epoch: String, logger: Logger
    ) async throws -> PullResponse {
        let decoder = SyncCoding.decoder()
        var records: [PulledRecord] = []
        let rows = try await connection.query(
            "SELECT seq, payload FROM changes WHERE group_id = \(groupID) AND seq > \(after) ORDER BY seq LIMIT \(limit)",
            logger: logger)
        for try await (seq, payload) in rows.decode((Int64, Data).self) {
            records.append(PulledRecord(seq: seq, record: try decoder.decode(SyncRecord.self, from: payload)))
        }
        // The same snapshot as the page (REPEATABLE READ), so `hasMore` agrees with it.
        let head = try await Self.head(connection, groupID: groupID, logger: logger)
        let next = records.last?.seq ?? after
        return PullResponse(epoch: epoch, records: records, next: next, head: head, hasMore: next < head)
    }
}

/// The PostgreSQL ledger of one push: everything PushBatch can ask about is read up front
/// (the batch's possible repeats, the cells of the events it supersedes, the current
/// version of every record it names and of the rounds and courses those lead to), then
/// the batch decides in memory and `write` stores its decisions in three statements.
///
/// Seqs: an appended row gets a provisional seq (−1, −2, …) and `write` draws the real
/// ones from the sequence only for what was appended, in order, so a group's seqs stay
/// dense when nothing fails, as on SQLite.
struct PostgresFeedLedger: FeedLedger {
    private struct RecordKey: Hashable {
        var kind: String
        var id: UUID
    }

    private var stored: [StatementKey: FeedEntry] = [:]
    private var cells: [UUID: EventRow] = [:]
    private var current: [RecordKey: (stamp: ChangeStamp, record: SyncRecord?)] = [:]
    private var appended: [ChangeRow] = []
    private var madeCurrent: [RecordKey: CurrentRecordRow] = [:]
    private var indexed: [EventRow] = []

    static func read(
        _ connection: PostgresConnection, groupID: String, records: [SyncRecord], logger: Logger
    ) async throws -> PostgresFeedLedger {
        var ledger = PostgresFeedLedger()
        let decoder = SyncCoding.decoder()
        let ids = Array(Set(records.map(\.id)))
        let statements = try await connection.query(
            """
            SELECT kind, record_id, version, seq, payload FROM changes
            WHERE group_id = \(groupID) AND record_id = ANY(\(ids))
            """, logger: logger)
        for try await (kind, id, version, seq, payload) in statements.decode((String, UUID, UUID, Int64, Data).self) {
            ledger.stored[StatementKey(kind: kind, id: id, version: version)] = FeedEntry(seq: seq, payload: payload)
        }
        let superseded = Array(
            Set(
                records.flatMap { record -> [UUID] in
                    if case .scoreEvent(let e) = record { return e.supersedes }
                    return []
                }))
        if !superseded.isEmpty {
            let rows = try await connection.query(
                """
                SELECT event_id, round_id, participant_id, hole, seq FROM events
                WHERE group_id = \(groupID) AND event_id = ANY(\(superseded))
                """, logger: logger)
            for try await (event, round, participant, hole, seq) in rows.decode((UUID, UUID, UUID, Int, Int64).self) {
                ledger.cells[event] = EventRow(
                    groupID: groupID, eventID: event, roundID: round, participantID: participant, hole: hole, seq: seq)
            }
        }
        // The current versions: of each record named, of each event's round and round's
        // course; then of the courses of the rounds just read.
        var wanted = Set(ids)
        for record in records {
            switch record {
            case .scoreEvent(let e): wanted.insert(e.roundID)
            case .round(let r): wanted.insert(r.courseID)
            default: break
            }
        }
        var asked: Set<UUID> = []
        while !wanted.isEmpty {
            asked.formUnion(wanted)
            let rows = try await connection.query(
                """
                SELECT c.kind, c.record_id, c.lifecycle, c.updated_at, c.version, ch.payload
                FROM current_records c JOIN changes ch ON ch.seq = c.seq
                WHERE c.group_id = \(groupID) AND c.record_id = ANY(\(Array(wanted)))
                """, logger: logger)
            var next: Set<UUID> = []
            for try await (kind, id, lifecycle, updatedAt, version, payload)
                in rows.decode((String, UUID, Int, Double, UUID, Data).self)
            {
                let record = try? decoder.decode(SyncRecord.self, from: payload)
                ledger.current[RecordKey(kind: kind, id: id)] = (
                    ChangeStamp(lifecycle: lifecycle, updatedAt: updatedAt, version: version), record
                )
                if case .round(let r)? = record, !asked.contains(r.courseID) { next.insert(r.courseID) }
            }
            wanted = next
        }
        return ledger
    }

    func storedStatements(groupID: String, records: [SyncRecord]) throws -> [StatementKey: FeedEntry] { stored }

    func eventCells(groupID: String, ids: Set<UUID>) throws -> [UUID: EventRow] { cells.filter { ids.contains($0.key) } }

    func currentStamp(groupID: String, kind: RecordKind, id: UUID) throws -> ChangeStamp? {
        current[RecordKey(kind: kind.rawValue, id: id)]?.stamp
    }

    func currentRecord(groupID: String, kind: RecordKind, id: UUID) throws -> SyncRecord? {
        current[RecordKey(kind: kind.rawValue, id: id)]?.record
    }

    mutating func append(_ change: ChangeRow) throws -> Int64 {
        var change = change
        let seq = -Int64(appended.count + 1)
        change.seq = seq
        appended.append(change)
        return seq
    }

    mutating func makeCurrent(_ row: CurrentRecordRow, record: SyncRecord) throws {
        let key = RecordKey(kind: row.kind, id: row.recordID)
        current[key] = (ChangeStamp(lifecycle: row.lifecycle, updatedAt: row.updatedAt, version: row.version), record)
        madeCurrent[key] = row
    }

    mutating func insertEvent(_ row: EventRow) throws { indexed.append(row) }

    /// Provisional seqs and the real ones `write` drew for them.
    struct Seqs {
        var drawn: [Int64]
        var count: Int { drawn.count }
        func real(_ seq: Int64) -> Int64 { seq < 0 ? drawn[Int(-seq) - 1] : seq }
    }

    /// Stores the batch's decisions: the appended statements, the new current versions,
    /// the new events' cells.
    func write(_ connection: PostgresConnection, logger: Logger) async throws -> Seqs {
        guard !appended.isEmpty else { return Seqs(drawn: []) }
        var drawn: [Int64] = []
        drawn.reserveCapacity(appended.count)
        let draw = try await connection.query(
            "SELECT nextval('changes_seq_seq') FROM generate_series(1, \(appended.count))", logger: logger)
        for try await seq in draw.decode(Int64.self) { drawn.append(seq) }
        drawn.sort()
        let seqs = Seqs(drawn: drawn)
        let first = appended[0]
        try await connection.query(
            """
            INSERT INTO changes (seq, group_id, kind, record_id, version, payload, pushed_by, received_at)
            SELECT s, \(first.groupID), k, r, v, p, \(first.pushedBy), \(first.receivedAt)
            FROM unnest(\(drawn), \(appended.map(\.kind)), \(appended.map(\.recordID)), \(appended.map(\.version)),
                        \(appended.map { ByteBuffer(data: $0.payload) })) AS t(s, k, r, v, p)
            """, logger: logger)
        let currents = Array(madeCurrent.values)
        if !currents.isEmpty {
            try await connection.query(
                """
                INSERT INTO current_records (group_id, kind, record_id, seq, lifecycle, updated_at, version)
                SELECT \(first.groupID), k, r, s, l, u, v
                FROM unnest(\(currents.map(\.kind)), \(currents.map(\.recordID)), \(currents.map { seqs.real($0.seq) }),
                            \(currents.map(\.lifecycle)), \(currents.map(\.updatedAt)), \(currents.map(\.version)))
                    AS t(k, r, s, l, u, v)
                ON CONFLICT (group_id, kind, record_id) DO UPDATE SET
                    seq = excluded.seq, lifecycle = excluded.lifecycle, updated_at = excluded.updated_at,
                    version = excluded.version
                """, logger: logger)
        }
        if !indexed.isEmpty {
            try await connection.query(
                """
                INSERT INTO events (group_id, event_id, round_id, participant_id, hole, seq)
                SELECT \(first.groupID), e, r, p, h, s
                FROM unnest(\(indexed.map(\.eventID)), \(indexed.map(\.roundID)), \(indexed.map(\.participantID)),
                            \(indexed.map(\.hole)), \(indexed.map { seqs.real($0.seq) })) AS t(e, r, p, h, s)
                """, logger: logger)
        }
        return seqs
    }
}
