import Foundation
import GRDB
import HyzerKit
import HyzerSyncProtocol
import Logging

/// The server's SQLite store (GRDB), one file in the data directory.
///
/// `changes` is the group's append-only change feed (CouchDB `_changes`): every accepted
/// statement gets the next `seq`, and pull reads it in order. `current_records` holds the
/// winning version of each mutable record and `events` indexes score events by cell; both
/// exist to validate new pushes.
///
/// Durability: WAL with `synchronous=FULL`, and a push returns only after its transaction
/// committed, so an acknowledgement is never ahead of the disk (Couchbase Lite's rule).
public final class SQLiteStorage: SyncStorage {
    public static let fileName = "hyzer-server.sqlite"
    static let stateFileName = "hyzer-server.state"

    public let directory: URL
    let pool: DatabasePool
    private let epochBox: LockedValue<String>
    private let headMark: LockedValue<Int64>
    let logger: Logger

    public var epoch: String { epochBox.withLock { $0 } }

    public init(directory: URL, logger: Logger = Logger(label: "hyzer.server.storage")) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.directory = directory
        self.logger = logger
        var config = Configuration()
        config.busyMode = .timeout(10)
        config.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        pool = try DatabasePool(path: directory.appendingPathComponent(Self.fileName).path, configuration: config)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA synchronous = FULL") }
        try Self.migrator.migrate(pool)

        // Epoch: a new database gets a fresh one at creation. A database that is *older*
        // than the one this directory last served (restored from a backup), or one whose
        // lineage the state file does not know, gets a new one too: devices then re-pull
        // from zero and re-push whatever the server no longer has.
        let (storedEpoch, head) = try pool.read { db in
            (try String.fetchOne(db, sql: "SELECT value FROM server_meta WHERE key = 'epoch'") ?? "",
             try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM changes") ?? 0)
        }
        var epoch = storedEpoch
        let state = Self.readState(directory)
        let reason: String? = switch state {
        case nil where head > 0: "no state file for a non-empty database"
        case let s? where s.epoch != storedEpoch: "the database is not the one this directory last served"
        case let s? where head < s.head: "the database is behind what was served (seq \(head) < \(s.head)): restored from a backup"
        default: nil
        }
        if let reason {
            epoch = try Self.rotateEpoch(pool)
            logger.warning("new epoch", metadata: ["epoch": "\(epoch)", "reason": "\(reason)"])
        }
        epochBox = LockedValue(epoch)
        headMark = LockedValue(head)
        try Self.writeState(directory, epoch: epoch, head: head)
    }

    // MARK: Schema

    static var migrator: DatabaseMigrator {
        var m = DatabaseMigrator()
        m.registerMigration("v1 server") { db in
            try db.execute(sql: """
                CREATE TABLE server_meta (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL) WITHOUT ROWID;
                CREATE TABLE groups (
                    id TEXT PRIMARY KEY NOT NULL,
                    name TEXT NOT NULL CHECK (length(trim(name)) > 0),
                    created_at REAL NOT NULL
                );
                CREATE TABLE credentials (
                    token_hash BLOB PRIMARY KEY NOT NULL,
                    group_id TEXT NOT NULL REFERENCES groups(id),
                    role TEXT NOT NULL CHECK (role IN ('admin', 'device')),
                    device_id TEXT,
                    created_at REAL NOT NULL,
                    revoked_at REAL
                ) WITHOUT ROWID;
                CREATE INDEX credentials_by_device ON credentials(group_id, device_id);
                CREATE TABLE devices (
                    group_id TEXT NOT NULL REFERENCES groups(id),
                    device_id TEXT NOT NULL,
                    name TEXT NOT NULL,
                    enrolled_at REAL NOT NULL,
                    revoked_at REAL,
                    PRIMARY KEY (group_id, device_id)
                ) WITHOUT ROWID;
                CREATE TABLE changes (
                    seq INTEGER PRIMARY KEY AUTOINCREMENT,
                    group_id TEXT NOT NULL REFERENCES groups(id),
                    kind TEXT NOT NULL,
                    record_id BLOB NOT NULL,
                    version BLOB NOT NULL,
                    payload BLOB NOT NULL,
                    pushed_by TEXT NOT NULL,
                    received_at REAL NOT NULL,
                    UNIQUE (group_id, kind, record_id, version)
                );
                CREATE INDEX changes_feed ON changes(group_id, seq);
                CREATE TABLE current_records (
                    group_id TEXT NOT NULL,
                    kind TEXT NOT NULL,
                    record_id BLOB NOT NULL,
                    seq INTEGER NOT NULL REFERENCES changes(seq),
                    lifecycle INTEGER NOT NULL,
                    updated_at REAL NOT NULL,
                    version BLOB NOT NULL,
                    PRIMARY KEY (group_id, kind, record_id)
                ) WITHOUT ROWID;
                CREATE TABLE events (
                    group_id TEXT NOT NULL,
                    event_id BLOB NOT NULL,
                    round_id BLOB NOT NULL,
                    participant_id BLOB NOT NULL,
                    hole INTEGER NOT NULL,
                    seq INTEGER NOT NULL REFERENCES changes(seq),
                    PRIMARY KEY (group_id, event_id)
                ) WITHOUT ROWID;
                CREATE INDEX events_by_cell ON events(group_id, round_id, participant_id, hole);
                """)
            try db.execute(sql: "INSERT INTO server_meta (key, value) VALUES ('epoch', ?), ('created_at', ?)",
                           arguments: [UUID().uuidString.lowercased(), ISO8601DateFormatter().string(from: Date())])
        }
        return m
    }

    static func rotateEpoch(_ pool: DatabasePool) throws -> String {
        let epoch = UUID().uuidString.lowercased()
        try pool.write { db in
            try db.execute(sql: "INSERT INTO server_meta (key, value) VALUES ('epoch', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                           arguments: [epoch])
        }
        return epoch
    }

    // MARK: State file (restore detection)

    struct State: Codable { var epoch: String; var head: Int64 }

    static func readState(_ directory: URL) -> State? {
        guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(stateFileName).path) else { return nil }
        return try? JSONDecoder().decode(State.self, from: data)
    }

    static func writeState(_ directory: URL, epoch: String, head: Int64) throws {
        let data = try JSONEncoder().encode(State(epoch: epoch, head: head))
        try data.write(to: directory.appendingPathComponent(stateFileName), options: .atomic)
    }

    /// Remembers the highest seq served, so a later start can tell a restored (older)
    /// database. Written after each commit without an fsync of its own: it is a guard,
    /// not the data; the restore command rotates the epoch explicitly anyway.
    private func noteHead(_ head: Int64) {
        let shouldWrite = headMark.withLock { mark -> Bool in
            guard head > mark else { return false }
            mark = head
            return true
        }
        if shouldWrite {
            do { try Self.writeState(directory, epoch: epoch, head: head) } catch {
                logger.error("cannot write the state file", metadata: ["error": "\(error)"])
            }
        }
    }

    // MARK: Backup and restore

    /// A consistent copy of the live database (`VACUUM INTO`), safe while serving.
    public func backup(to url: URL) throws {
        try? FileManager.default.removeItem(at: url)
        try pool.writeWithoutTransaction { db in try db.execute(sql: "VACUUM INTO ?", arguments: [url.path]) }
    }

    /// Puts a backup in place of the database in `directory` (the server must be
    /// stopped) and gives it a new epoch, so every device re-pulls and re-pushes.
    public static func restore(backup: URL, into directory: URL, logger: Logger = Logger(label: "hyzer.server.storage")) throws -> String {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let path = directory.appendingPathComponent(fileName).path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup.path, toPath: path)
        try? FileManager.default.removeItem(at: directory.appendingPathComponent(stateFileName))
        let storage = try SQLiteStorage(directory: directory, logger: logger)
        let epoch = try rotateEpoch(storage.pool)
        try writeState(directory, epoch: epoch, head: try storage.pool.read { db in
            try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM changes") ?? 0
        })
        try storage.pool.close()
        return epoch
    }

    public func close() throws { try pool.close() }

    // MARK: Groups and credentials

    public func createGroup(name: String) throws -> (group: GroupInfo, adminToken: String) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else { throw StorageError.invalid("a group needs a name of 1–80 characters") }
        let group = GroupInfo(id: UUID().uuidString.lowercased(), name: trimmed)
        let token = Tokens.generate(prefix: "hza_")
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            try db.execute(sql: "INSERT INTO groups (id, name, created_at) VALUES (?, ?, ?)", arguments: [group.id, group.name, now])
            try db.execute(sql: "INSERT INTO credentials (token_hash, group_id, role, device_id, created_at) VALUES (?, ?, 'admin', NULL, ?)",
                           arguments: [Tokens.hash(token), group.id, now])
        }
        return (group, token)
    }

    public func groups() throws -> [GroupInfo] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT id, name FROM groups ORDER BY created_at").map { GroupInfo(id: $0["id"], name: $0["name"]) }
        }
    }

    public func group(id: String) throws -> GroupInfo? {
        try pool.read { db in
            try Row.fetchOne(db, sql: "SELECT id, name FROM groups WHERE id = ?", arguments: [id]).map { GroupInfo(id: $0["id"], name: $0["name"]) }
        }
    }

    public func authenticate(token: String) throws -> Principal? {
        guard token.utf8.count <= 200 else { return nil }
        return try pool.read { db in
            guard let row = try Row.fetchOne(db, sql: """
                SELECT group_id, role, device_id FROM credentials WHERE token_hash = ? AND revoked_at IS NULL
                """, arguments: [Tokens.hash(token)]), let role = Principal.Role(rawValue: row["role"]) else { return nil }
            return Principal(groupID: row["group_id"], role: role, deviceID: row["device_id"])
        }
    }

    /// A device id belongs to one active enrollment on the whole server: a second device
    /// claiming it (in this group or another) is refused until the first is revoked.
    public func enroll(groupID: String, deviceID: String, name: String) throws -> String {
        guard SyncProtocol.isValidDeviceID(deviceID) else {
            throw StorageError.invalid("device id must be 1–64 characters of A–Z, a–z, 0–9, '.', '_' or '-'")
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80 else { throw StorageError.invalid("a device needs a name of 1–80 characters") }
        let token = Tokens.generate(prefix: "hzd_")
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            if let owner = try String.fetchOne(db, sql: "SELECT group_id FROM devices WHERE device_id = ? AND revoked_at IS NULL",
                                               arguments: [deviceID]) {
                throw StorageError.conflict(owner == groupID
                    ? "device \(deviceID) is already enrolled in this group; revoke it first to enroll it again"
                    : "device id \(deviceID) is already taken by another device")
            }
            try db.execute(sql: """
                INSERT INTO devices (group_id, device_id, name, enrolled_at, revoked_at) VALUES (?, ?, ?, ?, NULL)
                ON CONFLICT (group_id, device_id) DO UPDATE SET name = excluded.name, enrolled_at = excluded.enrolled_at, revoked_at = NULL
                """, arguments: [groupID, deviceID, trimmed, now])
            try db.execute(sql: "INSERT INTO credentials (token_hash, group_id, role, device_id, created_at) VALUES (?, ?, 'device', ?, ?)",
                           arguments: [Tokens.hash(token), groupID, deviceID, now])
        }
        return token
    }

    public func devices(groupID: String) throws -> [DeviceInfo] {
        try pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM devices WHERE group_id = ? ORDER BY enrolled_at", arguments: [groupID]).map {
                DeviceInfo(deviceID: $0["device_id"], name: $0["name"], enrolledAt: $0["enrolled_at"], revokedAt: $0["revoked_at"])
            }
        }
    }

    /// Revokes the device and every token it holds; its records stay.
    public func revoke(groupID: String, deviceID: String) throws {
        let now = Date().timeIntervalSince1970
        try pool.write { db in
            try db.execute(sql: "UPDATE devices SET revoked_at = ? WHERE group_id = ? AND device_id = ? AND revoked_at IS NULL",
                           arguments: [now, groupID, deviceID])
            guard db.changesCount > 0 else { throw StorageError.notFound("no enrolled device \(deviceID) in this group") }
            try db.execute(sql: "UPDATE credentials SET revoked_at = ? WHERE group_id = ? AND device_id = ? AND revoked_at IS NULL",
                           arguments: [now, groupID, deviceID])
        }
    }

    // MARK: Feed

    public func head(groupID: String) throws -> Int64 {
        try pool.read { db in try Self.head(groupID, db) }
    }

    static func head(_ groupID: String, _ db: Database) throws -> Int64 {
        try Int64.fetchOne(db, sql: "SELECT MAX(seq) FROM changes WHERE group_id = ?", arguments: [groupID]) ?? 0
    }

    public func pull(groupID: String, after: Int64, limit: Int) throws -> PullResponse {
        let decoder = SyncCoding.decoder()
        let epoch = self.epoch
        return try pool.read { db in
            let rows = try Row.fetchAll(db, sql: """
                SELECT seq, payload FROM changes WHERE group_id = ? AND seq > ? ORDER BY seq LIMIT ?
                """, arguments: [groupID, after, limit])
            let records = try rows.map { row in
                PulledRecord(seq: row["seq"], record: try decoder.decode(SyncRecord.self, from: row["payload"] as Data))
            }
            let head = try Self.head(groupID, db)
            let next = records.last?.seq ?? after
            return PullResponse(epoch: epoch, records: records, next: next, head: head, hasMore: next < head)
        }
    }

    public func push(groupID: String, deviceID: String, records: [SyncRecord]) throws -> PushResponse {
        let encoder = SyncCoding.encoder()
        let now = Date().timeIntervalSince1970
        let (results, head) = try pool.write { db in
            var batch = PushBatch(groupID: groupID, db: db)
            var results: [PushResult] = []
            results.reserveCapacity(records.count)
            for record in records {
                results.append(try batch.apply(record, deviceID: deviceID, now: now, encoder: encoder))
            }
            return (results, try Self.head(groupID, db))
        }
        noteHead(head)
        return PushResponse(epoch: epoch, head: head, results: results)
    }
}

/// One push transaction: validates each record against what the group already has
/// (including earlier records of the same batch) and appends the accepted ones.
struct PushBatch {
    let groupID: String
    let db: Database
    private var rounds: [UUID: RoundRecord?] = [:]
    private var courses: [UUID: Course?] = [:]
    private let decoder = SyncCoding.decoder()

    init(groupID: String, db: Database) {
        self.groupID = groupID
        self.db = db
    }

    mutating func apply(_ record: SyncRecord, deviceID: String, now: Double, encoder: JSONEncoder) throws -> PushResult {
        func result(_ status: PushStatus, seq: Int64? = nil, reason: String? = nil) -> PushResult {
            PushResult(kind: record.kind, id: record.id, version: record.version, status: status, seq: seq, reason: reason)
        }
        let payload = try encoder.encode(record)
        if let existing = try Row.fetchOne(db, sql: """
            SELECT seq, payload FROM changes WHERE group_id = ? AND kind = ? AND record_id = ? AND version = ?
            """, arguments: [groupID, record.kind.rawValue, record.id, record.version]) {
            // Same key, same statement: a retry. Same key, other content: a bug or a forgery.
            if (existing["payload"] as Data) != payload,
               (try? decoder.decode(SyncRecord.self, from: existing["payload"] as Data)) != record {
                return result(.rejected, reason: "\(record.kind.rawValue) \(record.id) version \(record.version) is already stored with different content")
            }
            return result(.duplicate, seq: existing["seq"])
        }
        if let reason = try problem(with: record) { return result(.rejected, reason: reason) }

        try db.execute(sql: """
            INSERT INTO changes (group_id, kind, record_id, version, payload, pushed_by, received_at) VALUES (?, ?, ?, ?, ?, ?, ?)
            """, arguments: [groupID, record.kind.rawValue, record.id, record.version, payload, deviceID, now])
        let seq = db.lastInsertedRowID
        if let stamp = record.stamp {
            let current = try Row.fetchOne(db, sql: """
                SELECT lifecycle, updated_at, version FROM current_records WHERE group_id = ? AND kind = ? AND record_id = ?
                """, arguments: [groupID, record.kind.rawValue, record.id]).map {
                ChangeStamp(lifecycle: $0["lifecycle"], updatedAt: $0["updated_at"], version: $0["version"])
            }
            // An older version is still appended to the feed (every device applies the
            // same rule and ignores it), but it does not become current.
            if current.map({ $0 < stamp }) ?? true {
                try db.execute(sql: """
                    INSERT INTO current_records (group_id, kind, record_id, seq, lifecycle, updated_at, version) VALUES (?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT (group_id, kind, record_id) DO UPDATE SET seq = excluded.seq, lifecycle = excluded.lifecycle,
                        updated_at = excluded.updated_at, version = excluded.version
                    """, arguments: [groupID, record.kind.rawValue, record.id, seq, stamp.lifecycle, stamp.updatedAt, stamp.version])
                switch record {
                case .round(let r): rounds[r.id] = r
                case .course(let c): courses[c.id] = try? c.course()
                default: break
                }
            }
        } else if case .scoreEvent(let e) = record {
            try db.execute(sql: """
                INSERT INTO events (group_id, event_id, round_id, participant_id, hole, seq) VALUES (?, ?, ?, ?, ?, ?)
                """, arguments: [groupID, e.id, e.roundID, e.participantID, e.hole, seq])
        }
        return result(.created, seq: seq)
    }

    /// Why a record cannot be accepted, or nil.
    private mutating func problem(with record: SyncRecord) throws -> String? {
        switch record {
        case .course(let c):
            do { _ = try c.course() } catch { return "course \(c.id): \(error.description)" }
        case .player(let p):
            do { _ = try p.player() } catch { return "player \(p.id): \(error.description)" }
        case .round(let r):
            if let problem = r.problem() { return "round \(r.id): \(problem)" }
            guard try course(r.courseID) != nil else { return "round \(r.id): unknown course \(r.courseID)" }
            if let current = try round(r.id), current.status != .setup, r.status != .setup,
               current.participants != r.participants {
                return "round \(r.id): the participant list cannot change once the round has started"
            }
        case .scoreEvent(let e):
            guard let roundRecord = try round(e.roundID) else { return "event \(e.id): unknown round \(e.roundID)" }
            guard let course = try course(roundRecord.courseID) else { return "event \(e.id): unknown course \(roundRecord.courseID)" }
            let event = e.event
            // Only the superseded events matter to validation (they must be in the same
            // cell); an unknown one is allowed, it may simply not have arrived yet.
            var known: [ScoreEvent] = []
            for target in Set(e.supersedes) {
                guard let row = try Row.fetchOne(db, sql: """
                    SELECT round_id, participant_id, hole FROM events WHERE group_id = ? AND event_id = ?
                    """, arguments: [groupID, target]) else { continue }
                known.append(ScoreEvent(id: target, roundID: row["round_id"], participantID: row["participant_id"],
                                        hole: row["hole"], strokes: 1, reportedBy: target, deviceID: "-"))
            }
            do throws(ScoringError) {
                try event.validate(in: roundRecord.round, course: course,
                                   known: Dictionary(known.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }))
            } catch {
                return "event \(e.id): \(error.description)"
            }
        }
        return nil
    }

    private mutating func round(_ id: UUID) throws -> RoundRecord? {
        if let cached = rounds[id] { return cached }
        let found = try currentPayload(.round, id).flatMap { record -> RoundRecord? in
            if case .round(let r) = record { return r }
            return nil
        }
        rounds[id] = found
        return found
    }

    private mutating func course(_ id: UUID) throws -> Course? {
        if let cached = courses[id] { return cached }
        let found = try currentPayload(.course, id).flatMap { record -> Course? in
            if case .course(let c) = record { return try? c.course() }
            return nil
        }
        courses[id] = found
        return found
    }

    private func currentPayload(_ kind: RecordKind, _ id: UUID) throws -> SyncRecord? {
        guard let data = try Data.fetchOne(db, sql: """
            SELECT c.payload FROM current_records r JOIN changes c ON c.seq = r.seq
            WHERE r.group_id = ? AND r.kind = ? AND r.record_id = ?
            """, arguments: [groupID, kind.rawValue, id]) else { return nil }
        return try? decoder.decode(SyncRecord.self, from: data)
    }
}
