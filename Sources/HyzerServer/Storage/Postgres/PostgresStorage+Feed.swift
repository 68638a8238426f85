import Foundation
import HyzerSyncProtocol
import Logging
import PostgresNIO
import Synchronization

/// Push and pull on PostgreSQL: the feed, its head, and the pokes to other instances.
extension PostgresStorage: SyncStorage {
    public func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse {
        try await push(records: records) { _, _ in
            (Principal(groupID: groupID, role: .device, deviceID: deviceID), deviceID, false)
        }
        .response
    }

    public func push(as claim: DeviceClaim, records: [SyncRecord]) async throws -> (principal: Principal, response: PushResponse)
    {
        let logger = self.logger
        return try await push(records: records) { connection, lockingGroup in
            let (principal, deviceID) = try await Self.pushPrincipal(
                connection, token: claim.token, lockingGroup: lockingGroup, logger: logger
            )
            .requireDevice(claimed: claim.device)
            return (principal, deviceID, lockingGroup)
        }
    }

    /// Nothing to do after a commit here: the database server keeps its own disk, and every
    /// instance already heard of the head through NOTIFY.
    public func noteCommitted(head: Int64) {}

    /// One transaction per batch, committed before this returns (`synchronous_commit` on:
    /// the commit is on the server's disk), so the caller's acknowledgement is never ahead
    /// of it. Five round trips for a batch that appends: BEGIN, the principal with the
    /// group's lock, the ledger's reads, its writes with the head and the NOTIFY, COMMIT
    /// (each trip costs both processes a wake-up, and they share the cores).
    ///
    /// `access` names the device and may take the group's push lock in the same statement
    /// (it is told whether to, and says whether it did).
    private func push(
        records: [SyncRecord],
        access:
            @escaping @Sendable (PostgresConnection, _ lockingGroup: Bool) async throws -> (
                principal: Principal, deviceID: String, lockedGroup: Bool
            )
    ) async throws -> (principal: Principal, response: PushResponse) {
        let now = self.now
        let logger = self.logger
        let seams = pushSeams.withLock { $0 }
        let (principal, results, head) = try await transaction { connection in
            let (principal, deviceID, locked) = try await access(connection, seams.serialisesPushes)
            let groupID = principal.groupID
            // Serialises the group's pushes until this commits: no later push of the group
            // can draw a seq before this one's rows are visible (the pull cursor's safety).
            if seams.serialisesPushes && !locked {
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
            // Under the group's lock the seqs just drawn are the group's newest; a batch of
            // duplicates only asks for the head.
            let head =
                if seams.serialisesPushes, let last = seqs.drawn.last { last } else {
                    try await Self.head(connection, groupID: groupID, logger: logger)
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
        let rows = try await client.execute(
            PostgresStatements.GroupPull(groupID: groupID, after: after, limit: Int64(limit)), logger: logger)
        let decoder = SyncCoding.decoder()
        var head: Int64 = 0
        var records: [PulledRecord] = []
        for try await row in rows {
            head = row.head
            if let seq = row.seq, let payload = row.payload {
                records.append(PulledRecord(seq: seq, record: try decoder.decode(SyncRecord.self, from: payload)))
            }
        }
        return Self.page(records, after: after, head: head, epoch: epoch)
    }

    /// One statement: the token's principal, the group's head and the page, all from the
    /// statement's one snapshot (so `hasMore` agrees with the page, as a REPEATABLE READ
    /// transaction of three statements did in five round trips). The page is only handed
    /// out once the principal is checked.
    public func pull(as claim: DeviceClaim, after: Int64, limit: Int) async throws -> PullResponse {
        let epoch = self.epoch
        // An over-long token is no token (refused below, as an unknown one), not a query.
        let token = claim.token.utf8.count <= Tokens.longest ? claim.token : ""
        let rows = try await client.execute(
            PostgresStatements.Pull(tokenHash: Tokens.hash(token), after: after, limit: Int64(limit)), logger: logger)
        var principal: Principal?
        var head: Int64 = 0
        var payloads: [(Int64, Data)] = []
        for try await row in rows {
            if principal == nil {
                // An unknown role grants nothing: refused below.
                guard let known = Principal(groupID: row.groupID, storedRole: row.role, deviceID: row.deviceID) else { break }
                principal = known
            }
            head = row.head
            if let seq = row.seq, let payload = row.payload { payloads.append((seq, payload)) }
        }
        _ = try principal.requireDevice(claimed: claim.device)
        let decoder = SyncCoding.decoder()
        let records = try payloads.map { PulledRecord(seq: $0.0, record: try decoder.decode(SyncRecord.self, from: $0.1)) }
        return Self.page(records, after: after, head: head, epoch: epoch)
    }

    private static func page(_ records: [PulledRecord], after: Int64, head: Int64, epoch: String) -> PullResponse {
        let next = records.last?.seq ?? after
        return PullResponse(epoch: epoch, records: records, next: next, head: head, hasMore: next < head)
    }
}

/// The PostgreSQL ledger of one push: everything PushBatch can ask about is read up front
/// (the batch's possible repeats, the cells of the events it supersedes, the current
/// version of every record it names and of the rounds and courses those lead to: one
/// statement, and one more when the batch corrects events), then the batch decides in
/// memory and `write` stores its decisions in one statement.
///
/// Seqs: an appended row gets a provisional seq (−1, −2, …) and `write` draws the real
/// ones from the sequence only for what was appended, in order, so a group's seqs stay
/// dense when nothing fails, as on SQLite.
struct PostgresFeedLedger: FeedLedger {
    private var stored: [StatementKey: FeedEntry] = [:]
    private var cells: [UUID: EventRow] = [:]
    private var current: [RecordIdentity: (stamp: ChangeStamp, record: SyncRecord?)] = [:]
    private var appended: [ChangeRow] = []
    private var madeCurrent: [RecordIdentity: CurrentRecordRow] = [:]
    private var indexed: [EventRow] = []

    static func read(
        _ connection: PostgresConnection, groupID: String, records: [SyncRecord], logger: Logger
    ) async throws -> PostgresFeedLedger {
        var ledger = PostgresFeedLedger()
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
        // One query for the rest: the statements stored under the batch's ids (a retry's
        // repeats), the current version of each record named and of each event's round,
        // and the current version of those rounds' courses. A round names its course in
        // its payload, the protocol's JSON (`data.courseID`), which the query reads.
        let named = Set(records.map { RecordIdentity(kind: $0.kind.rawValue, id: $0.id) })
        var wanted = named
        for record in records {
            switch record {
            case .scoreEvent(let e): wanted.insert(RecordIdentity(kind: RecordKind.round.rawValue, id: e.roundID))
            case .round(let r): wanted.insert(RecordIdentity(kind: RecordKind.course.rawValue, id: r.courseID))
            default: break
            }
        }
        let rows = try await connection.execute(
            PostgresStatements.LedgerRead(groupID: groupID, wanted: Array(wanted), named: Array(named)), logger: logger)
        for try await row in rows {
            if row.stored, let seq = row.seq {
                ledger.stored[StatementKey(kind: row.kind, id: row.id, version: row.version)] = FeedEntry(
                    seq: seq, payload: row.payload)
            } else if let lifecycle = row.lifecycle, let updatedAt = row.updatedAt {
                ledger.current[RecordIdentity(kind: row.kind, id: row.id)] = (
                    ChangeStamp(lifecycle: lifecycle, updatedAt: updatedAt, version: row.version),
                    decoded(row.payload, version: row.version)
                )
            }
        }
        return ledger
    }

    /// Decoded rounds and courses by their exact bytes: the same statement is read for
    /// every event of a round, and the bytes are the whole key (no seq to go stale when a
    /// restore reuses seqs, on this instance or another).
    private static let decodedPayloads = Mutex<[DecodedKey: SyncRecord]>([:])

    /// Hashed by the statement's version (a fresh UUID each), equal only on the same bytes:
    /// `Data` hashes only its first bytes, which rounds on one course share.
    private struct DecodedKey: Hashable {
        var version: UUID
        var payload: Data

        func hash(into hasher: inout Hasher) { hasher.combine(version) }
    }

    private static func decoded(_ payload: Data, version: UUID) -> SyncRecord? {
        let key = DecodedKey(version: version, payload: payload)
        if let known = decodedPayloads.withLock({ $0[key] }) { return known }
        guard let record = try? SyncCoding.decoder().decode(SyncRecord.self, from: payload) else { return nil }
        decodedPayloads.withLock { memo in
            if memo.count >= RecordMemo.capacity { memo.removeAll(keepingCapacity: true) }
            memo[key] = record
        }
        return record
    }

    func storedStatements(groupID: String, records: [SyncRecord]) throws -> [StatementKey: FeedEntry] { stored }

    func eventCells(groupID: String, ids: Set<UUID>) throws -> [UUID: EventRow] { cells.filter { ids.contains($0.key) } }

    func currentStamp(groupID: String, kind: RecordKind, id: UUID) throws -> ChangeStamp? {
        current[RecordIdentity(kind: kind.rawValue, id: id)]?.stamp
    }

    func currentRecord(groupID: String, kind: RecordKind, id: UUID) throws -> SyncRecord? {
        current[RecordIdentity(kind: kind.rawValue, id: id)]?.record
    }

    mutating func append(_ change: ChangeRow) throws -> Int64 {
        var change = change
        let seq = -Int64(appended.count + 1)
        change.seq = seq
        appended.append(change)
        return seq
    }

    mutating func makeCurrent(_ row: CurrentRecordRow, record: SyncRecord) throws {
        let key = RecordIdentity(kind: row.kind, id: row.recordID)
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

    /// Stores the batch's decisions in one statement (`PostgresStatements.FeedWrite`).
    func write(_ connection: PostgresConnection, logger: Logger) async throws -> Seqs {
        guard !appended.isEmpty else { return Seqs(drawn: []) }
        let rows = try await connection.execute(
            PostgresStatements.FeedWrite(
                appended: appended, currents: Array(madeCurrent.values), events: indexed, channel: PostgresStorage.channel),
            logger: logger)
        for try await drawn in rows { return Seqs(drawn: drawn) }
        throw NoSeqsDrawn()
    }

    /// The write statement returned no row (its aggregate always returns one).
    struct NoSeqsDrawn: Error, CustomStringConvertible {
        var description: String { "the feed drew no seqs for a batch" }
    }
}
