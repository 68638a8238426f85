import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import Testing

/// Issue 14 item 3 with the real binaries: a course made, changed and deleted at a headless
/// kiosk (knob, and a keyboard for the name), while a round is being played on the course
/// that is changed and then deleted; `hyzer course list` and the round agree afterwards.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskCourseHeadlessTests` also
/// copies `course-list.png`, `course-editor.png`, `course-editor-par.png` and
/// `delete-course.png` there.
@Suite(.serialized) struct KioskCourseHeadlessTests {
    struct Listed: Decodable {
        var id: UUID
        var name: String
        var pars: [Int]
    }

    @Test func makeChangeAndDeleteCoursesAtTheKiosk() async throws {
        let journey = try await HeadlessJourney.demo("courses", players: 3, holesPlayed: 4)
        defer { journey.remove() }
        let store = try HyzerDatabase(directory: journey.dir)
        let before = try await store.read(.snapshot(round: journey.roundID))
        let images = try await journey.play(
            """
            long-press
            turn 20
            turn -3               # Courses, just before Players, League night and "Back to the board"
            press
            expect-screen courses
            turn 10               # New course
            press
            expect-screen name-entry
            type Ridge Run
            key enter
            expect-screen course-editor
            turn 1                # Holes: 18 → 9
            press
            turn -9
            press
            turn 11               # Hole 9: par 3 → 5
            press
            turn 2
            snapshot course-editor-par
            press
            turn -9               # Save course
            snapshot course-editor
            press
            expect-screen courses
            snapshot course-list
            turn 2                # Riverside Nine, the demo round's course
            press
            turn 2                # Par of every hole: 3 → 4
            press
            turn 1
            press
            turn 1                # Save changes
            press
            expect-screen courses
            press                 # Riverside Nine again
            turn 4                # Delete course
            press
            expect-screen code-choose  # the organizer code first (issue 35): none yet, so 0000, twice
            press
            press
            press
            press
            expect-screen code-confirm
            press
            press
            press
            press
            expect-screen delete-course
            snapshot delete-course
            turn -1
            press
            expect-screen courses
            """)
        try HeadlessJourney.check(["course-list", "course-editor", "course-editor-par", "delete-course"], in: images)

        let listed = try await Binary.run("hyzer", ["course", "list", "--json", "--data", journey.dir.path])
        #expect(listed.status == 0, "\(listed.stderr)")
        let courses = try JSONDecoder().decode([Listed].self, from: Data(listed.stdout.utf8))
        #expect(courses.map(\.name) == ["Pine Hollow", "Ridge Run", "Ridgeback Championship"])
        #expect(courses.first { $0.name == "Ridge Run" }?.pars == [3, 3, 3, 3, 3, 3, 3, 3, 5])
        // The round on the changed, then deleted, course: its pars and scores as they were.
        let after = try await store.read(.snapshot(round: journey.roundID))
        #expect(after.course.name == "Riverside Nine")
        #expect(after.course.pars == before.course.pars)
        #expect(after.standings == before.standings)
    }

    /// A keyboard types only on the name wheel: a script that types elsewhere stops there,
    /// saying why.
    @Test func typingWhereNothingTypesStopsTheScript() async throws {
        let journey = try await HeadlessJourney.demo("courses-type", players: 2, holesPlayed: 0)
        defer { journey.remove() }
        let scriptURL = journey.dir.appendingPathComponent("bad.txt")
        try "expect-screen board\ntype Ridge Run\n".write(to: scriptURL, atomically: true, encoding: .utf8)
        let run = try await Binary.run(
            "hyzer-kiosk",
            [
                "--data", journey.dir.path, "--headless", "--size", "800x480", "--script", scriptURL.path,
                "--snapshots", journey.dir.appendingPathComponent("shots").path,
            ])
        #expect(run.status != 0)
        #expect(run.stderr.contains("script line 2: nothing types on board"), "\(run.stderr)")
    }
}
