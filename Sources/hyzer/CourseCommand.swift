import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer course`: the courses this device knows (issue 14 item 5).
struct CourseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course", abstract: "The courses rounds are played on.",
        subcommands: [List.self, Add.self, Edit.self, Delete.self, Restore.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the courses: id, name, holes and par.",
            discussion: """
                With --json: an array of {"id", "name", "holes", "par", "pars"} (pars hole by hole).
                With --deleted: the deleted courses instead, most recent first ({"id", "name", "deletedAt",
                "deletedBy", "restorable"} in JSON); `hyzer course restore` brings one back.
                """)
        @OptionGroup var data: DataOptions
        @Flag(help: "Print JSON.") var json = false
        @Flag(help: "List the deleted courses.") var deleted = false

        struct DeletedLine: Encodable {
            var id: UUID
            var name: String
            var deletedAt: String
            var deletedBy: ActionLine?
            var restorable: Bool
        }

        struct Line: Encodable {
            var id: UUID
            var name: String
            var holes: Int
            var par: Int
            var pars: [Int]
        }

        func run() async throws {
            if deleted {
                let courses = try await data.open().read(.deletedCourses)
                if json {
                    try printJSON(
                        courses.map {
                            DeletedLine(
                                id: $0.id, name: $0.name, deletedAt: ISO8601Time.string(from: $0.deletedAt),
                                deletedBy: $0.deletedBy.map(ActionLine.init), restorable: $0.restorable)
                        })
                    return
                }
                for course in courses {
                    print(
                        "\(course.id.uuidString)  \(course.name)  deleted \(ISO8601Time.string(from: course.deletedAt))"
                            + (course.deletedBy.map { " " + ActionLine($0).text } ?? "")
                            + (course.restorable ? "" : "  (holes unknown here)"))
                }
                return
            }
            let courses = try await data.open().read(.courses)
            if json {
                try printJSON(
                    courses.map {
                        Line(id: $0.id, name: $0.name, holes: $0.holeCount, par: $0.pars.reduce(0, +), pars: $0.pars)
                    })
                return
            }
            for course in courses {
                print("\(course.id.uuidString)  \(course.name)  \(course.holeCount) holes, par \(course.pars.reduce(0, +))")
            }
        }
    }

    /// Saves `course` unless another course already has its name (two courses of one name
    /// could not be told apart by name, here or on the kiosk's list).
    static func save(_ course: Course, in db: HyzerDatabase) throws {
        if let other = try db.read(.courses).named(course.name, except: course.id) {
            throw CommandFailure(message: "a course named \(other.name) already exists (\(other.id.uuidString))")
        }
        do { try db.write(.saveCourse(course)) } catch { throw CommandFailure(error) }
    }

    /// Issue 14 item 5: a course from a script. The id is printed last.
    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a course. Prints the new course's id last.",
            discussion: """
                Every hole gets --par (default \(Course.defaultPar)); --hole-par HOLE=PAR sets one hole's \
                par, as often as needed. Holes: \(Course.allowedHoleCounts.lowerBound)–\(Course.allowedHoleCounts.upperBound); \
                pars: \(Course.allowedPars.lowerBound)–\(Course.allowedPars.upperBound).
                """)
        @OptionGroup var data: DataOptions
        @Argument(help: "The course's name.") var name: String
        @Option(help: "How many holes.") var holes: Int
        @Option(help: "The par of every hole not named by --hole-par.") var par = Course.defaultPar
        @Option(name: .customLong("hole-par"), help: "HOLE=PAR for one hole (repeatable), e.g. 7=4.")
        var holePars: [String] = []

        func run() async throws {
            let db = try data.open()
            let course: Course
            do {
                course = try Course(
                    name: name, holeCount: holes, defaultPar: par, exceptions: try HoleParOption.parse(holePars))
            } catch let error as CommandFailure {
                throw error
            } catch {
                throw CommandFailure(error)
            }
            try CourseCommand.save(course, in: db)
            print("created \(course.name): \(course.holeCount) holes, par \(course.totalPar)")
            print(course.id.uuidString)
        }
    }

    /// Issue 14 item 5: a course's name or pars changed. Rounds already started keep
    /// the pars they started with.
    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Rename a course or change its pars (named by id or by name). Started rounds keep their pars.",
            discussion: "--par sets every hole first; then each --hole-par HOLE=PAR sets one hole.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The course's id or name (case does not matter).") var course: String
        @Option(help: "A new name.") var name: String?
        @Option(help: "A new par for every hole.") var par: Int?
        @Option(name: .customLong("hole-par"), help: "HOLE=PAR for one hole (repeatable), e.g. 7=4.")
        var holePars: [String] = []

        func run() async throws {
            let db = try data.open()
            let current = try DeviceLookup.course(course, in: db)
            guard name != nil || par != nil || !holePars.isEmpty else {
                throw CommandFailure(message: "nothing to change: give --name, --par or --hole-par")
            }
            var pars = par.map { Array(repeating: $0, count: current.holeCount) } ?? current.pars
            for (hole, holePar) in try HoleParOption.parse(holePars) {
                guard current.holes.contains(hole) else {
                    throw CommandFailure(CourseError.unknownHole(hole, holeCount: current.holeCount))
                }
                pars[hole - 1] = holePar
            }
            let edited: Course
            do { edited = try Course(id: current.id, name: name ?? current.name, pars: pars) } catch {
                throw CommandFailure(error)
            }
            try CourseCommand.save(edited, in: db)
            print("saved \(edited.name): \(edited.holeCount) holes, par \(edited.totalPar)")
        }
    }

    /// Issue 14 item 5: a course deleted on every device (a tombstone once synced).
    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete a course (named by id or by name). Its played rounds stay in history.")
        @OptionGroup var data: DataOptions
        @Argument(help: "The course's id or name (case does not matter).") var course: String

        func run() async throws {
            let db = try data.open()
            let victim = try DeviceLookup.course(course, in: db)
            let usage = try await db.read(.courseUsage(id: victim.id))
            do { try await db.write(.deleteCourse(id: victim.id, by: CommandLineUndo.context(db))) } catch {
                throw CommandFailure(error)
            }
            print("deleted \(victim.name) (\(victim.holeCount) holes, par \(victim.totalPar))")
            if usage.rounds > 0 {
                print(
                    (usage.rounds == 1
                        ? "its round stays in history with the pars it was played to"
                        : "its \(usage.rounds) rounds stay in history with the pars they were played to")
                        + (usage.unfinished > 0 ? "; \(usage.unfinished) not finished yet can still be scored" : ""))
            }
        }
    }
}

/// `--hole-par HOLE=PAR`, as many times as needed.
enum HoleParOption {
    static func parse(_ values: [String]) throws -> [Int: Int] {
        var pars: [Int: Int] = [:]
        for value in values {
            let parts = value.split(separator: "=", omittingEmptySubsequences: false)
            guard parts.count == 2, let hole = Int(parts[0].trimmingCharacters(in: .whitespaces)),
                let par = Int(parts[1].trimmingCharacters(in: .whitespaces))
            else {
                throw CommandFailure(message: "--hole-par takes HOLE=PAR, like 7=4, not \"\(value)\"")
            }
            guard pars[hole] == nil else { throw CommandFailure(message: "--hole-par names hole \(hole) twice") }
            pars[hole] = par
        }
        return pars
    }
}
