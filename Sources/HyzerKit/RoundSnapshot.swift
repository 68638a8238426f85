import Foundation

/// Everything needed to show or rank one round, read in one consistent transaction.
public struct RoundSnapshot: Sendable, Equatable {
    public var round: Round
    public var course: Course
    public var events: [ScoreEvent]
    /// Aliases of registered participants, for the voice parser.
    public var aliases: [UUID: [String]]
    public let scorecard: Scorecard

    public init(round: Round, course: Course, events: [ScoreEvent], aliases: [UUID: [String]] = [:]) {
        self.round = round
        self.course = round.played(on: course)
        self.events = events
        self.aliases = aliases
        self.scorecard = Scorecard(course: course, round: round, events: events)
    }

    /// Equal when the stored facts are equal (the scorecard is derived from them).
    public static func == (a: RoundSnapshot, b: RoundSnapshot) -> Bool {
        a.round == b.round && a.course == b.course && a.events == b.events && a.aliases == b.aliases
    }

    public var standings: Standings {
        StandingsEngine.standings(
            scorecard: scorecard, participants: round.participants,
            finished: round.status == .completed)
    }

    public var voiceCandidates: [VoiceCandidate] {
        round.participants.map { VoiceCandidate(id: $0.id, name: $0.name, aliases: aliases[$0.id] ?? []) }
    }

    /// Whether any cell has a value: a round whose every score was undone (issue 35's
    /// retractions) has events but none. Nothing to resolve in the common case.
    public var hasScores: Bool {
        guard events.contains(where: \.isRetraction) else { return !events.isEmpty }
        return round.participants.contains { scorecard.holesScored(by: $0.id) > 0 }
    }

    /// The order the card plays the course in (from its start hole: issue 36).
    public var holeOrder: HoleOrder { round.holeOrder(on: course) }

    /// How far the group is ("thru 4"): the holes, in the card's order from its first,
    /// that everyone has a score on before the first one someone lacks. A shotgun card
    /// that started on 7 and has played 7 and 8 is thru 2.
    public var thru: Int {
        let scorecard = scorecard
        return holeOrder.holes.prefix { scorecard.isHoleComplete($0) }.count
    }

    /// The first hole, in the card's order, someone still lacks a score on, or its last
    /// hole when all are in.
    public var currentHole: Int {
        let holes = holeOrder.holes
        return holes.first { !scorecard.isHoleComplete($0) } ?? holes.last ?? 1
    }
}
