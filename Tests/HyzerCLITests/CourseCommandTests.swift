import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 14 item 5: `hyzer course add | edit | delete`, by id or name, through the real
/// binary; bad input refused with a message, a non-zero exit and nothing saved.
@Suite struct CourseCommandTests {
    @Test func addEditAndDeleteACourse() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-course-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["--data", dir.path]
        #expect(try await Binary.run("hyzer", ["init"] + data).status == 0)

        let added = try await Binary.run(
            "hyzer",
            ["course", "add", "Three Nines", "--holes", "27", "--par", "3", "--hole-par", "9=5", "--hole-par", "27=7"] + data)
        #expect(added.status == 0, "\(added.stderr)")
        let id = try #require(added.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })
        let store = try HyzerDatabase(directory: dir)
        let course = try #require(try await store.read(.course(id: id)))
        #expect(course.holeCount == 27 && course.par(of: 9) == 5 && course.par(of: 27) == 7 && course.par(of: 1) == 3)

        // A round started now keeps these pars through the edit below.
        #expect(try await Binary.run("hyzer", ["player", "add", "Ana"] + data).status == 0)
        let started = try await Binary.run("hyzer", ["round", "start", "--course", "three nines", "--players", "Ana"] + data)
        #expect(started.status == 0, "\(started.stderr)")
        let roundID = try #require(started.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })

        let edited = try await Binary.run(
            "hyzer", ["course", "edit", "three nines", "--name", "Triple Loop", "--par", "4", "--hole-par", "2=2"] + data)
        #expect(edited.status == 0, "\(edited.stderr)")
        let after = try #require(try await store.read(.course(id: id)))
        #expect(after.name == "Triple Loop" && after.par(of: 1) == 4 && after.par(of: 2) == 2 && after.par(of: 27) == 4)
        #expect(try await store.read(.snapshot(round: roundID)).course.pars == course.pars)

        // Only one hole's par, by id: the rest stay.
        #expect(try await Binary.run("hyzer", ["course", "edit", id.uuidString, "--hole-par", "3=6"] + data).status == 0)
        #expect(try await store.read(.course(id: id))?.pars == after.pars.enumerated().map { $0.offset == 2 ? 6 : $0.element })

        let deleted = try await Binary.run("hyzer", ["course", "delete", "Triple Loop"] + data)
        #expect(deleted.status == 0, "\(deleted.stderr)")
        #expect(deleted.stdout.contains("deleted Triple Loop (27 holes"))
        #expect(deleted.stdout.contains("its round stays in history"), "\(deleted.stdout)")
        #expect(try await store.read(.course(id: id)) == nil)
        #expect(try await store.read(.snapshot(round: roundID)).course.name == "Triple Loop")
        let listed = try await Binary.run("hyzer", ["course", "list"] + data)
        #expect(!listed.stdout.contains("Triple Loop"))
        let again = try await Binary.run("hyzer", ["round", "start", "--course", id.uuidString, "--players", "Ana"] + data)
        #expect(again.status != 0)
        #expect(again.stderr.contains("no course has the id"), "\(again.stderr)")
    }

    @Test func badInputIsRefusedAndNothingIsSaved() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-course-bad-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let data = ["--data", dir.path]
        #expect(try await Binary.run("hyzer", ["init"] + data).status == 0)
        let store = try HyzerDatabase(directory: dir)
        let before = try await store.read(.courses)

        for (arguments, message) in [
            (["add", "Zero", "--holes", "0"], "a course has 1 to 36 holes, not 0"),
            (["add", "Huge", "--holes", "37"], "a course has 1 to 36 holes, not 37"),
            (["add", "  ", "--holes", "9"], "a course needs a name"),
            (["add", String(repeating: "x", count: 41), "--holes", "9"], "at most 40 characters"),
            (["add", "Steep", "--holes", "9", "--par", "8"], "par 8 on hole 1 is outside 2–7"),
            (["add", "Steep", "--holes", "9", "--hole-par", "3=1"], "par 1 on hole 3 is outside 2–7"),
            (["add", "Far", "--holes", "9", "--hole-par", "10=3"], "hole 10 does not exist on a 9-hole course"),
            (["add", "Typo", "--holes", "9", "--hole-par", "3:4"], "--hole-par takes HOLE=PAR"),
            (["add", "Twice", "--holes", "9", "--hole-par", "3=4", "--hole-par", "3=5"], "names hole 3 twice"),
            (["add", "riverside nine", "--holes", "9"], "a course named Riverside Nine already exists"),
            (["edit", "Riverside Nine"], "nothing to change"),
            (["edit", "Riverside Nine", "--par", "9"], "outside 2–7"),
            (["edit", "Riverside Nine", "--hole-par", "10=3"], "hole 10 does not exist on a 9-hole course"),
            (["edit", "Nowhere", "--par", "3"], "no course is called \"Nowhere\""),
            (["delete", "Nowhere"], "no course is called \"Nowhere\""),
        ] {
            let result = try await Binary.run("hyzer", ["course"] + arguments + data)
            #expect(result.status != 0, "\(arguments) was accepted")
            #expect(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
        #expect(try await store.read(.courses) == before)
    }
}
