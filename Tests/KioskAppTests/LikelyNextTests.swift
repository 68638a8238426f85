import Foundation
import HyzerKit
import HyzerStore
import KioskCore
import KioskRender
import Testing

@testable import KioskApp

/// Issue 9: the history opens within one frame. While the menu's cursor rests on History the
/// kiosk reads the first page and warms its text (`KioskSession.likelyNext`, `Display.warm`),
/// so the press only draws from the cache.
@Suite struct LikelyNextTests {
    final class Fixture {
        let store: HyzerDatabase
        let session: KioskSession
        let course: Course
        let players: [Player]

        init(rounds: Int) throws {
            store = try HyzerDatabase.inMemory()
            course = try Course(name: "Likely Nine", holeCount: 9)
            try store.write(.saveCourse(course))
            players = try ["Ana", "Ben", "Cy"].map { try Player(displayName: $0) }
            for p in players { try store.write(.savePlayer(p)) }
            for _ in 0..<rounds { try Self.finishRound(store, course, players) }
            session = try KioskSession(store: store, viewport: Viewport(width: 1280, height: 720), now: 0)
        }

        /// A round with one score, finished: a line of the history.
        func finishRound() throws { try Self.finishRound(store, course, players) }

        static func finishRound(_ store: HyzerDatabase, _ course: Course, _ players: [Player]) throws {
            let created = try store.write(
                .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
            let round = try store.write(.startRound(created.id))
            try store.write(
                .recordScore(
                    ScoreEntry(roundID: round.id, participantID: players[0].id, hole: 1, strokes: 3, reportedBy: players[0].id)))
            _ = try store.write(.finishRound(round.id))
        }

        /// Board → menu, cursor on History.
        func restOnHistory(now: Millis) throws {
            session.send(.longPressed, now: now)
            guard case .menu(let menu) = session.state.screen,
                let index = session.state.menuItems.firstIndex(of: .history)
            else { throw TestFailure("not on the menu: \(session.state.screen.name)") }
            if index != menu.cursor { session.send(.turned(index - menu.cursor), now: now) }
        }

        func historyLines() -> Int? {
            guard case .history(let history) = session.state.screen else { return nil }
            return history.lines.count
        }
    }

    struct TestFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// The page read while the cursor rests is the page the press shows, read once; a commit
    /// the change monitor reports makes the kiosk read again. Negative control: without
    /// `forgetReads()` in `KioskSession.reload`, the last expectation fails (3 lines, not 4).
    @Test func theRestOnHistoryReadsTheFirstPageOnceAndACommitForgetsIt() throws {
        let f = try Fixture(rounds: 3)
        try f.restOnHistory(now: 100)
        let next = try #require(f.session.likelyNext(now: 100))
        guard case .history(let predicted) = next.screen else {
            Issue.record("predicted \(next.screen.name)")
            return
        }
        #expect(predicted.lines.count == 3)
        #expect(f.session.state.screen.name == "menu", "preparing changes nothing on screen")
        #expect(f.session.likelyNext(now: 150) == nil, "prepared once for this rest")

        // A round finished by another process: the kiosk has not been told yet.
        try f.finishRound()
        f.session.send(.pressed, now: 200)
        #expect(f.historyLines() == 3, "the press used the page read while the cursor rested")
        #expect(f.session.state.screen == next.screen, "and opened the screen that was warmed")

        // The change monitor reports the commit: the next open reads the store again.
        f.session.reload(.external, now: 300)
        f.session.send(.longPressed, now: 400)
        #expect(f.session.state.screen.name == "menu")
        f.session.send(.pressed, now: 500)
        #expect(f.historyLines() == 4)
    }

    /// Anywhere but the History item there is nothing to prepare; leaving and coming back
    /// prepares again.
    @Test func onlyTheHistoryItemIsPrepared() throws {
        let f = try Fixture(rounds: 1)
        #expect(f.session.likelyNext(now: 0) == nil, "the board")
        try f.restOnHistory(now: 100)
        #expect(f.session.likelyNext(now: 100) != nil)
        f.session.send(.turned(1), now: 200)
        #expect(f.session.likelyNext(now: 200) == nil, "the next item")
        f.session.send(.turned(-1), now: 300)
        #expect(f.session.likelyNext(now: 300) != nil, "back on History")
    }

    /// Warming draws nothing on screen, and the press's frame then rasterizes no text.
    /// Built-in control: a display that was not warmed rasterizes the same frame's text.
    @Test func warmingLeavesTheScreenAloneAndThePressNothingToRasterize() throws {
        guard let assets = HyzerPaths.assetsDirectory() else {
            Issue.record("cannot find assets/")
            return
        }
        let fonts = assets.appendingPathComponent("fonts")
        let f = try Fixture(rounds: 5)
        let display = try Display(mode: .headless, size: Viewport(width: 1280, height: 720), fontsDirectory: fonts)
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        try f.restOnHistory(now: 100)
        display.draw(f.session.state, now: 100, wallClock: wall)
        display.present()
        let menuFrame = try display.capture()
        let next = try #require(f.session.likelyNext(now: 100))
        display.warm(next, now: 100, wallClock: wall)
        #expect(try display.capture().rgb == menuFrame.rgb, "the menu is still what the screen holds")
        let warmed = display.rasterizations

        f.session.send(.pressed, now: 100)
        #expect(f.historyLines() == 5)
        display.draw(f.session.state, now: 100, wallClock: wall)
        display.present()
        #expect(display.rasterizations == warmed, "every text of the press's frame was ready")

        let cold = try Display(mode: .headless, size: Viewport(width: 1280, height: 720), fontsDirectory: fonts)
        cold.draw(f.session.state, now: 100, wallClock: wall)
        #expect(cold.rasterizations > 0, "the same frame unwarmed draws its text")
        cold.present()
        #expect(try cold.capture().rgb == display.capture().rgb, "and the same picture")
    }

    /// Scrolling the list: the page the next turn needs is read while the kiosk waits for
    /// that turn, so the turn that reaches it reads nothing. Negative control: without the
    /// `.history` case of `likelyNext`, the turn that loads the second page reads it (the
    /// reads counted at that turn go from 0 to 1) and this fails.
    @Test func scrollingTheListReadsTheNextPageAhead() throws {
        let f = try Fixture(rounds: Screen.History.pageSize * 2 + 3)
        try f.restOnHistory(now: 100)
        f.session.send(.pressed, now: 200)
        #expect(f.historyLines() == Screen.History.pageSize)
        var now: Millis = 300
        var loadedAtTurn: [Int] = []
        while let lines = f.historyLines(), lines == Screen.History.pageSize, now < 10_000 {
            _ = f.session.likelyNext(now: now)  // what the loop does before it sleeps
            let reads = f.session.historyReads
            f.session.send(.turned(1), now: now)
            if f.historyLines() != lines { loadedAtTurn.append(f.session.historyReads - reads) }
            now += 100
        }
        #expect(f.historyLines() == Screen.History.pageSize * 2)
        #expect(loadedAtTurn == [0], "the turn that showed the second page read nothing itself")
        #expect(f.session.historyReads == 2, "the first page and the second, each once")
    }

    /// Issue 34 (frame instructions on the Pi): a board page whose rows come in one after
    /// another is warmed once, whole, between frames, so no frame of its reveal rasterizes a
    /// text. A store round of 24 on an 800×480 panel pages; its page flips on the clock.
    /// Negative control: the same reveal on a display that was not warmed rasterizes in the
    /// frames after the first (the rows of a page never seen).
    @Test func aBoardPageComingInIsWarmedOnceAndItsFramesRasterizeNothing() throws {
        let fonts = try #require(HyzerPaths.assetsDirectory()).appendingPathComponent("fonts")
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Paging Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let players = try (1...Round.maxParticipants).map { try Player(displayName: "Pager \($0)") }
        for p in players { try store.write(.savePlayer(p)) }
        let created = try store.write(
            .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        _ = try store.write(.startRound(created.id))
        let viewport = Viewport(width: 800, height: 480)
        let session = try KioskSession(store: store, viewport: viewport, now: 0)
        #expect(session.state.boardPages.rotates, "24 rows page on 800×480")
        let wall = Date(timeIntervalSince1970: 1_800_000_000)
        let warmed = try Display(mode: .headless, size: viewport, fontsDirectory: fonts)
        let cold = try Display(mode: .headless, size: viewport, fontsDirectory: fonts)
        for display in [warmed, cold] { display.draw(session.state, now: 0, wallClock: wall) }
        #expect(session.likelyNext(now: 0) == nil, "nothing comes in on the first page")

        // The page flips: its rows come in; the first frame, then the warm, then the rest.
        var now = try #require(session.state.boardPageFlipAt)
        session.send(.tick, now: now)
        let reveal = session.state.boardPaging.reveal
        #expect(reveal.isRunning(at: now))
        for display in [warmed, cold] { display.draw(session.state, now: now, wallClock: wall) }
        let next = try #require(session.likelyNext(now: now))
        #expect(next.boardPaging.page == session.state.boardPaging.page && !next.boardPaging.reveal.isRunning(at: now))
        #expect(session.likelyNext(now: now + 10) == nil, "once a page")
        warmed.warm(next, now: now, wallClock: wall)
        let (warmedBefore, coldBefore) = (warmed.rasterizations, cold.rasterizations)
        while now < reveal.end {
            now += MotionTokens.softFrameInterval
            session.send(.tick, now: now)
            for display in [warmed, cold] { display.draw(session.state, now: now, wallClock: wall) }
        }
        #expect(warmed.rasterizations == warmedBefore, "every revealed row's texts were ready")
        #expect(cold.rasterizations > coldBefore, "unwarmed, the reveal's frames rasterize")
        #expect(try warmed.capture().rgb == cold.capture().rgb, "and draw the same picture")
    }
}
