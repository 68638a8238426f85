import Foundation
import HyzerTestSupport
import Testing

@testable import HyzerKit

/// Issue 37 item 3: a player's and a course's numbers, and the new bests a round sets, on three
/// rounds worked by hand. A three-hole course, pars 3 4 3:
///
/// | round | Ann | Bo |
/// | --- | --- | --- |
/// | R1 (day 1) | 3 3 3 = −1 | 2 4 4 = E |
/// | R2 (day 2) | 3 4 2 = −1 | 1 3 3 = −3 |
/// | R3 (day 3) | 4 4 – (DNF) | 3 4 3 = E |
@Suite struct StatsTests {
    static func rounds() throws -> (Course, [RoundSnapshot], UUID, UUID) { try StatsRounds.make() }

    @Test func aPlayersNumbers() throws {
        let (_, rounds, ann, bo) = try Self.rounds()
        let a = PlayerStats(player: ann, rounds: rounds)
        // R3 is a DNF: not a finished round, but its holes count.
        #expect(a.rounds == 2 && a.averageToPar == -1.0)
        #expect(a.bests.map(\.toPar) == [-1] && a.bests.first?.roundID == rounds[0].round.id, "the earliest of equals")
        #expect(a.birdies == 2 && a.aces == 0)  // R1 hole 2, R2 hole 3
        #expect(a.trend == [-1, -1])
        let b = PlayerStats(player: bo, rounds: rounds)
        #expect(b.rounds == 3 && b.averageToPar == -1.0)
        #expect(b.bests.map(\.toPar) == [-3] && b.bests.first?.strokes == 7)
        // Handicaps: Bo's three rounds, newest first E, −3, E: the best two average −1.5; Ann
        // has two, too few.
        #expect(b.bests.first?.handicap == -1.5 && a.bests.first?.handicap == nil)
        #expect(b.birdies == 2 && b.aces == 1)  // R1 hole 1, R2 hole 2; the ace on R2's 1 is no birdie
        #expect(b.trend == [0, -3, 0])
        #expect(PlayerStats(player: UUID(), rounds: rounds).averageToPar == nil)
    }

    /// Hole 1: 3 3 4 and 2 1 3 against par 3, −2 over 6; hole 2: 3 4 4 and 4 3 4 against 4, −2
    /// over 6; hole 3: 3 2 and 4 3 3 against 3, 0 over 5. The record is Bo's −3.
    @Test func aCoursesNumbers() throws {
        let (course, rounds, _, bo) = try Self.rounds()
        let stats = CourseStats(course: course, rounds: rounds)
        #expect(stats.rounds == 3)
        #expect(stats.holes.map(\.played) == [6, 6, 5])
        let third: Double = -2.0 / 6
        let averages: [Double?] = [third, third, 0]
        #expect(stats.holes.map(\.averageToPar) == averages)
        #expect(stats.hardest == 3 && stats.easiest == 1)
        #expect(stats.record?.toPar == -3 && stats.record?.holders.map(\.name) == ["Bo"])
        #expect(stats.record?.holders.first?.roundID == rounds[1].round.id)
        _ = bo
    }

    /// R2 beats Bo's best (E) and the course record (Ann's −1); Ann's −1 only equals hers. R3
    /// sets nothing. A first round sets no personal best.
    @Test func aRoundsNewBests() throws {
        let (_, rounds, ann, bo) = try Self.rounds()
        let second = NewBests(round: rounds[1], earlier: [rounds[0]])
        #expect(second.personalBests == [bo] && second.courseRecord)
        #expect(!second.personalBests.contains(ann))
        let third = NewBests(round: rounds[2], earlier: Array(rounds[0..<2]))
        #expect(third.personalBests.isEmpty && !third.courseRecord)
        let first = NewBests(round: rounds[0], earlier: [])
        #expect(first.personalBests.isEmpty && !first.courseRecord)
    }

    /// The same from the group's events (what the kiosk reads through its memo): the same
    /// answers, the round's own event left out by its id, another course's rounds ignored.
    @Test func aRoundsNewBestsFromTheGroupsEvents() throws {
        let (course, rounds, ann, bo) = try Self.rounds()
        func event(_ snapshot: RoundSnapshot, course: String? = nil) -> SeasonEvent {
            SeasonEvent(
                id: snapshot.round.id, day: "2026-01-0\(rounds.firstIndex(of: snapshot)! + 1)",
                course: course ?? snapshot.round.courseID.uuidString, standings: snapshot.standings.rows, guests: [])
        }
        let history = rounds.map { event($0) }
        let second = NewBests(round: rounds[1], history: Array(history[0..<2]), excluding: [rounds[1].round.id])
        #expect(second.personalBests == [bo] && second.courseRecord)
        // Without leaving its own event out, it would not beat itself: nothing new.
        let itself = NewBests(round: rounds[1], history: Array(history[0..<2]), excluding: [])
        #expect(itself.personalBests.isEmpty && !itself.courseRecord)
        // R1 on another course is nothing to beat: R2 is a first round here.
        let elsewhere = NewBests(
            round: rounds[1], history: [event(rounds[0], course: UUID().uuidString)], excluding: [rounds[1].round.id])
        #expect(elsewhere.personalBests.isEmpty && !elsewhere.courseRecord)
        _ = (course, ann)
    }
}
