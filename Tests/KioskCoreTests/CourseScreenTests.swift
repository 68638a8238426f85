import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 14 item 3 at the kiosk: make, change and delete a course with the knob (and a
/// keyboard for the name), with bad input said on the screen and nothing saved.
@Suite struct CourseScreenTests {
    /// Board → menu → Courses.
    func openCourses(_ h: inout Harness) {
        h.send(.longPressed)
        h.send(.turned(h.state.menuItems.firstIndex(of: .courses)!))
        h.send(.pressed)
    }

    var editor: (KioskState) -> Screen.CourseEditor? = { state in
        if case .courseEditor(let editor) = state.screen { return editor }
        return nil
    }

    /// Turns the editor's cursor onto `row`.
    func move(_ h: inout Harness, to row: Screen.CourseEditor.Row) throws {
        let current = try #require(editor(h.state))
        let index = try #require(current.rows.firstIndex(of: row))
        if index != current.cursor { h.send(.turned(index - current.cursor)) }
    }

    /// Press on a number, turn it by `steps`, press to set it.
    func change(_ h: inout Harness, _ row: Screen.CourseEditor.Row, by steps: Int) throws {
        try move(&h, to: row)
        h.send(.pressed)
        h.send(.turned(steps))
        h.send(.pressed)
    }

    /// Issue 35 item 5: the wheel for a course's name offers the group's course names and
    /// the words in them, not people's first names. Negative control: the same kiosk's wheel
    /// for people (the player's and guest's predictor) offers the listed first names.
    @Test func aCourseNameIsOfferedCourseWordsNotPeoplesNames() throws {
        var h = try Harness(startRound: false)
        h.courses.append(try Course(name: "Maple Hill Park", holeCount: 18))
        h.publish(.localScore)
        h.state.nameList = NameLexicon(
            ["Michael", "James", "David", "Mary"].map { NameLexicon.Candidate(name: $0, weight: 100) })
        openCourses(&h)
        h.send(.turned(h.courses.count))  // "New course"
        h.send(.pressed)
        guard case .nameEntry(let entry) = h.state.screen else { throw CancellationError() }
        let offered = Set(entry.wheel.completions)
        #expect(
            !offered.isEmpty
                && offered.isSubset(of: ["Riverside Nine", "Maple Hill Park", "Riverside", "Nine", "Maple", "Hill", "Park"]),
            "\(offered)")
        var typed = entry.wheel
        _ = typed.take(.character("m"))
        #expect(typed.completions.first == "Maple Hill Park", "\(typed.completions)")
        #expect(!typed.completions.contains("Michael") && !typed.completions.contains("Mary"), "\(typed.completions)")

        var people = NameWheel(predictor: NamePredictor(bundled: h.state.nameList, players: [], guests: []))
        _ = people.take(.character("m"))
        #expect(people.completions.contains("Michael"), "the player's wheel still has the list: \(people.completions)")
    }

    @Test func aNewCourseIsNamedThenShapedThenSaved() throws {
        var h = try Harness(startRound: false)
        openCourses(&h)
        #expect(h.state.screen.name == "courses")
        h.send(.turned(h.courses.count))  // "New course"
        h.send(.pressed)
        guard case .nameEntry(let entry) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(entry.title == "New course's name")
        h.send(.typed(.text("Ridge Run")))
        h.send(.typed(.done))
        #expect(editor(h.state)?.draft.name == "Ridge Run")

        try change(&h, .holes, by: -9)  // 18 → 9
        try change(&h, .hole(9), by: 2)  // par 5
        try change(&h, .hole(1), by: -1)  // par 2
        #expect(editor(h.state)?.draft.pars == [2, 3, 3, 3, 3, 3, 3, 3, 5])
        try move(&h, to: .save)
        h.effects = []
        h.send(.pressed)
        let saved = try #require(h.courses.first { $0.name == "Ridge Run" })
        #expect(h.effects.contains(.saveCourse(saved)))
        #expect(saved.pars == [2, 3, 3, 3, 3, 3, 3, 3, 5])
        #expect(h.state.screen == .courseList(cursor: h.courses.firstIndex(of: saved)!), "the cursor is on the new course")
    }

    @Test func turningPastTheLimitsStopsThereWithADoublePulse() throws {
        var h = try Harness(startRound: false)
        openCourses(&h)
        h.send(.pressed)  // Riverside Nine
        try move(&h, to: .holes)
        h.send(.pressed)
        #expect(h.send(.turned(40)) == [.buzz(.limit)])
        #expect(editor(h.state)?.draft.holeCount == Course.allowedHoleCounts.upperBound)
        h.send(.pressed)
        try move(&h, to: .par)
        h.send(.pressed)
        #expect(h.send(.turned(-9)) == [.buzz(.limit)])
        #expect(editor(h.state)?.draft.defaultPar == Course.allowedPars.lowerBound)
    }

    @Test func editingKeepsExceptionsAndSavesWithTheSameID() throws {
        var h = try Harness(startRound: false)  // Riverside Nine: par 3, hole 5 par 4
        openCourses(&h)
        h.send(.pressed)
        let opened = try #require(editor(h.state))
        #expect(opened.draft.defaultPar == 3 && opened.draft.exceptions == [5: 4])
        #expect(!opened.isNew && opened.rows.contains(.delete))
        try change(&h, .par, by: 2)  // every ordinary hole par 5; hole 5 stays 4
        #expect(editor(h.state)?.draft.pars == [5, 5, 5, 5, 4, 5, 5, 5, 5])
        try move(&h, to: .save)
        h.send(.pressed)
        #expect(h.courses.first?.id == h.course.id)
        #expect(h.courses.first?.pars == [5, 5, 5, 5, 4, 5, 5, 5, 5])
    }

    @Test func badInputIsSaidOnTheScreenAndNothingIsSaved() throws {
        var h = try Harness(startRound: false)
        let other = try Course(name: "Ridgeback", holeCount: 18)
        h.courses.append(other)
        h.publish(.localScore)
        openCourses(&h)
        h.send(.turned(h.courses.count))
        h.send(.pressed)
        h.effects = []
        // An empty name, then a name another course has.
        h.send(.typed(.done))
        #expect(h.state.notice?.text == "Enter a name first")
        h.send(.typed(.text("ridgeback")))
        h.send(.typed(.done))
        #expect(h.state.notice?.text == "A course named Ridgeback already exists")
        #expect(h.state.screen.name == "name-entry")
        // A long press leaves without saving, back to the list it came from.
        h.send(.longPressed)
        #expect(h.state.screen.name == "courses")

        // Renaming an existing course onto another's name is refused at Save too.
        h.send(.turned(-10))
        h.send(.pressed)
        var renamed = try #require(editor(h.state))
        renamed.draft.name = "RIDGEBACK"
        h.state.screen = .courseEditor(renamed)
        try move(&h, to: .save)
        h.send(.pressed)
        #expect(h.state.notice?.text == "A course named Ridgeback already exists")
        // Changing a number and then holding leaves without saving.
        try change(&h, .holes, by: 3)
        h.send(.longPressed)
        #expect(h.state.screen.name == "courses")
        #expect(!h.effects.contains { if case .saveCourse = $0 { true } else { false } })
        #expect(h.courses.map(\.holeCount).sorted() == [9, 18])
    }

    @Test func deletingAsksFirstAndStartsOnKeepingIt() throws {
        var h = try Harness(startRound: false)
        openCourses(&h)
        h.send(.pressed)
        try move(&h, to: .delete)
        h.send(.pressed)
        guard case .deleteCourse(let question) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(question.cursor == 1)
        let (title, detail, lines) = question.lines(in: h.state.data)
        #expect(title == "Delete Riverside Nine?" && detail == "9 holes, par 28")
        #expect(lines.contains { $0.contains("stay in history") })
        h.send(.pressed)  // Keep it
        #expect(h.state.screen.name == "course-editor")
        #expect(!h.effects.contains(.deleteCourse(h.course.id)))
        h.send(.pressed)  // on Delete again
        h.send(.turned(-1))
        h.send(.pressed)
        #expect(h.effects.contains(.deleteCourse(h.course.id)))
        #expect(h.courses.isEmpty)
        #expect(h.state.screen == .courseList(cursor: 0))
    }

    /// Taps answer the question too: on a button only, never from a stray touch.
    @Test func theDeleteQuestionTakesTaps() throws {
        var h = try Harness(startRound: false)
        openCourses(&h)
        h.send(.pressed)
        try move(&h, to: .delete)
        h.send(.pressed)
        let buttons = Layout(viewport: h.state.viewport).statusButtons(count: 2)
        h.send(.touch(x: 1, y: 1))
        #expect(h.state.screen.name == "delete-course", "a touch off the buttons answers nothing")
        h.send(.touch(x: buttons[1].midX, y: buttons[1].midY))
        #expect(h.state.screen.name == "course-editor")
        h.send(.pressed)
        h.send(.touch(x: buttons[0].midX, y: buttons[0].midY))
        #expect(h.effects.contains(.deleteCourse(h.course.id)))
    }

    @Test func aCourseDeletedElsewhereWhileOpenIsSaid() throws {
        var h = try Harness(startRound: false)
        openCourses(&h)
        h.send(.pressed)
        try change(&h, .par, by: 1)
        h.courses = []
        h.publish(.remoteSync)
        #expect(h.state.screen.name == "courses")
        #expect(h.state.notice?.text == "Riverside Nine was deleted on another device")
    }

    /// Issue 14 item 2's empty states: no course at all goes straight to creating one, and
    /// the course made there goes straight on to who is playing; no player at all goes
    /// straight to adding one.
    @Test func setupWithNoCoursesOrNoPlayersGoesStraightToMakingOne() throws {
        var h = try Harness(players: 0, startRound: false)
        h.courses = []
        h.publish(.localScore)
        h.send(.longPressed)
        h.send(.turned(h.state.menuItems.firstIndex(of: .startRound)!))
        h.send(.pressed)
        guard case .nameEntry(let entry) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(entry.title == "New course's name")
        h.send(.typed(.text("Back Nine")))
        h.send(.typed(.done))
        try move(&h, to: .save)
        h.send(.pressed)
        let made = try #require(h.courses.first)
        #expect(made.name == "Back Nine" && made.holeCount == 18)
        #expect(h.state.screen == .setupPlayers(courseID: made.id, selected: [], cursor: 0))

        // Back out and pick the course again: with no players, adding one comes first.
        h.send(.longPressed)
        #expect(h.state.screen.name == "setup-course")
        h.send(.pressed)
        guard case .nameEntry(let player) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(player.title == "New player's name")
        h.send(.typed(.text("Ana")))
        h.send(.typed(.done))
        #expect(h.players.map(\.displayName) == ["Ana"])
        guard case .setupPlayers(let setup) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(setup.courseID == made.id && setup.selected == [h.players[0].id])
    }

    /// "New course" is the last row of round setup's course list, after every course.
    @Test func setupOffersANewCourseAfterTheCourses() throws {
        var h = try Harness(startRound: false)
        h.send(.longPressed)
        h.send(.turned(h.state.menuItems.firstIndex(of: .startRound)!))
        h.send(.pressed)
        #expect(h.state.screen.name == "setup-course")
        #expect(h.send(.turned(5)) == [.buzz(.limit)])
        #expect(h.state.screen == .setupCourse(cursor: 1))
        h.send(.pressed)
        #expect(h.state.screen.name == "name-entry")
        h.send(.longPressed)
        #expect(h.state.screen == .setupCourse(cursor: 0))
    }
}
