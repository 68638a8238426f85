import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 36 item 5 on the board: while a league night is on it, a panel beside the rows
/// (under them in portrait) says the skins, the closest-to-the-pin holes and the ace pot, all
/// from the scores; and with 30 players in 8 cards it holds its content at every panel size.
@Suite struct SideGamesPanelTests {
    typealias Line = KioskState.SideGamesLine

    /// The 13-player night of LeagueNightKioskTests with holes 1 and 2 played by all: Ann 2
    /// and everyone else 3 on hole 1, everyone 3 on hole 2. CTP on 4 (Gus) and 8 (not yet),
    /// an ace pot of 2 each for the 13 on top of 10 carried in.
    static func night(skins: LeagueEvent.SkinsGame) throws -> (KioskState, LeagueNightKioskTests.Night, KioskData) {
        let club = try LeagueNightKioskTests.Club()
        var night = try LeagueNightKioskTests.night(club, scored: false)
        night.rounds = night.rounds.map { snapshot in
            let events = snapshot.round.participants.flatMap { p in
                [(1, p.name == "Ann" ? 2 : 3), (2, 3)].map { hole, strokes in
                    ScoreEvent(
                        roundID: snapshot.round.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: p.id,
                        deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 6))
                }
            }
            return RoundSnapshot(round: snapshot.round, course: club.course, events: events)
        }
        night.event.skins = skins
        night.event.closestToPin = [.init(hole: 4, winner: club.players[6].id), .init(hole: 8)]
        night.event.acePot = .init(buyIn: 2, players: club.players.map(\.id))
        var data = night.data
        data.acePotCarriedIn = 10
        var state = club.state
        state.handle(.dataChanged(data, .remoteSync), now: 2_000)
        return (state, night, data)
    }

    /// By hand: the field's skin on hole 1 is Ann's alone (2 against 3s); hole 2 ties, so
    /// hole 3 (open) is worth 2. Per card, card A's is the same; B and C tie both holes, so
    /// their hole 3 is worth 3. The pot: 10 + 13 × 2 = 36, nobody has aced.
    @Test func thePanelSaysWhatTheScoresSay() throws {
        let (field, _, _) = try Self.night(skins: .field)
        #expect(
            field.boardSideGamesLines == [
                Line("Skins", "2 on 3", style: .heading), Line("Ann", "1"), Line("CTP 4", "Gus", kind: .closestToPin),
                Line("CTP 8", "–", kind: .closestToPin),
                Line("Ace pot", "36", kind: .acePot),
            ])
        let (byCard, night, data) = try Self.night(skins: .card)
        #expect(
            byCard.boardSideGamesLines == [
                Line("Skins by card", style: .heading), Line("A · Ann 1", "2 on 3"), Line("B · none yet", "3 on 3"),
                Line("C · none yet", "3 on 3"), Line("CTP 4", "Gus", kind: .closestToPin),
                Line("CTP 8", "–", kind: .closestToPin), Line("Ace pot", "36", kind: .acePot),
            ])
        // Jo's ace on hole 7 wins the pot: the line says so, and what is left (nothing).
        var aced = data
        var cardC = night.rounds[2]
        let jo = try #require(cardC.round.participants.first { $0.name == "Jo" })
        cardC = RoundSnapshot(
            round: cardC.round, course: cardC.course,
            events: cardC.events + [
                ScoreEvent(
                    roundID: cardC.round.id, participantID: jo.id, hole: 7, strokes: 1, reportedBy: jo.id,
                    deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 7))
            ])
        aced.leagueNight = LeagueNightSnapshot(event: night.event, cards: [night.rounds[0], night.rounds[1], cardC])
        var state = byCard
        state.handle(.dataChanged(aced, .remoteSync), now: 3_000)
        #expect(state.boardSideGamesLines.last == Line("Ace! Jo won 36", "0", kind: .acePot))
        // The rows give the panel its room: beside them on this landscape panel, none overlapping it.
        let layout = Layout(viewport: state.viewport)
        let panel = try #require(state.sideGamesPanelBoxes(layout: layout))
        #expect(panel.frame.x > layout.width / 2 && panel.frame.maxX <= layout.width - layout.margin + 0.5)
        for row in state.boardBoxes(layout: layout, now: 3_000, minus: "-").rows {
            #expect(row.boxes.frame.maxX <= panel.frame.x - layout.margin + 0.5)
        }
    }

    /// No panel on an ordinary round, nor for a night without a side game: the board keeps
    /// its whole width.
    @Test func aNightWithoutSideGamesAndAnOrdinaryRoundHaveNone() throws {
        var (state, night, data) = try Self.night(skins: .field)
        var plain = data
        plain.leagueNight?.event.skins = .off
        plain.leagueNight?.event.closestToPin = []
        plain.leagueNight?.event.acePot = nil
        state.handle(.dataChanged(plain, .remoteSync), now: 3_000)
        let layout = Layout(viewport: state.viewport)
        #expect(state.sideGamesPanelBoxes(layout: layout) == nil)
        #expect(state.boardLayout(layout) == layout)
        var ordinary = KioskData(round: night.rounds[0], courses: data.courses, players: data.players)
        ordinary.acePotCarriedIn = 10
        state.handle(.dataChanged(ordinary, .remoteSync), now: 4_000)
        #expect(state.boardSideGamesLines.isEmpty)
        #expect(
            state.boardBoxes(layout: layout, now: 4_000, minus: "-").rows.allSatisfy { $0.boxes.frame.w == layout.boardBand.w })
    }

    /// Too many lines for the room: the CTP holes go onto one line, then the skins entries
    /// are cut with how many more there are; the heading, the CTP and the pot stay.
    @Test func linesFoldToFit() {
        let lines =
            [Line("Skins by card", style: .heading)] + (0..<8).map { Line("\(CardDraw.letter($0)) · none yet") }
            + [
                Line("CTP 4", "Gus", kind: .closestToPin), Line("CTP 8", "–", kind: .closestToPin),
                Line("Ace pot", "36", kind: .acePot),
            ]
        #expect(Line.fitted(lines, capacity: 12) == lines)
        let folded = Line.fitted(lines, capacity: 11)
        #expect(folded.count == 11)
        #expect(folded[9] == Line("CTP 4 Gus · 8 –", kind: .closestToPin))
        // A skins winner called "Ace" (or "CTP Carl") is a skins line all the same.
        let named =
            [Line("Skins", "2 on 5", style: .heading)] + ["Ace", "CTP Carl", "Bo", "Cy"].map { Line($0, "1") }
            + [Line("Ace pot", "12", kind: .acePot)]
        #expect(Line.fitted(named, capacity: 4).map(\.label) == ["Skins", "Ace", "+3 more", "Ace pot"])
        let cut = Line.fitted(lines, capacity: 7)
        #expect(cut.count == 7)
        #expect(
            cut.map(\.label) == [
                "Skins by card", "A · none yet", "B · none yet", "C · none yet", "+5 more", "CTP 4 Gus · 8 –", "Ace pot",
            ])
    }

    /// 30 players with 32-character names in 8 cards, skins per card, two CTP holes and the
    /// pot, at every panel size: on every page of the board, the rows keep the board's checks
    /// in the room the panel leaves and never overlap it; the panel's texts stay inside it at
    /// the minimum size or more, whole where they must be, none overlapping; and every card's
    /// skins line is there (nothing folded away).
    @Test(arguments: LayoutCheckTests.sizes)
    func thirtyPlayersAndThePanelHoldTheirContent(size: (Int, Int)) throws {
        let course = try Course(name: "Pine Hollow", holeCount: 18)
        let players = try (0..<30).map { try Player(displayName: "Maximiliana Bartholomew-Kowal \(String(format: "%02d", $0))") }
        let sizes = CardDraw.sizes(players: 30)
        var rounds: [RoundSnapshot] = []
        var next = 0
        for (card, count) in sizes.enumerated() {
            let group = players[next..<(next + count)]
            next += count
            var round = Round(courseID: course.id, organizerID: group.first!.id, createdAt: Date(timeIntervalSince1970: 1))
            for p in group { try round.add(.registered(p)) }
            try round.takePars(of: course)
            let start = CardDraw.startHole(card: card, of: sizes.count, holes: 18)
            try round.startOn(hole: start)
            try round.start(at: Date(timeIntervalSince1970: 5))
            let events = group.enumerated().map { index, p in
                ScoreEvent(
                    roundID: round.id, participantID: p.id, hole: start, strokes: index == 0 ? 2 : 3, reportedBy: p.id,
                    deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 6))
            }
            rounds.append(RoundSnapshot(round: round, course: course, events: events))
        }
        let event = try LeagueEvent(
            name: "Thursday league", courseID: course.id, day: "2026-11-26", rounds: rounds.map(\.round.id), skins: .card,
            closestToPin: [.init(hole: 5, winner: players[1].id), .init(hole: 12)],
            acePot: .init(buyIn: 2, players: players.map(\.id)), createdAt: Date(timeIntervalSince1970: 1))
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        state.handle(
            .dataChanged(
                KioskData(
                    round: rounds[0], courses: [course], players: players, otherRounds: Array(rounds.dropFirst()),
                    leagueNight: LeagueNightSnapshot(event: event, cards: rounds), acePotCarriedIn: 1_234),
                .remoteSync), now: 1_000)
        let what = "\(size.0)×\(size.1)"
        let layout = Layout(viewport: state.viewport)
        let panel = try #require(state.sideGamesPanelBoxes(layout: layout), "\(what)")
        #expect(panel.lines.filter { $0.label.contains(" · ") && $0.style == .entry }.count >= 8, "\(what): \(panel.lines)")
        #expect(!panel.lines.contains { $0.label.hasPrefix("+") }, "\(what): skins folded away")
        #expect(panel.lines.last?.label == "Ace pot", "\(what)")
        let inside = panel.frame
        #expect(inside.y >= layout.boardBand.y - 0.5 && inside.maxY <= layout.boardBand.maxY + 0.5, "\(what)")
        for (i, text) in panel.texts.enumerated() {
            let f = text.frame
            #expect(
                f.x >= inside.x - 0.5 && f.maxX <= inside.maxX + 0.5 && f.y >= inside.y - 0.5 && f.maxY <= inside.maxY + 0.5,
                "\(what): \"\(text.text)\" \(f) is outside the panel \(inside)")
            #expect(text.size >= layout.minimumTextSize, "\(what): \"\(text.text)\"")
            if !text.ellipsized {
                #expect(Layout.textWidth(text.text, size: text.size) <= f.w + 0.5, "\(what): \"\(text.text)\" is cut")
            }
            for other in panel.texts[(i + 1)...] {
                #expect(!LayoutCheckTests.overlaps(f, other.frame), "\(what): \"\(text.text)\" overlaps \"\(other.text)\"")
            }
        }
        let rowsLayout = state.boardLayout(layout)
        let pages = state.boardPages
        #expect(pages.rotates, "\(what): 30 players page")
        var seen: Set<UUID> = []
        for page in 0..<pages.pages {
            state.boardPaging.page = page
            let boxes = state.boardBoxes(layout: layout, now: 10_000, minus: "\u{2212}")
            let all = boxes.rows.map(\.boxes) + (boxes.more.map { [$0] } ?? [])
            LayoutCheckTests.check(
                all, in: rowsLayout.boardArea, minimumRow: layout.boardMinimumRowHeight, layout: layout, "\(what) page \(page)")
            for row in all {
                #expect(!LayoutCheckTests.overlaps(row.frame, inside), "\(what): a row overlaps the panel")
            }
            #expect(boxes.geometry.columns.name.w >= Layout.textWidth("Maximil…", size: boxes.geometry.nameSize), "\(what)")
            seen.formUnion(boxes.rows.map(\.standing.participantID))
        }
        #expect(seen.count == 30, "\(what): someone is on no page")
    }
}

/// Issue 36 item 4, "the summary is the event's": a league night's card, finished, shows
/// the night's summary card (every card's players ranked together, each with its card),
/// and asks for that card's summary link, whose page is the night's (SummaryPageTests).
@Suite struct NightSummaryTests {
    @Test func aFinishedCardsSummaryIsTheNights() throws {
        let (board, night, data) = try SideGamesPanelTests.night(skins: .field)
        var state = board
        var finished = data
        var cardA = night.rounds[0].round
        try cardA.finish(at: Date(timeIntervalSince1970: 20))
        let doneA = RoundSnapshot(round: cardA, course: night.course, events: night.rounds[0].events)
        let cards = [doneA, night.rounds[1], night.rounds[2]]
        finished.round = cards[1]
        finished.otherRounds = [cards[2]]
        finished.lastCompleted = doneA
        finished.leagueNight = LeagueNightSnapshot(event: night.event, cards: cards)
        state.handle(.dataChanged(finished, .localScore), now: 3_000)
        #expect(state.showSummary(cardA.id) == [])  // a kiosk in no group has no link to ask for
        let snapshot = try #require(state.summarySnapshot(cardA.id))
        #expect(state.summaryNight(cardA.id)?.event.id == night.event.id)
        let standings = state.summaryStandings(snapshot)
        #expect(standings.count == 13, "the night's 13, not card A's 5")
        // Card A is finished after two holes: its players are DNF, under cards B and C's
        // (everyone on 3 + 3, even, tied first; Fay first of them by name).
        #expect(standings.first?.name == "Fay")
        #expect(standings.filter { $0.status == .dnf }.map(\.name).sorted() == ["Ann", "Bo", "Cy", "Dee", "Eve"])
        let cardOf = try #require(state.summaryNight(cardA.id)).results.standings.card.mapValues(CardDraw.letter)
        let boxes = Layout(viewport: state.viewport).summaryBoxes(standings, heading: false, minus: "-", cards: cardOf)
        #expect(boxes.rows.first?.boxes.texts.contains { $0.text == "B · 6 strokes" } == true)
        #expect(state.summaryPages(snapshot, heading: false).count == 13)
        // An ordinary round's summary is its own.
        var plain = KioskState(viewport: state.viewport)
        var ordinary = KioskData(lastCompleted: doneA, courses: data.courses, players: data.players)
        ordinary.acePotCarriedIn = 0
        plain.handle(.dataChanged(ordinary, .localScore), now: 3_000)
        #expect(plain.summaryNight(cardA.id) == nil)
        #expect(plain.summaryStandings(try #require(plain.summarySnapshot(cardA.id))).count == 5)
    }
}
