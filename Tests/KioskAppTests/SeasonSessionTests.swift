import Foundation
import HyzerKit
import HyzerStore
import Testing

@testable import KioskApp
@testable import KioskCore

/// Issue 37 at the kiosk through the real store: the season today falls in is read for the
/// idle board between rounds, kept as it was while a round is played (no season read on
/// every score), and read again once the board is idle, with the new round in it.
@Suite struct SeasonSessionTests {
    @Test func theIdleBoardHasTheSeasonAndARoundInPlayLeavesItAlone() throws {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(name: "Session Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let ann = try Player(displayName: "Ann")
        let bo = try Player(displayName: "Bo")
        for p in [ann, bo] { try store.write(.savePlayer(p)) }
        func play(annOnHole1 strokes: Int) throws -> Round {
            let round = try store.write(
                .createRound(courseID: course.id, organizerID: ann.id, participants: [ann, bo].map(Participant.registered)))
            _ = try store.write(.startRound(round.id))
            for hole in 1...9 {
                for (p, n) in [(ann, hole == 1 ? strokes : 3), (bo, 3)] {
                    _ = try store.write(
                        .recordScore(ScoreEntry(roundID: round.id, participantID: p.id, hole: hole, strokes: n, reportedBy: p.id)))
                }
            }
            return round
        }
        _ = try store.write(.finishRound(try play(annOnHole1: 2).id))
        let today = Date()
        _ = try store.write(
            .saveSeason(
                try Season(
                    name: "This week", from: SeasonEvent.day(of: today.addingTimeInterval(-86_400)),
                    to: SeasonEvent.day(of: today.addingTimeInterval(86_400)), rule: .pointsByPlace([5, 3]))))

        let session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
        let first = try #require(session.state.data.season)
        #expect(first.rows.map(\.name) == ["Ann", "Bo"] && first.rows.map(\.valueText) == ["5", "3"])
        #expect(session.state.idleSeason == first)

        // A round in play: the board is the round's, and the season is the one read before.
        let playing = try play(annOnHole1: 4)
        session.reload(.external, now: 1_000)
        #expect(session.state.round != nil && session.state.idleSeason == nil)
        #expect(session.state.data.season == first)

        // Finished: the idle board's season has both rounds.
        _ = try store.write(.finishRound(playing.id))
        session.reload(.external, now: 2_000)
        let after = try #require(session.state.idleSeason)
        #expect(after.events == 2)
        #expect(after.rows.map(\.positionLabel) == ["T1", "T1"] && after.rows.map(\.valueText) == ["8", "8"])
    }
}
