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
        let (store, course, ann, bo) = try annAndBo()
        func play(annOnHole1 strokes: Int) throws -> Round { try playRound(store, course, [(ann, strokes), (bo, 3)]) }
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

/// Issue 37's "PB!" through the real store: a round that beats a member's best on the
/// course, and the course record, says so on its card; the next round that does not, does not.
@Suite struct PersonalBestSessionTests {
    @Test func aFinishedRoundsBestsAreWorkedOutFromTheStore() throws {
        let (store, course, ann, bo) = try annAndBo()
        func play(_ ann1: Int, _ bo1: Int) throws {
            _ = try store.write(.finishRound(try playRound(store, course, [(ann, ann1), (bo, bo1)]).id))
        }
        try play(3, 4)  // Ann E, Bo +1: a first round, nothing to beat
        let session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
        #expect(session.state.data.newBests?.personalBests == [])
        try play(2, 5)  // Ann −1: her best and the record; Bo +2
        session.reload(.external, now: 1_000)
        #expect(session.state.data.newBests?.personalBests == [ann.id])
        #expect(session.state.data.newBests?.courseRecord == true)
        try play(3, 3)  // Bo E: his best, not the record (−1)
        session.reload(.external, now: 2_000)
        #expect(session.state.data.newBests?.personalBests == [bo.id])
        #expect(session.state.data.newBests?.courseRecord == false)
    }
}

/// A round of `players` on a 9-hole `course`, every hole scored (each player's strokes on
/// hole 1, par 3 on the rest), left in play.
func playRound(_ store: HyzerDatabase, _ course: Course, _ players: [(Player, Int)]) throws -> Round {
    let round = try store.write(
        .createRound(courseID: course.id, organizerID: players[0].0.id, participants: players.map { .registered($0.0) }))
    _ = try store.write(.startRound(round.id))
    for hole in 1...9 {
        for (p, first) in players {
            _ = try store.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: p.id, hole: hole, strokes: hole == 1 ? first : 3, reportedBy: p.id)))
        }
    }
    return round
}

/// A store with a 9-hole course and two players, Ann and Bo.
func annAndBo() throws -> (HyzerDatabase, Course, Player, Player) {
    let store = try HyzerDatabase.inMemory()
    let course = try Course(name: "Session Nine", holeCount: 9)
    try store.write(.saveCourse(course))
    let ann = try Player(displayName: "Ann")
    let bo = try Player(displayName: "Bo")
    for p in [ann, bo] { try store.write(.savePlayer(p)) }
    return (store, course, ann, bo)
}
