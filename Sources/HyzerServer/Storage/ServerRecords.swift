import Foundation
import GRDB
import HyzerKit

// The server's tables as GRDB records, one per table, so queries go through the query
// interface (typed columns, bound values) instead of SQL text. The exceptions are what runs
// inside the single writer for every record pushed (`SQLiteFeedLedger`, the token lookup):
// prepared SQL there, with bound values, because building requests was the server's
// ceiling. The tables are the shipped schema's (ServerSchema.swift).
//
// Times are stored as seconds since 1970 (REAL), as the first schema did; ids and versions
// as 16-byte blobs (GRDB's default for UUID, the same bytes the first raw-SQL code bound).

/// A record of the server's schema. The tables name their columns in snake_case with `id`
/// (`group_id`), Swift in camelCase with `ID` (`groupID`): one pair of strategies maps every
/// property of every record, instead of coding keys spelt out table by table.
protocol ServerRecord: Codable, Sendable, FetchableRecord, MutablePersistableRecord {}

extension ServerRecord {
    typealias Columns = ServerColumn
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy { .convertToSnakeCase }
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy { .custom(ServerColumn.codingKey(forColumn:)) }
}

/// The columns the server's queries name, shared by the tables that have them (every
/// table is scoped by `group_id`, for one). Each record calls them its `Columns`.
enum ServerColumn: String, ColumnExpression {
    case seq, kind, version, payload, hole, lifecycle
    case groupID = "group_id"
    case deviceID = "device_id"
    case recordID = "record_id"
    case eventID = "event_id"
    case roundID = "round_id"
    case updatedAt = "updated_at"
    case createdAt = "created_at"
    case enrolledAt = "enrolled_at"
    case revokedAt = "revoked_at"
    case playerID = "player_id"

    /// `group_id` → `groupID`, `created_at` → `createdAt`: the inverse of GRDB's
    /// `convertToSnakeCase` for this project's names (its own `convertFromSnakeCase`
    /// would give `groupId`).
    static func codingKey(forColumn column: String) -> any CodingKey {
        let words = column.split(separator: "_").map(String.init)
        let tail = words.dropFirst().map { $0 == "id" ? "ID" : $0.prefix(1).uppercased() + $0.dropFirst() }
        return NamedCodingKey((words.first ?? "") + tail.joined())
    }
}

/// One key of `server_meta` (the epoch, the creation time).
struct ServerMetaRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "server_meta"
    static let epochKey = "epoch"

    var key: String
    var value: String
}

/// A row of `groups`.
struct GroupRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "groups"

    var id: String
    var name: String
    var createdAt: Double
    /// v9 (issue 35): seconds after its finish a round can be reopened.
    var reopenWindow: Double = Round.defaultReopenWindow

    var info: GroupInfo { GroupInfo(id: id, name: name, reopenWindow: reopenWindow) }
}

/// A row of `credentials`: the SHA-256 of a bearer token and what it grants.
struct CredentialRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "credentials"

    var tokenHash: Data
    var groupID: String
    var role: String
    var deviceID: String?
    var createdAt: Double
    var revokedAt: Double?
}

/// A row of `devices`: one enrollment of a device id in a group.
struct DeviceRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "devices"

    var groupID: String
    var deviceID: String
    var name: String
    var enrolledAt: Double
    var revokedAt: Double?
    /// The registered player the device plays as ("v7 server: player claims"), or nil.
    var playerID: UUID?
}

/// A row of `changes`, the group's append-only feed, as written by a push. `seq` is
/// nil until the row is inserted; SQLite assigns it.
struct ChangeRow: ServerRecord {
    static let databaseTableName = "changes"

    var seq: Int64?
    var groupID: String
    var kind: String
    var recordID: UUID
    var version: UUID
    var payload: Data
    var pushedBy: String
    var receivedAt: Double

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
}

/// A row of `current_records`: the winning version of a mutable record (course, player,
/// round), kept to validate new pushes.
struct CurrentRecordRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "current_records"

    var groupID: String
    var kind: String
    var recordID: UUID
    var seq: Int64
    var lifecycle: Int
    var updatedAt: Double
    var version: UUID
}

/// A row of `events`: a score event's cell, by id, for validating corrections.
struct EventRow: ServerRecord, PersistableRecord {
    static let databaseTableName = "events"

    var groupID: String
    var eventID: UUID
    var roundID: UUID
    var participantID: UUID
    var hole: Int
    var seq: Int64
}
