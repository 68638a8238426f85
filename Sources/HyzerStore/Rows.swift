import Foundation
import GRDB
import HyzerKit

/// Row <-> domain mapping, kept next to the SQL that reads and writes it. Plain
/// functions rather than record protocols: domain types stay free of GRDB.
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
            UUID(uuid: (bytes[start], bytes[start + 1], bytes[start + 2], bytes[start + 3],
                        bytes[start + 4], bytes[start + 5], bytes[start + 6], bytes[start + 7],
                        bytes[start + 8], bytes[start + 9], bytes[start + 10], bytes[start + 11],
                        bytes[start + 12], bytes[start + 13], bytes[start + 14], bytes[start + 15]))
        }
    }

    // MARK: Score events

    static let eventColumns =
        "id, round_id, participant_id, hole, strokes, supersedes, reported_by, device_id, created_at, is_resolution"

    static func event(_ row: Row) -> ScoreEvent {
        ScoreEvent(
            id: row["id"], roundID: row["round_id"], participantID: row["participant_id"],
            hole: row["hole"], strokes: row["strokes"], supersedes: unpack(row["supersedes"]),
            reportedBy: row["reported_by"], deviceID: row["device_id"],
            createdAt: Date(timeIntervalSince1970: row["created_at"]), isResolution: row["is_resolution"])
    }

    static func insert(_ event: ScoreEvent, _ db: Database) throws {
        try db.execute(
            sql: "INSERT INTO score_events (\(eventColumns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            arguments: [event.id, event.roundID, event.participantID, event.hole, event.strokes,
                        pack(event.supersedes), event.reportedBy, event.deviceID,
                        seconds(event.createdAt), event.isResolution])
    }

    static func events(round: UUID, _ db: Database) throws -> [ScoreEvent] {
        try Row.fetchAll(db, sql: "SELECT \(eventColumns) FROM score_events WHERE round_id = ? ORDER BY seq",
                         arguments: [round]).map(event)
    }

    static func events(round: UUID, participant: UUID, hole: Int, _ db: Database) throws -> [ScoreEvent] {
        try Row.fetchAll(db, sql: """
            SELECT \(eventColumns) FROM score_events
            WHERE round_id = ? AND participant_id = ? AND hole = ? ORDER BY seq
            """, arguments: [round, participant, hole]).map(event)
    }

    // MARK: Courses

    static func courses(_ db: Database, where clause: String = "", _ arguments: StatementArguments = []) throws -> [Course] {
        let rows = try Row.fetchAll(db, sql: """
            SELECT c.id, c.name, group_concat(h.par, ',') AS pars
            FROM courses c JOIN (SELECT * FROM holes ORDER BY course_id, number) h ON h.course_id = c.id
            \(clause) GROUP BY c.id ORDER BY c.name COLLATE NOCASE
            """, arguments: arguments)
        return try rows.map { row in
            let pars = (row["pars"] as String).split(separator: ",").compactMap { Int($0) }
            do {
                return try Course(id: row["id"], name: row["name"], pars: pars)
            } catch {
                throw StoreError.corruptRecord("course \(row["name"] as String): \(error)")
            }
        }
    }

    static func save(_ course: Course, at date: Date, _ db: Database) throws {
        try db.execute(sql: """
            INSERT INTO courses (id, name, updated_at) VALUES (?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET name = excluded.name, updated_at = excluded.updated_at
            """, arguments: [course.id, course.name, seconds(date)])
        try db.execute(sql: "DELETE FROM holes WHERE course_id = ?", arguments: [course.id])
        for (index, par) in course.pars.enumerated() {
            try db.execute(sql: "INSERT INTO holes (course_id, number, par) VALUES (?, ?, ?)",
                           arguments: [course.id, index + 1, par])
        }
    }

    // MARK: Players

    static func player(_ row: Row) throws -> Player {
        let aliasData = Data((row["aliases"] as String).utf8)
        let aliases = (try? JSONDecoder().decode([String].self, from: aliasData)) ?? []
        do {
            return try Player(id: row["id"], displayName: row["display_name"], aliases: aliases)
        } catch {
            throw StoreError.corruptRecord("player \(row["id"] as UUID): \(error)")
        }
    }

    static func aliasesJSON(_ aliases: [String]) -> String {
        let data = (try? JSONEncoder().encode(aliases)) ?? Data("[]".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    // MARK: Rounds

    static func round(id: UUID, _ db: Database) throws -> Round? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM rounds WHERE id = ?", arguments: [id]) else {
            return nil
        }
        return try round(row, db)
    }

    static func round(_ row: Row, _ db: Database) throws -> Round {
        let id: UUID = row["id"]
        let participants = try Row.fetchAll(db, sql: """
            SELECT participant_id, name, kind FROM round_participants WHERE round_id = ? ORDER BY ordinal
            """, arguments: [id]).map { p in
            Participant(id: p["participant_id"], name: p["name"],
                        kind: Participant.Kind(rawValue: p["kind"]) ?? .guest)
        }
        guard let status = RoundStatus(rawValue: row["status"]) else {
            throw StoreError.corruptRecord("round \(id) has unknown status \(row["status"] as String)")
        }
        return Round(id: id, courseID: row["course_id"], organizerID: row["organizer_id"],
                     participants: participants, status: status,
                     createdAt: Date(timeIntervalSince1970: row["created_at"]),
                     startedAt: date(row["started_at"]), completedAt: date(row["completed_at"]))
    }

    static func updateStatus(of round: Round, _ db: Database) throws {
        try db.execute(sql: """
            UPDATE rounds SET status = ?, started_at = ?, completed_at = ?, updated_at = ? WHERE id = ?
            """, arguments: [round.status.rawValue, round.startedAt.map(seconds), round.completedAt.map(seconds),
                             seconds(Date()), round.id])
    }
}
