import Foundation
import GRDB
import HyzerKit

/// Courses: reference data (FR5–FR8), last write wins; the shipped ones are seeded once (FR3).
extension StoreWrite where Value == Void {
    /// Creates a course or changes one. A course deleted meanwhile (on another device,
    /// say) is not brought back by an edit from a screen that still showed it.
    public static func saveCourse(_ course: Course) -> Self {
        StoreWrite { db, context in
            let row = try CourseRow.fetchOne(db, key: course.id)
            if let row, row.deletedAt != nil { throw StoreError.courseDeleted(row.name) }
            try Rows.save(course, at: Rows.seconds(context.now), lineage: row.map(Rows.lineage) ?? .original, db)
        }
    }

    /// FR8 as a tombstone (issue 14): the course leaves every list and no new round can
    /// pick it, on this device and, once synced, on every other. Its row stays, so played
    /// rounds keep its name, and they keep their own pars (FR62).
    ///
    /// `who` is recorded with the tombstone (issue 35), and it stays the generation it
    /// was: a restore is the next one.
    public static func deleteCourse(id: UUID, by who: ActionContext? = nil) -> Self {
        StoreWrite { db, context in
            _ = try Rows.courseInUse(id: id, db)
            let now = Rows.seconds(context.now)
            var changes = [CourseRow.Columns.deletedAt.set(to: now), CourseRow.Columns.updatedAt.set(to: now)]
            if let who {
                let action = who.action(.courseDeleted, at: context.now, deviceID: context.deviceID)
                changes.append(CourseRow.Columns.action.set(to: Rows.json(action)))
            }
            try CourseRow.filter(key: id).updateAll(db, changes)
        }
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
                try Rows.save(course, at: Rows.seconds(context.now), lineage: .original, db)
                inserted += 1
            }
            try MetaRow(key: marker, value: ISO8601Time.string(from: context.now)).insert(db)
            return inserted
        }
    }

    /// The shipped course file at `url` (`assets/courses.json`), seeded once per database
    /// under its file name (see `seedCourses(_:marker:)`); the file is read here, before
    /// the transaction. Returns how many courses were added.
    public static func seedCourses(from url: URL) throws -> Self {
        seedCourses(try SeedCourses.load(url), marker: url.lastPathComponent)
    }
}

extension StoreRead where Value == [Course] {
    public static var courses: Self { StoreRead { db in try Rows.courses(db) } }
}

extension StoreRead where Value == Course? {
    /// The course with `id` while it is in use; nil when it is unknown or deleted.
    public static func course(id: UUID) -> Self {
        StoreRead { db in try Rows.liveCourse(id: id, db) }
    }
}

/// What deleting a course would touch, for the confirmation that says so.
public struct CourseUsage: Sendable, Hashable {
    /// Rounds played or being played on it; they keep its name and their pars.
    public var rounds: Int
    /// Of those, the ones not finished yet: they go on with the pars they started with.
    public var unfinished: Int

    public init(rounds: Int, unfinished: Int) {
        self.rounds = rounds
        self.unfinished = unfinished
    }
}

extension StoreRead where Value == CourseUsage {
    public static func courseUsage(id: UUID) -> Self {
        StoreRead { db in
            let rounds = RoundRow.filter(RoundRow.Columns.courseID == id)
            return CourseUsage(
                rounds: try rounds.fetchCount(db),
                unfinished: try rounds.filter(RoundRow.Columns.status != RoundStatus.completed.rawValue).fetchCount(db))
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
                return try Course(
                    id: entry.id, name: entry.name, holeCount: entry.holes,
                    defaultPar: entry.defaultPar ?? Course.defaultPar, exceptions: exceptions)
            } catch {
                throw StoreError.seeds("\(entry.name): \(error)")
            }
        }
    }
}
