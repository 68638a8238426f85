import Foundation
import GRDB
import HyzerKit

// Row <-> domain mapping: one GRDB record per table, kept next to the schema's column
// names. The records are internal: domain types stay free of GRDB, and every other
// module sees domain values only.
//
// Ids are 16-byte blobs (GRDB's UUID encoding) and times are Unix seconds (REAL), read
// and written as `Double` so a synced time survives every round trip bit for bit.
//
/// A record of the device's schema. The tables name their columns in snake_case with `id`
/// (`round_id`), Swift in camelCase with `ID` (`roundID`): one table of names,
/// `StoreColumn`, maps every property of every record both ways and is every record's
/// query columns, instead of coding keys spelt out table by table.
protocol StoreRecord: Codable, FetchableRecord, PersistableRecord {}

extension StoreRecord {
    typealias Columns = StoreColumn
    static var databaseColumnEncodingStrategy: DatabaseColumnEncodingStrategy {
        .custom { key in StoreColumn(rawValue: key.stringValue)?.name ?? key.stringValue }
    }
    static var databaseColumnDecodingStrategy: DatabaseColumnDecodingStrategy {
        .custom { column in NamedCodingKey(StoreColumn.propertyNames[column] ?? column) }
    }
}

/// Every column of the device's tables, by the name of the property that holds it. A
/// one-word name is its own column; the column of any other is its snake_case form.
enum StoreColumn: String, ColumnExpression, CaseIterable {
    case id, seq, key, value, name, number, par, pars, aliases, status, ordinal, kind, hole, strokes, supersedes
    case version, pending, attempts, payload
    case courseID, organizerID, roundID, participantID, recordID, recordType, reportedBy, deviceID, displayName
    case createdAt, startedAt, completedAt, updatedAt, enqueuedAt, eventSeq, isResolution, lastError
    case kindOrder, localOrder, serverSeq, deletedAt, deviceName
    case generation, action, actions, removedAt, mergedInto, correction, retraction, startHole
    case day, rounds, skins, card, closestToPin, acePot, discardedAt, eventID
    case fromDay, toDay, rule, points, count, net, input

    /// The SQL name: `roundID` → `round_id`. Worked out once, not at each use: the score
    /// events of a round are read column by column on every board refresh.
    var name: String { Self.columnNames[self]! }

    private static let columnNames = Dictionary(uniqueKeysWithValues: allCases.map { ($0, snakeCase($0.rawValue)) })
    static let propertyNames = Dictionary(uniqueKeysWithValues: allCases.map { ($0.name, $0.rawValue) })

    /// `isResolution` → `is_resolution`, `courseID` → `course_id`: a run of capitals is one word.
    private static func snakeCase(_ property: String) -> String {
        var column = ""
        var previousWasUpper = false
        for character in property {
            if character.isUppercase, !previousWasUpper, !column.isEmpty { column.append("_") }
            previousWasUpper = character.isUppercase
            column += character.lowercased()
        }
        return column
    }
}

struct MetaRow: StoreRecord {
    static let databaseTableName = "meta"
    static let deviceIDKey = "device_id"
    var key: String
    var value: String
}

struct CourseRow: StoreRecord {
    static let databaseTableName = "courses"
    static let holes = hasMany(HoleRow.self)
    var id: UUID
    var name: String
    var updatedAt: Double
    /// Set when the course was deleted (a tombstone, issue 14); nil while it is in use.
    var deletedAt: Double?
    /// v7 (issue 35): how many times it was restored, and who last deleted or restored it
    /// (a `RecordedAction` as JSON).
    var generation: Int = 0
    var action: String?
}

struct HoleRow: StoreRecord {
    static let databaseTableName = "holes"
    var courseID: UUID
    var number: Int
    var par: Int
}

struct PlayerRow: StoreRecord {
    static let databaseTableName = "players"
    var id: UUID
    var displayName: String
    /// JSON array of strings.
    var aliases: String
    var updatedAt: Double
    /// v7 (issue 35): set when the player left the roster (removed or merged).
    var removedAt: Double?
    /// v7: the player this one was merged into.
    var mergedInto: UUID?
    /// v7: who removed or merged the player (a `RecordedAction` as JSON).
    var action: String?

    /// Removed or merged: no longer on the roster (issue 35).
    var isRetired: Bool { removedAt != nil || mergedInto != nil }
}

struct RoundRow: StoreRecord {
    static let databaseTableName = "rounds"
    static let course = belongsTo(CourseRow.self)
    static let participants = hasMany(ParticipantRow.self)
    var id: UUID
    var courseID: UUID
    var organizerID: UUID
    var status: String
    var createdAt: Double
    var startedAt: Double?
    var completedAt: Double?
    var updatedAt: Double
    /// The round's pars, `Rows.parsText`; empty when none are recorded.
    var pars: String
    /// v7 (issue 35): `Round.generation`, and `Round.actions` as a JSON array.
    var generation: Int = 0
    var actions: String = "[]"
    /// v8 (issue 36): `Round.startHole`.
    var startHole: Int = 1
}

struct ParticipantRow: StoreRecord {
    static let databaseTableName = "round_participants"
    var roundID: UUID
    var participantID: UUID
    var ordinal: Int
    var name: String
    var kind: String
}

struct ScoreEventRow: StoreRecord {
    static let databaseTableName = "score_events"
    /// Local arrival order (AUTOINCREMENT); nil until inserted.
    var seq: Int64?
    var id: UUID
    var roundID: UUID
    var participantID: UUID
    var hole: Int
    var strokes: Int
    /// The superseded ids as consecutive 16-byte blobs.
    var supersedes: Data
    var reportedBy: UUID
    var deviceID: String
    var createdAt: Double
    var isResolution: Bool
    /// The entering device's name then, when it said (v6).
    var deviceName: String?
    /// v7: a correction of a finished round, with its `Authority` (issue 35).
    var correction: String?
    /// v8: a retraction (issue 35's undo toast).
    var retraction: Bool
    /// v12: how it was entered, when not by hand ("voice", issue 38).
    var input: String?
}

/// `sync_records`: the change-tracking row of a course, player or round (score events
/// are tracked in `PendingEventRow`).
struct ChangeRow: StoreRecord {
    static let databaseTableName = "sync_records"
    var kind: String
    var recordID: UUID
    var version: UUID
    var pending: Bool
}

/// `sync_pending_events`: the local seq of a score event the server has not acknowledged.
struct PendingEventRow: StoreRecord {
    static let databaseTableName = "sync_pending_events"
    var eventSeq: Int64
}

/// `outbox` in the operational database.
struct OutboxRow: StoreRecord {
    static let databaseTableName = "outbox"
    var recordID: UUID
    var recordType: String
    var status: String
    var attempts: Int
    var lastError: String?
    var enqueuedAt: Double
    var updatedAt: Double
    var version: UUID?
    var payload: Data?
    var kindOrder: Int
    var localOrder: Int64
    var serverSeq: Int64?
}

extension ScoreEventRow {
    /// The columns every request of this record reads, in this order: `init(row:)` reads
    /// them by position.
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.seq, Columns.id, Columns.roundID, Columns.participantID, Columns.hole, Columns.strokes,
            Columns.supersedes, Columns.reportedBy, Columns.deviceID, Columns.createdAt, Columns.isResolution,
            Columns.deviceName, Columns.correction, Columns.retraction, Columns.input,
        ]
    }

    /// Decoded by hand and by position rather than through Codable or by column name: sync
    /// reads the pending events a batch at a time (hundreds after a spell offline), and a
    /// positional read skips both GRDB's row decoder and a name lookup per column (measured
    /// on a round's events: 1.2 ms instead of 3.2 ms for 340 rows on a slow machine). A
    /// round's events for the screens are read by `Rows.events(round:)`, not by this record.
    init(row: Row) {
        seq = row[0]
        id = row[1]
        roundID = row[2]
        participantID = row[3]
        hole = row[4]
        strokes = row[5]
        supersedes = row[6]
        reportedBy = row[7]
        deviceID = row[8]
        createdAt = row[9]
        isResolution = row[10]
        deviceName = row[11]
        correction = row[12]
        retraction = row[13]
        input = row[14]
    }
}

/// Reads and writes of domain values, shared by the named writes.
enum Rows {
    static func seconds(_ date: Date) -> Double { date.timeIntervalSince1970 }
    static func date(_ seconds: Double?) -> Date? { seconds.map(Date.init(timeIntervalSince1970:)) }

    static func pack(_ ids: [UUID]) -> Data {
        var data = Data(capacity: ids.count * 16)
        for id in ids { withUnsafeBytes(of: id.uuid) { data.append(contentsOf: $0) } }
        return data
    }

    static func unpack(_ data: Data) -> [UUID] {
        let bytes = [UInt8](data)
        return stride(from: 0, to: bytes.count - bytes.count % 16, by: 16).map { start in
            UUID(
                uuid: (
                    bytes[start], bytes[start + 1], bytes[start + 2], bytes[start + 3],
                    bytes[start + 4], bytes[start + 5], bytes[start + 6], bytes[start + 7],
                    bytes[start + 8], bytes[start + 9], bytes[start + 10], bytes[start + 11],
                    bytes[start + 12], bytes[start + 13], bytes[start + 14], bytes[start + 15]
                ))
        }
    }

    // MARK: Score events

    static func event(_ row: ScoreEventRow) -> ScoreEvent {
        ScoreEvent(
            id: row.id, roundID: row.roundID, participantID: row.participantID,
            hole: row.hole, strokes: row.strokes, supersedes: unpack(row.supersedes),
            reportedBy: row.reportedBy, deviceID: row.deviceID,
            createdAt: Date(timeIntervalSince1970: row.createdAt), isResolution: row.isResolution,
            deviceName: row.deviceName, correction: row.correction.map(Authority.init(rawValue:)),
            retraction: row.retraction, input: row.input.map(ScoreEvent.Input.init(rawValue:)))
    }

    static func insert(_ event: ScoreEvent, _ db: Database) throws {
        try ScoreEventRow(
            seq: nil, id: event.id, roundID: event.roundID, participantID: event.participantID, hole: event.hole,
            strokes: event.strokes, supersedes: pack(event.supersedes), reportedBy: event.reportedBy,
            deviceID: event.deviceID, createdAt: seconds(event.createdAt), isResolution: event.isResolution,
            deviceName: event.deviceName, correction: event.correction?.rawValue, retraction: event.isRetraction,
            input: event.input?.rawValue
        ).insert(db)
    }

    static func eventExists(_ id: UUID, _ db: Database) throws -> Bool {
        try ScoreEventRow.filter(ScoreEventRow.Columns.id == id).isEmpty(db) == false
    }

    /// A round's events in arrival order: every board refresh (after each score saved) and
    /// every line of a history page reads one round's hundreds of events. One constant
    /// statement, kept prepared in the connection's cache, read by column index: the query
    /// interface prepares its statement anew at each read (a fifth of opening a round,
    /// measured with perf), and Codable decoding cost more than the read itself.
    static func events(round: UUID, _ db: Database) throws -> [ScoreEvent] {
        let request = SQLRequest<Row>(
            sql: """
                SELECT id, participant_id, hole, strokes, supersedes, reported_by, device_id, created_at, is_resolution,
                    device_name, correction, retraction, input
                FROM score_events WHERE round_id = ? ORDER BY seq
                """, arguments: [round], cached: true)
        return try Row.fetchCursor(db, request).map { row in
            ScoreEvent(
                id: row[0], roundID: round, participantID: row[1], hole: row[2], strokes: row[3],
                supersedes: Rows.unpack(row[4]), reportedBy: row[5], deviceID: row[6],
                createdAt: Date(timeIntervalSince1970: row[7]), isResolution: row[8], deviceName: row[9],
                correction: (row[10] as String?).map(Authority.init(rawValue:)), retraction: row[11],
                input: (row[12] as String?).map(ScoreEvent.Input.init(rawValue:)))
        }.reduce(into: []) { $0.append($1) }
    }

    static func events(round: UUID, participant: UUID, hole: Int, _ db: Database) throws -> [ScoreEvent] {
        try ScoreEventRow
            .filter(
                ScoreEventRow.Columns.roundID == round && ScoreEventRow.Columns.participantID == participant
                    && ScoreEventRow.Columns.hole == hole
            )
            .order(ScoreEventRow.Columns.seq)
            .fetchAll(db).map(event)
    }

    // MARK: Courses

    /// Every course in use (or the one with `id`, deleted or not), by name. A course row
    /// without holes cannot be a course and is left out.
    static func courses(_ db: Database, id: UUID? = nil) throws -> [Course] {
        var request = CourseRow.order(Column("name").collating(.nocase))
        var holes = HoleRow.order(Column("course_id"), Column("number"))
        if let id {
            request = request.filter(key: id)
            holes = holes.filter(Column("course_id") == id)
        } else {
            request = request.filter(CourseRow.Columns.deletedAt == nil)
        }
        let pars = Dictionary(grouping: try holes.fetchAll(db), by: \.courseID).mapValues { $0.map(\.par) }
        return try request.fetchAll(db).compactMap { row in
            guard let pars = pars[row.id] else { return nil }
            do {
                return try Course(id: row.id, name: row.name, pars: pars)
            } catch {
                throw StoreError.corruptRecord("course \(row.name): \(error)")
            }
        }
    }

    /// The course with `id`, deleted or not: a played round still names its course.
    static func course(id: UUID, _ db: Database) throws -> Course? { try courses(db, id: id).first }

    /// The course `round` is played on, with the round's own pars (`Round.played(on:)`).
    /// A deleted course's name stays; a round whose course this device never had in use
    /// (a tombstone came first) is played on its pars alone.
    static func course(of round: Round, _ db: Database) throws -> Course? {
        if let course = try course(id: round.courseID, db) { return round.played(on: course) }
        guard let row = try CourseRow.fetchOne(db, key: round.courseID), !round.pars.isEmpty else { return nil }
        do {
            return try Course(id: row.id, name: row.name, pars: round.pars)
        } catch {
            throw StoreError.corruptRecord("round \(round.id): \(error)")
        }
    }

    /// The course with `id` while it is in use: nil when it is unknown or deleted.
    static func liveCourse(id: UUID, _ db: Database) throws -> Course? {
        guard let row = try CourseRow.fetchOne(db, key: id), row.deletedAt == nil else { return nil }
        return try course(id: id, db)
    }

    /// The course with `id` if it can be picked for a new round or changed: it exists
    /// and was not deleted, here or on a device this one has heard from.
    static func courseInUse(id: UUID, _ db: Database) throws -> Course {
        guard let row = try CourseRow.fetchOne(db, key: id) else { throw StoreError.notFound("course \(id)") }
        guard row.deletedAt == nil else { throw StoreError.courseDeleted(row.name) }
        guard let course = try course(id: id, db) else { throw StoreError.notFound("course \(row.name)") }
        return course
    }

    /// Pars as the rounds table keeps them: `"3,3,4"`, hole 1 first.
    static func parsText(_ pars: [Int]) -> String { pars.map(String.init).joined(separator: ",") }

    static func parsList(_ text: String) -> [Int] { text.split(separator: ",").compactMap { Int($0) } }

    static func save(_ course: Course, at updatedAt: Double, lineage: CourseLineage, _ db: Database) throws {
        try CourseRow(
            id: course.id, name: course.name, updatedAt: updatedAt, deletedAt: nil, generation: lineage.generation,
            action: json(lineage.action)
        ).upsert(db)
        try HoleRow.filter(Column("course_id") == course.id).deleteAll(db)
        for (index, par) in course.pars.enumerated() {
            try HoleRow(courseID: course.id, number: index + 1, par: par).insert(db)
        }
    }

    // MARK: Players

    static func player(_ row: PlayerRow) throws -> Player {
        let aliases = (try? JSONDecoder().decode([String].self, from: Data(row.aliases.utf8))) ?? []
        do {
            return try Player(id: row.id, displayName: row.displayName, aliases: aliases)
        } catch {
            throw StoreError.corruptRecord("player \(row.id): \(error)")
        }
    }

    static func aliasesJSON(_ aliases: [String]) -> String {
        let data = (try? JSONEncoder().encode(aliases)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    static func save(_ player: Player, at updatedAt: Double, retirement: PlayerRetirement? = nil, _ db: Database) throws {
        try PlayerRow(
            id: player.id, displayName: player.displayName, aliases: aliasesJSON(player.aliases),
            updatedAt: updatedAt, removedAt: retirement.map { _ in updatedAt }, mergedInto: retirement?.mergedInto,
            action: json(retirement?.action)
        ).upsert(db)
    }

    static func retirement(_ row: PlayerRow) -> PlayerRetirement? {
        guard row.isRetired else { return nil }
        return PlayerRetirement(mergedInto: row.mergedInto, action: action(row.action))
    }

    // MARK: Actions (issue 35)

    static func json(_ action: RecordedAction?) -> String? {
        action.flatMap { try? String(decoding: JSONEncoder().encode($0), as: UTF8.self) }
    }

    static func action(_ text: String?) -> RecordedAction? {
        text.flatMap { try? JSONDecoder().decode(RecordedAction.self, from: Data($0.utf8)) }
    }

    static func actionsJSON(_ actions: [RecordedAction]) -> String {
        (try? String(decoding: JSONEncoder().encode(actions), as: UTF8.self)) ?? "[]"
    }

    static func actions(_ text: String) -> [RecordedAction] {
        // Every round read (each board refresh) comes here; nearly every round has none.
        guard text != "[]" else { return [] }
        return (try? JSONDecoder().decode([RecordedAction].self, from: Data(text.utf8))) ?? []
    }

    static func lineage(_ row: CourseRow) -> CourseLineage {
        CourseLineage(generation: row.generation, action: action(row.action))
    }

    // MARK: Rounds

    static func round(id: UUID, _ db: Database) throws -> Round? {
        try RoundRow.fetchOne(db, key: id).map { try round($0, db) }
    }

    static func round(_ row: RoundRow, _ db: Database) throws -> Round {
        // Straight from the row to the domain value, without a ParticipantRow in between:
        // every board refresh reads a round's participants.
        let request = ParticipantRow.filter(ParticipantRow.Columns.roundID == row.id)
            .order(ParticipantRow.Columns.ordinal)
            .select(ParticipantRow.Columns.participantID, ParticipantRow.Columns.name, ParticipantRow.Columns.kind)
        let participants = try Row.fetchAll(db, request).map { p in
            Participant(id: p[0], name: p[1], kind: Participant.Kind(rawValue: p[2]) ?? .guest)
        }
        guard let status = RoundStatus(rawValue: row.status) else {
            throw StoreError.corruptRecord("round \(row.id) has unknown status \(row.status)")
        }
        return Round(
            id: row.id, courseID: row.courseID, organizerID: row.organizerID,
            participants: participants, status: status,
            createdAt: Date(timeIntervalSince1970: row.createdAt),
            startedAt: date(row.startedAt), completedAt: date(row.completedAt), pars: parsList(row.pars),
            generation: row.generation, actions: actions(row.actions), startHole: row.startHole)
    }

    static func insertParticipant(_ p: Participant, ordinal: Int, round: UUID, _ db: Database) throws {
        try ParticipantRow(roundID: round, participantID: p.id, ordinal: ordinal, name: p.name, kind: p.kind.rawValue)
            .insert(db)
    }

    /// One UPDATE of the lifecycle columns and the pars (one new sync version of the round).
    static func updateStatus(of round: Round, at updatedAt: Double, _ db: Database) throws {
        try RoundRow.filter(key: round.id).updateAll(
            db,
            [
                RoundRow.Columns.status.set(to: round.status.rawValue),
                RoundRow.Columns.pars.set(to: parsText(round.pars)),
                RoundRow.Columns.startedAt.set(to: round.startedAt.map(seconds)),
                RoundRow.Columns.completedAt.set(to: round.completedAt.map(seconds)),
                RoundRow.Columns.updatedAt.set(to: updatedAt),
                RoundRow.Columns.generation.set(to: round.generation),
                RoundRow.Columns.actions.set(to: actionsJSON(round.actions)),
            ])
    }

    /// FR14 in SQL: a cell with any statement has a value (a leaf always exists), so
    /// counting distinct scored cells is enough, unless a retraction emptied one: then
    /// (rarely: an undo right after a save) the round's cells are resolved.
    static func allCellsScored(_ round: Round, course: Course, _ db: Database) throws -> Bool {
        let cells = round.participants.count * round.played(on: course).holeCount
        let scored = try ScoreEventRow.filter(ScoreEventRow.Columns.roundID == round.id)
            .select(ScoreEventRow.Columns.participantID, ScoreEventRow.Columns.hole).distinct().fetchCount(db)
        guard !round.participants.isEmpty, scored >= cells else { return false }
        guard try hasRetractions(round: round.id, db) else { return true }
        return Scorecard(course: course, round: round, events: try events(round: round.id, db)).isComplete
    }

    /// Whether any cell of the round has a value: a round whose only scores were undone
    /// has none, and can be discarded.
    static func hasScores(round: Round, _ db: Database) throws -> Bool {
        guard try !ScoreEventRow.filter(ScoreEventRow.Columns.roundID == round.id).isEmpty(db) else { return false }
        guard try hasRetractions(round: round.id, db), let course = try course(of: round, db) else { return true }
        return RoundSnapshot(round: round, course: course, events: try events(round: round.id, db)).hasScores
    }

    private static func hasRetractions(round: UUID, _ db: Database) throws -> Bool {
        try !ScoreEventRow.filter(ScoreEventRow.Columns.roundID == round && ScoreEventRow.Columns.retraction == true)
            .isEmpty(db)
    }
}
