import Foundation
import Testing

@testable import HyzerKit
@testable import HyzerStore

/// `StoreRead.overview`: what a device's screens show, composed from the store's named reads
/// into one read transaction (KioskSessionLoadTests lands a sync in the middle of one).
@Suite struct OverviewTests {
    @Test func theOverviewIsTheScreensReadsInOneTransaction() throws {
        let clock = ManualClock()
        let store = try HyzerDatabase.inMemory(clock: clock)
        func round(_ names: [String]) throws -> Round {
            clock.advance(by: .seconds(60))
            let course = try Course(name: "Nine for \(names[0])", holeCount: 9)
            try store.write(.saveCourse(course))
            let players = try names.map { try Player(displayName: $0) }
            for player in players { try store.write(.savePlayer(player)) }
            let round = try store.write(
                .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
            let started = try store.write(.startRound(round.id))
            try store.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: players[0].id, hole: 1, strokes: 3, reportedBy: players[0].id)))
            return started
        }
        let older = try round(["Nate", "Mike"])
        let finished = try round(["Ada"])
        _ = try store.write(.finishRound(finished.id))
        let newer = try round(["Zoe"])

        let overview = try store.read(.overview)
        #expect(overview.roundsInPlay.map(\.round.id) == [newer.id, older.id], "newest first")
        #expect(
            overview.roundsInPlay
                == [try store.read(.snapshot(round: newer.id)), try store.read(.snapshot(round: older.id))])
        #expect(overview.lastCompleted == (try store.read(.snapshot(round: finished.id))))
        #expect(overview.courses == (try store.read(.courses)))
        #expect(overview.players == (try store.read(.players)))
    }
}
