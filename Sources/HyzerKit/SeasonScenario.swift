import Foundation

/// A season scenario (docs/scenario-format.md, "Seasons"; issue 37): a season's rule and
/// range, and its events as compact rounds (each player's strokes by hole), evaluated by
/// the same standings and season rules every device uses. `hyzer standings FILE.json` takes
/// one when the document has a `season`.
public struct SeasonScenario: Sendable, Decodable {
    public struct SeasonSpec: Sendable, Decodable {
        public var name: String
        public var from: String
        public var to: String
        public var rule: RuleSpec
        /// Rank by net to par: handicaps from each player's earlier events on the same course
        /// in the file (before `from` too).
        public var net: Bool?
    }

    /// Exactly one of the three.
    public struct RuleSpec: Sendable, Decodable {
        public var points: [Int]?
        public var bestRounds: Int?
        public var averageToPar: Int?
    }

    public struct EventSpec: Sendable, Decodable {
        public var day: String
        public var course: Scenario.CourseSpec
        /// Player name → strokes on each hole, hole 1 first (null: not played).
        public var scores: [String: [Int?]]
        /// Players who played as guests: in the event's standings, not in the season's.
        public var guests: [String]?
        /// Default true: a season counts finished rounds (a player with a hole unplayed is DNF).
        public var finished: Bool?
    }

    public var season: SeasonSpec
    public var events: [EventSpec]

    public static func isSeason(_ data: Data) -> Bool {
        ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["season"] != nil
    }

    public static func decode(_ data: Data) throws -> SeasonScenario {
        do { return try JSONDecoder().decode(SeasonScenario.self, from: data) } catch let error as DecodingError {
            throw ScenarioError.malformed("\(error)")
        }
    }

    public func evaluate() throws(ScenarioError) -> SeasonScenarioResult {
        let made: Season
        do throws(SeasonError) {
            let rule = try Season.Rule(
                points: season.rule.points, bestRounds: season.rule.bestRounds, averageToPar: season.rule.averageToPar)
            made = try Season(name: season.name, from: season.from, to: season.to, rule: rule, net: season.net ?? false)
        } catch { throw .invalid("season: \(error)") }
        // A player is their name across events: the same id everywhere.
        var ids: [String: UUID] = [:]
        func id(_ name: String) -> UUID {
            if let known = ids[name] { return known }
            let new = UUID()
            ids[name] = new
            return new
        }
        var played: [SeasonEvent] = []
        for (index, spec) in events.enumerated() {
            guard LeagueEvent.isDay(spec.day) else { throw .invalid("events[\(index)].day \"\(spec.day)\" is not a day") }
            let course: Course
            do throws(CourseError) { course = try Course(name: spec.course.name, pars: spec.course.pars) } catch {
                throw .invalid("events[\(index)].course: \(error)")
            }
            let eventID = UUID()
            var round = Round(courseID: course.id, organizerID: UUID(), createdAt: Date(timeIntervalSince1970: 0))
            var scoreEvents: [ScoreEvent] = []
            let guests = Set(spec.guests ?? [])
            for name in spec.scores.keys.sorted() {
                let strokes = spec.scores[name] ?? []
                guard strokes.count <= course.holeCount else {
                    throw .invalid(
                        "events[\(index)].scores.\(name) has \(strokes.count) holes; the course has \(course.holeCount)")
                }
                let participant = Participant(id: id(name), name: name, kind: guests.contains(name) ? .guest : .registered)
                do throws(RoundError) { try round.add(participant) } catch {
                    throw .invalid("events[\(index)]: \(error)")
                }
                for (hole, value) in strokes.enumerated() {
                    guard let value else { continue }
                    guard ScoreEvent.allowedStrokes.contains(value) else {
                        throw .invalid("events[\(index)].scores.\(name)[\(hole)] is \(value); strokes are 1–10")
                    }
                    scoreEvents.append(
                        ScoreEvent(
                            roundID: round.id, participantID: participant.id, hole: hole + 1, strokes: value,
                            reportedBy: participant.id, deviceID: "scenario", createdAt: Date(timeIntervalSince1970: 0)))
                }
            }
            let scorecard = Scorecard(course: course, round: round, events: scoreEvents)
            let standings = StandingsEngine.standings(
                scorecard: scorecard, participants: round.participants, finished: spec.finished ?? true)
            played.append(
                SeasonEvent(
                    id: eventID, day: spec.day, course: spec.course.name, standings: standings.rows,
                    guests: Set(round.participants.filter(\.isGuest).map(\.id))))
        }
        let table = SeasonTable(season: made, events: made.net ? SeasonEvent.handicapped(played) : played)
        return SeasonScenarioResult(table)
    }
}

/// What a season scenario evaluates to: the table in order.
public struct SeasonScenarioResult: Sendable, Equatable, Codable {
    public struct Row: Sendable, Equatable, Codable {
        public var position: String
        public var player: String
        public var value: String
        public var attended: Int
        public var counted: Int
        /// Only on a net table, for a player some of whose rounds counted gross (no handicap yet).
        public var gross: Bool?
        public init(position: String, player: String, value: String, attended: Int, counted: Int, gross: Bool? = nil) {
            (self.position, self.player, self.value, self.attended, self.counted, self.gross) =
                (position, player, value, attended, counted, gross)
        }
    }
    public var season: String
    public var rule: String
    public var events: Int
    public var table: [Row]

    public init(season: String, rule: String, events: Int, table: [Row]) {
        (self.season, self.rule, self.events, self.table) = (season, rule, events, table)
    }

    /// A computed table as the scenario output and `hyzer season standings --json` say it.
    public init(_ table: SeasonTable) {
        self.init(
            season: table.season.name, rule: table.season.ruleDescription, events: table.events,
            table: table.rows.map {
                Row(
                    position: $0.positionLabel, player: $0.name, value: $0.valueText, attended: $0.attended,
                    counted: $0.counted, gross: $0.gross ? true : nil)
            })
    }

    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
