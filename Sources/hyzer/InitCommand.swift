import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

struct Init: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create the databases in the data directory and load the seeded courses.")

    @OptionGroup var data: DataOptions

    func run() async throws {
        guard let assets = HyzerPaths.assetsDirectory() else {
            throw CommandFailure(message: "cannot find assets/courses.json; run from the checkout or set HYZER_ASSETS")
        }
        let db = try data.open()
        for recovery in db.recoveries { printError("warning: \(recovery)") }
        let courses = try await db.read(.courses)
        print("data directory: \(db.files.path)")
        print("device id: \(db.deviceID)")
        print("courses (\(courses.count), seeded from \(assets.path)/courses.json):")
        for course in courses {
            print("  \(course.name): \(course.holeCount) holes, par \(course.totalPar)")
        }
    }
}
