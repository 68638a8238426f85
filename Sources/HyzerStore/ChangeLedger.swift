import Foundation
import GRDB
import HyzerKit

// The store's half of sync: generic capabilities that know nothing of the wire. The
// domain database tracks which records the server has not acknowledged (`sync_records`
// for courses, players and rounds; `sync_pending_events` for score events), keeps a small
// key-value cursor, and applies records that came from elsewhere under the domain's
// rules. HyzerSync maps these domain values to and from wire records and decides.

/// What kind of record a change is about (the `kind` of `sync_records`).
public enum ChangeKind: String, Sendable, Hashable, CaseIterable {
    case course, player, round, scoreEvent
    /// A league night (issue 36).
    case event
    /// A season (issue 37).
    case season
}

/// One version of one record.
public struct ChangeKey: Sendable, Hashable {
    public var kind: ChangeKind
    public var id: UUID
    /// The change id: a fresh UUID on every change of a course, player or round; the
    /// event's own id for a score event (immutable).
    public var version: UUID

    public init(kind: ChangeKind, id: UUID, version: UUID) {
        self.kind = kind
        self.id = id
        self.version = version
    }
}

/// A local record the server has not acknowledged in its current version.
public enum LocalChange: Sendable, Hashable {
    case course(Course, version: UUID, updatedAt: Double, lineage: CourseLineage)
    /// A deleted course (its tombstone): the name stays for the rounds that name it.
    case courseDeleted(id: UUID, name: String, version: UUID, updatedAt: Double, lineage: CourseLineage)
    /// `retirement` is set for a player removed or merged (issue 35).
    case player(Player, version: UUID, updatedAt: Double, retirement: PlayerRetirement?)
    case round(Round, version: UUID, updatedAt: Double)
    case event(LeagueEvent, version: UUID, updatedAt: Double)
    case season(Season, version: UUID, updatedAt: Double, deleted: Bool)
    /// `seq` is local arrival order.
    case scoreEvent(ScoreEvent, seq: Int64)
}

/// The local copy's version of a mutable record, for a last-writer-wins comparison.
public struct LocalVersion: Sendable, Hashable {
    public var updatedAt: Double
    public var version: UUID
    /// Rounds only.
    public var status: RoundStatus?
    /// Courses, seasons: this device has it as deleted. League nights: as discarded.
    public var deleted = false
    /// Rounds and courses: how many times reopened or restored (issue 35).
    public var generation = 0
    /// Players only: removed or merged here.
    public var retirement: PlayerRetirement?
}

/// A write transaction's (or a read's) access to the sync bookkeeping of the domain
/// database. Only named operations: the SQL stays in this module. Writes through a
/// ledger made for a read throw.
public struct ChangeLedger {
    let db: Database
    /// The time of the write, from the store's clock.
    public let now: Date

    // MARK: Cursor (key-value)

    /// Cursor values live in `meta` under a `sync_` prefix, apart from the device id and
    /// seed markers.
    private static func metaKey(_ key: String) -> String { "sync_" + key }

    public func cursorValue(_ key: String) throws -> String? {
        try MetaRow.fetchOne(db, key: Self.metaKey(key))?.value
    }

    /// Sets (or with nil removes) a cursor value; it commits with the rest of the write.
    public func setCursorValue(_ value: String?, for key: String) throws {
        if let value {
            // `save` rather than `upsert`: GRDB's upsert reads back a rowid, and `meta` is
            // a WITHOUT ROWID table.
            try MetaRow(key: Self.metaKey(key), value: value).save(db)
        } else {
            try MetaRow.deleteOne(db, key: Self.metaKey(key))
        }
    }

    // MARK: Change tracking

    /// Every record is "not known to be on the server" again (a new server epoch).
    public func markAllPending() throws {
        try ChangeRow.filter(ChangeRow.Columns.pending == false).updateAll(db, ChangeRow.Columns.pending.set(to: true))
        try db.execute(
            literal: """
                INSERT OR IGNORE INTO sync_pending_events (event_seq) SELECT seq FROM score_events
                """)
    }

    /// What the caller is not sending yet, because the server has not said it takes it:
    /// whole kinds, and league nights ranked by net (issue 37: a server before protocol 5
    /// would keep such a night without its `net`).
    public struct Holding: Sendable, Equatable {
        public var kinds: Set<ChangeKind>
        public var netNights: Bool

        public init(kinds: Set<ChangeKind> = [], netNights: Bool = false) {
            self.kinds = kinds
            self.netNights = netNights
        }
    }

    /// `holding`: what the caller is not sending yet, left out of the count.
    public func pendingCount(holding: Holding = Holding()) throws -> Int {
        try Self.pending(holding: holding).fetchCount(db) + PendingEventRow.fetchCount(db)
    }

    /// Tracked records not acknowledged in their current version, but for what is held.
    private static func pending(holding: Holding) -> QueryInterfaceRequest<ChangeRow> {
        var request = ChangeRow.filter(
            ChangeRow.Columns.pending == true && !holding.kinds.map(\.rawValue).contains(ChangeRow.Columns.kind))
        if holding.netNights {
            request = request.filter(
                literal: """
                    NOT (kind = \(ChangeKind.event.rawValue)
                         AND record_id IN (SELECT id FROM league_events WHERE net))
                    """)
        }
        return request
    }

    /// The pending records in the order they must be sent: courses, players, rounds,
    /// league nights, then score events by arrival; at most `limit`. A tracked course that
    /// was deleted since has nothing to send, and stops being tracked. Kinds in `holding`
    /// stay pending, unsent.
    public func pendingChanges(limit: Int, holding: Holding = Holding()) throws -> [LocalChange] {
        var result: [LocalChange] = []
        var vanished: [ChangeRow] = []
        for row in try Self.pending(holding: holding).fetchAll(db) {
            guard let kind = ChangeKind(rawValue: row.kind), let change = try localChange(kind, row.recordID, row.version)
            else {
                vanished.append(row)
                continue
            }
            result.append(change)
        }
        for row in vanished { try row.delete(db) }
        result.sort { Self.order($0) < Self.order($1) }
        let remaining = max(0, min(limit, Int(Int32.max)) - result.count)
        let pendingSeqs = PendingEventRow.select(PendingEventRow.Columns.eventSeq)
        let events = try ScoreEventRow.filter(pendingSeqs.contains(ScoreEventRow.Columns.seq))
            .order(ScoreEventRow.Columns.seq).limit(remaining).fetchAll(db)
        for row in events { result.append(.scoreEvent(Rows.event(row), seq: row.seq ?? 0)) }
        return Array(result.prefix(limit))
    }

    private static func order(_ change: LocalChange) -> Int {
        switch change {
        case .course, .courseDeleted: 0
        case .player: 1
        case .round: 2
        case .event, .season: 3
        case .scoreEvent: 4
        }
    }

    private func localChange(_ kind: ChangeKind, _ id: UUID, _ version: UUID) throws -> LocalChange? {
        switch kind {
        case .course:
            guard let row = try CourseRow.fetchOne(db, key: id) else { return nil }
            let lineage = Rows.lineage(row)
            if row.deletedAt != nil {
                return .courseDeleted(id: id, name: row.name, version: version, updatedAt: row.updatedAt, lineage: lineage)
            }
            return try Rows.course(id: id, db).map {
                .course($0, version: version, updatedAt: row.updatedAt, lineage: lineage)
            }
        case .player:
            guard let row = try PlayerRow.fetchOne(db, key: id) else { return nil }
            return .player(try Rows.player(row), version: version, updatedAt: row.updatedAt, retirement: Rows.retirement(row))
        case .round:
            guard let row = try RoundRow.fetchOne(db, key: id) else { return nil }
            return .round(try Rows.round(row, db), version: version, updatedAt: row.updatedAt)
        case .scoreEvent:
            return try ScoreEventRow.filter(ScoreEventRow.Columns.id == id).fetchOne(db)
                .map { .scoreEvent(Rows.event($0), seq: $0.seq ?? 0) }
        case .event:
            guard let row = try LeagueEventRow.fetchOne(db, key: id) else { return nil }
            return .event(try Rows.leagueEvent(row), version: version, updatedAt: row.updatedAt)
        case .season:
            return try localSeasonChange(id, version)
        }
    }

    /// The server has these versions durably: they stop being pending. A record changed
    /// since (another version) stays pending.
    public func acknowledge(_ keys: [ChangeKey]) throws {
        for key in keys {
            if key.kind == .scoreEvent {
                try clearPendingEvent(key.id)
            } else {
                try ChangeRow
                    .filter(
                        ChangeRow.Columns.kind == key.kind.rawValue && ChangeRow.Columns.recordID == key.id
                            && ChangeRow.Columns.version == key.version && ChangeRow.Columns.pending == true
                    )
                    .updateAll(db, ChangeRow.Columns.pending.set(to: false))
            }
        }
    }

    private func clearPendingEvent(_ id: UUID) throws {
        let seq = ScoreEventRow.filter(ScoreEventRow.Columns.id == id).select(ScoreEventRow.Columns.seq)
        try PendingEventRow.filter(seq.contains(PendingEventRow.Columns.eventSeq)).deleteAll(db)
    }

    /// Records `key` as the version the server has, not pending: what a pulled record
    /// leaves behind, so nothing pulled is ever pushed back.
    public func setSynced(_ key: ChangeKey) throws {
        if key.kind == .scoreEvent {
            try clearPendingEvent(key.id)
        } else {
            // `save` (update, else insert) rather than `upsert`: `sync_records` is a WITHOUT
            // ROWID table, and GRDB's upsert reads back a rowid.
            try ChangeRow(kind: key.kind.rawValue, recordID: key.id, version: key.version, pending: false).save(db)
        }
    }

    /// The local copy's version of a course, player or round; nil when there is none
    /// (and for score events, which never compete).
    public func localVersion(_ kind: ChangeKind, _ id: UUID) throws -> LocalVersion? {
        let version =
            try ChangeRow.fetchOne(db, key: ["kind": kind.rawValue, "record_id": id])?.version
            ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        switch kind {
        case .course:
            return try CourseRow.fetchOne(db, key: id).map {
                LocalVersion(
                    updatedAt: $0.updatedAt, version: version, deleted: $0.deletedAt != nil, generation: $0.generation)
            }
        case .player:
            return try PlayerRow.fetchOne(db, key: id).map {
                LocalVersion(updatedAt: $0.updatedAt, version: version, retirement: Rows.retirement($0))
            }
        case .round:
            guard let row = try RoundRow.fetchOne(db, key: id), let status = RoundStatus(rawValue: row.status) else {
                return nil
            }
            return LocalVersion(updatedAt: row.updatedAt, version: version, status: status, generation: row.generation)
        case .scoreEvent:
            return nil
        case .event:
            return try LeagueEventRow.fetchOne(db, key: id).map {
                LocalVersion(updatedAt: $0.updatedAt, version: version, deleted: $0.discardedAt != nil)
            }
        case .season:
            return try localSeasonVersion(id, version)
        }
    }

    // MARK: Records from elsewhere

    /// A newer version of a course from elsewhere, stored with its own time. The caller
    /// records its version with `setSynced`.
    public func saveRemote(_ course: Course, updatedAt: Double, lineage: CourseLineage = .original) throws {
        try refusing { try Rows.save(course, at: updatedAt, lineage: lineage, db) }
    }

    /// A course deleted elsewhere. A course this device never had is kept as just its
    /// tombstone (a name, no holes), so a round that names it still finds its name.
    public func saveRemoteDeletion(
        ofCourse id: UUID, name: String, updatedAt: Double, lineage: CourseLineage = .original
    ) throws {
        try refusing {
            if try CourseRow.exists(db, key: id) {
                try CourseRow.filter(key: id).updateAll(
                    db,
                    [
                        CourseRow.Columns.name.set(to: name), CourseRow.Columns.deletedAt.set(to: updatedAt),
                        CourseRow.Columns.updatedAt.set(to: updatedAt),
                        CourseRow.Columns.generation.set(to: lineage.generation),
                        CourseRow.Columns.action.set(to: Rows.json(lineage.action)),
                    ])
            } else {
                try CourseRow(
                    id: id, name: name, updatedAt: updatedAt, deletedAt: updatedAt, generation: lineage.generation,
                    action: Rows.json(lineage.action)
                ).insert(db)
            }
        }
    }

    public func saveRemote(_ player: Player, updatedAt: Double, retirement: PlayerRetirement? = nil) throws {
        try refusing { try Rows.save(player, at: updatedAt, retirement: retirement, db) }
    }

    /// A newer version of a league night (issue 36), stored with its own time. Its course
    /// must be here; its rounds may come later.
    public func saveRemote(_ event: LeagueEvent, updatedAt: Double) throws {
        try refusing {
            guard try CourseRow.exists(db, key: event.courseID) else {
                throw StoreError.notFound("course \(event.courseID) of league night \(event.id)")
            }
            try Rows.save(event, at: updatedAt, db)
        }
    }

    /// A newer version of a round. The participant list can only change while the round
    /// is in setup here (the SQL lock, FR13), so a new round is inserted in setup, given
    /// its participants, and only then moved to its status.
    ///
    /// A round from an older device names no pars: it keeps the ones this device already
    /// recorded for it, or takes its course's pars as they are here on arrival.
    public func saveRemote(_ round: Round, updatedAt: Double) throws {
        try refusing {
            guard try CourseRow.exists(db, key: round.courseID) else {
                throw StoreError.notFound("course \(round.courseID) of round \(round.id)")
            }
            let local = try Rows.round(id: round.id, db)
            var round = round
            if round.pars.isEmpty {
                let known = local?.pars ?? []
                round = round.recordingPars(known.isEmpty ? (try Rows.course(id: round.courseID, db)?.pars ?? []) : known)
            }
            if local == nil {
                try RoundRow(
                    id: round.id, courseID: round.courseID, organizerID: round.organizerID,
                    status: RoundStatus.setup.rawValue, createdAt: Rows.seconds(round.createdAt),
                    startedAt: nil, completedAt: nil, updatedAt: updatedAt, pars: Rows.parsText(round.pars),
                    startHole: round.startHole
                ).insert(db)
            }
            if local == nil || local?.status == .setup {
                try RoundRow.filter(key: round.id).updateAll(
                    db,
                    [
                        RoundRow.Columns.courseID.set(to: round.courseID),
                        RoundRow.Columns.organizerID.set(to: round.organizerID),
                        RoundRow.Columns.startHole.set(to: round.startHole),
                    ])
                if local?.participants != round.participants {
                    try ParticipantRow.filter(ParticipantRow.Columns.roundID == round.id).deleteAll(db)
                    for (ordinal, p) in round.participants.enumerated() {
                        try Rows.insertParticipant(p, ordinal: ordinal, round: round.id, db)
                    }
                }
            }
            // Once started the list is locked here; a differing remote list can only come
            // from a concurrent setup elsewhere, and the server refuses it, so keep ours.
            try Rows.updateStatus(of: round, at: updatedAt, db)
        }
    }

    /// Inserts a score event from elsewhere once; false when it is already here. The
    /// server accepted it while the round was open, and its order is the truth: if this
    /// device already finished the round, the event is still stored (the round is
    /// reopened for the insert and closed again, inside this transaction), or this device
    /// would disagree with every other one forever. The caller records it with `setSynced`.
    public func insertRemote(_ event: ScoreEvent) throws -> Bool {
        try refusing {
            if try Rows.eventExists(event.id, db) { return false }
            guard let round = try Rows.round(id: event.roundID, db) else { throw StoreError.notFound("round \(event.roundID)") }
            guard let course = try Rows.course(of: round, db) else {
                throw StoreError.notFound("course \(round.courseID)")
            }
            let known = try Rows.events(round: round.id, participant: event.participantID, hole: event.hole, db)
            var open = round
            if round.status == .completed || round.status == .setup {
                open = Round(
                    id: round.id, courseID: round.courseID, organizerID: round.organizerID,
                    participants: round.participants, status: .active, createdAt: round.createdAt, pars: round.pars)
            }
            do throws(ScoringError) {
                try event.validate(in: open, course: course, known: Dictionary(uniqueKeysWithValues: known.map { ($0.id, $0) }))
            } catch { throw StoreError.scoring(error) }

            if round.status.acceptsScores {
                try Rows.insert(event, db)
            } else {
                // Reopen, insert, restore; and put back the round's sync bookkeeping, which
                // the two status updates would otherwise mark as a new local version.
                let saved = try ChangeRow.fetchOne(db, key: ["kind": ChangeKind.round.rawValue, "record_id": round.id])
                let status = RoundRow.filter(key: round.id)
                try status.updateAll(db, RoundRow.Columns.status.set(to: RoundStatus.active.rawValue))
                try Rows.insert(event, db)
                try status.updateAll(db, RoundRow.Columns.status.set(to: round.status.rawValue))
                try saved?.update(db)
            }
            return true
        }
    }

    /// FR14 for scores from elsewhere too: those of `rounds` that are active and now fully
    /// scored move to awaitingFinalization. Returns them.
    public func markFullyScored(_ rounds: some Sequence<UUID>) throws -> Set<UUID> {
        var changed: Set<UUID> = []
        for id in rounds {
            guard var round = try Rows.round(id: id, db), round.status == .active,
                let course = try Rows.course(of: round, db)
            else { continue }
            if try Rows.allCellsScored(round, course: course, db) {
                round.markAllScored()
                try Rows.updateStatus(of: round, at: Rows.seconds(now), db)
                changed.insert(id)
            }
        }
        return changed
    }

    /// A record SQLite refuses (a constraint or trigger) is reported as `StoreError`, so
    /// the caller can skip that one record and keep the rest of the page.
    func refusing<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as DatabaseError {
            throw StoreError.refused(error.message ?? "\(error)")
        }
    }
}

extension ChangeLedger: StoreScope {
    static var target: StoreTarget { .domain }
}

extension StoreWrite {
    /// A write of sync bookkeeping on the domain database, in one transaction with the
    /// domain changes it makes (a pulled page and its cursor commit together or not at all).
    public static func changeLedger(_ body: @escaping @Sendable (ChangeLedger) throws -> Value) -> Self {
        scoped(body)
    }
}

extension StoreRead {
    /// A read of sync bookkeeping (cursor, pending records); writes through it throw.
    public static func changeLedger(_ body: @escaping @Sendable (ChangeLedger) throws -> Value) -> Self {
        scoped(body)
    }
}
