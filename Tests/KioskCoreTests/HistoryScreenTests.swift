import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 4 at the kiosk: the history list (paged from the store by key), a round's
/// final standings, a player's holes; a press opens, a long press goes back one level.
@Suite struct HistoryScreenTests {
    static let course = try! Course(name: "Riverside Nine", holeCount: 9, exceptions: [5: 4])

    /// A completed round: Ana and Ben tie on 27 (every hole 3), Cy is one over, Dee DNF
    /// (holes 1–4 only). `names` replaces the four names (long ones for the layout check).
    static func completed(_ names: [String] = ["Ana", "Ben", "Cy", "Dee"], players: Int = 4) throws -> RoundSnapshot {
        let clock = ManualClock()
        let all = (0..<players).map { i in Participant(id: UUID(), name: i < names.count ? names[i] : "P\(i)", kind: .guest) }
        var round = Round(courseID: course.id, organizerID: all[0].id, createdAt: clock.date)
        for p in all { try round.add(p) }
        try round.start(at: clock.date)
        var events: [ScoreEvent] = []
        for (i, p) in all.enumerated() {
            for hole in course.holes where !(i == 3 && hole > 4) {
                let strokes = (course.par(of: hole) ?? 3) + (i == 2 && hole == 5 ? 1 : 0) - (hole == 5 ? 1 : 0)
                events.append(
                    ScoreEvent(
                        roundID: round.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: all[0].id,
                        deviceID: "kiosk", createdAt: clock.date))
            }
        }
        try round.finish(at: clock.date)
        return RoundSnapshot(round: round, course: course, events: events)
    }

    static func lines(_ range: Range<Int>) -> [HistoryLine] {
        range.map { i in
            HistoryLine(
                roundID: UUID(), courseName: "Course \(i)",
                completedAt: Date(timeIntervalSince1970: 1_800_000_000 - Double(i) * 86_400),
                winners: i % 5 == 0 ? ["Ana", "Ben"] : ["Ana"], players: ["Ana", "Ben", "Cy"])
        }
    }

    static func page(_ range: Range<Int>, more: Bool) -> HistoryPage {
        let lines = lines(range)
        return HistoryPage(lines: lines, next: more ? lines.last?.cursor : nil)
    }

    /// A last page of `count` lines whose line `index` is `snapshot`'s round.
    static func page(_ range: Range<Int>, holding snapshot: RoundSnapshot, at index: Int) -> HistoryPage {
        var page = page(range, more: false)
        page.lines[index].roundID = snapshot.round.id
        return page
    }

    /// The kiosk on its menu, then History pressed: the first page asked for and delivered.
    static func openHistory(_ state: inout KioskState, now: Millis = 1_000, first: HistoryPage) -> [KioskEffect] {
        state.handle(.longPressed, now: now)
        let index = state.menuItems.firstIndex(of: .history)!
        state.handle(.turned(index), now: now)
        let effects = state.handle(.pressed, now: now)
        state.handle(.historyLoaded(first, after: nil), now: now)
        return effects
    }

    static func history(_ state: KioskState) -> Screen.History? {
        if case .history(let h) = state.screen { h } else { nil }
    }

    @Test func theMenuOpensTheListWhichAsksForItsFirstPage() throws {
        var state = KioskState()
        // After the round's items and before Status (Join a group, when offered, sits between).
        let items = state.menuItems
        #expect(items.suffix(5) == [.status, .courses, .players, .leagueNight, .close])
        #expect(items.firstIndex(of: .history).map { $0 < items.firstIndex(of: .status)! } == true)
        state.handle(.longPressed, now: 1_000)
        state.handle(.turned(state.menuItems.firstIndex(of: .history)!), now: 1_000)
        #expect(state.handle(.pressed, now: 1_000) == [.loadHistory(after: nil)])
        #expect(state.screen.name == "history")
        #expect(Self.history(state)?.heading.subtitle == "Reading the history…")
        let page = Self.page(0..<25, more: true)
        #expect(state.handle(.historyLoaded(page, after: nil), now: 1_100).isEmpty)
        let h = try #require(Self.history(state))
        #expect(h.lines == page.lines)
        #expect(h.next == page.lines.last?.cursor)
        #expect(h.loading == nil)
        #expect(h.heading == ("History", "25+ rounds · newest first"))
        #expect(h.rowText(0, minus: "-").title == "Fri 15 Jan 2027 · Course 0")
        #expect(h.rowText(0, minus: "-").caption == "Won by Ana & Ben (tie) · 3 players: Ana, Ben, Cy")
        #expect(h.rowText(1, minus: "-").caption == "Won by Ana · 3 players: Ana, Ben, Cy")
    }

    @Test func thePageIsAskedForAsTheCursorNearsTheEndOnceUntilItArrives() throws {
        var state = KioskState()
        let first = Self.page(0..<25, more: true)
        _ = Self.openHistory(&state, first: first)
        // 9 rows down: still more than the margin from the end; the 10th is within it.
        #expect(state.handle(.turned(25 - Screen.History.prefetchMargin - 1), now: 2_000).isEmpty)
        #expect(state.handle(.turned(1), now: 2_100) == [.loadHistory(after: first.next)])
        #expect(state.handle(.turned(1), now: 2_200).isEmpty, "one page in flight at a time")
        // A page for another request (the list left and opened again) is dropped.
        state.handle(.historyLoaded(Self.page(90..<95, more: false), after: nil), now: 2_300)
        #expect(Self.history(state)?.lines.count == 25)
        let second = Self.page(25..<50, more: false)
        #expect(state.handle(.historyLoaded(second, after: first.next), now: 2_400).isEmpty)
        #expect(Self.history(state)?.lines.count == 50)
        #expect(Self.history(state)?.heading.subtitle == "50 rounds · newest first")
        // The oldest round is in: the end of the list is felt, and nothing more is asked for.
        #expect(state.handle(.turned(100), now: 2_500) == [.buzz(.limit)])
        #expect(Self.history(state)?.cursor == 49)
    }

    /// A fast turn that is already near the end of the page that arrives asks for the next at once.
    @Test func aPageThatArrivesWithTheCursorNearItsEndAsksForTheNext() throws {
        var state = KioskState()
        _ = Self.openHistory(&state, first: Self.page(0..<25, more: true))
        let asked = state.handle(.turned(24), now: 2_000)
        let next = try #require(Self.history(state)?.next)
        #expect(asked == [.buzz(.limit)] + [.loadHistory(after: next)] || asked == [.loadHistory(after: next)])
        let second = Self.page(25..<30, more: true)
        #expect(state.handle(.historyLoaded(second, after: next), now: 2_100) == [.loadHistory(after: second.next)])
    }

    @Test func aPressOpensTheRoundsStandingsWithTiesAndDNF() throws {
        var state = KioskState()
        let snapshot = try Self.completed()
        let first = Self.page(0..<3, holding: snapshot, at: 1)
        _ = Self.openHistory(&state, first: first)
        state.handle(.turned(1), now: 2_000)
        #expect(state.handle(.pressed, now: 2_100) == [.loadHistoryRound(snapshot.round.id)])
        #expect(state.screen.name == "history", "the list stays until the round is read")
        #expect(state.handle(.pressed, now: 2_150).isEmpty, "one round asked for at a time")
        // Another round's read (an earlier press) does not open.
        state.handle(.historyRoundLoaded(try Self.completed()), now: 2_180)
        #expect(state.screen.name == "history")
        state.handle(.historyRoundLoaded(snapshot), now: 2_200)
        #expect(state.screen.name == "history-round")
        let h = try #require(Self.history(state))
        let texts = (0..<h.rowCount).map { h.rowText($0, minus: "-") }
        #expect(texts.map(\.title) == ["T1  Ana", "T1  Ben", "3  Cy", "–  Dee"])
        #expect(texts.map(\.value) == ["-1", "-1", "E", "DNF"])
        #expect(texts.map(\.caption) == ["27 strokes", "27 strokes", "28 strokes", "DNF · 12 strokes through 4 holes"])
        #expect(h.heading.title == "Riverside Nine")
        #expect(h.heading.subtitle.hasPrefix("Final standings · "))
    }

    @Test func aPressOnAStandingOpensThePlayersHolesWithTheRunningToPar() throws {
        var state = KioskState()
        let snapshot = try Self.completed()
        let first = Self.page(0..<1, holding: snapshot, at: 0)
        _ = Self.openHistory(&state, first: first)
        state.handle(.pressed, now: 2_000)
        state.handle(.historyRoundLoaded(snapshot), now: 2_000)
        // Cy, third in the standings.
        state.handle(.turned(2), now: 2_100)
        #expect(state.handle(.pressed, now: 2_200).isEmpty)
        #expect(state.screen.name == "history-player")
        var h = try #require(Self.history(state))
        #expect(h.heading == ("Cy", "28 strokes · E · Riverside Nine"))
        #expect(h.rowCount == 9)
        let hole5 = h.rowText(4, minus: "-")
        #expect(hole5.title == "Hole 5 · par 4")
        #expect(hole5.value == "4")
        #expect(hole5.caption == "Running E")
        #expect(h.rowText(3, minus: "-").caption == "Running E")
        // Nothing opens from a hole.
        #expect(state.handle(.pressed, now: 2_300) == [.buzz(.limit)])
        // Dee did not finish: her missing holes say so.
        state.handle(.longPressed, now: 2_400)
        state.handle(.turned(1), now: 2_500)
        state.handle(.pressed, now: 2_600)
        h = try #require(Self.history(state))
        #expect(h.heading.subtitle == "12 strokes · DNF · Riverside Nine")
        #expect(
            h.rowText(4, minus: "-")
                == HistoryRowText(
                    title: "Hole 5 · par 4", caption: "No score · DNF", value: "–", valueColor: Palette.textSecondary,
                    captionColor: Palette.overPar))
        #expect(h.rowText(0, minus: "-").caption == "Running E")
    }

    @Test func aLongPressGoesBackOneLevelKeepingEachCursor() throws {
        var state = KioskState()
        let snapshot = try Self.completed()
        let first = Self.page(0..<5, holding: snapshot, at: 3)
        _ = Self.openHistory(&state, first: first)
        state.handle(.turned(3), now: 2_000)
        state.handle(.pressed, now: 2_000)
        state.handle(.historyRoundLoaded(snapshot), now: 2_000)
        state.handle(.turned(1), now: 2_100)
        state.handle(.pressed, now: 2_200)
        state.handle(.turned(5), now: 2_300)
        #expect(state.screen.name == "history-player")
        state.handle(.longPressed, now: 2_400)
        #expect(state.screen.name == "history-round")
        #expect(Self.history(state)?.cursorOnLevel == 1, "back on the player's row")
        state.handle(.longPressed, now: 2_500)
        #expect(state.screen.name == "history")
        #expect(Self.history(state)?.cursorOnLevel == 3, "back on the round's row")
        state.handle(.longPressed, now: 2_600)
        #expect(state.screen == .menu(cursor: state.menuItems.firstIndex(of: .history)!))
    }

    /// The knob scrolls the list as it scrolls the hole card: a slide, or a jump with reduce motion.
    @Test(arguments: [false, true])
    func turningPastTheLastVisibleRowSlides(reduceMotion: Bool) throws {
        var state = KioskState(settings: KioskSettings(reduceMotion: reduceMotion), viewport: Viewport(width: 800, height: 480))
        _ = Self.openHistory(&state, first: Self.page(0..<25, more: false))
        let geometry = Layout(viewport: state.viewport).historyList(rows: 25)
        #expect(geometry.visible < 25)
        state.handle(.turned(geometry.visible - 1), now: 3_000)
        #expect(state.historyScroll.to == 0, "still inside the view: no scroll")
        state.handle(.turned(1), now: 4_000)
        #expect(state.historyScroll.to == 1)
        #expect(state.historyScroll.isRunning(at: 4_000) == !reduceMotion)
        #expect(state.frameInterval(at: 4_050) == (reduceMotion ? nil : MotionTokens.frameInterval))
        if !reduceMotion {
            // The machine wakes for the slide's frames (and its last one), not only for input.
            #expect(state.nextWakeUp(after: 4_050).map { $0 <= 4_000 + MotionTokens.historyScroll } == true)
        }
        #expect(state.historyScroll.value(at: 4_000 + MotionTokens.historyScroll) == 1)
    }

    @Test func aTapOnARowOpensIt() throws {
        var state = KioskState()
        let first = Self.page(0..<5, more: false)
        _ = Self.openHistory(&state, first: first)
        let layout = Layout(viewport: state.viewport)
        let boxes = state.historyBoxes(try #require(Self.history(state)), layout: layout, now: 5_000, minus: "-")
        let third = try #require(boxes.rows.first { $0.index == 2 }).boxes.frame
        #expect(state.handle(.touch(x: third.midX, y: third.midY), now: 5_000) == [.loadHistoryRound(first.lines[2].roundID)])
        #expect(Self.history(state)?.cursor == 2)
    }

    @Test func anEmptyHistorySaysSoAndPressingDoesNothing() throws {
        var state = KioskState()
        _ = Self.openHistory(&state, first: HistoryPage(lines: [], next: nil))
        #expect(Self.history(state)?.heading.subtitle == "0 rounds · newest first")
        #expect(state.handle(.pressed, now: 2_000).isEmpty)
        #expect(state.handle(.turned(1), now: 2_000) == [.buzz(.limit)])
    }
}

extension LayoutCheckTests {
    /// Issue 15's checks on the three history levels at every size: a 24-player round with
    /// 32-character names, lines with long course and player lists, every row turned to.
    @Test(arguments: sizes)
    func theHistoryScreensHoldTheirContentAtTheMinimums(size: (Int, Int)) throws {
        let long = (0..<24).map { "Maximiliana Bartholomew-Kowal \(String(format: "%02d", $0))" }
        let snapshot = try HistoryScreenTests.completed(long, players: 24)
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        var first = HistoryScreenTests.page(0..<25, more: false)
        for i in first.lines.indices {
            first.lines[i].players = long
            first.lines[i].winners = Array(long.prefix(2))
            first.lines[i].courseName = "The Very Long Named Disc Golf Course at Riverside Park"
        }
        first.lines[0].roundID = snapshot.round.id
        _ = HistoryScreenTests.openHistory(&state, first: first)
        let layout = Layout(viewport: state.viewport)
        var now: Millis = 2_000
        func checkLevel(_ what: String, rows: Int) throws {
            for step in 0..<rows {
                if step > 0 {
                    now += 1_000
                    state.handle(.turned(1), now: now)
                }
                let h = try #require(HistoryScreenTests.history(state))
                for at in [now + MotionTokens.historyScroll / 2, now + 500] {
                    let boxes = state.historyBoxes(h, layout: layout, now: at, minus: "−")
                    let name = "\(what) \(size.0)×\(size.1), row \(step)"
                    #expect(boxes.geometry.rowHeight >= Layout.touchTarget, "\(name)")
                    #expect(boxes.geometry.area.maxY <= layout.footer.y, "\(name)")
                    #expect(boxes.rows.contains { $0.index == step }, "\(name): the cursor's row is not drawn")
                    if at == now + 500, let row = boxes.rows.first(where: { $0.index == step }) {
                        let f = row.boxes.frame
                        let area = boxes.geometry.area
                        #expect(f.y >= area.y - 0.5 && f.maxY <= area.maxY + 0.5, "\(name): cursor row cut")
                    }
                    let anywhere = Rect(x: -1e6, y: -1e6, w: 2e6, h: 2e6)
                    Self.check(
                        boxes.rows.map(\.boxes), in: anywhere, minimumRow: layout.holeCardMinimumRowHeight, layout: layout,
                        name)
                }
            }
        }
        try checkLevel("history list", rows: 25)
        state.handle(.turned(-100), now: now)
        state.handle(.pressed, now: now)
        state.handle(.historyRoundLoaded(snapshot), now: now)
        try checkLevel("history round", rows: 24)
        state.handle(.pressed, now: now)
        try checkLevel("history player", rows: 9)
    }
}
