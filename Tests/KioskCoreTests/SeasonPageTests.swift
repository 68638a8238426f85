import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 37 item 1 at the kiosk: between rounds the idle board turns with the clock from the
/// last round's summary to the season's table and back; a net season says so; 30 players'
/// names of any length hold the layout at every panel size, and everyone is on a page.
@Suite struct SeasonPageTests {
    /// A season of `players` over three events, each player's to-par their index minus 3,
    /// the last `short` players at one event only (unranked by an average of 2 rounds).
    static func table(
        players: Int, rule: Season.Rule = .pointsByPlace(Season.Rule.defaultPoints), net: Bool = false, short: Int = 0,
        longNames: Bool = false
    ) throws -> SeasonTable {
        let ids = (0..<players).map { _ in UUID() }
        func name(_ i: Int) -> String { longNames ? "Bartholomew-Alexander Wolfeschlegel \(i)" : "Player \(i + 1)" }
        let events = (0..<3).map { event in
            SeasonEvent(
                id: UUID(), day: "2026-06-0\(event + 1)", course: "c",
                results: ids.enumerated().compactMap { i, id in
                    guard event == 0 || i < players - short else { return nil }
                    return SeasonEvent.Result(
                        player: id, name: name(i), position: i + 1, toPar: i - 3 + event, finished: true)
                })
        }
        let season = try Season(name: "Summer league", from: "2026-04-01", to: "2026-09-30", rule: rule, net: net)
        return SeasonTable(season: season, events: net ? SeasonEvent.handicapped(events) : events)
    }

    static func idleState(season: SeasonTable?, last: Bool, size: (Int, Int) = (1280, 720)) throws -> KioskState {
        var h = try Harness(players: 4)
        if last { try h.finishEveryHoleInPar() }
        h.round = nil
        var data = h.data
        data.season = season
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        state.handle(.dataChanged(data, .remoteSync), now: 0)
        return state
    }

    @Test func theIdleBoardTurnsFromTheLastRoundToTheSeasonWithTheClock() throws {
        let table = try Self.table(players: 6)
        let state = try Self.idleState(season: table, last: true)
        let interval = state.settings.boardPageInterval
        #expect(state.idlePage(at: 0) == .summary(page: 0))
        #expect(state.idlePage(at: interval) == .season(page: 0))
        #expect(state.idlePage(at: 2 * interval) == .summary(page: 0))
        // The machine wakes for the turn, and only then.
        #expect(state.nextWakeUp(after: 10) == interval)
        #expect(state.summaryPage(at: interval) == 0)

        // A turn of the knob on the board starts the pages over: the last round first.
        var touched = state
        touched.handle(.turned(1), now: 3 * interval + 500)
        #expect(touched.screen == .board)
        #expect(touched.idlePage(at: 3 * interval + 600) == .summary(page: 0))
        #expect(touched.idlePage(at: 4 * interval + 500) == .season(page: 0))
        #expect(touched.nextWakeUp(after: 3 * interval + 600) == 4 * interval + 500)

        // No last round: the season alone, which fits, so nothing turns and nothing wakes.
        let alone = try Self.idleState(season: table, last: false)
        #expect(alone.idlePage(at: 5 * interval) == .season(page: 0))
        #expect(alone.nextWakeUp(after: 10) == nil)
        // No season (or nobody has played in it): the summary alone, as before.
        let none = try Self.idleState(season: nil, last: true)
        #expect(none.idlePage(at: interval) == .summary(page: 0))
        let empty = try Self.idleState(season: Self.table(players: 0), last: true)
        #expect(empty.idleSeason == nil && empty.idlePage(at: interval) == .summary(page: 0))
    }

    @Test func aRoundInPlayKeepsTheBoardAndTheSeasonWaits() throws {
        var h = try Harness(players: 3)
        var data = h.data
        data.season = try Self.table(players: 5)
        h.state.handle(.dataChanged(data, .remoteSync), now: h.now)
        #expect(h.state.idleSeason == nil && h.state.idlePage(at: 60_000) == nil)
    }

    @Test func theLinesSayPointsToParAndWhyARowIsUnranked() throws {
        let points = KioskState.seasonLines(try Self.table(players: 4), minus: "−")
        #expect(points.map(\.positionLabel) == ["1", "2", "3", "4"])
        #expect(points.map(\.value) == ["30", "24", "18", "15"])
        #expect(points[0].detail == "3 events" && points[0].valueColor == Palette.accent)

        let average = try Self.table(players: 5, rule: .averageToPar(minimumRounds: 2), short: 1)
        let lines = KioskState.seasonLines(average, minus: "−")
        #expect(lines.map(\.value) == ["−2.0", "−1.0", "E", "+1.0", "–"])
        #expect(lines[4].positionLabel == "–" && lines[4].detail == "1 event · 1 of 2 rounds")
        #expect(lines[0].valueColor == Palette.underPar && lines[3].valueColor == Palette.overPar)
        #expect(KioskState.seasonDetail(average) == "average to par (2 rounds at least) · 3 events")

        // Net: the heading says so; nobody has a handicap from three rounds on the course
        // before each event here, so everyone is marked gross.
        let net = try Self.table(players: 3, rule: .bestRounds(2), net: true)
        #expect(KioskState.seasonHeading(net.season) == "Season · net")
        #expect(KioskState.seasonHeading(average.season) == "Season")
        #expect(KioskState.seasonLines(net, minus: "-").allSatisfy { $0.detail.hasSuffix("gross") })
    }

    /// 30 players with the longest names at every panel size: each page's rows keep the
    /// layout check's rules, and every player is on one.
    @Test(arguments: LayoutCheckTests.sizes) func thirtyPlayersHoldTheLayout(size: (Int, Int)) throws {
        for table in [
            try Self.table(players: 30, longNames: true),
            try Self.table(players: 30, rule: .averageToPar(minimumRounds: 2), short: 4),
            try Self.table(players: 12),
        ] {
            let state = try Self.idleState(season: table, last: true, size: size)
            let layout = Layout(viewport: state.viewport)
            let lines = KioskState.seasonLines(table, minus: "−")
            let pages = state.seasonPages(table)
            var seen: Set<UUID> = []
            for page in 0..<pages.pages {
                let what = "season \(size.0)×\(size.1), page \(page + 1) of \(pages.pages)"
                let boxes = layout.summaryBoxes(lines: lines, heading: true, page: page)
                #expect(boxes.rowHeight >= layout.summaryMinimumRowHeight, "\(what)")
                #expect((boxes.more == nil) == (boxes.rows.count == lines.count), "\(what): an indicator with everyone on show")
                #expect(boxes.metaY + boxes.metaHeight / 2 <= layout.footer.y, "\(what)")
                seen.formUnion(boxes.rows.map(\.line.id))
                let area = Rect(x: boxes.card.x, y: boxes.top, w: boxes.card.w, h: layout.footer.y - boxes.top)
                let all = boxes.rows.map(\.boxes) + (boxes.more.map { [$0] } ?? [])
                LayoutCheckTests.check(all, in: area, minimumRow: layout.summaryMinimumRowHeight, layout: layout, what)
            }
            #expect(seen.count == table.rows.count, "\(size): someone is on no page")
        }
    }
}

/// Issue 37's "PB!": the last finished round's card marks its players' new personal bests,
/// and only that round's card does.
@Suite struct PersonalBestTests {
    @Test func theLastRoundsCardSaysPBOnItsRows() throws {
        var h = try Harness(players: 3)
        try h.finishEveryHoleInPar()
        h.round = nil
        var data = h.data
        let nate = h.players[0].id
        data.newBests = NewBests(round: try #require(h.completed), history: [], excluding: [])
        data.newBests?.personalBests = [nate]
        var state = KioskState()
        state.handle(.dataChanged(data, .remoteSync), now: 0)
        let last = try #require(state.data.lastCompleted)
        let bests = try #require(state.summaryBests(last))
        let boxes = Layout(viewport: state.viewport).summaryBoxes(
            state.summaryStandings(last), heading: true, minus: "-", bests: bests.personalBests)
        let details = boxes.rows.map { row in row.boxes.texts.map(\.text).first { $0.contains("strokes") } ?? "" }
        #expect(details.filter { $0.hasPrefix("PB! · ") }.count == 1)
        let nateRow = try #require(boxes.rows.first { $0.line.id == nate })
        #expect(nateRow.line.detail.hasPrefix("PB! · "))
        // Another round's card (an older one in History, say) says nothing.
        var older = last
        older.round.id = UUID()
        #expect(state.summaryBests(older) == nil)
    }
}

extension Harness {
    /// The round played out, everyone 3 on every hole, and finished: the world's last round.
    mutating func finishEveryHoleInPar() throws {
        for p in round!.participants { for hole in 1...9 { record(p.id, hole: hole, strokes: 3, resolution: false) } }
        round!.markAllScored()
        try round!.finish(at: clock.date)
        completed = snapshot
    }
}
