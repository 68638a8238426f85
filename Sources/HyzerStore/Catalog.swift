import Foundation
import GRDB
import HyzerKit

/// Courses and players: reference data (FR5–FR8), last write wins.
extension HyzerDatabase {
    public func saveCourse(_ course: Course) throws {
        try domain.write { db in try Rows.save(course, at: Date(), db) }
    }

    /// FR8, except that a course with rounds stays: its rounds are history (FR62).
    public func deleteCourse(id: UUID) throws {
        try domain.write { db in
            guard let name = try String.fetchOne(db, sql: "SELECT name FROM courses WHERE id = ?", arguments: [id]) else {
                throw StoreError.notFound("course \(id)")
            }
            if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM rounds WHERE course_id = ?)", arguments: [id]) == true {
                throw StoreError.courseInUse(name)
            }
            try db.execute(sql: "DELETE FROM courses WHERE id = ?", arguments: [id])
        }
    }

    public func courses() throws -> [Course] {
        try domain.read { db in try Rows.courses(db) }
    }

    public func course(id: UUID) throws -> Course? {
        try domain.read { db in try Rows.courses(db, where: "WHERE c.id = ?", [id]).first }
    }

    public func savePlayer(_ player: Player) throws {
        try domain.write { db in
            try db.execute(sql: """
                INSERT INTO players (id, display_name, aliases, updated_at) VALUES (?, ?, ?, ?)
                ON CONFLICT(id) DO UPDATE SET display_name = excluded.display_name,
                    aliases = excluded.aliases, updated_at = excluded.updated_at
                """, arguments: [player.id, player.displayName, Rows.aliasesJSON(player.aliases),
                                 Rows.seconds(Date())])
        }
    }

    public func players() throws -> [Player] {
        try domain.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM players ORDER BY display_name COLLATE NOCASE").map(Rows.player)
        }
    }

    /// Loads the shipped courses exactly once per database (FR3). The marker is kept
    /// even if a seeded course is later deleted, so a deleted course never comes back.
    /// Seed ids are fixed in the file so every device seeds the *same* courses.
    @discardableResult
    public func seedCoursesIfNeeded(from url: URL) throws -> Int {
        let courses = try SeedCourses.load(url)
        return try domain.write { db in
            let marker = "seeded:" + url.lastPathComponent
            guard try String.fetchOne(db, sql: "SELECT value FROM meta WHERE key = ?", arguments: [marker]) == nil else {
                return 0
            }
            var inserted = 0
            for course in courses where try !Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM courses WHERE id = ?)", arguments: [course.id])! {
                try Rows.save(course, at: Date(), db)
                inserted += 1
            }
            try db.execute(sql: "INSERT INTO meta (key, value) VALUES (?, ?)",
                           arguments: [marker, ISO8601DateFormatter().string(from: Date())])
            return inserted
        }
    }
}

/// The shipped course file: `[{"id", "name", "holes", "defaultPar", "exceptions": {"4": 4}}]`.
enum SeedCourses {
    struct Entry: Decodable {
        var id: UUID
        var name: String
        var holes: Int
        var defaultPar: Int?
        var exceptions: [String: Int]?
    }

    static func load(_ url: URL) throws -> [Course] {
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw StoreError.seeds("\(url.path): \(error.localizedDescription)") }
        let entries: [Entry]
        do { entries = try JSONDecoder().decode([Entry].self, from: data) } catch {
            throw StoreError.seeds("\(url.path) is not a valid course list: \(error)")
        }
        return try entries.map { entry in
            var exceptions: [Int: Int] = [:]
            for (key, par) in entry.exceptions ?? [:] {
                guard let hole = Int(key) else { throw StoreError.seeds("\(entry.name): hole \"\(key)\" is not a number") }
                exceptions[hole] = par
            }
            do {
                return try Course(id: entry.id, name: entry.name, holeCount: entry.holes,
                                  defaultPar: entry.defaultPar ?? Course.defaultPar, exceptions: exceptions)
            } catch {
                throw StoreError.seeds("\(entry.name): \(error)")
            }
        }
    }
}
