import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer course`: the courses this device knows (issue 14 item 5).
struct CourseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "course", abstract: "The courses rounds are played on.", subcommands: [List.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the courses: id, name, holes and par.",
            discussion: "With --json: an array of {\"id\", \"name\", \"holes\", \"par\", \"pars\"} (pars hole by hole).")
        @OptionGroup var data: DataOptions
        @Flag(help: "Print JSON.") var json = false

        struct Line: Encodable {
            var id: UUID
            var name: String
            var holes: Int
            var par: Int
            var pars: [Int]
        }

        func run() async throws {
            let courses = try data.open().courses()
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
}
