import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol

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

public struct RecordKey: Sendable, Hashable {
    public var kind: RecordKind
    public var id: UUID
    public var version: UUID

    public init(kind: RecordKind, id: UUID, version: UUID) {
        self.kind = kind
        self.id = id
        self.version = version
    }
}

extension HyzerDatabase {
    // MARK: Cursor and epoch

    public func syncCursor() throws -> SyncCursor {
        try domain.read { db in try Self.readCursor(db) }
    }

    static func readCursor(_ db: Database) throws -> SyncCursor {
        var cursor = SyncCursor()
        for row in try Row.fetchAll(db, sql: "SELECT key, value FROM meta WHERE key IN ('sync_stream', 'sync_epoch', 'sync_cursor')") {
            let value: String = row["value"]
            switch row["key"] as String {
            case "sync_stream": cursor.stream = value
            case "sync_epoch": cursor.epoch = value
            default: cursor.cursor = Int64(value) ?? 0
            }
        }
        return cursor
    }

    static func writeCursor(_ cursor: SyncCursor, _ db: Database) throws {
        for (key, value) in [("sync_stream", cursor.stream), ("sync_epoch", cursor.epoch), ("sync_cursor", String(cursor.cursor))] {
            if let value {
                try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                               arguments: [key, value])
            } else {
                try db.execute(sql: "DELETE FROM meta WHERE key = ?", arguments: [key])
            }
        }
    }

    /// Called with the feed and epoch a server reports. Same feed and epoch: nothing to do.
    /// Otherwise (first sync, another server or group, or a server database that was
    /// recreated or restored from a backup) the cursor goes back to zero and *every*
    /// local record becomes pending again, so whatever the server no longer has is pushed
    /// again; it answers `duplicate` for the rest. Returns true when it reset.
    @discardableResult
    public func adoptSyncStream(_ stream: String, epoch: String, force: Bool = false) throws -> Bool {
        try domain.write { db in
            let current = try Self.readCursor(db)
            if current.stream == stream && current.epoch == epoch && !force { return false }
            if current.stream != nil || current.epoch != nil {
                try db.execute(sql: "UPDATE sync_records SET pending = 1 WHERE pending = 0")
            }
            try Self.writeCursor(SyncCursor(stream: stream, epoch: epoch, cursor: 0), db)
            return true
        }
    }

    /// After a push whose records got the seqs right after the cursor, and nothing else
    /// came in between (`head` is the last of them), the feed up to `head` holds only what
    /// this device already has: move the cursor there instead of pulling it back.
    @discardableResult
    public func advanceCursorPastOwnPush(stream: String, epoch: String, createdSeqs: [Int64], head: Int64) throws -> Bool {
        guard !createdSeqs.isEmpty else { return false }
        return try domain.write { db in
            let cursor = try Self.readCursor(db)
            guard cursor.stream == stream, cursor.epoch == epoch else { return false }
            let expected = Set((cursor.cursor + 1)...max(cursor.cursor + 1, head))
            guard head > cursor.cursor, Set(createdSeqs) == expected else { return false }
            try Self.writeCursor(SyncCursor(stream: stream, epoch: epoch, cursor: head), db)
            return true
        }
    }

    // MARK: Local changes to push

    /// Every local record the server has not acknowledged in its current version, in the
    /// order they must be sent (courses, players, rounds, then events by arrival).
    public func pendingSyncRecords(limit: Int = .max) throws -> [PendingRecord] {
        try domain.write { db in
            var result: [PendingRecord] = []
            let keys = try Row.fetchAll(db, sql: """
                SELECT kind, record_id, version FROM sync_records WHERE pending = 1 AND kind != 'scoreEvent'
                """)
            var vanished: [(String, UUID)] = []
            for key in keys {
                let kindName: String = key["kind"]
                let id: UUID = key["record_id"]
                let version: UUID = key["version"]
                guard let kind = RecordKind(rawValue: kindName), let record = try Self.localRecord(kind, id, version, db) else {
                    vanished.append((kindName, id))
                    continue
                }
                result.append(PendingRecord(record: record, localOrder: 0))
            }
            // A row deleted after it was marked (a course deleted locally) has nothing to push.
            for (kind, id) in vanished {
                try db.execute(sql: "DELETE FROM sync_records WHERE kind = ? AND record_id = ?", arguments: [kind, id])
            }
            result.sort { $0.record.kind < $1.record.kind }
            let events = try Row.fetchAll(db, sql: """
                SELECT e.seq, \(Rows.eventColumns.split(separator: ",").map { "e." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
                FROM sync_records s JOIN score_events e ON e.id = s.record_id
                WHERE s.kind = 'scoreEvent' AND s.pending = 1 ORDER BY e.seq LIMIT ?
                """, arguments: [max(0, min(limit, Int(Int32.max)) - result.count)])
            for row in events {
                result.append(PendingRecord(record: .scoreEvent(ScoreEventRecord(Rows.event(row))), localOrder: row["seq"]))
            }
            return Array(result.prefix(limit))
        }
    }

    public func pendingSyncCount() throws -> Int {
        try domain.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sync_records WHERE pending = 1") ?? 0 }
    }

    /// The server has these versions durably: they stop being pending. A record changed
    /// since (another version) stays pending.
    public func acknowledgeSynced(_ keys: [RecordKey]) throws {
        guard !keys.isEmpty else { return }
        try domain.write { db in
            for key in keys {
                try db.execute(sql: """
                    UPDATE sync_records SET pending = 0 WHERE kind = ? AND record_id = ? AND version = ? AND pending = 1
                    """, arguments: [key.kind.rawValue, key.id, key.version])
            }
        }
    }

    static func localRecord(_ kind: RecordKind, _ id: UUID, _ version: UUID, _ db: Database) throws -> SyncRecord? {
        switch kind {
        case .course:
            guard let course = try Rows.courses(db, where: "WHERE c.id = ?", [id]).first,
                  let updated = try Double.fetchOne(db, sql: "SELECT updated_at FROM courses WHERE id = ?", arguments: [id])
            else { return nil }
            return .course(CourseRecord(course, version: version, updatedAt: updated))
        case .player:
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM players WHERE id = ?", arguments: [id]) else { return nil }
            return .player(PlayerRecord(try Rows.player(row), version: version, updatedAt: row["updated_at"]))
        case .round:
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM rounds WHERE id = ?", arguments: [id]) else { return nil }
            return .round(RoundRecord(try Rows.round(row, db), version: version, updatedAt: row["updated_at"]))
        case .scoreEvent:
            return try Row.fetchOne(db, sql: "SELECT \(Rows.eventColumns) FROM score_events WHERE id = ?", arguments: [id])
                .map { .scoreEvent(ScoreEventRecord(Rows.event($0))) }
        }
    }

    /// The stamp of the local copy of a mutable record, for last-writer-wins.
    static func localStamp(_ kind: RecordKind, _ id: UUID, _ db: Database) throws -> ChangeStamp? {
        let version = try UUID.fetchOne(db, sql: "SELECT version FROM sync_records WHERE kind = ? AND record_id = ?",
                                        arguments: [kind.rawValue, id]) ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        switch kind {
        case .course, .player:
            let table = kind == .course ? "courses" : "players"
            return try Double.fetchOne(db, sql: "SELECT updated_at FROM \(table) WHERE id = ?", arguments: [id])
                .map { ChangeStamp(updatedAt: $0, version: version) }
        case .round:
            guard let row = try Row.fetchOne(db, sql: "SELECT status, updated_at FROM rounds WHERE id = ?", arguments: [id]),
                  let status = RoundStatus(rawValue: row["status"]) else { return nil }
            return ChangeStamp(lifecycle: ChangeStamp.lifecycle(of: status), updatedAt: row["updated_at"], version: version)
        case .scoreEvent:
            return nil
        }
    }

    static func setSynced(_ kind: RecordKind, _ id: UUID, version: UUID, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO sync_records (kind, record_id, version, pending) VALUES (?, ?, ?, 0)
            ON CONFLICT (kind, record_id) DO UPDATE SET version = excluded.version, pending = 0
            """, arguments: [kind.rawValue, id, version])
    }
}
