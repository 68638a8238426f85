import Foundation
import HyzerKit

/// Full recompute (resolve every cell, rank) for 20 participants × 18 holes with 10%
/// corrections and 5% discrepancies: what the board does after every score. Then a league
/// night's (issue 36): 30 players in 8 cards, every card resolved and all ranked together.
enum StandingsBenchmark {
    static func run() async throws -> Figures {
        var rng = SeededGenerator(seed: 7)
        let course = try Course(name: "Bench", holeCount: 18, exceptions: [4: 4, 9: 5, 13: 4])
        let (round, events) = try card(players: 20, course: course, rng: &rng)
        var engine = StandingsEngine()
        var samples: [Double] = []
        var checksum = 0
        for _ in 0..<200 {
            checksum &+= engine.recompute(round: round, course: course, events: events, trigger: .localScore).new.rows.count
        }
        for _ in 0..<5_000 {
            let start = nowNs()
            let change = engine.recompute(round: round, course: course, events: events, trigger: .localScore)
            samples.append(Double(nowNs() - start) / 1_000)
            checksum &+= change.new.rows[0].toPar
        }
        let discrepancies = Scorecard(course: course, round: round, events: events).discrepancies.count
        log("standings: \(events.count) events, \(discrepancies) discrepancies, 5000 recomputes (checksum \(checksum))")

        // The night: every card recomputed (as after a score on any card, the board ranks all).
        let cards = try CardDraw.sizes(players: 30).map { try card(players: $0, course: course, rng: &rng) }
        var night: [Double] = []
        for run in 0..<5_200 {
            let start = nowNs()
            let board = EventStandings(
                cards: cards.map { round, events in
                    StandingsEngine.standings(
                        scorecard: Scorecard(course: course, round: round, events: events),
                        participants: round.participants, finished: false)
                })
            if run >= 200 { night.append(Double(nowNs() - start) / 1_000) }
            checksum &+= board.standings.rows[0].toPar
        }
        log(
            "standings: a night of \(cards.count) cards, 30 players, \(cards.map(\.1.count).reduce(0, +)) events, 5000 recomputes (checksum \(checksum))"
        )
        return Figures([
            "p50_us": round3(percentile(samples, 50)), "p99_us": round3(percentile(samples, 99)),
            "event_p50_us": round3(percentile(night, 50)), "event_p99_us": round3(percentile(night, 99)),
        ])
    }

    /// A card of `players` on `course`, every hole scored, 10% corrected, 5% disputed.
    static func card(
        players count: Int, course: Course, rng: inout SeededGenerator
    ) throws -> (Round, [ScoreEvent]) {
        let participants = (0..<count).map { Participant(id: UUID(), name: "Player \($0)", kind: .registered) }
        let clock = SystemClock()
        var round = Round(courseID: course.id, organizerID: participants[0].id, createdAt: clock.date)
        for p in participants { try round.add(p) }
        try round.start(at: clock.date)
        var events: [ScoreEvent] = []
        for hole in course.holes {
            for p in participants {
                let par = course.pars[hole - 1]
                let first = ScoreEvent(
                    roundID: round.id, participantID: p.id, hole: hole,
                    strokes: par + Int.random(in: -1...2, using: &rng),
                    reportedBy: p.id, deviceID: "A", createdAt: clock.date)
                events.append(first)
                let roll = Int.random(in: 0..<100, using: &rng)
                if roll < 10 {
                    events.append(
                        ScoreEvent(
                            roundID: round.id, participantID: p.id, hole: hole,
                            strokes: first.strokes + 1, supersedes: [first.id],
                            reportedBy: p.id, deviceID: "A", createdAt: clock.date))
                } else if roll < 15 {
                    events.append(
                        ScoreEvent(
                            roundID: round.id, participantID: p.id, hole: hole,
                            strokes: first.strokes == 1 ? 2 : first.strokes - 1,
                            reportedBy: p.id, deviceID: "B", createdAt: clock.date))
                }
            }
        }
        events.shuffle(using: &rng)
        return (round, events)
    }
}
