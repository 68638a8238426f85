import Foundation
import HyzerKit

// The records a device and the group server exchange. Every record is keyed by a
// client-generated UUID. Score events are immutable, so their id is also their version;
// courses, players and rounds are mutable reference data merged last-writer-wins, and
// each change of one carries a fresh `version` UUID (the idempotency key of that change).
//
// Times are Unix seconds as JSON numbers (the same REAL the databases store), so a value
// survives any number of round trips bit for bit and versions compare exactly.

public enum RecordKind: String, Codable, Sendable, CaseIterable, Comparable {
    case course, player, round, scoreEvent
    /// Protocol 3 (issue 36): a league night, the rounds of its cards.
    case event
    /// Protocol 4 (issue 37): a season, a date range and a scoring rule. It names nothing.
    case season

    /// Dependencies first: a round names its course, a score event and a league night
    /// name rounds. Batches are sent in this order so a single push can carry a new
    /// course, round and scores.
    public var dependencyOrder: Int {
        switch self {
        case .course: 0
        case .player: 1
        case .round: 2
        case .scoreEvent: 3
        case .event: 4
        case .season: 5
        }
    }

    /// The protocol version that brought the kind: a server leaves it out of the pull
    /// pages of a device that did not say it knows that version, whose decoder would
    /// stop at it.
    public var sinceProtocol: Int {
        switch self {
        case .course, .player, .round, .scoreEvent: 1
        case .event: 3
        case .season: 4
        }
    }

    public static func < (a: RecordKind, b: RecordKind) -> Bool { a.dependencyOrder < b.dependencyOrder }
}

public struct CourseRecord: Codable, Sendable, Hashable {
    public var id: UUID
    public var version: UUID
    public var updatedAt: Double
    public var name: String
    /// Par per hole, hole 1 first. Empty in a tombstone.
    public var pars: [Int]
    /// `true` in a tombstone: the course was deleted. Absent otherwise, so a live course
    /// is the same bytes as before tombstones existed. A tombstone beats every live
    /// version (`ChangeStamp`), and an older device refuses it as a course without holes
    /// rather than showing it (docs/sync-protocol.md).
    public var deleted: Bool?
    /// Protocol 2: how many times the course was restored (`CourseLineage`); absent when 0.
    /// A restore is a live record of the next generation, which outranks the tombstone.
    public var generation: Int?
    /// Protocol 2: who last deleted or restored it.
    public var action: RecordedAction?

    public init(
        id: UUID, version: UUID, updatedAt: Double, name: String, pars: [Int], deleted: Bool? = nil,
        lineage: CourseLineage = .original
    ) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.name = name
        self.pars = pars
        self.deleted = deleted
        self.generation = lineage.generation == 0 ? nil : lineage.generation
        self.action = lineage.action
    }

    public init(_ course: Course, version: UUID, updatedAt: Double, lineage: CourseLineage = .original) {
        self.init(
            id: course.id, version: version, updatedAt: updatedAt, name: course.name, pars: course.pars,
            lineage: lineage)
    }

    /// The tombstone of a deleted course: its name stays, for the rounds that name it.
    public static func tombstone(
        id: UUID, name: String, version: UUID, updatedAt: Double, lineage: CourseLineage = .original
    ) -> CourseRecord {
        CourseRecord(id: id, version: version, updatedAt: updatedAt, name: name, pars: [], deleted: true, lineage: lineage)
    }

    public var isTombstone: Bool { deleted == true }
    public var lineage: CourseLineage { CourseLineage(generation: generation ?? 0, action: action) }

    /// The domain value; throws the domain's own validation error (a tombstone has no
    /// holes, so it is no course).
    public func course() throws(CourseError) -> Course {
        try Course(id: id, name: name, pars: pars)
    }

    /// Shape checks that need no other record; nil when fine, else the reason.
    public func problem() -> String? {
        if isTombstone {
            if !pars.isEmpty { return "a deleted course carries no pars" }
            if name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "a course needs a name" }
            return nil
        }
        if let g = generation, !(0...ChangeStamp.maxGeneration).contains(g) {
            return "a course's generation is 0 to \(ChangeStamp.maxGeneration), not \(g)"
        }
        if let problem = action?.problem { return problem }
        do { _ = try course() } catch { return error.description }
        return nil
    }
}

public struct PlayerRecord: Codable, Sendable, Hashable {
    public var id: UUID
    public var version: UUID
    public var updatedAt: Double
    public var displayName: String
    public var aliases: [String]
    /// Protocol 2: the player is off the roster (`PlayerRetirement`); absent otherwise.
    public var removed: Bool?
    /// Protocol 2: the player is the same person as this one, and counts as them.
    public var mergedInto: UUID?
    /// Protocol 2: who removed or merged the player.
    public var action: RecordedAction?

    public init(
        id: UUID, version: UUID, updatedAt: Double, displayName: String, aliases: [String],
        retirement: PlayerRetirement? = nil
    ) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.displayName = displayName
        self.aliases = aliases
        if let retirement {
            removed = true
            mergedInto = retirement.mergedInto
            action = retirement.action
        }
    }

    public init(_ player: Player, version: UUID, updatedAt: Double, retirement: PlayerRetirement? = nil) {
        self.init(
            id: player.id, version: version, updatedAt: updatedAt,
            displayName: player.displayName, aliases: player.aliases, retirement: retirement)
    }

    /// Nil for a player on the roster. A merge implies removal, whatever `removed` says.
    public var retirement: PlayerRetirement? {
        guard removed == true || mergedInto != nil else { return nil }
        return PlayerRetirement(mergedInto: mergedInto, action: action)
    }

    /// Shape checks that need no other record; nil when fine, else the reason.
    public func problem() -> String? {
        do { _ = try player() } catch { return error.description }
        if mergedInto == id { return "a player cannot be merged into themselves" }
        return action?.problem
    }

    public func player() throws(PlayerError) -> Player {
        try Player(id: id, displayName: displayName, aliases: aliases)
    }
}

public struct RoundRecord: Codable, Sendable, Hashable {
    public var id: UUID
    public var version: UUID
    public var updatedAt: Double
    public var courseID: UUID
    public var organizerID: UUID
    /// In card order. A participant is the domain value itself on the wire: `{id, name, kind}`.
    public var participants: [Participant]
    public var status: RoundStatus
    public var createdAt: Double
    public var startedAt: Double?
    public var completedAt: Double?
    /// The pars the round is played to (`Round.pars`). Absent from an older device's
    /// round: then every device uses its copy of the course's pars.
    public var pars: [Int]?
    /// Protocol 2: how many times the round was reopened (`Round.generation`); absent when 0.
    public var generation: Int?
    /// Protocol 2: who finished it early, discarded or reopened it (`Round.actions`).
    public var actions: [RecordedAction]?
    /// Protocol 2 (issue 36): the hole the card starts on (`Round.startHole`); absent when 1.
    /// A device older than it plays the round from hole 1.
    public var startHole: Int?

    public init(
        id: UUID, version: UUID, updatedAt: Double, courseID: UUID, organizerID: UUID,
        participants: [Participant], status: RoundStatus, createdAt: Double,
        startedAt: Double? = nil, completedAt: Double? = nil, pars: [Int]? = nil,
        generation: Int? = nil, actions: [RecordedAction]? = nil, startHole: Int? = nil
    ) {
        self.id = id
        self.version = version
        self.updatedAt = updatedAt
        self.courseID = courseID
        self.organizerID = organizerID
        self.participants = participants
        self.status = status
        self.createdAt = createdAt
        self.startedAt = startedAt
        self.completedAt = completedAt
        self.pars = pars
        self.generation = generation
        self.actions = actions
        self.startHole = startHole
    }

    public init(_ round: Round, version: UUID, updatedAt: Double) {
        self.init(
            id: round.id, version: version, updatedAt: updatedAt, courseID: round.courseID,
            organizerID: round.organizerID, participants: round.participants,
            status: round.status, createdAt: round.createdAt.timeIntervalSince1970,
            startedAt: round.startedAt?.timeIntervalSince1970,
            completedAt: round.completedAt?.timeIntervalSince1970, pars: round.pars.isEmpty ? nil : round.pars,
            generation: round.generation == 0 ? nil : round.generation,
            actions: round.actions.isEmpty ? nil : round.actions, startHole: round.startHole == 1 ? nil : round.startHole)
    }

    public var round: Round {
        Round(
            id: id, courseID: courseID, organizerID: organizerID, participants: participants,
            status: status, createdAt: Date(timeIntervalSince1970: createdAt),
            startedAt: startedAt.map(Date.init(timeIntervalSince1970:)),
            completedAt: completedAt.map(Date.init(timeIntervalSince1970:)), pars: pars ?? [],
            generation: generation ?? 0, actions: actions ?? [], startHole: startHole ?? 1)
    }

    /// The course as this round is played on it: with the round's own pars when it has
    /// them (so a deleted course, known only by its tombstone, still has holes), else
    /// the course record's. Nil when neither gives a course.
    public func playedCourse(_ course: CourseRecord?) -> Course? {
        if let pars, !pars.isEmpty {
            return try? Course(id: courseID, name: course?.name ?? "Deleted course", pars: pars)
        }
        return try? course?.course()
    }

    /// Shape checks that need no other record; nil when fine, else the reason.
    public func problem() -> String? {
        if participants.count > Round.maxParticipants { return "a round has at most \(Round.maxParticipants) participants" }
        if Set(participants.map(\.id)).count != participants.count { return "a participant is listed twice" }
        for p in participants where p.name.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            return "participant \(p.id) has an empty name"
        }
        if status != .setup && participants.isEmpty { return "a started round needs at least one participant" }
        if let pars {
            if !Course.allowedHoleCounts.contains(pars.count) { return "a round has \(pars.count) pars" }
            if let bad = pars.first(where: { !Course.allowedPars.contains($0) }) { return "par \(bad) is out of range" }
        }
        if let g = generation, !(0...ChangeStamp.maxGeneration).contains(g) {
            return "a round's generation is 0 to \(ChangeStamp.maxGeneration), not \(g)"
        }
        if let problem = actions?.lazy.compactMap(\.problem).first { return problem }
        if let startHole {
            let holes = pars.map(\.count) ?? Course.allowedHoleCounts.upperBound
            if !(1...holes).contains(startHole) { return "a round on \(holes) holes cannot start on hole \(startHole)" }
        }
        return nil
    }
}

/// A league night on the wire (protocol 3, issue 36): `LeagueEvent` field for field, its
/// time as Unix seconds, with what every mutable record says about itself.
public struct EventRecord: Codable, Sendable, Hashable {
    public var id: UUID
    public var version: UUID
    public var updatedAt: Double
    public var name: String
    public var courseID: UUID
    public var day: String
    /// The cards' rounds, card A first.
    public var rounds: [UUID]
    public var skins: LeagueEvent.SkinsGame
    public var closestToPin: [LeagueEvent.ClosestToPin]
    public var acePot: LeagueEvent.AcePotEntry?
    public var createdAt: Double
    /// Absent unless discarded, which is final (it outranks every other version).
    public var discarded: Bool?
    /// Protocol 5 (issue 37): absent unless the night is ranked by net.
    public var net: Bool?

    public init(_ event: LeagueEvent, version: UUID, updatedAt: Double) {
        id = event.id
        self.version = version
        self.updatedAt = updatedAt
        name = event.name
        courseID = event.courseID
        day = event.day
        rounds = event.rounds
        skins = event.skins
        closestToPin = event.closestToPin
        acePot = event.acePot
        createdAt = event.createdAt.timeIntervalSince1970
        discarded = event.discarded ? true : nil
        net = event.net ? true : nil
    }

    /// The domain value, or why the record is not one.
    public func event() throws(LeagueEventError) -> LeagueEvent {
        try LeagueEvent(
            id: id, name: name, courseID: courseID, day: day, rounds: rounds, skins: skins,
            closestToPin: closestToPin, acePot: acePot, createdAt: Date(timeIntervalSince1970: createdAt),
            discarded: discarded ?? false, net: net ?? false)
    }

    /// Shape checks that need no other record; nil when fine, else the reason.
    public func problem() -> String? {
        if SyncProtocol.hasControlCharacter(name) { return "an event's name cannot hold a control character" }
        do {
            _ = try event()
            return nil
        } catch {
            return error.description
        }
    }
}

/// A season on the wire (protocol 4, issue 37): `Season` field for field, its rule in the
/// three optional spellings of the scenario format (exactly one is given).
public struct SeasonRecord: Codable, Sendable, Hashable {
    public var id: UUID
    public var version: UUID
    public var updatedAt: Double
    public var name: String
    /// The first and last days, "2026-04-01", both in.
    public var from: String
    public var to: String
    public var points: [Int]?
    public var bestRounds: Int?
    public var averageToPar: Int?
    /// Absent unless ranked by net.
    public var net: Bool?
    /// Absent unless deleted, which is final (it outranks every other version).
    public var deleted: Bool?

    public init(_ season: Season, version: UUID, updatedAt: Double, deleted: Bool = false) {
        id = season.id
        self.version = version
        self.updatedAt = updatedAt
        name = season.name
        from = season.from
        to = season.to
        points = season.rule.points
        bestRounds = season.rule.bestRounds
        averageToPar = season.rule.averageToPar
        net = season.net ? true : nil
        self.deleted = deleted ? true : nil
    }

    /// The domain value, or why the record is not one.
    public func season() throws(SeasonError) -> Season {
        try Season(
            id: id, name: name, from: from, to: to,
            rule: Season.Rule(points: points, bestRounds: bestRounds, averageToPar: averageToPar), net: net ?? false)
    }

    /// Shape checks that need no other record; nil when fine, else the reason.
    public func problem() -> String? {
        if SyncProtocol.hasControlCharacter(name) { return "a season's name cannot hold a control character" }
        do {
            _ = try season()
            return nil
        } catch {
            return error.description
        }
    }
}

/// A score event on the wire is the domain event itself, field for field and under the same
/// names (its time as Unix seconds, see `UnixSeconds`): the record only adds what every
/// record says about itself (`SyncRecordData`), and reads the event's fields as its own.
@dynamicMemberLookup
public struct ScoreEventRecord: Sendable, Hashable {
    public var event: ScoreEvent

    public init(_ event: ScoreEvent) { self.event = event }

    public subscript<Value>(dynamicMember field: KeyPath<ScoreEvent, Value>) -> Value { event[keyPath: field] }

    public subscript<Value>(dynamicMember field: WritableKeyPath<ScoreEvent, Value>) -> Value {
        get { event[keyPath: field] }
        set { event[keyPath: field] = newValue }
    }
}

extension ScoreEventRecord: Codable {
    public init(from decoder: any Decoder) throws { event = try ScoreEvent(from: decoder) }

    public func encode(to encoder: any Encoder) throws { try event.encode(to: encoder) }
}

/// One record of any kind: `{"kind": "scoreEvent", "data": {…}}` on the wire.
public enum SyncRecord: Sendable, Hashable {
    case course(CourseRecord)
    case player(PlayerRecord)
    case round(RoundRecord)
    case scoreEvent(ScoreEventRecord)
    case event(EventRecord)
    case season(SeasonRecord)

    /// The record inside, whichever kind it is: the one place that looks at the case.
    public var data: any SyncRecordData {
        switch self {
        case .course(let r): r
        case .player(let r): r
        case .round(let r): r
        case .scoreEvent(let r): r
        case .event(let r): r
        case .season(let r): r
        }
    }

    public var kind: RecordKind { type(of: data).kind }
    /// The protocol a device must speak to read this record as it is: its kind's, or 5 for
    /// a league night ranked by net (issue 37). A device at 3 or 4 would read that night
    /// as gross, and an edit it made (a CTP winner) would send it back without `net`: so
    /// the server leaves it out of such a device's pages, and a device pushes it only to a
    /// server at 5, which keeps the field.
    public var sinceProtocol: Int {
        if case .event(let night) = self, night.net == true { return Self.netNightProtocol }
        return kind.sinceProtocol
    }

    /// The protocol that brought league nights ranked by net.
    public static let netNightProtocol = 5
    public var id: UUID { data.id }
    /// The idempotency key of this statement: the event id for (immutable) events, the
    /// change id for mutable records.
    public var version: UUID { data.version }
    /// Seconds of the change (events: creation). Display and last-writer-wins only.
    public var updatedAt: Double { data.updatedAt }
}

/// What every record kind says about itself, so `SyncRecord` reads it without a switch per field.
public protocol SyncRecordData: Codable, Sendable, Hashable {
    static var kind: RecordKind { get }
    var id: UUID { get }
    var version: UUID { get }
    var updatedAt: Double { get }
}

extension CourseRecord: SyncRecordData { public static var kind: RecordKind { .course } }
extension PlayerRecord: SyncRecordData { public static var kind: RecordKind { .player } }
extension RoundRecord: SyncRecordData { public static var kind: RecordKind { .round } }
extension EventRecord: SyncRecordData { public static var kind: RecordKind { .event } }
extension SeasonRecord: SyncRecordData { public static var kind: RecordKind { .season } }

extension ScoreEventRecord: SyncRecordData {
    public static var kind: RecordKind { .scoreEvent }
    public var id: UUID { event.id }
    /// An event is immutable: its id is its version.
    public var version: UUID { event.id }
    public var updatedAt: Double { event.createdAt.timeIntervalSince1970 }
}

extension SyncRecord: Codable {
    enum CodingKeys: String, CodingKey { case kind, data }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        switch try c.decode(RecordKind.self, forKey: .kind) {
        case .course: self = .course(try c.decode(CourseRecord.self, forKey: .data))
        case .player: self = .player(try c.decode(PlayerRecord.self, forKey: .data))
        case .round: self = .round(try c.decode(RoundRecord.self, forKey: .data))
        case .scoreEvent: self = .scoreEvent(try c.decode(ScoreEventRecord.self, forKey: .data))
        case .event: self = .event(try c.decode(EventRecord.self, forKey: .data))
        case .season: self = .season(try c.decode(SeasonRecord.self, forKey: .data))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(kind, forKey: .kind)
        try c.encode(data, forKey: .data)
    }
}
