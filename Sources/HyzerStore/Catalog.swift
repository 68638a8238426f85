import Foundation
import GRDB
import HyzerKit

/// Courses and players: reference data (FR5–FR8), last write wins.
extension StoreWrite where Value == Void {
    public static func saveCourse(_ course: Course) -> Self {
        StoreWrite { db, context in try Rows.save(course, at: Rows.seconds(context.now), db) }
    }

    /// FR8, except that a course with rounds stays: its rounds are history (FR62).
    public static func deleteCourse(id: UUID) -> Self {
        StoreWrite { db, _ in
            guard let course = try CourseRow.fetchOne(db, key: id) else { throw StoreError.notFound("course \(id)") }
            if try RoundRow.filter(RoundRow.Columns.courseID == id).isEmpty(db) == false {
                throw StoreError.courseInUse(course.name)
            }
            try CourseRow.deleteOne(db, key: id)
        }
    }

    public static func savePlayer(_ player: Player) -> Self {
        StoreWrite { db, context in try Rows.save(player, at: Rows.seconds(context.now), db) }
    }
}

extension StoreWrite where Value == Int {
    /// Loads the shipped courses exactly once per database (FR3). The marker is kept
    /// even if a seeded course is later deleted, so a deleted course never comes back.
    /// Seed ids are fixed in the file so every device seeds the *same* courses.
    public static func seedCourses(_ courses: [Course], marker name: String) -> Self {
        StoreWrite { db, context in
            let marker = "seeded:" + name
            guard try MetaRow.fetchOne(db, key: marker) == nil else { return 0 }
            var inserted = 0
            for course in courses where try CourseRow.exists(db, key: course.id) == false {
                try Rows.save(course, at: Rows.seconds(context.now), db)
                inserted += 1
            }
            try MetaRow(key: marker, value: ISO8601Time.string(from: context.now)).insert(db)
            return inserted
        }
    }
}

extension StoreRead where Value == [Course] {
    public static var courses: Self { StoreRead { db in try Rows.courses(db) } }
}

extension StoreRead where Value == Course? {
    public static func course(id: UUID) -> Self { StoreRead { db in try Rows.course(id: id, db) } }
}

extension StoreRead where Value == [Player] {
    public static var players: Self {
        StoreRead { db in try PlayerRow.order(Column("display_name").collating(.nocase)).fetchAll(db).map(Rows.player) }
    }
}

extension HyzerDatabase {
    public func saveCourse(_ course: Course) throws { try write(.saveCourse(course)) }
    public func deleteCourse(id: UUID) throws { try write(.deleteCourse(id: id)) }
    public func courses() throws -> [Course] { try read(.courses) }
    public func course(id: UUID) throws -> Course? { try read(.course(id: id)) }
    public func savePlayer(_ player: Player) throws { try write(.savePlayer(player)) }
    public func players() throws -> [Player] { try read(.players) }

    /// Loads the shipped courses once per database (see `StoreWrite.seedCourses`).
    @discardableResult
    public func seedCoursesIfNeeded(from url: URL) throws -> Int {
        try write(.seedCourses(try SeedCourses.load(url), marker: url.lastPathComponent))
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
                return try Course(
                    id: entry.id, name: entry.name, holeCount: entry.holes,
                    defaultPar: entry.defaultPar ?? Course.defaultPar, exceptions: exceptions)
            } catch {
                throw StoreError.seeds("\(entry.name): \(error)")
            }
        }
    }
}
