import Foundation
import HyzerKit
import HyzerSyncProtocol
import Logging
import PostgresNIO
import Synchronization

/// Push and pull on PostgreSQL: the feed, its head, and the pokes to other instances.
extension PostgresStorage: SyncStorage {
    public func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse {
        try await push(PostgresPendingPush(records: records, sender: .device(groupID: groupID, deviceID: deviceID))).response
    }

    public func push(as claim: DeviceClaim, records: [SyncRecord]) async throws -> (principal: Principal, response: PushResponse)
    {
        try await push(PostgresPendingPush(records: records, sender: .claim(claim)))
    }

    /// Nothing to do after a commit here: the database server keeps its own disk, and every
    /// instance already heard of the head through NOTIFY.
    public func noteCommitted(head: Int64) {}

    /// Waits for the transaction that commits this push with the others waiting then
    /// (`commits`, group commit); committed before this returns (`synchronous_commit` on:
    /// the commit is on the database server's disk), so the caller's acknowledgement is
    /// never ahead of it.
    private func push(_ push: PostgresPendingPush) async throws -> (principal: Principal, response: PushResponse) {
        let (principal, results, head) = try await commits.submit(push, via: { try await self.commitPushes($0) })
        return (principal, PushResponse(epoch: epoch, head: head, results: results))
    }

    /// Commits every push waiting in one transaction (group commit): a transaction costs
    /// five round trips to the database (each a wake-up of both processes, which share the
    /// cores), a commit and a NOTIFY a group, whether it carries one push or sixty. Each push
    /// is decided alone: one refused (a revoked token, another device's) or failing in its
    /// batch's decisions is answered with its error and leaves nothing in the transaction.
    /// A statement that fails ends the whole transaction on PostgreSQL, with nothing
    /// committed or acknowledged; the pushes are then committed again one transaction each,
    /// so the push that made it fail fails alone (pushes are idempotent: a retry of one that
    /// did commit is answered `duplicate`).
    func commitPushes(_ pushes: [PostgresPendingPush]) async throws -> [Result<PushOutcome, any Error>] {
        do {
            return try await commitTogether(pushes)
        } catch  where pushes.count > 1 && Self.sqlState(error) != nil && pushSeams.withLock({ $0.retriesAlone }) {
            pushesRetriedAlone.add(pushes.count, ordering: .relaxed)
            logger.warning(
                "a push transaction failed; committing its pushes one by one",
                metadata: ["pushes": "\(pushes.count)", "error": "\(Self.describe(error))"])
            var outcomes: [Result<PushOutcome, any Error>] = []
            for push in pushes {
                do { outcomes += try await commitTogether([push]) } catch { outcomes.append(.failure(error)) }
            }
            return outcomes
        }
    }

    /// One transaction for `pushes`: BEGIN; the principals with every group's push lock
    /// (`PostgresStatements.PushLocks`); one read for every group
    /// (`PostgresStatements.LedgerRead`); one write with the NOTIFYs
    /// (`PostgresStatements.FeedWrite`); COMMIT. The decisions in between are PushBatch's,
    /// one batch a group, its pushes applied in the order they arrived.
    private func commitTogether(_ pushes: [PostgresPendingPush]) async throws -> [Result<PushOutcome, any Error>] {
        let now = self.now
        let logger = self.logger
        let seams = pushSeams.withLock { $0 }
        return try await transaction { connection in
            // Who each push is (an over-long token is no token: refused below, as an unknown one).
            let hashes = pushes.map { push -> Data? in
                guard case .claim(let claim) = push.sender, claim.token.utf8.count <= Tokens.longest else { return nil }
                return Tokens.hash(claim.token)
            }
            let named = pushes.compactMap { push -> String? in
                if case .device(let groupID, _) = push.sender { return groupID }
                return nil
            }
            var credentials: [Data: Principal] = [:]
            let rows = try await connection.execute(
                PostgresStatements.PushLocks(
                    tokenHashes: Array(Set(hashes.compactMap { $0 })), groupIDs: Array(Set(named)), lockSpace: Self.lockSpace,
                    locking: seams.serialisesPushes),
                logger: logger)
            for try await row in rows {
                guard let row, let principal = Principal(groupID: row.groupID, storedRole: row.role, deviceID: row.deviceID)
                else { continue }
                credentials[row.tokenHash] = principal
            }
            var outcomes: [Result<PushOutcome, any Error>?] = Array(repeating: nil, count: pushes.count)
            var senders: [(principal: Principal, deviceID: String)?] = Array(repeating: nil, count: pushes.count)
            for (index, push) in pushes.enumerated() {
                do {
                    switch push.sender {
                    case .claim(let claim):
                        senders[index] = try hashes[index].flatMap { credentials[$0] }.requireDevice(claimed: claim.device)
                    case .device(let groupID, let deviceID):
                        senders[index] = (Principal(groupID: groupID, role: .device, deviceID: deviceID), deviceID)
                    }
                } catch {
                    outcomes[index] = .failure(error)
                }
            }

            // The groups in the order their first push came, and each one's pushes.
            var groups: [String] = []
            var pushesOf: [String: [Int]] = [:]
            for (index, sender) in senders.enumerated() {
                guard let groupID = sender?.principal.groupID else { continue }
                if pushesOf[groupID] == nil { groups.append(groupID) }
                pushesOf[groupID, default: []].append(index)
            }
            let read = try await PostgresFeedLedger.read(
                connection, groups: groups.map { groupID in (groupID, pushesOf[groupID]!.flatMap { pushes[$0].records }) },
                logger: logger)

            let encoder = SyncCoding.encoder()
            var decided: [(groupID: String, ledger: PostgresFeedLedger)] = []
            var results: [Int: [PushResult]] = [:]
            for groupID in groups {
                let indices = pushesOf[groupID]!
                let records = indices.flatMap { pushes[$0].records }
                var batch = try PushBatch(
                    groupID: groupID, ledger: read.ledgers[groupID] ?? PostgresFeedLedger(), records: records)
                // Only a reopening needs the group's window (issue 35): no query for the rest.
                if PushBatch<PostgresFeedLedger>.reopens(records),
                    let group = try await Self.group(connection, id: groupID, logger: logger)
                {
                    batch.reopenWindow = group.reopenWindow
                }
                for index in indices {
                    // A push that fails halfway leaves nothing of itself in the batch.
                    let before = batch
                    do {
                        let deviceID = senders[index]!.deviceID
                        results[index] = try pushes[index].records.map { record in
                            try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder)
                        }
                    } catch {
                        batch = before
                        outcomes[index] = .failure(error)
                    }
                }
                decided.append((groupID, batch.ledger))
            }
            let seqs = try await PostgresFeedLedger.write(connection, ledgers: decided, now: now, logger: logger)
            for (index, groupResults) in results {
                let groupID = senders[index]!.principal.groupID
                let drawn = seqs[groupID]
                let real = groupResults.map { result in
                    var result = result
                    if let seq = result.seq, let drawn { result.seq = drawn.real(seq) }
                    return result
                }
                // Under the group's lock, its head is its newest seq drawn here, or the one
                // read before this transaction wrote (the whole batch commits together).
                let head = drawn?.drawn.last ?? read.heads[groupID] ?? 0
                outcomes[index] = .success((senders[index]!.principal, real, head))
            }
            await seams.beforeCommit?(pushes.flatMap(\.records))
            return outcomes.map { $0 ?? .failure(PushNotDecided()) }
        }
    }

    /// A push the transaction neither answered nor refused (a bug, never expected).
    struct PushNotDecided: Error, CustomStringConvertible {
        var description: String { "a push in a batch was left without results" }
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
        var window = Round.defaultReopenWindow
        var records: [PulledRecord] = []
        for try await row in rows {
            head = row.head
            window = row.reopenWindow ?? window
            if let seq = row.seq, let payload = row.payload {
                records.append(PulledRecord(seq: seq, record: try decoder.decode(SyncRecord.self, from: payload)))
            }
        }
        return Self.page(records, after: after, head: head, epoch: epoch, reopenWindow: window)
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
        var window = Round.defaultReopenWindow
        var payloads: [(Int64, Data)] = []
        for try await row in rows {
            if principal == nil {
                // An unknown role grants nothing: refused below.
                guard let known = Principal(groupID: row.groupID, storedRole: row.role, deviceID: row.deviceID) else { break }
                principal = known
            }
            head = row.head
            window = row.reopenWindow ?? window
            if let seq = row.seq, let payload = row.payload { payloads.append((seq, payload)) }
        }
        _ = try principal.requireDevice(claimed: claim.device)
        let decoder = SyncCoding.decoder()
        let records = try payloads.map { PulledRecord(seq: $0.0, record: try decoder.decode(SyncRecord.self, from: $0.1)) }
        return Self.page(records, after: after, head: head, epoch: epoch, reopenWindow: window)
    }

    private static func page(
        _ records: [PulledRecord], after: Int64, head: Int64, epoch: String, reopenWindow: Double
    ) -> PullResponse {
        let next = records.last?.seq ?? after
        return PullResponse(
            epoch: epoch, records: records, next: next, head: head, hasMore: next < head, reopenWindow: reopenWindow)
    }
}

/// A push waiting for a PostgreSQL transaction: its records, and who sends them.
struct PostgresPendingPush: Sendable {
    enum Sender: Sendable {
        /// A device's request: its token is checked (and locked) in the transaction.
        case claim(DeviceClaim)
        /// The operator's tools and the simulation: already known.
        case device(groupID: String, deviceID: String)
    }

    var records: [SyncRecord]
    var sender: Sender
}

/// A record of a group's, by group and (kind, id): a key across the groups of a transaction.
struct GroupRecordIdentity: Hashable, Sendable {
    var groupID: String
    var identity: RecordIdentity
}

/// The PostgreSQL ledger of one group in a push transaction: everything PushBatch can ask
/// about is read up front for every group of the transaction in one statement (the
/// batch's possible repeats, the cells of the events it supersedes, the current version of
/// every record it names and of the rounds and courses those lead to, and the group's
/// head), then each group's batch decides in memory and `write` stores every group's
/// decisions in one statement.
///
/// Seqs: an appended row gets a provisional seq (−1, −2, …) and `write` draws the real
/// ones from the sequence only for what was appended, in order, so a group's seqs stay
/// dense when nothing fails, as on SQLite (several groups in one transaction interleave in
/// the sequence: a group's seqs were never dense across groups).
struct PostgresFeedLedger: FeedLedger {
    private var stored: [StatementKey: FeedEntry] = [:]
    private var cells: [UUID: EventRow] = [:]
    private var current: [RecordIdentity: (stamp: ChangeStamp, record: SyncRecord?)] = [:]
    private var appended: [ChangeRow] = []
    private var madeCurrent: [RecordIdentity: CurrentRecordRow] = [:]
    private var indexed: [EventRow] = []

    /// Reads what the batches of these groups can ask about: every group's ledger (one even
    /// for a group with nothing stored) and head, in one statement.
    static func read(
        _ connection: PostgresConnection, groups: [(groupID: String, records: [SyncRecord])], logger: Logger
    ) async throws -> (ledgers: [String: PostgresFeedLedger], heads: [String: Int64]) {
        var wanted: Set<GroupRecordIdentity> = []
        var named: Set<GroupRecordIdentity> = []
        var superseded: Set<GroupRecordIdentity> = []
        for (groupID, records) in groups {
            for record in records {
                let key = GroupRecordIdentity(
                    groupID: groupID, identity: RecordIdentity(kind: record.kind.rawValue, id: record.id))
                named.insert(key)
                // A score event has no current version (it is never replaced, only superseded).
                if record.stamp != nil { wanted.insert(key) }
                switch record {
                case .scoreEvent(let e):
                    wanted.insert(
                        GroupRecordIdentity(
                            groupID: groupID, identity: RecordIdentity(kind: RecordKind.round.rawValue, id: e.roundID)))
                    for target in e.supersedes {
                        superseded.insert(
                            GroupRecordIdentity(
                                groupID: groupID, identity: RecordIdentity(kind: record.kind.rawValue, id: target)))
                    }
                case .round(let r):
                    wanted.insert(
                        GroupRecordIdentity(
                            groupID: groupID, identity: RecordIdentity(kind: RecordKind.course.rawValue, id: r.courseID)))
                case .event(let n):
                    // A league night is checked against its rounds and their course (issue 36).
                    wanted.insert(
                        GroupRecordIdentity(
                            groupID: groupID, identity: RecordIdentity(kind: RecordKind.course.rawValue, id: n.courseID)))
                    for round in n.rounds {
                        wanted.insert(
                            GroupRecordIdentity(
                                groupID: groupID, identity: RecordIdentity(kind: RecordKind.round.rawValue, id: round)))
                    }
                case .player(let p):
                    // A merge is checked against the player it names (issue 35).
                    if let target = p.mergedInto {
                        wanted.insert(
                            GroupRecordIdentity(
                                groupID: groupID, identity: RecordIdentity(kind: RecordKind.player.rawValue, id: target)))
                    }
                default: break
                }
            }
        }
        var ledgers = Dictionary(uniqueKeysWithValues: groups.map { ($0.groupID, PostgresFeedLedger()) })
        var heads: [String: Int64] = [:]
        let rows = try await connection.execute(
            PostgresStatements.LedgerRead(
                wanted: Array(wanted), named: Array(named), superseded: Array(superseded), groupIDs: groups.map { $0.groupID }),
            logger: logger)
        for try await row in rows {
            let groupID = row.groupID
            switch row.tag {
            case 0:
                guard let kind = row.kind, let id = row.id, let version = row.version, let seq = row.seq,
                    let payload = row.payload
                else { continue }
                ledgers[groupID]?.stored[StatementKey(kind: kind, id: id, version: version)] = FeedEntry(
                    seq: seq, payload: payload)
            case 1:
                guard let kind = row.kind, let id = row.id, let version = row.version, let payload = row.payload,
                    let lifecycle = row.lifecycle, let updatedAt = row.updatedAt
                else { continue }
                ledgers[groupID]?.current[RecordIdentity(kind: kind, id: id)] = (
                    ChangeStamp(lifecycle: lifecycle, updatedAt: updatedAt, version: version),
                    decoded(payload, version: version)
                )
            case 2:
                guard let event = row.id, let round = row.roundID, let participant = row.participantID, let hole = row.hole,
                    let seq = row.seq
                else { continue }
                ledgers[groupID]?.cells[event] = EventRow(
                    groupID: groupID, eventID: event, roundID: round, participantID: participant, hole: hole, seq: seq)
            default:
                heads[groupID] = row.seq
            }
        }
        return (ledgers, heads)
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
        var drawn: ArraySlice<Int64>
        var count: Int { drawn.count }
        func real(_ seq: Int64) -> Int64 { seq < 0 ? drawn[drawn.startIndex + Int(-seq) - 1] : seq }
    }

    /// Stores every group's decisions in one statement (`PostgresStatements.FeedWrite`);
    /// returns the seqs drawn for each group that appended.
    static func write(
        _ connection: PostgresConnection, ledgers: [(groupID: String, ledger: PostgresFeedLedger)], now: Double,
        logger: Logger
    ) async throws -> [String: Seqs] {
        var appended: [ChangeRow] = []
        var currents: [(row: CurrentRecordRow, slot: Int32)] = []
        var events: [(row: EventRow, slot: Int32)] = []
        var heads: [(groupID: String, slot: Int32)] = []
        var ranges: [(groupID: String, range: Range<Int>)] = []
        for (groupID, ledger) in ledgers where !ledger.appended.isEmpty {
            let offset = appended.count
            // A provisional seq -k is the group's k-th appended row: slot offset + k (1-based).
            func slot(_ seq: Int64) -> Int32 { Int32(offset) + Int32(-seq) }
            appended += ledger.appended
            currents += ledger.madeCurrent.values.map { (row: $0, slot: slot($0.seq)) }
            events += ledger.indexed.map { (row: $0, slot: slot($0.seq)) }
            heads.append((groupID, Int32(appended.count)))
            ranges.append((groupID, offset..<appended.count))
        }
        guard !appended.isEmpty else { return [:] }
        let rows = try await connection.execute(
            PostgresStatements.FeedWrite(
                appended: appended, currents: currents, events: events, receivedAt: now, channel: PostgresStorage.channel,
                heads: heads),
            logger: logger)
        for try await drawn in rows {
            guard drawn.count == appended.count else { break }
            return Dictionary(uniqueKeysWithValues: ranges.map { ($0.groupID, Seqs(drawn: drawn[$0.range])) })
        }
        throw NoSeqsDrawn()
    }

    /// The write statement returned no row (its aggregate always returns one), or not a seq
    /// for each statement appended.
    struct NoSeqsDrawn: Error, CustomStringConvertible {
        var description: String { "the feed did not draw a seq for each statement of a batch" }
    }
}
