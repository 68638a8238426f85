import Foundation
import GRDB

// The server's tables as GRDB records, one per table, so every query goes through the
// query interface (typed columns, bound values) instead of SQL text. The column names are
// the shipped schema's (ServerSchema.swift); the coding keys map them, the tables stay as
// they are.
//
// Times are stored as seconds since 1970 (REAL), as the first schema did; ids and versions
// as 16-byte blobs (GRDB's default for UUID, the same bytes the first raw-SQL code bound).

/// One key of `server_meta` (the epoch, the creation time).
struct ServerMetaRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "server_meta"
    static let epochKey = "epoch"

    var key: String
    var value: String
}

/// A row of `groups`.
struct GroupRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "groups"

    var id: String
    var name: String
    var createdAt: Double

    enum CodingKeys: String, CodingKey {
        case id, name
        case createdAt = "created_at"
    }

    enum Columns {
        static let createdAt = Column(CodingKeys.createdAt)
    }

    var info: GroupInfo { GroupInfo(id: id, name: name) }
}

/// A row of `credentials`: the SHA-256 of a bearer token and what it grants.
struct CredentialRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "credentials"

    var tokenHash: Data
    var groupID: String
    var role: String
    var deviceID: String?
    var createdAt: Double
    var revokedAt: Double?

    enum CodingKeys: String, CodingKey {
        case tokenHash = "token_hash"
        case groupID = "group_id"
        case role
        case deviceID = "device_id"
        case createdAt = "created_at"
        case revokedAt = "revoked_at"
    }

    enum Columns {
        static let groupID = Column(CodingKeys.groupID)
        static let deviceID = Column(CodingKeys.deviceID)
        static let revokedAt = Column(CodingKeys.revokedAt)
    }
}

/// A row of `devices`: one enrollment of a device id in a group.
struct DeviceRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "devices"

    var groupID: String
    var deviceID: String
    var name: String
    var enrolledAt: Double
    var revokedAt: Double?

    enum CodingKeys: String, CodingKey {
        case groupID = "group_id"
        case deviceID = "device_id"
        case name
        case enrolledAt = "enrolled_at"
        case revokedAt = "revoked_at"
    }

    enum Columns {
        static let groupID = Column(CodingKeys.groupID)
        static let deviceID = Column(CodingKeys.deviceID)
        static let enrolledAt = Column(CodingKeys.enrolledAt)
        static let revokedAt = Column(CodingKeys.revokedAt)
    }
}

/// A row of `changes`, the group's append-only feed, as written by a push. `seq` is
/// nil until the row is inserted; SQLite assigns it.
struct ChangeRow: Codable, Sendable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "changes"

    var seq: Int64?
    var groupID: String
    var kind: String
    var recordID: UUID
    var version: UUID
    var payload: Data
    var pushedBy: String
    var receivedAt: Double

    enum CodingKeys: String, CodingKey {
        case seq
        case groupID = "group_id"
        case kind
        case recordID = "record_id"
        case version, payload
        case pushedBy = "pushed_by"
        case receivedAt = "received_at"
    }

    enum Columns {
        static let seq = Column(CodingKeys.seq)
        static let groupID = Column(CodingKeys.groupID)
        static let kind = Column(CodingKeys.kind)
        static let recordID = Column(CodingKeys.recordID)
        static let version = Column(CodingKeys.version)
        static let payload = Column(CodingKeys.payload)
    }

    mutating func didInsert(_ inserted: InsertionSuccess) { seq = inserted.rowID }

    /// The highest seq of a group's feed (0 when it is empty), or of the whole table.
    static func head(_ db: Database, groupID: String? = nil) throws -> Int64 {
        var request = ChangeRow.all()
        if let groupID { request = request.filter(Columns.groupID == groupID) }
        return try request.select(max(Columns.seq), as: Int64.self).fetchOne(db) ?? 0
    }
}

/// What pull and the duplicate check read from `changes`: the seq and the stored
/// statement, without the columns that only exist to index it.
struct FeedEntry: Decodable, Sendable, FetchableRecord, TableRecord {
    static let databaseTableName = ChangeRow.databaseTableName
    static var databaseSelection: [any SQLSelectable] { [ChangeRow.Columns.seq, ChangeRow.Columns.payload] }

    var seq: Int64
    var payload: Data

    /// The row of `current_records` that points at this change, if it is the current version.
    static let current = hasOne(CurrentRecordRow.self, using: CurrentRecordRow.changeForeignKey)
}

/// A row of `current_records`: the winning version of a mutable record (course, player,
/// round), kept to validate new pushes.
struct CurrentRecordRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "current_records"
    static let changeForeignKey = ForeignKey([Column(CodingKeys.seq)], to: [ChangeRow.Columns.seq])

    var groupID: String
    var kind: String
    var recordID: UUID
    var seq: Int64
    var lifecycle: Int
    var updatedAt: Double
    var version: UUID

    enum CodingKeys: String, CodingKey {
        case groupID = "group_id"
        case kind
        case recordID = "record_id"
        case seq, lifecycle
        case updatedAt = "updated_at"
        case version
    }

    enum Columns {
        static let groupID = Column(CodingKeys.groupID)
        static let kind = Column(CodingKeys.kind)
        static let recordID = Column(CodingKeys.recordID)
    }
}

/// A row of `events`: a score event's cell, by id, for validating corrections.
struct EventRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "events"

    var groupID: String
    var eventID: UUID
    var roundID: UUID
    var participantID: UUID
    var hole: Int
    var seq: Int64

    enum CodingKeys: String, CodingKey {
        case groupID = "group_id"
        case eventID = "event_id"
        case roundID = "round_id"
        case participantID = "participant_id"
        case hole, seq
    }
}
