import Foundation
import HyzerKit
import HyzerTestSupport
import Testing

@testable import KioskCore

/// Issue 37 item 3 at the kiosk: the menu's Stats lists the roster and the courses; a press
/// asks the shell for the page, which shows what the rules worked out (StatsTests' three
/// rounds, by hand); a best's row opens its course, and the way back is the way in.
@Suite struct StatsScreenTests {
    @Test func fromTheMenuToAPlayerToTheirCourseAndBack() throws {
        var h = try Harness(players: 3, startRound: false)
        let stats = try #require(h.state.menuItems.firstIndex(of: .stats))
        #expect(h.state.menuItems[stats - 1] == .history, "Stats sits beside History")
        h.send(.longPressed)
        h.send(.turned(stats))
        h.send(.pressed)
        guard case .stats(let list) = h.state.screen else { throw CancellationError() }
        let subjects = Screen.Stats.subjects(in: h.state.data)
        #expect(subjects.map(\.title) == ["Jake", "Mike", "Nate", "Riverside Nine"])
        h.send(.turned(2))
        #expect(h.send(.pressed) == [.loadStats(.player(h.players[0].id))])
        #expect(h.state.screen.name == "stats")

        let (course, rounds, ann, _) = try StatsRounds.make()
        let page = PlayerStats(player: ann, rounds: rounds)
        h.send(.statsLoaded(.player(h.players[0].id), .player(page)))
        #expect(h.state.screen.name == "stats-player")
        let rows = Screen.Stats.rows(.player(page), minus: "-")
        #expect(rows.map(\.title) == ["Rounds", "Birdies and aces", "Last 2 rounds", "Best at Tiny Three"])
        #expect(rows[0].detail == "2 finished · average -1.0")
        #expect(rows[1].detail == "2 birdies · 0 aces")
        #expect(rows[2].trend == [-1, -1])
        #expect(rows[3].detail.hasPrefix("-1 · 9 strokes · ") && rows[3].detail.hasSuffix("no handicap yet"))
        #expect(rows[3].opens == course.id)

        // The first rows open nothing; the best opens its course.
        #expect(h.send(.pressed) == [.buzz(.limit)])
        h.send(.turned(3))
        #expect(h.send(.pressed) == [.loadStats(.course(course.id))])
        let coursePage = CourseStats(course: course, rounds: rounds)
        h.send(.statsLoaded(.course(course.id), .course(coursePage)))
        #expect(h.state.screen.name == "stats-course")
        let courseRows = Screen.Stats.rows(.course(coursePage), minus: "-")
        #expect(
            courseRows.prefix(4).map(\.detail) == [
                "3 finished", "-3 · Bo, 3 Jan", "hole 3 · par 3 · E on average", "hole 1 · par 3 · -0.3 on average",
            ])
        #expect(courseRows.count == 4 + 3)

        // Back: the player it came from, the list (on the same player), the menu on Stats.
        h.send(.longPressed)
        #expect(h.state.screen.name == "stats-player")
        h.send(.longPressed)
        #expect(h.state.screen == .stats(list.movedTo(2)))
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: stats))
        // A page that arrives after its list was left is dropped.
        h.send(.statsLoaded(.player(h.players[0].id), .player(page)))
        #expect(h.state.screen == .menu(cursor: stats))
    }
}

extension Screen.Stats {
    func movedTo(_ cursor: Int) -> Screen.Stats {
        var copy = self
        copy.cursor = cursor
        return copy
    }
}
