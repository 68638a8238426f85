import Foundation
import GRDB

/// The outbox states of amendment A1.
public enum OutboxStatus: String, Sendable, CaseIterable {
    /// Written locally, not yet pushed (or pushed and the attempt failed in transit).
    case pending
    /// Claimed by a push that is awaiting the server. Marked *before* the await, so a
    /// second, re-entrant push never sends the same record twice.
    case inFlight
    /// The server acknowledged this version after committing it durably.
    case synced
    /// The server refused this version for good (the UI shows these). Only a permanent
    /// rejection lands here; network trouble leaves a row pending.
    case failed
}

/// One record to send, as the sync layer encoded it: the store keeps the bytes opaque,
/// so a retry sends exactly the same ones.
public struct OutboxEntry: Sendable, Hashable {
    public var id: UUID
    public var kind: String
    public var version: UUID
    public var payload: Data
    /// Sending order: kinds first (dependencies before dependents), then local order.
    public var kindOrder: Int
    public var localOrder: Int64

    public init(id: UUID, kind: String, version: UUID, payload: Data, kindOrder: Int, localOrder: Int64) {
        self.id = id
        self.kind = kind
        self.version = version
        self.payload = payload
        self.kindOrder = kindOrder
        self.localOrder = localOrder
    }
}

/// A pending row taken by `Outbox.pendingPayloads`, to be claimed or failed.
public struct OutboxPayload: Sendable, Hashable {
    public var id: UUID
    public var payload: Data
    public var attempts: Int
}

/// A row the server refused for good.
public struct OutboxFailure: Sendable, Hashable {
    public var id: UUID
    public var kind: String
    public var reason: String
}

/// A transaction's access to the outbox in the operational database (sync.sqlite).
/// Everything here can be rebuilt from the domain store's change tracking, so a lost or
/// recreated sync.sqlite only costs a re-push that the server answers with `duplicate`.
public struct Outbox {
    let db: Database
    /// The time of the write, from the store's clock.
    public let now: Date

    private var seconds: Double { now.timeIntervalSince1970 }

    private static func row(_ id: UUID, version: UUID, status: OutboxStatus) -> QueryInterfaceRequest<OutboxRow> {
        OutboxRow.filter(
            OutboxRow.Columns.recordID == id && OutboxRow.Columns.version == version
                && OutboxRow.Columns.status == status.rawValue)
    }

    /// The status and version of the row of `id`, if any.
    public func entry(_ id: UUID) throws -> (status: OutboxStatus?, version: UUID?)? {
        try OutboxRow.fetchOne(db, key: id).map { (OutboxStatus(rawValue: $0.status), $0.version) }
    }

    /// Puts `entry` in the outbox as pending, replacing whatever version was there.
    public func enqueue(_ entry: OutboxEntry) throws {
        try OutboxRow(
            recordID: entry.id, recordType: entry.kind, status: OutboxStatus.pending.rawValue, attempts: 0,
            lastError: nil, enqueuedAt: seconds, updatedAt: seconds, version: entry.version,
            payload: entry.payload, kindOrder: entry.kindOrder, localOrder: entry.localOrder, serverSeq: nil
        )
        .upsert(db)
    }

    /// Up to `limit` pending rows in sending order; the caller claims or fails each in
    /// the same transaction.
    public func pendingPayloads(limit: Int) throws -> [OutboxPayload] {
        try OutboxRow
            .filter(OutboxRow.Columns.status == OutboxStatus.pending.rawValue && OutboxRow.Columns.payload != nil)
            .order(OutboxRow.Columns.kindOrder, OutboxRow.Columns.localOrder, OutboxRow.Columns.enqueuedAt)
            .limit(limit)
            .fetchAll(db)
            .map { OutboxPayload(id: $0.recordID, payload: $0.payload ?? Data(), attempts: $0.attempts) }
    }

    /// A1: marks a row inFlight (before the caller awaits the network).
    public func markInFlight(_ id: UUID) throws {
        try OutboxRow.filter(key: id).updateAll(
            db,
            [
                OutboxRow.Columns.status.set(to: OutboxStatus.inFlight.rawValue),
                OutboxRow.Columns.attempts.set(to: OutboxRow.Columns.attempts + 1),
                OutboxRow.Columns.updatedAt.set(to: seconds),
            ])
    }

    /// A row that can never be sent (its payload cannot be read).
    public func markUnsendable(_ id: UUID, reason: String) throws {
        try OutboxRow.filter(key: id).updateAll(
            db,
            [
                OutboxRow.Columns.status.set(to: OutboxStatus.failed.rawValue),
                OutboxRow.Columns.lastError.set(to: reason),
            ])
    }

    /// Ends the push of this version with `outcome`, stamped with the write's time. Only a
    /// row still inFlight *with that version* changes: a newer local version enqueued
    /// meanwhile stays pending.
    private func settle(_ id: UUID, version: UUID, _ outcome: [ColumnAssignment]) throws {
        try Self.row(id, version: version, status: .inFlight).updateAll(
            db, outcome + [OutboxRow.Columns.updatedAt.set(to: seconds)])
    }

    /// The server has this version.
    public func markSynced(_ id: UUID, version: UUID, serverSeq: Int64?) throws {
        try settle(
            id, version: version,
            [
                OutboxStatus.synced.assignment,
                OutboxRow.Columns.serverSeq.set(to: serverSeq),
                OutboxRow.Columns.lastError.set(to: nil),
            ])
    }

    /// The server refused this version for good.
    public func markFailed(_ id: UUID, version: UUID, reason: String) throws {
        try settle(id, version: version, [OutboxStatus.failed.assignment, OutboxRow.Columns.lastError.set(to: reason)])
    }

    /// A push that got no answer: the row goes back to pending for a retry.
    public func release(_ id: UUID, version: UUID, error: String) throws {
        try settle(id, version: version, [OutboxStatus.pending.assignment, OutboxRow.Columns.lastError.set(to: error)])
    }

    /// At start-up: a push interrupted by a crash or power cut never got its answer, so
    /// every inFlight row is pending again (the server deduplicates the retry by id).
    public func resetInFlight() throws -> Int {
        try OutboxRow.filter(OutboxRow.Columns.status == OutboxStatus.inFlight.rawValue)
            .updateAll(db, OutboxRow.Columns.status.set(to: OutboxStatus.pending.rawValue))
    }

    /// A new server epoch: nothing acknowledged before can be trusted to be there.
    public func resetForNewEpoch() throws {
        try OutboxRow.filter([OutboxStatus.synced.rawValue, OutboxStatus.failed.rawValue].contains(OutboxRow.Columns.status))
            .updateAll(
                db,
                [
                    OutboxRow.Columns.status.set(to: OutboxStatus.pending.rawValue),
                    OutboxRow.Columns.attempts.set(to: 0),
                    OutboxRow.Columns.serverSeq.set(to: nil),
                ])
    }

    public func counts() throws -> [OutboxStatus: Int] {
        var counts: [OutboxStatus: Int] = [:]
        for status in OutboxStatus.allCases {
            let n = try OutboxRow.filter(OutboxRow.Columns.status == status.rawValue).fetchCount(db)
            if n > 0 { counts[status] = n }
        }
        return counts
    }

    public func failures(limit: Int) throws -> [OutboxFailure] {
        try OutboxRow.filter(OutboxRow.Columns.status == OutboxStatus.failed.rawValue)
            .order(OutboxRow.Columns.updatedAt.desc).limit(limit).fetchAll(db)
            .map { OutboxFailure(id: $0.recordID, kind: $0.recordType, reason: $0.lastError ?? "rejected") }
    }

    public func status(of id: UUID) throws -> OutboxStatus? {
        try OutboxRow.fetchOne(db, key: id).flatMap { OutboxStatus(rawValue: $0.status) }
    }
}

extension OutboxStatus {
    /// `status = self`, for the updates that move a row.
    fileprivate var assignment: ColumnAssignment { OutboxRow.Columns.status.set(to: rawValue) }
}

extension Outbox: StoreScope {
    static var target: StoreTarget { .operational }
}

extension StoreWrite {
    /// A write of the outbox (operational database), in one transaction.
    public static func outbox(_ body: @escaping @Sendable (Outbox) throws -> Value) -> Self { scoped(body) }
}

extension StoreRead {
    /// A read of the outbox; writes through it throw.
    public static func outbox(_ body: @escaping @Sendable (Outbox) throws -> Value) -> Self { scoped(body) }
}
