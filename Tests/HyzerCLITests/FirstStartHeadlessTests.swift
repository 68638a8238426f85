import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 34 item 5: an installed kiosk needs no shell step. On its first start, over a data
/// directory that does not exist yet (no `hyzer init`, no players), it makes its store, loads
/// the shipped courses, shows the empty board, and a round starts from the knob alone.
@Suite struct FirstStartHeadlessTests {
    @Test func aKioskWithNoDataBootsToAnEmptyBoardThatStartsARound() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-first-start-\(UUID())")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let dir = root.appendingPathComponent("data")
        let script = root.appendingPathComponent("first.txt")
        try """
        expect-screen board
        snapshot first-start-board
        press                 # start a round
        expect-screen setup-course
        turn 2                # Riverside Nine, one of the shipped courses
        press
        expect-screen name-entry
        type Ana              # nobody yet: the first player is named at once
        key enter
        expect-screen setup-players
        press                 # Start round · 1 player
        expect-screen confirm-round
        press
        expect-screen hole-1
        """.write(to: script, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", dir.path, "--headless", "--size", "1280x720", "--script", script.path,
                "--snapshots", root.appendingPathComponent("shots").path,
            ])
        #expect(run.status == 0, "stderr: \(run.stderr)")
        try HeadlessJourney.check(["first-start-board"], in: run.stdout.split(separator: "\n").map(String.init))

        let db = try HyzerDatabase(directory: dir)
        let shipped = try JSONSerialization.jsonObject(
            with: Data(contentsOf: try #require(HyzerPaths.assetsDirectory()).appendingPathComponent("courses.json")))
        let courses = try await db.read(.courses)
        #expect(courses.count == (shipped as? [Any])?.count, "the kiosk seeded the shipped courses itself")
        let round = try #require(try await db.read(.activeRounds).first)
        #expect(round.participants.map(\.name) == ["Ana"])
        #expect(courses.first { $0.id == round.courseID }?.name == "Riverside Nine")
    }
}
