import Foundation
import HyzerKit
import HyzerStore
import Testing

@testable import KioskApp
@testable import KioskCore

/// Issue 37's "any event can rank by net" at the kiosk, through the real store: a league
/// night ranked by net takes each member's handicap on the course from their earlier
/// rounds there (read once a night), and its board ranks and shows net to a tenth, with a
/// player who has none ranked gross and marked.
@Suite struct NetNightSessionTests {
    /// Ann's three rounds here are +4 each (handicap +4.0), Bo's E (handicap E). Tomorrow's
    /// night, after hole 1 (a ninth of each handicap given): Bo +1.0, Cy (a guest, no
    /// handicap) +2 gross, Ann +3 less 0.4. Every hole played: Ann +3 gross is net −1.0, Bo
    /// +1.0, Cy +2 gross. Net board: Ann, Bo, Cy; gross it would be Bo, Cy, Ann.
    /// Negative control (by hand): with the session not giving the night its handicaps,
    /// Bo led and this failed.
    @Test func aNightRankedByNetTakesItsHandicapsFromTheStore() throws {
        let (store, course, ann, bo) = try annAndBo()
        for _ in 0..<3 { _ = try store.write(.finishRound(try playRound(store, course, [(ann, 7), (bo, 3)]).id)) }
        let cy = Participant(id: UUID(), name: "Cy", kind: .guest)
        let tomorrow = SeasonEvent.day(of: Date().addingTimeInterval(86_400))
        let night = try store.write(
            .createLeagueNight(
                name: "League night", courseID: course.id, organizerID: ann.id,
                cards: [LeagueNightCard(participants: [.registered(ann), .registered(bo), cy], startHole: 1)], skins: .off,
                net: true, day: tomorrow))
        _ = try store.write(.startLeagueNight(night.id))
        #expect(try store.read(.leagueNight(id: night.id))?.event.net == true, "stored as ranked by net")
        let round = night.rounds[0]
        func play(_ holes: ClosedRange<Int>) throws {
            for hole in holes {
                for (player, first) in [(ann.id, 6), (bo.id, 4), (cy.id, 5)] {
                    _ = try store.write(
                        .recordScore(
                            ScoreEntry(
                                roundID: round, participantID: player, hole: hole, strokes: hole == 1 ? first : 3,
                                reportedBy: ann.id)))
                }
            }
        }
        try play(1...1)

        let session = try KioskSession(store: store, viewport: Viewport(width: 1280, height: 720), now: 0)
        let loaded = try #require(session.state.data.leagueNight)
        #expect(loaded.handicaps == [ann.id: 4.0, bo.id: 0.0])
        #expect(session.state.leaderboard.rows.map(\.name) == ["Bo", "Cy", "Ann"])
        #expect(session.state.leaderboard.rows.map { $0.scoreText() } == ["+1.0", "+2", "+2.6"])

        try play(2...9)
        session.reload(.external, now: 1_000)
        #expect(session.state.leaderboard.rows.map(\.name) == ["Ann", "Bo", "Cy"])
        let boxes = session.state.boardBoxes(layout: Layout(viewport: session.state.viewport), now: 1_000, minus: "−")
        #expect(boxes.rows.map { $0.boxes.texts[3].text } == ["−1.0", "+1.0", "+2"])
        #expect(boxes.rows[2].boxes.texts.last?.text == "gross · guest · A", "Cy is ranked gross, and says so")
        // The score column is as wide as the widest net there ("-1.0"), not "+12".
        #expect(session.state.boardLayout(Layout(viewport: session.state.viewport)).boardScoreSample.count == 4)
    }

    /// From the knob: check-in's "Ranked by gross" row pressed to net, the cards drawn and
    /// started; the night stored is ranked by net and its board says so in its header.
    @Test func checkInRanksTheNightByNetFromTheKnob() throws {
        let (store, course, ann, bo) = try annAndBo()
        for _ in 0..<3 { _ = try store.write(.finishRound(try playRound(store, course, [(ann, 7), (bo, 3)]).id)) }
        let knob = try Knob(store)
        let session = knob.session
        knob.open(.leagueNight)
        guard case .checkIn(let checkIn) = session.state.screen else {
            Issue.record("not on check-in: \(session.state.screen)")
            return
        }
        let rows = checkIn.rows(in: session.state.data)
        // Everyone in (the first rows are the players: there was no night last week).
        for _ in [ann, bo] {
            knob.send(.pressed)
            knob.send(.turned(1))
        }
        let ranking = try #require(rows.firstIndex(of: .ranking))
        knob.send(.turned(ranking - 2))
        knob.send(.pressed)
        knob.send(.turned(try #require(rows.firstIndex(of: .draw)) - ranking))
        knob.send(.pressed)
        guard case .drawCards(let draw) = session.state.screen, draw.cards != nil else {
            Issue.record("no draw: \(session.state.screen)")
            return
        }
        #expect(draw.texts(in: session.state.data).subtitle.contains("net"))
        knob.send(.pressed)  // Start the night
        let night = try #require(session.state.data.leagueNight)
        #expect(night.event.net)
        #expect(try store.read(.leagueNights()).first?.net == true)
        // The three rounds were played today: only earlier days' rounds make a handicap, so
        // tonight everyone is ranked gross.
        #expect(night.handicaps == [:])
        // Nobody netted: the score column is as wide as ever ("+12").
        #expect(session.state.boardLayout(Layout(viewport: session.state.viewport)).boardScoreSample == "+12")
    }
}
