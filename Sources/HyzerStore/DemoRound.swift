import Foundation
import HyzerKit

/// Realistic sample data: an active round part-way through, with corrections, written
/// through the same named writes as real scoring. Used by `hyzer demo`, `make run`, the
/// kiosk's first start and the benchmarks.
extension HyzerDatabase {
    public static let demoNames = [
        "Nate", "Mike", "Jake", "Sarah", "Priya", "Tom", "Lena", "Omar", "Kai", "Rosa", "Ben", "Mia",
        "Ivan", "Zoe", "Leo", "Ada", "Sam", "Eli", "Noor", "Finn", "Gus", "Ivy", "Max", "Uma",
    ]

    /// Creates (or reuses, by name) `players` registered players, starts a round on
    /// `courseName` (default: the first 18-hole course) and scores `holesPlayed` holes,
    /// correcting about one score in ten. Deterministic for a given seed. `startHole`: a
    /// shotgun card's (issue 36), whose holes are played from there round the course.
    @discardableResult
    public func createDemoRound(
        players count: Int = 6, holesPlayed: Int = 6, courseName: String? = nil, seed: UInt64 = 1, startHole: Int = 1
    ) throws -> Round {
        guard (1...Round.maxParticipants).contains(count) else {
            throw StoreError.round(.tooManyParticipants(Round.maxParticipants))
        }
        let courses = try self.read(.courses)
        let course: Course
        if let courseName {
            guard let match = courses.first(where: { $0.name.localizedCaseInsensitiveCompare(courseName) == .orderedSame })
            else { throw StoreError.notFound("course \"\(courseName)\"") }
            course = match
        } else {
            guard let first = courses.first(where: { $0.holeCount == 18 }) ?? courses.first else {
                throw StoreError.notFound("any course (run `hyzer init` so the seeded courses load)")
            }
            course = first
        }
        guard (0...course.holeCount).contains(holesPlayed) else {
            throw StoreError.scoring(.unknownHole(holesPlayed, holeCount: course.holeCount))
        }

        var known = Dictionary(try self.read(.players).map { ($0.displayName, $0) }, uniquingKeysWith: { a, _ in a })
        var participants: [Participant] = []
        for name in Self.demoNames.prefix(count) {
            let player = try known[name] ?? Player(displayName: name)
            if known[name] == nil {
                try write(.savePlayer(player))
                known[name] = player
            }
            participants.append(.registered(player))
        }
        let organizer = participants[0].id
        var round = try write(
            .createRound(courseID: course.id, organizerID: organizer, participants: participants, startHole: startHole))
        round = try write(.startRound(round.id))

        var rng = SeededGenerator(seed: seed)
        for hole in round.holeOrder(on: course).holes.prefix(holesPlayed) {
            let par = course.pars[hole - 1]
            for (index, participant) in participants.enumerated() {
                // Scorers rotate like a real card: the next player along enters the score.
                let scorer = participants[(index + 1) % participants.count].id
                var strokes = Self.demoStrokes(par: par, using: &rng)
                if Int.random(in: 0..<10, using: &rng) == 0 {
                    // A mis-entry that is then corrected (FR37): two events, one value.
                    let wrong = min(10, max(1, strokes + (Bool.random(using: &rng) ? 1 : -1)))
                    try write(
                        .recordScore(
                            ScoreEntry(
                                roundID: round.id, participantID: participant.id, hole: hole,
                                strokes: wrong, reportedBy: scorer)))
                    strokes = min(10, max(1, strokes))
                }
                try write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: participant.id, hole: hole,
                            strokes: strokes, reportedBy: scorer)))
            }
        }
        return try self.read(.round(id: round.id)) ?? round
    }

    /// The device id of the demo's other scorer (`addDemoDisputes`).
    public static let demoPhone = "demo-phone"

    /// Another device's statements a stroke off this one's on the last hole played, for the
    /// first `count` players, as a sync would bring them: `count` open discrepancies for
    /// the resolve screen (pictures, demos). Returns how many were added.
    @discardableResult
    public func addDemoDisputes(_ count: Int, round roundID: UUID) throws -> Int {
        guard count > 0 else { return 0 }
        let snapshot = try self.read(.snapshot(round: roundID))
        guard let hole = snapshot.course.holes.last(where: { snapshot.scorecard.isHoleComplete($0) }) else {
            throw StoreError.notFound("a hole with scores to dispute (use --holes-played 1 or more)")
        }
        let disputed = snapshot.round.participants.prefix(count).compactMap { participant -> ScoreEvent? in
            guard let value = snapshot.scorecard.value(participant: participant.id, hole: hole) else { return nil }
            return ScoreEvent(
                roundID: roundID, participantID: participant.id, hole: hole, strokes: value < 10 ? value + 1 : value - 1,
                reportedBy: participant.id, deviceID: Self.demoPhone, createdAt: clock.date)
        }
        _ = try write(.importEvents(disputed))
        return disputed.count
    }

    /// Birdie 20%, par 50%, bogey 22%, double 8%: a casual group's spread.
    static func demoStrokes(par: Int, using rng: inout SeededGenerator) -> Int {
        let roll = Int.random(in: 0..<100, using: &rng)
        let delta = roll < 20 ? -1 : roll < 70 ? 0 : roll < 92 ? 1 : 2
        return min(10, max(1, par + delta))
    }
}
