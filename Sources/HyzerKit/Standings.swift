import Foundation

public enum StandingStatus: String, Sendable, Hashable, Codable {
    /// Still has holes to play.
    case playing
    /// Has a value on every hole.
    case finished
    /// The round was finished with holes missing (FR15).
    case dnf
}

/// One leaderboard row.
public struct Standing: Sendable, Hashable, Codable {
    public var participantID: UUID
    public var name: String
    /// Competition rank (1, 2, 2, 4); nil for DNF.
    public var position: Int?
    /// Shares its position with someone else ("T2").
    public var tied: Bool
    /// Σ(strokes − par) over the holes with a value.
    public var toPar: Int
    public var strokes: Int
    /// Holes with a value.
    public var thru: Int
    public var status: StandingStatus
    /// On a league night ranked by net (issue 37): the net to par in tenths, gross less the
    /// handicap (in proportion to the holes played while the round goes on:
    /// `Handicap.netTenths`).
    /// Nil on a gross board, and for a player without a handicap (ranked gross, marked).
    public var netTenths: Int? = nil

    /// What the row is ranked by, in tenths: the net to par, else the gross.
    public var rankingTenths: Int { netTenths ?? toPar * 10 }

    /// The row's score as the board says it: "+3", or net to a tenth ("+1.5").
    public func scoreText(minus: String = "-") -> String {
        netTenths.map { ScoreFormat.toPar(tenths: Double($0) / 10, minus: minus) } ?? ScoreFormat.toPar(toPar, minus: minus)
    }

    /// The sign of the score shown, for its colour (under par, even, over).
    public var scoreSign: Int { rankingTenths.signum() }

    /// On a night ranked by net (`net`), a row every board marks "gross": ranked by its
    /// gross to par for want of a handicap (a DNF is not ranked at all).
    public func rankedGross(net: Bool) -> Bool { net && netTenths == nil && status != .dnf }

    /// "T2", "1", or "–" for DNF.
    public var positionLabel: String { Self.positionLabel(position, tied: tied) }

    /// A competition rank as every table says it (a round's, a night's, a season's): "T2",
    /// "1", or "–" for none.
    public static func positionLabel(_ position: Int?, tied: Bool) -> String {
        guard let position else { return "–" }
        return tied ? "T\(position)" : "\(position)"
    }
}

/// Rows in display order: ranked rows by position, then DNF rows.
public struct Standings: Sendable, Hashable {
    public var rows: [Standing]

    public init(rows: [Standing]) { self.rows = rows }

    public func row(for participant: UUID) -> Standing? {
        rows.first { $0.participantID == participant }
    }
}

public enum StandingsTrigger: String, Sendable, Hashable, Codable {
    case localScore, remoteSync, conflictResolution
}

/// What changed between two computations, so the board can animate (FR42): ▲/▼ arrows
/// and a reshuffle whose style depends on the trigger.
public struct StandingsChange: Sendable, Hashable {
    public var previous: Standings?
    public var new: Standings
    public var trigger: StandingsTrigger
    /// Positions gained (positive, ▲) or lost (negative, ▼) per participant. Only for
    /// participants ranked both before and after; absent means no arrow.
    public var positionDeltas: [UUID: Int]

    public init(previous: Standings?, new: Standings, trigger: StandingsTrigger) {
        self.previous = previous
        self.new = new
        self.trigger = trigger
        var deltas: [UUID: Int] = [:]
        if let previous {
            for row in new.rows {
                guard let now = row.position, let before = previous.row(for: row.participantID)?.position,
                    now != before
                else { continue }
                deltas[row.participantID] = before - now
            }
        }
        positionDeltas = deltas
    }

    /// Whether the display order of rows changed (drives the reshuffle animation).
    public var orderChanged: Bool {
        previous?.rows.map(\.participantID) != new.rows.map(\.participantID)
    }
}

/// Computes standings from raw events (via `Scorecard`) and remembers the last result
/// per round, so each recompute can say what moved.
public struct StandingsEngine: Sendable {
    private var last: [UUID: Standings] = [:]

    public init() {}

    /// Pure ranking. `finished` means the round was completed (manual or finalized):
    /// participants with holes missing are then DNF.
    public static func standings(
        scorecard: Scorecard, participants: [Participant], finished: Bool
    ) -> Standings {
        var rows: [Standing] = []
        rows.reserveCapacity(participants.count)
        for participant in participants {
            var toPar = 0
            var strokes = 0
            var thru = 0
            for (index, par) in scorecard.pars.enumerated() {
                guard let value = scorecard.value(participant: participant.id, hole: index + 1) else { continue }
                toPar += value - par
                strokes += value
                thru += 1
            }
            let status: StandingStatus = thru == scorecard.holeCount ? .finished : (finished ? .dnf : .playing)
            rows.append(
                Standing(
                    participantID: participant.id, name: participant.name, position: nil, tied: false,
                    toPar: toPar, strokes: strokes, thru: thru, status: status))
        }
        return rank(rows)
    }

    /// Ranks rows already totalled (one round's, or every card's of a league night: issue
    /// 36) by the rules of `standings`: DNF last, competition ranking by to par (net to
    /// par on a night ranked by net: `rankingTenths`), and inside a tie more holes played
    /// first, then name, then id, so every device shows one order.
    public static func rank(_ rows: [Standing]) -> Standings {
        var ranked: [Standing] = []
        var dnf: [Standing] = []
        ranked.reserveCapacity(rows.count)
        for var row in rows {
            (row.position, row.tied) = (nil, false)
            if row.status == .dnf { dnf.append(row) } else { ranked.append(row) }
        }
        // Names are folded once, not per comparison.
        var folded: [UUID: String] = [:]
        for row in rows { folded[row.participantID] = row.name.lowercased() }
        let displayOrder: (Standing, Standing) -> Bool = { a, b in
            if a.rankingTenths != b.rankingTenths { return a.rankingTenths < b.rankingTenths }
            if a.thru != b.thru { return a.thru > b.thru }
            let an = folded[a.participantID]!
            let bn = folded[b.participantID]!
            if an != bn { return an < bn }
            return a.participantID.precedes(b.participantID)
        }
        ranked.sort(by: displayOrder)
        dnf.sort(by: displayOrder)
        // Competition ranking: 1 + the number of rows strictly ahead.
        var index = 0
        while index < ranked.count {
            var end = index
            while end + 1 < ranked.count && ranked[end + 1].rankingTenths == ranked[index].rankingTenths { end += 1 }
            for k in index...end {
                ranked[k].position = index + 1
                ranked[k].tied = end > index
            }
            index = end + 1
        }
        return Standings(rows: ranked + dnf)
    }

    /// Recomputes a round and reports the change against the previous computation.
    public mutating func recompute(
        round: Round, course: Course, events: [ScoreEvent], trigger: StandingsTrigger
    ) -> StandingsChange {
        let scorecard = Scorecard(course: course, round: round, events: events)
        let new = Self.standings(
            scorecard: scorecard, participants: round.participants,
            finished: round.status == .completed)
        let change = StandingsChange(previous: last[round.id], new: new, trigger: trigger)
        last[round.id] = new
        return change
    }

    public mutating func forget(round: UUID) { last[round] = nil }
}

/// A league night's board (issue 36): every card's players ranked together by the rules of
/// one round, each with the card they play on.
public struct EventStandings: Sendable, Hashable {
    public var standings: Standings
    /// The card of each participant: an index into the cards given.
    public var card: [UUID: Int]

    public init(cards: [Standings]) {
        var rows: [Standing] = []
        var card: [UUID: Int] = [:]
        for (index, standings) in cards.enumerated() {
            for row in standings.rows {
                rows.append(row)
                card[row.participantID] = index
            }
        }
        standings = StandingsEngine.rank(rows)
        self.card = card
    }
}
