import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 15 item 3: a board whose group does not fit pages like a clubhouse TV. All on
/// injected time: the flips are wake-ups the machine asks for, not frames.
@Suite struct BoardPagingTests {
    /// Twenty players on hole 1 of a par-3 course at 1920×1080: P0 and P1 birdie (T1), P2
    /// and P3 par (T3, tied with the third: four pinned leaders), the other sixteen bogey or
    /// worse, four to a score. Nine slots: four pinned, four rotating, the indicator; four pages.
    struct Group {
        var state: KioskState
        let course: Course
        let players: [Player]
        var round: Round
        var events: [ScoreEvent] = []
        let clock = ManualClock()

        init(players count: Int = 20, size: (Int, Int) = (1920, 1080), settings: KioskSettings = KioskSettings()) throws {
            course = try Course(name: "Riverside Nine", holeCount: 9)
            players = try (0..<count).map { try Player(displayName: "P\($0)") }
            round = Round(courseID: course.id, organizerID: players[0].id, createdAt: clock.date)
            for p in players { try round.add(.registered(p)) }
            try round.start(at: clock.date)
            state = KioskState(settings: settings, viewport: Viewport(width: size.0, height: size.1))
            for i in 0..<count { record(i, hole: 1, strokes: i < 2 ? 2 : i < 4 ? 3 : 4 + (i - 4) / 4) }
            publish(.localScore, now: 1_000)
        }

        mutating func record(_ i: Int, hole: Int, strokes: Int) {
            events.append(
                ScoreEvent(
                    roundID: round.id, participantID: players[i].id, hole: hole, strokes: strokes, supersedes: [],
                    reportedBy: players[i].id, deviceID: "phone-\(i)", createdAt: clock.date))
        }

        mutating func publish(_ trigger: StandingsTrigger, now: Millis) {
            let snapshot = RoundSnapshot(round: round, course: course, events: events)
            state.handle(.dataChanged(KioskData(round: snapshot, courses: [course], players: players), trigger), now: now)
        }

        /// Plays the display loop's part: ticks at every wake-up the machine asks for up to `target`.
        mutating func run(until target: Millis, from now: Millis) -> [Millis] {
            var wakes: [Millis] = []
            var now = now
            while let wake = state.nextWakeUp(after: now), wake <= target {
                now = max(wake, now + 1)
                wakes.append(now)
                state.handle(.tick, now: now)
            }
            return wakes
        }

        func names(at now: Millis) -> [String] {
            let layout = Layout(viewport: state.viewport)
            return state.boardBoxes(layout: layout, now: now, minus: "-").rows.map(\.standing.name)
        }
    }

    @Test func pagesRotateAtTheInterval() throws {
        var group = try Group()
        let pages = group.state.boardPages
        #expect(pages.pinned == 4 && pages.perPage == 4 && pages.pages == 4)
        #expect(group.state.boardPaging.page == 0)
        // The first page shows a whole interval from the data's arrival (at 1 s), whatever the clock says.
        #expect(group.state.boardPageFlipAt == 1_000 + MotionTokens.boardPageInterval)
        // The first page stays a whole interval; then each flip is one wake-up, 8 s apart,
        // and after the last page comes the first again.
        var now: Millis = 1_000
        for expected in [1, 2, 3, 0, 1] {
            let due = group.state.boardPaging.shownAt + MotionTokens.boardPageInterval
            #expect(group.state.nextWakeUp(after: now) == due, "sleeps until the flip")
            group.state.handle(.tick, now: due - 1)
            #expect(group.state.boardPaging.page == (expected + 3) % 4, "no flip before the interval")
            group.state.handle(.tick, now: due)
            #expect(group.state.boardPaging.page == expected)
            #expect(group.state.boardPaging.shownAt == due)
            now = due + 1_000
            group.state.handle(.tick, now: now)
        }
    }

    @Test func theIntervalAndTheRowsPerPageAreSettings() throws {
        var group = try Group(settings: KioskSettings(boardPageInterval: 5_000, boardRowsPerPage: 3))
        var pages = group.state.boardPages
        #expect(pages.perPage == 3 && pages.pages == 6)
        #expect(group.state.boardPageFlipAt == 6_000)
        let wakes = group.run(until: 21_000, from: 1_000)
        // Four flips, each followed by the frames of its fade: nothing else wakes the board.
        #expect(wakes.filter { $0 % 5_000 == 1_000 } == [6_000, 11_000, 16_000, 21_000])
        #expect(group.state.boardPaging.page == 4)
        // More rows than fit is cut to what fits at the minimum sizes.
        group.state.handle(.settingsChanged(KioskSettings(boardRowsPerPage: 50)), now: 22_000)
        pages = group.state.boardPages
        #expect(pages.perPage == 4)
    }

    @Test func theLeadersAndTheirTiesArePinnedOnEveryPageAndEveryoneIsOnAPage() throws {
        var group = try Group()
        let rows = group.state.leaderboard.rows
        let pages = group.state.boardPages
        let leaders = rows.prefix(4).map(\.name)
        #expect(Set(leaders) == ["P0", "P1", "P2", "P3"])
        var seen: [String] = []
        for page in 0..<pages.pages {
            group.state.boardPaging.page = page
            let names = group.names(at: 2_000)
            #expect(Array(names.prefix(4)) == leaders, "page \(page + 1)")
            #expect(names.count == 8 || page == pages.pages - 1)
            seen += names.dropFirst(4)
        }
        #expect(seen == rows.dropFirst(4).map(\.name), "every other player once, in order")
        // Leaders that alone would fill the board (nobody has scored: all tied first) are cut
        // to half the rows, so the rest still rotate a useful page at a time.
        let tied = rows.map {
            var s = $0
            (s.position, s.tied) = (1, true)
            return s
        }
        #expect(Layout.leaders(tied) == 20)
        let cut = Layout(viewport: group.state.viewport).boardPages(tied)
        #expect(cut.pinned == 4 && cut.perPage == 4 && cut.pages == 4)
        // At 800×480 (seven slots) the top 3 stay pinned, and three rows rotate.
        let small = Layout(viewport: Viewport(width: 800, height: 480))
        let smallPages = small.boardPages(tied)
        #expect(smallPages.pinned == 3 && smallPages.perPage == 3 && smallPages.pages == 6)
        #expect(smallPages.indicator(page: 5) == "19–20 of 20")
        #expect(small.boardPages(tied, rowsPerPage: 1).indicator(page: 0) == "4 of 20")
    }

    @Test func theIndicatorSaysWhichPlacesAreOnShow() throws {
        var group = try Group()
        let layout = Layout(viewport: group.state.viewport)
        var lines: [String] = []
        for page in 0..<4 {
            group.state.boardPaging.page = page
            let boxes = group.state.boardBoxes(layout: layout, now: 2_000, minus: "-")
            lines += boxes.more?.texts.map(\.text) ?? []
        }
        #expect(lines == ["5–8 of 20", "9–12 of 20", "13–16 of 20", "17–20 of 20"])
    }

    @Test(arguments: [false, true])
    func aFlipRevealsItsRowsInTurnOrAtOnceWithReduceMotion(reduceMotion: Bool) throws {
        var group = try Group(settings: KioskSettings(reduceMotion: reduceMotion))
        let flip = 1_000 + MotionTokens.boardPageInterval
        _ = group.run(until: flip - 1, from: 1_000)
        #expect(group.state.frameInterval(at: flip - 1) == nil)
        group.state.handle(.tick, now: flip)
        let layout = Layout(viewport: group.state.viewport)
        /// Which rotating rows are drawn at `now`, top to bottom; the pinned leaders always are.
        func revealed(at now: Millis) -> [Bool] {
            let rows = group.state.boardBoxes(layout: layout, now: now, minus: "-").rows
            let pinnedShown = rows.filter { !$0.rotating }.allSatisfy { $0.revealed }
            #expect(pinnedShown)
            return rows.filter(\.rotating).map(\.revealed)
        }
        let atFlip = revealed(at: flip)
        #expect(atFlip.count == 4)
        // With motion, the page's first row is there at once (a cut), the rest follow it.
        #expect(atFlip == (reduceMotion ? [true, true, true, true] : [true, false, false, false]))
        if !reduceMotion {
            // Down the page in order, and each row whole once shown: never a gap above a shown row.
            var previous = 1
            for now in stride(from: flip, through: flip + MotionTokens.boardPageReveal, by: 10) {
                let shown = revealed(at: now)
                let count = shown.prefix { $0 }.count
                #expect(shown.allSatisfy { $0 } || shown.dropFirst(count).allSatisfy { !$0 })
                #expect(count >= previous)
                previous = count
            }
            #expect(revealed(at: flip + MotionTokens.boardPageReveal / 2) == [true, true, true, false])
        }
        #expect(
            group.state.frameInterval(at: flip + 10) == (reduceMotion ? nil : MotionTokens.softFrameInterval))
        // The reveal ends on a frame of its own, then the board sleeps until the next flip.
        let wakes = group.run(until: flip + MotionTokens.boardPageInterval - 1, from: flip)
        if reduceMotion {
            #expect(wakes.isEmpty)
        } else {
            #expect(wakes.last == flip + MotionTokens.boardPageReveal)
            #expect(wakes.count <= Int(MotionTokens.boardPageReveal / MotionTokens.softFrameInterval) + 2)
        }
        #expect(revealed(at: flip + MotionTokens.boardPageReveal) == [true, true, true, true])
        #expect(group.state.nextWakeUp(after: flip + MotionTokens.boardPageReveal) == flip + MotionTokens.boardPageInterval)
    }

    /// A remote ace lifts P19 from the last page into the middle: the board shows P19's new
    /// page at once, for a whole interval, with its ▲ on the row.
    @Test func aReshuffleShowsThePageOfThePlayerItMoved() throws {
        var group = try Group()
        let before = group.state.boardPages
        let p19 = group.players[19].id
        #expect(before.page(of: group.state.leaderboard.rows.firstIndex { $0.participantID == p19 }!) == 3)
        #expect(group.state.boardPaging.page == 0)
        group.record(19, hole: 2, strokes: 1)
        group.publish(.remoteSync, now: 3_000)
        let index = try #require(group.state.leaderboard.rows.firstIndex { $0.participantID == p19 })
        let page = try #require(group.state.boardPages.page(of: index))
        #expect(page != 0 && page != 3)
        #expect(group.state.boardPaging.page == page)
        #expect(group.state.boardPaging.shownAt == 3_000)
        #expect(group.names(at: 3_000 + 600).contains("P19"))
        #expect((group.state.leaderboard.arrows[p19]?.delta ?? 0) > 0)
        #expect(group.state.boardPageFlipAt == 3_000 + MotionTokens.boardPageInterval)
        // A change that moves nobody across pages leaves the page alone.
        group.record(0, hole: 2, strokes: 3)
        group.publish(.remoteSync, now: 4_000)
        #expect(group.state.boardPaging.page == page && group.state.boardPaging.shownAt == 3_000)
    }

    @Test func noWakeUpsWhenEveryoneFitsOrTheBoardIsNotShown() throws {
        var small = try Group(players: 6)
        #expect(!small.state.boardPages.rotates)
        #expect(small.state.boardPageFlipAt == nil)
        #expect(small.run(until: 600_000, from: 1_000).isEmpty)
        #expect(small.state.boardBoxes(layout: Layout(viewport: small.state.viewport), now: 2_000, minus: "-").more == nil)
        // Twenty on another screen: the menu does not page.
        var big = try Group()
        big.state.handle(.longPressed, now: 1_500)
        #expect(big.state.screen != .board)
        #expect(big.state.boardPageFlipAt == nil)
        #expect(big.run(until: 60_000, from: 1_500).allSatisfy { $0 == 1_500 + MotionTokens.idleTimeout })
        // Back on the board, the pages start from the first, for a whole interval.
        big.state.boardPaging.page = 2
        big.state.handle(.longPressed, now: 70_000)
        #expect(big.state.screen == .board)
        #expect(big.state.boardPaging.page == 0 && big.state.boardPageFlipAt == 70_000 + MotionTokens.boardPageInterval)
    }
}
