import Foundation
import HyzerKit
import HyzerStore
import HyzerSyncProtocol

// The sync side of the store: wire records <-> the store's domain values, the feed
// cursor, and the outbox's A1 states. Named writes and reads like the store's own
// (`try await db.write(.claimOutbox(limit: 50))`), run synchronously where the caller
// is; the SQL stays in HyzerStore (`ChangeLedger`, `Outbox`).

/// Where this device is in the server's change feed: which feed (server + group), which
/// incarnation of the server's database (epoch) and the last applied sequence number.
/// Kept in the domain database so it advances in the same transaction that applies the
/// pulled records: a crash can never leave the cursor ahead of the data.
public struct SyncCursor: Sendable, Equatable {
    /// Identifies the feed, e.g. "https://server|group-id"; nil before the first pull.
    public var stream: String?
    public var epoch: String?
    public var cursor: Int64

    public init(stream: String? = nil, epoch: String? = nil, cursor: Int64 = 0) {
        self.stream = stream
        self.epoch = epoch
        self.cursor = cursor
    }
}

/// A local record the server does not have yet (or not in this version).
public struct PendingRecord: Sendable, Hashable {
    public var record: SyncRecord
    /// Order among records of one kind (events: local arrival order).
    public var localOrder: Int64
}

/// What applying one pulled page did.
public struct PullApplyResult: Sendable, Equatable {
    /// Records that changed local data.
    public var applied = 0
    /// Already known, or older than what is here (last-writer-wins lost).
    public var unchanged = 0
    /// Records this device could not store, by server seq (logged; the cursor still moves
    /// on, or one bad record would stop sync forever).
    public var rejected: [Int64: String] = [:]
    /// Rounds whose standings may have moved (new events, status or participants).
    public var roundsChanged: Set<UUID> = []
    public var eventsInserted = 0
    /// Other changes the board may want to reload (courses, players).
    public var referenceDataChanged = false

    public init() {}
}

/// One version of one record, by its wire kind: what the outbox claims, the server
/// acknowledges and the domain store stops marking pending (HyzerStore's `ChangeKey` on the
/// wire's side).
public struct RecordVersionKey: Sendable, Hashable {
    public var kind: RecordKind
    public var id: UUID
    public var version: UUID

    public init(kind: RecordKind, id: UUID, version: UUID) {
        self.kind = kind
        self.id = id
        self.version = version
    }

    var change: ChangeKey { ChangeKey(kind: ChangeKind(kind), id: id, version: version) }
}

public struct OutboxItem: Sendable, Hashable {
    public var record: SyncRecord
    public var attempts: Int
    public var key: RecordVersionKey { RecordVersionKey(kind: record.kind, id: record.id, version: record.version) }
}

public struct FailedRecord: Sendable, Hashable {
    public var kind: RecordKind
    public var id: UUID
    public var reason: String
}

public struct ReconcileResult: Sendable, Equatable {
    public var enqueued = 0
    /// Pending in the domain store but already synced in the outbox: a crash came between
    /// the two acknowledgements. The caller clears them in the domain store.
    public var alreadySynced: [RecordVersionKey] = []
}

extension ChangeKind {
    init(_ kind: RecordKind) {
        switch kind {
        case .course: self = .course
        case .player: self = .player
        case .round: self = .round
        case .scoreEvent: self = .scoreEvent
        case .event: self = .event
        case .season: self = .season
        }
    }
}

extension ChangeLedger {
    func syncCursor() throws -> SyncCursor {
        SyncCursor(
            stream: try cursorValue("stream"), epoch: try cursorValue("epoch"),
            cursor: Int64(try cursorValue("cursor") ?? "") ?? 0)
    }

    func setSyncCursor(_ cursor: SyncCursor) throws {
        try setCursorValue(cursor.stream, for: "stream")
        try setCursorValue(cursor.epoch, for: "epoch")
        try setCursorValue(String(cursor.cursor), for: "cursor")
    }
}

/// The domain store as the engine's loop sees it at the top of a turn.
struct LoopFacts: Sendable {
    /// A round is being played (the poll interval is shorter then).
    var activeRound: Bool
    var cursor: SyncCursor
    /// Local records the server does not have yet.
    var pending: Int
}

// MARK: Cursor and epoch

extension StoreRead where Value == SyncCursor {
    public static var syncCursor: Self { .changeLedger { try $0.syncCursor() } }
}

extension StoreWrite where Value == Bool {
    /// Called with the feed and epoch a server reports. Same feed and epoch: nothing to do.
    /// Otherwise (first sync, another server or group, or a server database that was
    /// recreated or restored from a backup) the cursor goes back to zero and *every*
    /// local record becomes pending again, so whatever the server no longer has is pushed
    /// again; it answers `duplicate` for the rest. Returns true when it reset.
    public static func adoptSyncStream(_ stream: String, epoch: String, force: Bool = false) -> Self {
        .changeLedger { ledger in
            let current = try ledger.syncCursor()
            if current.stream == stream && current.epoch == epoch && !force { return false }
            if current.stream != nil || current.epoch != nil { try ledger.markAllPending() }
            try ledger.setSyncCursor(SyncCursor(stream: stream, epoch: epoch, cursor: 0))
            return true
        }
    }

    /// What the domain store does once a push is answered, in one transaction (one fsync
    /// instead of two, and one trip to the writer instead of three): the versions the
    /// server has stop being pending, and, when the server still answers under the
    /// cursor's epoch, the cursor moves past this device's own records
    /// (`SyncStore.advancePastOwnPush`). False when the cursor has another epoch than the
    /// answer's: the server lost its database, and the next pull must start over.
    static func pushAnswered(
        acknowledging synced: [RecordVersionKey], stream: String, epoch: String, createdSeqs: [Int64], head: Int64
    ) -> Self {
        .changeLedger { ledger in
            if !synced.isEmpty { try ledger.acknowledge(synced.map(\.change)) }
            if let current = try ledger.syncCursor().epoch, current != epoch { return false }
            _ = try SyncStore.advancePastOwnPush(ledger, stream: stream, epoch: epoch, createdSeqs: createdSeqs, head: head)
            return true
        }
    }
}

extension StoreRead where Value == LoopFacts {
    /// What the engine's loop looks at on every turn, in one read of the domain database
    /// (each async read costs its trips through GRDB's queues, on the path of every score).
    static var loopFacts: Self {
        StoreRead<[Round]>.activeRounds.and(.syncCursor).and(.sendableSyncCount).map { read in
            LoopFacts(activeRound: !read.0.0.isEmpty, cursor: read.0.1, pending: read.1)
        }
    }
}

// MARK: Local changes to push

extension StoreWrite where Value == [PendingRecord] {
    /// Every local record the server has not acknowledged in its current version, in the
    /// order they must be sent (courses, players, rounds, league nights, then score events
    /// by arrival). Kinds the server has not said it takes stay pending, unsent.
    public static func pendingSyncRecords(limit: Int = .max) -> Self {
        .changeLedger { ledger in
            try ledger.pendingChanges(limit: limit, holding: ledger.holding()).map(SyncStore.pendingRecord)
        }
    }
}

extension StoreRead where Value == Int {
    /// How many local records the server has not acknowledged in their current version
    /// (what a screen says is waiting), held-back ones included.
    public static var pendingSyncCount: Self { .changeLedger { try $0.pendingCount() } }

    /// How many of them a push would send now: what the loop decides on, so a night held
    /// back for an older server never keeps it pushing nothing.
    static var sendableSyncCount: Self { .changeLedger { try $0.pendingCount(holding: $0.holding()) } }
}

extension ChangeLedger {
    /// Kinds newer than what the group server last said it speaks (issue 36): an older
    /// server refuses a whole push over one record of a kind it has no case for, so these
    /// wait, pending, until it is updated. Before the first answer nothing new is sent.
    /// League nights ranked by net wait for protocol 5 (`SyncRecord.sinceProtocol`): a
    /// server before it would keep them gross.
    func holding() throws -> ChangeLedger.Holding {
        let version = Int(try cursorValue("server_protocol") ?? "") ?? 1
        return ChangeLedger.Holding(
            kinds: Set(RecordKind.allCases.filter { $0.sinceProtocol > version }.map(ChangeKind.init)),
            netNights: version < SyncRecord.netNightProtocol)
    }
}

extension StoreWrite where Value == Void {
    /// The server has these versions durably: they stop being pending. A record changed
    /// since (another version) stays pending.
    public static func acknowledgeSynced(_ keys: [RecordVersionKey]) -> Self {
        .changeLedger { ledger in
            guard !keys.isEmpty else { return }
            try ledger.acknowledge(keys.map(\.change))
        }
    }
}

// MARK: Pulled pages

extension StoreWrite where Value == PullApplyResult {
    /// Applies one page of the server's change feed and moves the cursor to `next`, all in
    /// one transaction: either the page and the cursor are stored, or neither is.
    ///
    /// Records are applied in server order. Mutable records merge last-writer-wins by
    /// `ChangeStamp` (the rule the server uses), events are inserted once by id. What the
    /// server sends was validated there; a record this device still cannot store is
    /// reported in `rejected` and skipped.
    ///
    /// `server` is what the answer said the server can take (issue 35), kept with the cursor.
    public static func applyPulled(
        _ records: [PulledRecord], next: Int64, stream: String, epoch: String, server: ServerCapabilities? = nil
    ) -> Self {
        .changeLedger { ledger in
            let cursor = try ledger.syncCursor()
            guard cursor.stream == stream, cursor.epoch == epoch else {
                // The caller adopts the stream first; refusing here keeps a page from an old
                // epoch from ever landing under a new cursor.
                throw StoreError.corruptRecord(
                    "pulled page for \(stream) epoch \(epoch), but the cursor is on \(cursor.stream ?? "none") epoch \(cursor.epoch ?? "none")"
                )
            }
            var result = PullApplyResult()
            var touchedRounds: Set<UUID> = []
            for pulled in records {
                do {
                    try SyncStore.applyRemote(pulled.record, into: &result, ledger)
                    switch pulled.record {
                    case .round(let r): touchedRounds.insert(r.id)
                    case .scoreEvent(let e): touchedRounds.insert(e.roundID)
                    default: break
                    }
                } catch let error as StoreError {
                    result.rejected[pulled.seq] = error.description
                }
            }
            // FR14 for remote scores too: the round may now be fully scored.
            result.roundsChanged.formUnion(try ledger.markFullyScored(touchedRounds))
            try ledger.setSyncCursor(SyncCursor(stream: stream, epoch: epoch, cursor: max(cursor.cursor, next)))
            if let server { try ledger.setServerCapabilities(server) }
            return result
        }
    }
}

// MARK: Outbox

extension StoreWrite where Value == ReconcileResult {
    /// Makes the outbox match the pending records: new ones and new versions become
    /// `pending`; a version already `failed` stays failed (retrying cannot help).
    public static func reconcileOutbox(with pending: [PendingRecord]) -> Self {
        .outbox { outbox in try SyncStore.reconcile(pending, outbox) }
    }
}

extension StoreWrite where Value == ReconcileResult.AndClaimed {
    /// Reconcile and claim in one transaction (one fsync fewer on the way to the server).
    static func reconcileAndClaim(_ pending: [PendingRecord], limit: Int) -> Self {
        .outbox { outbox in
            ReconcileResult.AndClaimed(
                reconciled: try SyncStore.reconcile(pending, outbox),
                claimed: try SyncStore.claim(limit: limit, outbox))
        }
    }
}

extension StoreWrite where Value == [OutboxItem] {
    /// A1: takes up to `limit` pending rows and marks them inFlight in one transaction,
    /// before the caller awaits the network.
    public static func claimOutbox(limit: Int) -> Self {
        .outbox { outbox in try SyncStore.claim(limit: limit, outbox) }
    }
}

extension StoreWrite where Value == [RecordVersionKey] {
    /// Records the server's answers. Only rows still inFlight *with the answered version*
    /// change: a newer local version enqueued meanwhile stays pending. Returns the keys
    /// that are now synced, for `acknowledgeSynced`.
    public static func completeOutbox(_ results: [PushResult]) -> Self {
        .outbox { outbox in
            var synced: [RecordVersionKey] = []
            for r in results {
                switch r.status {
                case .created, .duplicate:
                    try outbox.markSynced(r.id, version: r.version, serverSeq: r.seq)
                    synced.append(RecordVersionKey(kind: r.kind, id: r.id, version: r.version))
                case .rejected:
                    try outbox.markFailed(r.id, version: r.version, reason: r.reason ?? "rejected")
                }
            }
            return synced
        }
    }
}

extension StoreWrite where Value == Void {
    /// A push that got no answer: its rows go back to pending for a retry.
    public static func releaseInFlight(_ keys: [RecordVersionKey], error: String) -> Self {
        .outbox { outbox in
            for key in keys { try outbox.release(key.id, version: key.version, error: error) }
        }
    }

    /// A new epoch on the server: what the outbox sent before counts for nothing there.
    public static var resetOutboxForNewEpoch: Self { .outbox { try $0.resetForNewEpoch() } }
}

extension StoreWrite where Value == Int {
    /// Rows a push left inFlight (the process stopped mid-push) go back to pending;
    /// returns how many.
    public static var resetInFlightOutbox: Self { .outbox { try $0.resetInFlight() } }
}

extension StoreRead where Value == [OutboxStatus: Int] {
    public static var outboxCounts: Self { .outbox { try $0.counts() } }
}

extension StoreRead where Value == [FailedRecord] {
    /// Records the server refused, for the status screen and `hyzer device show`.
    public static func failedOutbox(limit: Int = 100) -> Self {
        .outbox { outbox in
            try outbox.failures(limit: limit).map {
                FailedRecord(kind: RecordKind(rawValue: $0.kind) ?? .scoreEvent, id: $0.id, reason: $0.reason)
            }
        }
    }
}

extension StoreRead where Value == OutboxStatus? {
    public static func outboxStatus(of id: UUID) -> Self { .outbox { try $0.status(of: id) } }
}

/// What the named writes above share: the mapping of local changes to wire records, a
/// pulled record applied to the domain, and the outbox's reconcile and claim.
enum SyncStore {
    /// After a push whose records got the seqs right after the cursor, and nothing else
    /// came in between (`head` is the last of them), the feed up to `head` holds only what
    /// this device already has: move the cursor there instead of pulling it back.
    static func advancePastOwnPush(
        _ ledger: ChangeLedger, stream: String, epoch: String, createdSeqs: [Int64], head: Int64
    ) throws -> Bool {
        guard !createdSeqs.isEmpty else { return false }
        let cursor = try ledger.syncCursor()
        guard cursor.stream == stream, cursor.epoch == epoch else { return false }
        let expected = Set((cursor.cursor + 1)...max(cursor.cursor + 1, head))
        guard head > cursor.cursor, Set(createdSeqs) == expected else { return false }
        try ledger.setSyncCursor(SyncCursor(stream: stream, epoch: epoch, cursor: head))
        return true
    }

    /// A local change as the wire record the server takes.
    static func pendingRecord(_ change: LocalChange) -> PendingRecord {
        switch change {
        case .course(let course, let version, let updatedAt, let lineage):
            PendingRecord(
                record: .course(CourseRecord(course, version: version, updatedAt: updatedAt, lineage: lineage)),
                localOrder: 0)
        case .courseDeleted(let id, let name, let version, let updatedAt, let lineage):
            PendingRecord(
                record: .course(.tombstone(id: id, name: name, version: version, updatedAt: updatedAt, lineage: lineage)),
                localOrder: 0)
        case .player(let player, let version, let updatedAt, let retirement):
            PendingRecord(
                record: .player(PlayerRecord(player, version: version, updatedAt: updatedAt, retirement: retirement)),
                localOrder: 0)
        case .round(let round, let version, let updatedAt):
            PendingRecord(record: .round(RoundRecord(round, version: version, updatedAt: updatedAt)), localOrder: 0)
        case .scoreEvent(let event, let seq):
            PendingRecord(record: .scoreEvent(ScoreEventRecord(event)), localOrder: seq)
        case .event(let event, let version, let updatedAt):
            PendingRecord(record: .event(EventRecord(event, version: version, updatedAt: updatedAt)), localOrder: 0)
        case .season(let season, let version, let updatedAt, let deleted):
            PendingRecord(
                record: .season(SeasonRecord(season, version: version, updatedAt: updatedAt, deleted: deleted)),
                localOrder: 0)
        }
    }

    /// The domain value a pulled record describes; a record the domain refuses is
    /// reported as the store error of its kind, so the page skips just that record.
    private static func validated<Value, Failure: Error>(
        _ build: () throws(Failure) -> Value, or refusal: (Failure) -> StoreError
    ) throws(StoreError) -> Value {
        do { return try build() } catch { throw refusal(error) }
    }

    static func applyRemote(_ record: SyncRecord, into result: inout PullApplyResult, _ ledger: ChangeLedger) throws {
        let key = ChangeKey(kind: ChangeKind(record.kind), id: record.id, version: record.version)
        if let stamp = record.stamp, let local = try ledger.localVersion(key.kind, record.id) {
            let lifecycle: Int =
                switch key.kind {
                case .round: ChangeStamp.lifecycle(of: local.status ?? .setup, generation: local.generation)
                case .course: ChangeStamp.courseLifecycle(deleted: local.deleted, generation: local.generation)
                case .player: ChangeStamp.playerLifecycle(local.retirement)
                case .scoreEvent: 0
                case .event, .season: ChangeStamp.eventLifecycle(discarded: local.deleted)
                }
            let localStamp = ChangeStamp(lifecycle: lifecycle, updatedAt: local.updatedAt, version: local.version)
            if stamp <= localStamp {
                result.unchanged += 1
                // Same version as here: the server has it, so it is no longer pending.
                if stamp == localStamp { try ledger.setSynced(key) }
                return
            }
        }
        switch record {
        case .course(let r) where r.isTombstone:
            if let problem = r.problem() { throw StoreError.corruptRecord("course \(r.id): \(problem)") }
            try ledger.saveRemoteDeletion(ofCourse: r.id, name: r.name, updatedAt: r.updatedAt, lineage: r.lineage)
            try ledger.setSynced(key)
            result.referenceDataChanged = true
        case .course(let r):
            if let problem = r.problem() { throw StoreError.corruptRecord("course \(r.id): \(problem)") }
            try ledger.saveRemote(validated(r.course, or: StoreError.course), updatedAt: r.updatedAt, lineage: r.lineage)
            try ledger.setSynced(key)
            result.referenceDataChanged = true
        case .player(let r):
            if let problem = r.problem() { throw StoreError.corruptRecord("player \(r.id): \(problem)") }
            try ledger.saveRemote(validated(r.player, or: StoreError.player), updatedAt: r.updatedAt, retirement: r.retirement)
            try ledger.setSynced(key)
            result.referenceDataChanged = true
        case .round(let r):
            if let problem = r.problem() { throw StoreError.corruptRecord("round \(r.id): \(problem)") }
            try ledger.saveRemote(r.round, updatedAt: r.updatedAt)
            try ledger.setSynced(key)
            result.roundsChanged.insert(r.id)
        case .scoreEvent(let r):
            let inserted = try ledger.insertRemote(r.event)
            try ledger.setSynced(key)
            guard inserted else {
                result.unchanged += 1
                return
            }
            result.eventsInserted += 1
            result.roundsChanged.insert(r.roundID)
        case .event(let r):
            if let problem = r.problem() { throw StoreError.corruptRecord("league night \(r.id): \(problem)") }
            try ledger.saveRemote(validated(r.event, or: StoreError.leagueNight), updatedAt: r.updatedAt)
            try ledger.setSynced(key)
            result.referenceDataChanged = true
        case .season(let r):
            if let problem = r.problem() { throw StoreError.corruptRecord("season \(r.id): \(problem)") }
            try ledger.saveRemote(
                validated(r.season, or: { StoreError.refused("season \(r.id): \($0)") }), updatedAt: r.updatedAt,
                deleted: r.deleted ?? false)
            try ledger.setSynced(key)
            result.referenceDataChanged = true
        }
        result.applied += 1
    }

    static func reconcile(_ pending: [PendingRecord], _ outbox: Outbox) throws -> ReconcileResult {
        let encoder = SyncCoding.encoder()
        var result = ReconcileResult()
        for item in pending {
            let record = item.record
            if let existing = try outbox.entry(record.id), existing.version == record.version {
                if existing.status == .synced {
                    result.alreadySynced.append(RecordVersionKey(kind: record.kind, id: record.id, version: record.version))
                }
                continue
            }
            try outbox.enqueue(
                OutboxEntry(
                    id: record.id, kind: record.kind.rawValue, version: record.version,
                    payload: try encoder.encode(record), kindOrder: record.kind.dependencyOrder,
                    localOrder: item.localOrder))
            result.enqueued += 1
        }
        return result
    }

    static func claim(limit: Int, _ outbox: Outbox) throws -> [OutboxItem] {
        let decoder = SyncCoding.decoder()
        var items: [OutboxItem] = []
        for row in try outbox.pendingPayloads(limit: limit) {
            guard let record = try? decoder.decode(SyncRecord.self, from: row.payload) else {
                try outbox.markUnsendable(row.id, reason: "unreadable outbox payload")
                continue
            }
            try outbox.markInFlight(row.id)
            items.append(OutboxItem(record: record, attempts: row.attempts + 1))
        }
        return items
    }
}

extension ReconcileResult {
    struct AndClaimed: Sendable {
        var reconciled: ReconcileResult
        var claimed: [OutboxItem]
    }
}
