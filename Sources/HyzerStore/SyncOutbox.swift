import Foundation
import GRDB
import HyzerSyncProtocol

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

public struct OutboxItem: Sendable, Hashable {
    public var record: SyncRecord
    public var attempts: Int
    public var key: RecordKey { RecordKey(kind: record.kind, id: record.id, version: record.version) }
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
    public var alreadySynced: [RecordKey] = []
}

/// The operational side of sync (sync.sqlite). Everything here can be rebuilt: the
/// domain store's `sync_records` says what is not on the server yet, so a lost or
/// recreated sync.sqlite only costs a re-push that the server answers with `duplicate`.
extension HyzerDatabase {
    /// Makes the outbox match the pending records: new ones and new versions become
    /// `pending`; a version already `failed` stays failed (retrying cannot help).
    public func reconcileOutbox(with pending: [PendingRecord], at date: Date = Date()) throws -> ReconcileResult {
        try operational.write { db in try Self.reconcile(pending, at: date, db) }
    }

    /// Reconcile and claim in one transaction (one fsync fewer on the way to the server).
    public func reconcileAndClaimOutbox(with pending: [PendingRecord], limit: Int, at date: Date = Date()) throws
        -> (reconciled: ReconcileResult, claimed: [OutboxItem])
    {
        try operational.write { db in
            (try Self.reconcile(pending, at: date, db), try Self.claim(limit: limit, at: date, db))
        }
    }

    static func reconcile(_ pending: [PendingRecord], at date: Date, _ db: Database) throws -> ReconcileResult {
        let encoder = SyncCoding.encoder()
        do {
            var result = ReconcileResult()
            for item in pending {
                let record = item.record
                let existing = try Row.fetchOne(db, sql: "SELECT status, version FROM outbox WHERE record_id = ?",
                                                arguments: [record.id])
                if let existing, (existing["version"] as UUID?) == record.version {
                    if existing["status"] as String == OutboxStatus.synced.rawValue {
                        result.alreadySynced.append(RecordKey(kind: record.kind, id: record.id, version: record.version))
                    }
                    continue
                }
                try db.execute(sql: """
                    INSERT INTO outbox (record_id, record_type, status, attempts, last_error, enqueued_at, updated_at,
                                        version, payload, kind_order, local_order, server_seq)
                    VALUES (?, ?, 'pending', 0, NULL, ?, ?, ?, ?, ?, ?, NULL)
                    ON CONFLICT(record_id) DO UPDATE SET record_type = excluded.record_type, status = 'pending',
                        attempts = 0, last_error = NULL, updated_at = excluded.updated_at, version = excluded.version,
                        payload = excluded.payload, kind_order = excluded.kind_order,
                        local_order = excluded.local_order, server_seq = NULL
                    """, arguments: [record.id, record.kind.rawValue, date.timeIntervalSince1970, date.timeIntervalSince1970,
                                     record.version, try encoder.encode(record), record.kind.dependencyOrder, item.localOrder])
                result.enqueued += 1
            }
            return result
        }
    }

    /// A1: takes up to `limit` pending rows and marks them inFlight in one transaction,
    /// before the caller awaits the network.
    public func claimOutbox(limit: Int, at date: Date = Date()) throws -> [OutboxItem] {
        try operational.write { db in try Self.claim(limit: limit, at: date, db) }
    }

    static func claim(limit: Int, at date: Date, _ db: Database) throws -> [OutboxItem] {
        let decoder = SyncCoding.decoder()
        do {
            let rows = try Row.fetchAll(db, sql: """
                SELECT record_id, payload, attempts FROM outbox WHERE status = 'pending' AND payload IS NOT NULL
                ORDER BY kind_order, local_order, enqueued_at LIMIT ?
                """, arguments: [limit])
            var items: [OutboxItem] = []
            for row in rows {
                let id: UUID = row["record_id"]
                guard let record = try? decoder.decode(SyncRecord.self, from: row["payload"] as Data) else {
                    try db.execute(sql: "UPDATE outbox SET status = 'failed', last_error = ? WHERE record_id = ?",
                                   arguments: ["unreadable outbox payload", id])
                    continue
                }
                try db.execute(sql: "UPDATE outbox SET status = 'inFlight', attempts = attempts + 1, updated_at = ? WHERE record_id = ?",
                               arguments: [date.timeIntervalSince1970, id])
                items.append(OutboxItem(record: record, attempts: (row["attempts"] as Int) + 1))
            }
            return items
        }
    }

    /// Records the server's answers. Only rows still inFlight *with the answered version*
    /// change: a newer local version enqueued meanwhile stays pending. Returns the keys
    /// that are now synced, for `acknowledgeSynced`.
    public func completeOutbox(_ results: [PushResult], at date: Date = Date()) throws -> [RecordKey] {
        try operational.write { db in
            var synced: [RecordKey] = []
            for r in results {
                switch r.status {
                case .created, .duplicate:
                    try db.execute(sql: """
                        UPDATE outbox SET status = 'synced', server_seq = ?, last_error = NULL, updated_at = ?
                        WHERE record_id = ? AND version = ? AND status = 'inFlight'
                        """, arguments: [r.seq, date.timeIntervalSince1970, r.id, r.version])
                    synced.append(RecordKey(kind: r.kind, id: r.id, version: r.version))
                case .rejected:
                    try db.execute(sql: """
                        UPDATE outbox SET status = 'failed', last_error = ?, updated_at = ?
                        WHERE record_id = ? AND version = ? AND status = 'inFlight'
                        """, arguments: [r.reason ?? "rejected", date.timeIntervalSince1970, r.id, r.version])
                }
            }
            return synced
        }
    }

    /// A push that got no answer: its rows go back to pending for a retry.
    public func releaseInFlight(_ keys: [RecordKey], error: String, at date: Date = Date()) throws {
        try operational.write { db in
            for key in keys {
                try db.execute(sql: """
                    UPDATE outbox SET status = 'pending', last_error = ?, updated_at = ?
                    WHERE record_id = ? AND version = ? AND status = 'inFlight'
                    """, arguments: [error, date.timeIntervalSince1970, key.id, key.version])
            }
        }
    }

    /// At start-up: a push interrupted by a crash or power cut never got its answer, so
    /// every inFlight row is pending again (the server deduplicates the retry by id).
    @discardableResult
    public func resetInFlightOutbox() throws -> Int {
        try operational.write { db in
            try db.execute(sql: "UPDATE outbox SET status = 'pending' WHERE status = 'inFlight'")
            return db.changesCount
        }
    }

    /// A new server epoch: nothing acknowledged before can be trusted to be there.
    public func resetOutboxForNewEpoch() throws {
        try operational.write { db in
            try db.execute(sql: "UPDATE outbox SET status = 'pending', attempts = 0, server_seq = NULL WHERE status IN ('synced', 'failed')")
        }
    }

    public func outboxCounts() throws -> [OutboxStatus: Int] {
        try operational.read { db in
            var counts: [OutboxStatus: Int] = [:]
            for row in try Row.fetchAll(db, sql: "SELECT status, COUNT(*) AS n FROM outbox GROUP BY status") {
                if let status = OutboxStatus(rawValue: row["status"]) { counts[status] = row["n"] }
            }
            return counts
        }
    }

    public func failedOutbox(limit: Int = 100) throws -> [FailedRecord] {
        try operational.read { db in
            try Row.fetchAll(db, sql: """
                SELECT record_id, record_type, last_error FROM outbox WHERE status = 'failed' ORDER BY updated_at DESC LIMIT ?
                """, arguments: [limit]).map { row in
                FailedRecord(kind: RecordKind(rawValue: row["record_type"]) ?? .scoreEvent, id: row["record_id"],
                             reason: row["last_error"] ?? "rejected")
            }
        }
    }

    public func outboxStatus(of id: UUID) throws -> OutboxStatus? {
        try operational.read { db in
            try String.fetchOne(db, sql: "SELECT status FROM outbox WHERE record_id = ?", arguments: [id]).flatMap(OutboxStatus.init)
        }
    }
}
