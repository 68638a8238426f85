import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 36 item 2 at the kiosk: "League night" checks players in, draws the cards by form
/// (or at random), swaps two players, and starts the night; and item 4: while a night is
/// played the board ranks every card together, each row with its card's letter.
@Suite struct LeagueNightKioskTests {
    static let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]

    struct Club {
        var state: KioskState
        let course: Course
        let players: [Player]
        var now: Millis = 1_000

        init(size: (Int, Int) = (1280, 720), lastWeek: [Int] = []) throws {
            course = try Course(name: "Riverside Nine", holeCount: 9)
            players = try LeagueNightKioskTests.names.map { try Player(displayName: $0) }
            state = KioskState(viewport: Viewport(width: size.0, height: size.1))
            state.handle(
                .dataChanged(
                    KioskData(courses: [course], players: players, lastNightPlayers: lastWeek.map { players[$0].id }),
                    .localScore), now: now)
        }

        @discardableResult
        mutating func send(_ event: KioskEvent) -> [KioskEffect] {
            now += 100
            return state.handle(event, now: now)
        }

        /// From the board to check-in, through the menu.
        mutating func openCheckIn() {
            send(.longPressed)
            let index = state.menuItems.firstIndex(of: .leagueNight)!
            send(.turned(index))
            send(.pressed)
        }

        var checkIn: Screen.CheckIn? {
            if case .checkIn(let c) = state.screen { c } else { nil }
        }
        var draw: Screen.DrawCards? {
            if case .drawCards(let d) = state.screen { d } else { nil }
        }

        /// Turns to the first row that matches.
        mutating func turn(to row: (Screen.CheckIn.Row) -> Bool) {
            let rows = checkIn!.rows(in: state.data)
            let target = rows.firstIndex(where: row)!
            send(.turned(target - checkIn!.cursor))
        }
    }

    @Test func checkInDrawSwapAndStartMakeTheNightsPlan() throws {
        var club = try Club()
        club.openCheckIn()
        #expect(club.state.screen.name == "check-in")
        // Everyone presses in, in order: each press checks in the row under the cursor.
        for _ in club.players {
            club.send(.pressed)
            club.send(.turned(1))
        }
        #expect(club.checkIn?.checkedIn == club.players.map(\.id))
        // Draw: the form is asked for; the screen waits for it.
        club.turn { $0 == .draw }
        let asked = club.send(.pressed)
        #expect(asked == [.readForm(club.players.map(\.id))])
        #expect(club.draw?.cards == nil)
        // Form: player i's average is i over par, so the best is Ann. The snake (see
        // docs/requirements.md): A gets 0 5 6 11 12, B 1 4 7 10, C 2 3 8 9.
        let form = Dictionary(uniqueKeysWithValues: club.players.enumerated().map { ($1.id, Double($0)) })
        club.send(.formRead(form))
        let cards = try #require(club.draw?.cards)
        #expect(
            cards.map { $0.map(\.name) } == [
                ["Ann", "Fay", "Gus", "Lou", "Max"], ["Bo", "Eve", "Hal", "Kim"], ["Cy", "Dee", "Ivy", "Jo"],
            ])
        let texts = club.draw!.texts(in: club.state.data)
        #expect(texts.cards.map(\.header) == ["A · hole 1", "B · hole 4", "C · hole 7"])
        #expect(texts.subtitle.contains("balanced by form"))

        // Swap Ann (A) and Bo (B): "Swap two", Ann, then Bo.
        club.send(.turned(1))
        club.send(.pressed)
        #expect(club.draw?.swap == .init(cursor: 0, picked: nil))
        club.send(.pressed)  // Ann
        club.send(.turned(5))  // Bo, the first of card B
        #expect(club.send(.pressed) == [.buzz(.confirm)])
        #expect(club.draw?.cards?[0].first?.name == "Bo" && club.draw?.cards?[1].first?.name == "Ann")
        // Two on one card are no swap.
        club.send(.turned(1))
        club.send(.pressed)
        club.send(.pressed)
        club.send(.turned(1))
        #expect(club.send(.pressed) == [.buzz(.error)])
        club.send(.longPressed)  // stop swapping
        #expect(club.draw?.swap == nil)

        // Start: the plan, then the board.
        club.send(.turned(-5))
        let effects = club.send(.pressed)
        #expect(club.state.screen == .board)
        guard case .startLeagueNight(let plan) = effects.last else {
            Issue.record("no plan in \(effects)")
            return
        }
        #expect(plan.courseID == club.course.id)
        #expect(plan.cards.map(\.startHole) == [1, 4, 7])
        #expect(plan.cards.map { $0.participants.map(\.name) }[0] == ["Bo", "Fay", "Gus", "Lou", "Max"])
        #expect(plan.skins == .field && plan.closestToPin.isEmpty)
        #expect(plan.acePot == LeagueEvent.AcePotEntry(buyIn: 1, players: plan.cards.flatMap(\.participants).map(\.id)))
    }

    @Test func theSettingsRowsCycleAndTheClosestToPinHoleIsTurnedTo() throws {
        var club = try Club(lastWeek: [2, 0, 7])
        club.openCheckIn()
        // "Same as last week" checks in last week's registered players, then waits on Draw.
        #expect(club.checkIn?.rows(in: club.state.data).first == .sameAsLastWeek([2, 0, 7].map { club.players[$0].id }))
        club.send(.pressed)
        #expect(club.checkIn?.checkedIn == [2, 0, 7].map { club.players[$0].id })
        #expect(club.checkIn.map { $0.rows(in: club.state.data)[$0.cursor] } == .draw)
        club.turn { $0 == .skins }
        club.send(.pressed)
        #expect(club.checkIn?.skins == .card)
        club.send(.pressed)
        #expect(club.checkIn?.skins == .off)
        club.turn { $0 == .acePot }
        club.send(.pressed)
        #expect(club.checkIn?.acePot == 2)
        // Press, turn to a hole, press: a CTP hole. The knob starts on "no change".
        club.turn { $0 == .closestToPin }
        club.send(.pressed)
        #expect(club.checkIn?.settingClosestToPin == true)
        club.send(.turned(7))
        #expect(club.checkIn?.closestToPinCursor == 7)
        // Past the course's last hole the knob stops, felt.
        #expect(club.send(.turned(5)) == [.buzz(.limit)])
        #expect(club.checkIn?.closestToPinCursor == 9)
        club.send(.turned(-2))
        #expect(club.send(.pressed) == [.buzz(.confirm)])
        #expect(club.checkIn?.closestToPin == [7] && club.checkIn?.settingClosestToPin == false)
        // A second hole, in course order; the same again takes it off; press, press changes nothing.
        club.send(.pressed)
        club.send(.turned(3))
        club.send(.pressed)
        #expect(club.checkIn?.closestToPin == [3, 7])
        club.send(.pressed)
        club.send(.turned(3))
        club.send(.pressed)
        #expect(club.checkIn?.closestToPin == [7])
        club.send(.pressed)
        #expect(club.send(.pressed) == [])
        #expect(club.checkIn?.closestToPin == [7])
        club.send(.pressed)
        club.send(.turned(3))
        club.send(.pressed)
        // Ann (the second here) stays out of the ace pot: "In the ace pot" lists who is here.
        club.turn { $0 == .acePotPlayers }
        club.send(.pressed)
        #expect(club.state.screen.name == "check-in-ace-pot")
        club.send(.turned(1))
        club.send(.pressed)
        #expect(club.checkIn?.acePotOut == [club.players[0].id])
        club.send(.longPressed)
        #expect(club.state.screen.name == "check-in")
        // Gross by default; a press ranks the night by net (issue 37), a second goes back.
        club.turn { $0 == .ranking }
        #expect(club.checkIn?.net == false)
        club.send(.pressed)
        #expect(club.checkIn?.net == true)
        club.send(.pressed)
        club.send(.pressed)
        #expect(club.checkIn?.net == true)
        // A guest typed on the wheel's keyboard is checked in.
        club.turn { $0 == .addGuest }
        club.send(.pressed)
        #expect(club.state.screen.name == "name-entry")
        club.send(.typed(.text("Sam")))
        club.send(.typed(.done))
        #expect(club.checkIn?.guests.map(\.name) == ["Sam"])
        #expect(club.checkIn?.participants(in: club.state.data).map(\.name) == ["Cy", "Ann", "Hal", "Sam"])
        // Drawn: guests are dealt too, but only registered players have a form to read.
        club.turn { $0 == .draw }
        #expect(club.send(.pressed) == [.readForm([2, 0, 7].map { club.players[$0].id })])
        club.send(.formRead([:]))
        #expect(club.draw?.cards?.flatMap { $0 }.map(\.name).sorted() == ["Ann", "Cy", "Hal", "Sam"])
        let subtitle = club.draw?.texts(in: club.state.data).subtitle ?? ""
        #expect(subtitle.contains("CTP 3, 7") && subtitle.contains("ace pot 2 · 3 in"), "\(subtitle)")
        #expect(subtitle.contains(" · net · "), "\(subtitle)")
        let plan = try #require(club.draw?.plan(in: club.state.data))
        #expect(plan.closestToPin == [3, 7] && plan.net)
        #expect(plan.acePot?.players.count == 3 && plan.acePot?.players.contains(club.players[0].id) == false)
        // Back keeps everyone checked in.
        club.send(.longPressed)
        #expect(club.checkIn?.checkedIn.count == 4)
        // Nobody checked in: nothing to draw.
        var empty = try Club()
        empty.openCheckIn()
        empty.turn { $0 == .draw }
        #expect(empty.send(.pressed) == [.buzz(.error)])
        #expect(empty.state.screen.name == "check-in")
    }

    /// "Draw again" deals at random from the clock: the same instant deals the same cards.
    @Test func drawingAgainIsRandomAndRepeatableFromTheClock() throws {
        func drawn(at now: Millis) throws -> [[String]] {
            var club = try Club()
            club.openCheckIn()
            for _ in club.players {
                club.send(.pressed)
                club.send(.turned(1))
            }
            club.turn { $0 == .draw }
            club.send(.pressed)
            club.send(.formRead([:]))
            club.send(.turned(2))
            club.state.handle(.pressed, now: now)
            #expect(club.draw?.random == true)
            return club.draw?.cards?.map { $0.map(\.name) } ?? []
        }
        let first = try drawn(at: 50_000)
        #expect(first.map(\.count) == [5, 4, 4])
        #expect(try drawn(at: 50_000) == first)
        #expect(try drawn(at: 50_001) != first)
    }

    /// While a night is played the board is the night's: 13 players of three cards ranked
    /// together, each row saying its card; the course panel names the cards by letter.
    @Test func theBoardRanksEveryCardTogetherWithItsLetter() throws {
        let club = try Club()
        var night = try Self.night(club, scored: true)
        var state = club.state
        state.handle(.dataChanged(night.data, .remoteSync), now: 2_000)
        let rows = state.leaderboard.rows
        #expect(rows.count == 13)
        #expect(rows.first?.name == "Jo")  // the ace: 1 on a par 3
        #expect(state.leaderboard.cards[rows.first!.participantID] == "C")
        let boxes = state.boardBoxes(layout: Layout(viewport: state.viewport), now: 2_000, minus: "-")
        let jo = try #require(boxes.rows.first)
        #expect(jo.boxes.texts.contains { $0.text == "C" })
        let panel = try #require(state.courseNowBoxes(layout: Layout(viewport: state.viewport)))
        #expect(panel.cells.map { $0.boxes.texts[0].text } == ["A", "B", "C"])
        // "Which card?" asks by letter, card A first, though C was made last (newest first
        // is an ordinary day's order).
        #expect(state.data.rounds.map { state.data.chooserTitle($0) } == ["A", "B", "C"].map { "Card \($0) · Riverside Nine" })
        // Once every card is finished, with nothing else on, the board is the night's result:
        // the same ranking, no round in front, and no last round's summary paging under it.
        night.finishAll()
        var finished = night.data
        finished.leagueNight = LeagueNightSnapshot(event: night.event, cards: night.rounds)
        finished.lastCompleted = night.rounds.last
        state.handle(.dataChanged(finished, .remoteSync), now: 3_000)
        #expect(state.round == nil)
        #expect(state.leaderboard.rows.map(\.participantID) == rows.map(\.participantID))
        #expect(state.leaderboard.cards.count == 13)
        #expect(state.summaryOnShow == nil)
        // An ordinary round started after it takes the board back.
        var after = finished
        after.round = try Self.night(club, scored: false).rounds[0]
        state.handle(.dataChanged(after, .localScore), now: 4_000)
        #expect(state.leaderboard.cards.isEmpty)
        #expect(state.leaderboard.roundID == after.round?.round.id)
    }

    /// Tonight's side games, worded from the scores. By hand, skins per card: card A
    /// (Ann Bo Cy Dee Eve) all 3 on hole 1 (a carry), then Ann 2 and the rest 3 on hole 2:
    /// Ann wins 2; hole 3 is open. Cards B and C have nothing decided. Jo's ace on 7 is in
    /// the aces; the pot (2 each for the 13, 10 carried in) pays Jo 36.
    @Test func theSideGamesSayWhatTheScoresSay() throws {
        let club = try Club()
        var night = try Self.night(club, scored: false)
        let cardA = night.rounds[0]
        var events: [ScoreEvent] = []
        for (index, p) in cardA.round.participants.enumerated() {
            for (hole, strokes) in [(1, 3), (2, index == 0 ? 2 : 3)] {
                events.append(
                    ScoreEvent(
                        roundID: cardA.round.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: p.id,
                        deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 6)))
            }
        }
        night.rounds[0] = RoundSnapshot(round: cardA.round, course: club.course, events: events)
        let cardC = night.rounds[2]
        night.rounds[2] = RoundSnapshot(
            round: cardC.round, course: club.course,
            events: [
                ScoreEvent(
                    roundID: cardC.round.id, participantID: club.players[9].id, hole: 7, strokes: 1,
                    reportedBy: club.players[9].id, deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 6))
            ])
        night.event.skins = .card
        night.event.closestToPin = [.init(hole: 4, winner: club.players[6].id), .init(hole: 8)]
        night.event.acePot = .init(buyIn: 2, players: club.players.map(\.id))
        var data = night.data
        data.acePotCarriedIn = 10
        let rows = Screen.SideGames.rows(in: data)
        #expect(
            rows == [
                .skins(title: "Skins · card A", detail: "Ann 2"),
                .skins(title: "Skins · card B", detail: "none won yet"),
                .skins(title: "Skins · card C", detail: "none won yet"),
                .closestToPin(hole: 4, winner: "Gus"), .closestToPin(hole: 8, winner: nil),
                .aces("Jo on 7"), .acePot(total: 0, detail: "Jo won 36"),
            ])
        // Entering the CTP hole 8 winner: the players listed, card by card; "Nobody" first.
        var state = club.state
        state.handle(.dataChanged(data, .remoteSync), now: 2_000)
        state.handle(.longPressed, now: 2_100)
        state.handle(.turned(state.menuItems.firstIndex(of: .sideGames)!), now: 2_200)
        state.handle(.pressed, now: 2_300)
        state.handle(.turned(4), now: 2_400)
        state.handle(.pressed, now: 2_500)
        #expect(state.screen == .sideGames(.init(cursor: 4, picking: .init(hole: 8, cursor: 0))))
        state.handle(.turned(10), now: 2_600)  // "Nobody", then Ann … : the 10th player is Jo
        let effects = state.handle(.pressed, now: 2_700)
        #expect(effects == [.buzz(.confirm), .setClosestToPin(eventID: night.event.id, hole: 8, winner: club.players[9].id)])
        // The skins rows are read, not entered.
        state.handle(.turned(-4), now: 2_800)
        #expect(state.handle(.pressed, now: 2_900) == [.buzz(.limit)])
    }

    /// A night of three cards (5, 4, 4 in name order) on holes 1, 4 and 7; `scored`: Jo aces
    /// hole 7 and Ann bogeys hole 1.
    struct Night {
        var event: LeagueEvent
        var rounds: [RoundSnapshot]
        let course: Course
        let players: [Player]
        var data: KioskData {
            KioskData(
                round: rounds.first { $0.round.status.acceptsScores }, courses: [course], players: players,
                otherRounds: Array(rounds.filter { $0.round.status.acceptsScores }.dropFirst()),
                leagueNight: rounds.contains { $0.round.status.acceptsScores }
                    ? LeagueNightSnapshot(event: event, cards: rounds) : nil)
        }
        mutating func finishAll() {
            rounds = rounds.map { snapshot in
                var round = snapshot.round
                try? round.finish(at: Date(timeIntervalSince1970: 10))
                return RoundSnapshot(round: round, course: course, events: snapshot.events)
            }
        }
    }

    static func night(_ club: Club, scored: Bool) throws -> Night {
        let groups = [Array(club.players[0..<5]), Array(club.players[5..<9]), Array(club.players[9..<13])]
        var rounds: [RoundSnapshot] = []
        for (index, group) in groups.enumerated() {
            var round = Round(
                courseID: club.course.id, organizerID: group[0].id, createdAt: Date(timeIntervalSince1970: Double(index)))
            for p in group { try round.add(.registered(p)) }
            try round.takePars(of: club.course)
            try round.startOn(hole: [1, 4, 7][index])
            try round.start(at: Date(timeIntervalSince1970: 5))
            var events: [ScoreEvent] = []
            if scored {
                for (p, hole, strokes) in [(club.players[9], 7, 1), (club.players[0], 1, 4)] where group.contains(p) {
                    events.append(
                        ScoreEvent(
                            roundID: round.id, participantID: p.id, hole: hole, strokes: strokes, reportedBy: p.id,
                            deviceID: "kiosk", createdAt: Date(timeIntervalSince1970: 6)))
                }
            }
            rounds.append(RoundSnapshot(round: round, course: club.course, events: events))
        }
        let event = try LeagueEvent(
            name: "League night", courseID: club.course.id, day: "2026-11-26", rounds: rounds.map(\.round.id),
            skins: .field, createdAt: Date(timeIntervalSince1970: 1))
        return Night(event: event, rounds: rounds, course: club.course, players: club.players)
    }

    /// The draw of 30 players (8 cards) at every panel size: every name in its card, every
    /// card inside the area between the title and the buttons, none overlapping, text never
    /// under the minimum; where it cannot all fit at the minimum it pages, and every card
    /// is on a page.
    @Test(arguments: LayoutCheckTests.sizes)
    func theDrawOfThirtyHoldsItsContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        let sizes = CardDraw.sizes(players: 30)
        let cards = sizes.enumerated().map { card, count in
            (
                header: "\(CardDraw.letter(card)) · hole \(CardDraw.startHole(card: card, of: sizes.count, holes: 18))",
                names: (0..<count).map { "Maximiliana Bartholomew-Kowal \(card)\($0)" }
            )
        }
        var seen: [String] = []
        let first = layout.drawCardsBoxes(
            title: "League night · 30 players · 8 cards", subtitle: "Pine Hollow", cards: cards, page: 0)
        for page in 0..<first.pages {
            let boxes = layout.drawCardsBoxes(
                title: "League night · 30 players · 8 cards", subtitle: "Pine Hollow", cards: cards, page: page)
            let top = boxes.subtitle.frame.maxY
            let buttons = layout.statusButtons(count: 4)[0]
            for (i, card) in boxes.cards.enumerated() {
                #expect(card.frame.y >= top - 0.5 && card.frame.maxY <= buttons.y + 0.5, "\(size): card \(i) off its area")
                #expect(card.frame.x >= 0 && card.frame.maxX <= layout.width + 0.5)
                for text in [card.header] + card.names {
                    #expect(text.size >= layout.minimumTextSize, "\(size): \(text.text) at \(text.size)")
                    #expect(
                        text.frame.x >= card.frame.x - 0.5 && text.frame.maxX <= card.frame.maxX + 0.5
                            && text.frame.y >= card.frame.y - 0.5 && text.frame.maxY <= card.frame.maxY + 0.5,
                        "\(size): \"\(text.text)\" \(text.frame) is not inside its card \(card.frame)")
                }
                for other in boxes.cards[(i + 1)...] {
                    #expect(!LayoutCheckTests.overlaps(card.frame, other.frame), "\(size): cards overlap")
                }
            }
            seen += boxes.cards.map(\.header.text)
        }
        #expect(seen == cards.map(\.header), "\(size): every card once, in order")
        // The photograph: one page where the panel allows it (the 7" panel and a TV do).
        if size == (1920, 1080) || size == (1280, 720) { #expect(first.pages == 1, "\(size): \(first.pages) pages") }
    }
}
