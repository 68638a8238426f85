import Foundation

/// A self-contained scoring scenario: a course, participants, raw events, and whether
/// the round was finished. `hyzer standings SCENARIO.json` evaluates one, so anybody can
/// check the ranking and conflict rules from outside. Format: docs/scenario-format.md.
public struct Scenario: Sendable, Decodable {
    public struct CourseSpec: Sendable, Decodable {
        public var name: String
        public var pars: [Int]
    }
    public struct ParticipantSpec: Sendable, Decodable {
        public var id: String
        public var name: String
        public var guest: Bool?
    }
    public struct EventSpec: Sendable, Decodable {
        public var id: String
        public var participant: String
        public var hole: Int
        public var strokes: Int
        public var device: String
        public var reportedBy: String?
        public var createdAt: String?
        public var supersedes: [String]?
        public var resolution: Bool?
        /// The undo of a score just saved (issue 35): withdraws what it supersedes.
        public var retraction: Bool?
    }

    /// A league night's card (issue 36): its letter, the hole it starts on, who plays on it.
    public struct CardSpec: Sendable, Decodable {
        public var letter: String?
        public var start: Int?
        public var participants: [String]
    }

    public var course: CourseSpec
    public var participants: [ParticipantSpec]
    public var events: [EventSpec]
    public var finished: Bool?
    /// The night's cards; absent: one round, as before.
    public var cards: [CardSpec]?
    /// "field" (one game of everyone) or "card" (a game per card); absent: no skins.
    public var skins: String?

    /// Scenarios may use short courses to keep examples small, as stored courses may.
    public static let allowedHoleCounts = Course.allowedHoleCounts

    public static func decode(_ data: Data) throws -> Scenario {
        do {
            return try JSONDecoder().decode(Scenario.self, from: data)
        } catch let error as DecodingError {
            throw ScenarioError.malformed(Self.describe(error))
        }
    }

    private static func describe(_ error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let p = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return p.isEmpty ? "the document" : String(p.drop { $0 == "." })
        }
        switch error {
        case .keyNotFound(let key, let context):
            let at = path(context)
            return "missing field \"\(key.stringValue)\"" + (context.codingPath.isEmpty ? "" : " in \(at)")
        case .typeMismatch(let type, let context): return "\(path(context)) should be \(type)"
        case .valueNotFound(let type, let context): return "\(path(context)) should be \(type), not null"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? "not valid JSON" : "\(path(context)): \(context.debugDescription)"
        @unknown default: return "\(error)"
        }
    }

    /// Validates and evaluates. Ids may be any non-empty strings; they are echoed back.
    public func evaluate() throws(ScenarioError) -> ScenarioResult {
        guard Self.allowedHoleCounts.contains(course.pars.count) else {
            throw .invalid(
                "course.pars has \(course.pars.count) holes; use \(Self.allowedHoleCounts.lowerBound) to \(Self.allowedHoleCounts.upperBound)"
            )
        }
        for (i, par) in course.pars.enumerated() where !Course.allowedPars.contains(par) {
            throw .invalid(
                "course.pars[\(i)] is par \(par); use \(Course.allowedPars.lowerBound)–\(Course.allowedPars.upperBound)")
        }
        var ids = IdentifierMap()
        var participantList: [Participant] = []
        var names: [UUID: String] = [:]
        for spec in participants {
            guard !spec.id.isEmpty else { throw .invalid("a participant has an empty id") }
            guard ids.existing(spec.id) == nil else { throw .invalid("participant id \"\(spec.id)\" appears twice") }
            let name = spec.name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !name.isEmpty else { throw .invalid("participant \"\(spec.id)\" has an empty name") }
            let id = ids.uuid(for: spec.id)
            participantList.append(Participant(id: id, name: name, kind: spec.guest == true ? .guest : .registered))
            names[id] = spec.id
        }
        guard !participantList.isEmpty else { throw .invalid("the scenario has no participants") }

        var eventIDs = IdentifierMap()
        var declared = Set<String>()
        var scoreEvents: [ScoreEvent] = []
        // File order is irrelevant to the result (A7); it only decides which duplicate id is reported.
        for spec in events {
            guard !spec.id.isEmpty else { throw .invalid("an event has an empty id") }
            // A supersedes list may name an event before it appears, so "declared" is
            // tracked apart from the id map.
            guard declared.insert(spec.id).inserted else { throw .invalid("event id \"\(spec.id)\" appears twice") }
            guard let participant = ids.existing(spec.participant) else {
                throw .invalid("event \"\(spec.id)\": unknown participant \"\(spec.participant)\"")
            }
            guard course.pars.indices.contains(spec.hole - 1) else {
                throw .invalid("event \"\(spec.id)\": hole \(spec.hole) is not on this \(course.pars.count)-hole course")
            }
            guard ScoreEvent.allowedStrokes.contains(spec.strokes) else {
                throw .invalid("event \"\(spec.id)\": strokes \(spec.strokes) outside 1–10")
            }
            guard !spec.device.isEmpty else { throw .invalid("event \"\(spec.id)\": empty device") }
            var created = Date(timeIntervalSince1970: 0)
            if let text = spec.createdAt {
                do {
                    created = try ISO8601Time.date(from: text)
                } catch {
                    throw .invalid("event \"\(spec.id)\": createdAt \(error)")
                }
            }
            let reporter = spec.reportedBy.map { ids.uuid(for: $0) } ?? participant
            let eventID = eventIDs.uuid(for: spec.id)
            let supersedes = (spec.supersedes ?? []).map { eventIDs.uuid(for: $0) }
            guard !supersedes.contains(eventID) else { throw .invalid("event \"\(spec.id)\" supersedes itself") }
            if spec.resolution == true && supersedes.isEmpty {
                throw .invalid("event \"\(spec.id)\" is a resolution but supersedes nothing")
            }
            if spec.retraction == true && (supersedes.isEmpty || spec.resolution == true) {
                throw .invalid("event \"\(spec.id)\" is a retraction: it supersedes what it withdraws, and is no resolution")
            }
            scoreEvents.append(
                ScoreEvent(
                    id: eventID, roundID: UUID(uuid: nullUUID), participantID: participant, hole: spec.hole,
                    strokes: spec.strokes, supersedes: supersedes, reportedBy: reporter, deviceID: spec.device,
                    createdAt: created, isResolution: spec.resolution == true, retraction: spec.retraction == true))
        }

        let scorecard = Scorecard(pars: course.pars, participantIDs: participantList.map(\.id), events: scoreEvents)
        let cardList = try cardList(ids, participants: participantList)
        let standings: Standings
        var cardOf: [UUID: (letter: String, order: HoleOrder)] = [:]
        if cardList.isEmpty {
            standings = StandingsEngine.standings(
                scorecard: scorecard, participants: participantList, finished: finished == true)
        } else {
            // Each card ranked alone, then every card together: the night's board.
            standings =
                EventStandings(
                    cards: cardList.map {
                        StandingsEngine.standings(scorecard: scorecard, participants: $0.players, finished: finished == true)
                    }
                ).standings
            for card in cardList {
                for player in card.players { cardOf[player.id] = (card.letter, card.order) }
            }
        }
        var result = ScenarioResult(standings: standings, discrepancies: scorecard.discrepancies, ids: names)
        for index in result.standings.indices {
            let id = result.standings[index].standing.participantID
            guard let (letter, order) = cardOf[id] else { continue }
            result.standings[index].card = letter
            result.standings[index].nextHole = order.firstUnscored { scorecard.value(participant: id, hole: $0) != nil }
        }
        if let skins {
            guard ["field", "card"].contains(skins) else { throw .invalid("skins is \"\(skins)\"; use \"field\" or \"card\"") }
            let cards = cardList.isEmpty ? [participantList.map(\.id)] : cardList.map { $0.players.map(\.id) }
            let perCard = skins == "card" && !cardList.isEmpty
            let games = Skins.games(cards, perCard: perCard)
            result.skins = zip(games, perCard ? cardList.map(\.letter) : ["field"]).map { players, name in
                let game = Skins(players: players, holeCount: course.pars.count, finished: finished == true) {
                    scorecard.value(participant: $0, hole: $1)
                }
                return ScenarioResult.SkinsGame(game, name: name, ids: names)
            }
        }
        return result
    }

    /// The cards, checked: everyone on exactly one, a start hole on the course.
    private func cardList(_ ids: IdentifierMap, participants: [Participant]) throws(ScenarioError) -> [ScenarioCard] {
        guard let cards else { return [] }
        var seen = Set<String>()
        var list: [ScenarioCard] = []
        for (index, card) in cards.enumerated() {
            let letter = card.letter ?? CardDraw.letter(index)
            let start = card.start ?? 1
            guard (1...course.pars.count).contains(start) else {
                throw .invalid("card \(letter) starts on hole \(start), not on this \(course.pars.count)-hole course")
            }
            var players: [Participant] = []
            for key in card.participants {
                guard let id = ids.existing(key), let player = participants.first(where: { $0.id == id }) else {
                    throw .invalid("card \(letter): unknown participant \"\(key)\"")
                }
                guard seen.insert(key).inserted else { throw .invalid("participant \"\(key)\" is on two cards") }
                players.append(player)
            }
            list.append(
                ScenarioCard(letter: letter, order: HoleOrder(start: start, holeCount: course.pars.count), players: players))
        }
        if let missing = self.participants.first(where: { !seen.contains($0.id) }) {
            throw .invalid("participant \"\(missing.id)\" is on no card")
        }
        return list
    }
}

/// A scenario's card, resolved.
private struct ScenarioCard {
    var letter: String
    var order: HoleOrder
    var players: [Participant]
}

/// Maps the scenario's string ids to UUIDs, allocating on first sight, so a supersedes
/// reference to an event that appears later (or never) still resolves consistently.
private struct IdentifierMap {
    private var map: [String: UUID] = [:]
    func existing(_ key: String) -> UUID? { map[key] }
    mutating func uuid(for key: String) -> UUID {
        if let id = map[key] { return id }
        let id = UUID()
        map[key] = id
        return id
    }
}

private let nullUUID: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

public enum ScenarioError: Error, Equatable, Sendable, CustomStringConvertible {
    case malformed(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .malformed(let m): "malformed scenario: \(m)"
        case .invalid(let m): "invalid scenario: \(m)"
        }
    }
}

/// The printed result: rows in display order and open discrepancies.
public struct ScenarioResult: Sendable, Equatable, Encodable {
    /// A leaderboard row named by the scenario's id for its participant. It keeps the
    /// `Standing` itself, so the printed fields cannot drift from the leaderboard's.
    public struct Row: Sendable, Equatable, Encodable {
        public var participant: String
        public var standing: Standing
        /// On a league night: the card's letter, and the next hole the participant has no
        /// value on in the card's order (nil once every hole has one; printed as null, on a
        /// card only).
        public var card: String?
        public var nextHole: Int?

        init(_ standing: Standing, id: String) {
            participant = id
            self.standing = standing
        }

        enum CodingKeys: String, CodingKey {
            case participant, name, position, tied, toPar, strokes, thru, status, card, nextHole
        }

        // Written by hand: `position` must appear as null for DNF, not be left out, and the
        // participant is named by the scenario's id rather than the standing's UUID.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(participant, forKey: .participant)
            try c.encode(standing.name, forKey: .name)
            if let position = standing.position {
                try c.encode(position, forKey: .position)
            } else {
                try c.encodeNil(forKey: .position)
            }
            try c.encode(standing.tied, forKey: .tied)
            try c.encode(standing.toPar, forKey: .toPar)
            try c.encode(standing.strokes, forKey: .strokes)
            try c.encode(standing.thru, forKey: .thru)
            try c.encode(standing.status, forKey: .status)
            if let card {
                try c.encode(card, forKey: .card)
                try c.encode(nextHole, forKey: .nextHole)
            }
        }
    }

    /// One skins game (issue 36): every hole's outcome, the skins won, those left unclaimed.
    public struct SkinsGame: Sendable, Equatable, Encodable {
        public struct Hole: Sendable, Equatable, Encodable {
            public var hole: Int
            public var skins: Int
            /// "won", "carried", "open" or "waiting".
            public var outcome: String
            public var winner: String?
            public var strokes: Int?
        }
        /// "field", or the card's letter.
        public var game: String
        public var holes: [Hole]
        public var won: [String: Int]
        public var unclaimed: Int

        init(_ skins: Skins, name: String, ids: [UUID: String]) {
            let id = { (player: UUID) in ids[player] ?? player.uuidString }
            game = name
            holes = skins.holes.map { hole in
                switch hole.outcome {
                case .won(let player, let strokes):
                    Hole(hole: hole.hole, skins: hole.skins, outcome: "won", winner: id(player), strokes: strokes)
                case .carried: Hole(hole: hole.hole, skins: hole.skins, outcome: "carried")
                case .open: Hole(hole: hole.hole, skins: hole.skins, outcome: "open")
                case .waiting: Hole(hole: hole.hole, skins: hole.skins, outcome: "waiting")
                }
            }
            won = Dictionary(uniqueKeysWithValues: skins.won.map { (id($0.key), $0.value) })
            unclaimed = skins.unclaimed
        }
    }
    public struct DiscrepancyRow: Sendable, Equatable, Encodable {
        public var participant: String
        public var hole: Int
        public var values: [Int]
    }

    public var standings: [Row]
    public var discrepancies: [DiscrepancyRow]
    /// Present when the scenario asked for skins.
    public var skins: [SkinsGame]?

    /// `ids` names each participant in the output (the scenario's own ids, or UUIDs).
    public init(standings: Standings, discrepancies: [Discrepancy], ids: [UUID: String]) {
        self.standings = standings.rows.map { Row($0, id: ids[$0.participantID] ?? $0.participantID.uuidString) }
        self.discrepancies = discrepancies.map {
            DiscrepancyRow(
                participant: ids[$0.cell.participantID] ?? $0.cell.participantID.uuidString,
                hole: $0.cell.hole, values: $0.values)
        }
    }

    public func jsonData(pretty: Bool = false) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting =
            pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }
}
