import Foundation

/// Someone playing in a round: a registered player, or a guest label scoped to this
/// round alone (FR12b: guests are never de-duplicated, two "Marcus" guests are two people).
public struct Participant: Sendable, Hashable, Codable, Identifiable {
    public enum Kind: String, Sendable, Hashable, Codable { case registered, guest }

    /// For a registered player this is the player's id, so history can follow a player
    /// across rounds (FR61). For a guest it is a fresh id that means nothing elsewhere.
    public var id: UUID
    public var name: String
    public var kind: Kind

    public init(id: UUID, name: String, kind: Kind) {
        self.id = id
        self.name = name
        self.kind = kind
    }

    public static func registered(_ player: Player) -> Participant {
        Participant(id: player.id, name: player.displayName, kind: .registered)
    }

    public static func guest(named name: String, id: UUID = UUID()) throws(RoundError) -> Participant {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .emptyGuestName }
        return Participant(id: id, name: trimmed, kind: .guest)
    }

    public var isGuest: Bool { kind == .guest }
}

/// `setup → active → awaitingFinalization → completed`. A manual finish (FR15) can jump
/// from `active` straight to `completed`.
public enum RoundStatus: String, Sendable, Hashable, Codable, CaseIterable {
    case setup, active, awaitingFinalization, completed

    /// Scores may be recorded (and corrected) until the round is completed.
    public var acceptsScores: Bool { self == .active || self == .awaitingFinalization }
}

/// A round of one course by a fixed list of participants.
///
/// The value type enforces the lifecycle rules; the store persists the result and
/// repeats the participant lock in SQL so no other writer can break it (FR13).
public struct Round: Sendable, Hashable, Codable, Identifiable {
    public var id: UUID
    public var courseID: UUID
    /// The round's creator (FR16).
    public var organizerID: UUID
    public private(set) var participants: [Participant]
    public private(set) var status: RoundStatus
    public var createdAt: Date
    public private(set) var startedAt: Date?
    public private(set) var completedAt: Date?
    /// The pars the round is played to, hole 1 first: the course's pars when the round
    /// was set up, taken again when it starts, and never after. Editing the course later
    /// does not change a played round's results (issue 14). Empty for a round that has
    /// none recorded (one synced by an older device): the course's own pars apply.
    public private(set) var pars: [Int]
    /// How many times the round was reopened (issue 35). A reopening starts a new
    /// generation, and a later generation outranks every copy of an earlier one, so a late
    /// "completed" copy from before the reopening never closes it again.
    public private(set) var generation: Int
    /// Who finished it early, discarded it or reopened it, oldest first.
    public private(set) var actions: [RecordedAction]
    /// The hole the card starts on (issue 36, a shotgun start): it plays from there to the
    /// last hole and on from hole 1. 1 for a round played in course order.
    public private(set) var startHole: Int

    public init(
        id: UUID = UUID(), courseID: UUID, organizerID: UUID,
        participants: [Participant] = [], status: RoundStatus = .setup,
        createdAt: Date, startedAt: Date? = nil, completedAt: Date? = nil, pars: [Int] = [],
        generation: Int = 0, actions: [RecordedAction] = [], startHole: Int = 1
    ) {
        self.id = id
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

    /// The order this round's card plays `course` (`played(on:)`) in.
    public func holeOrder(on course: Course) -> HoleOrder { HoleOrder(start: startHole, holeCount: course.holeCount) }

    /// A shotgun start on `hole`: set up before the start, on a hole of the round's pars.
    public mutating func startOn(hole: Int) throws(RoundError) {
        guard status == .setup else { throw .startHoleLocked(status) }
        let holes = pars.isEmpty ? Course.allowedHoleCounts.upperBound : pars.count
        guard (1...holes).contains(hole) else { throw .noSuchStartHole(hole, holeCount: holes) }
        startHole = hole
    }

    public static let maxParticipants = 24

    public func participant(_ id: UUID) -> Participant? {
        participants.first { $0.id == id }
    }

    // MARK: Participant list (setup only, FR13)

    public mutating func add(_ participant: Participant) throws(RoundError) {
        guard status == .setup else { throw .participantsLocked(status) }
        guard !participants.contains(where: { $0.id == participant.id }) else {
            throw .duplicateParticipant(participant.name)
        }
        guard participants.count < Round.maxParticipants else { throw .tooManyParticipants(Round.maxParticipants) }
        participants.append(participant)
    }

    public mutating func remove(participantID: UUID) throws(RoundError) {
        guard status == .setup else { throw .participantsLocked(status) }
        guard let index = participants.firstIndex(where: { $0.id == participantID }) else {
            throw .unknownParticipant(participantID)
        }
        participants.remove(at: index)
    }

    /// Records `course`'s pars as the round's. Only before the start: from then on the
    /// round keeps what it started with.
    public mutating func takePars(of course: Course) throws(RoundError) {
        guard status == .setup else { throw .parsLocked(status) }
        guard course.id == courseID else { throw .otherCourse(course.name) }
        pars = course.pars
    }

    /// This round with `pars` as its record of them, when it has none: a round from a
    /// device older than round pars takes the course's pars where it arrives.
    public func recordingPars(_ pars: [Int]) -> Round {
        guard self.pars.isEmpty else { return self }
        var copy = self
        copy.pars = pars
        return copy
    }

    /// The course as this round is played on it: with the round's own pars.
    public func played(on course: Course) -> Course { course.played(with: pars) }

    // MARK: Lifecycle

    public mutating func start(at date: Date) throws(RoundError) {
        guard status == .setup else { throw .invalidTransition(from: status, to: .active) }
        guard !participants.isEmpty else { throw .noParticipants }
        status = .active
        startedAt = date
    }

    /// FR14: every participant has a value on every hole. Only an active round moves;
    /// a correction never moves a round back out of `awaitingFinalization`.
    public mutating func markAllScored() {
        if status == .active { status = .awaitingFinalization }
    }

    /// FR15: finish at any point after the start; holes without a value become DNF.
    /// `action` says who did it when the finish needs saying (early, or a discard).
    public mutating func finish(at date: Date, action: RecordedAction? = nil) throws(RoundError) {
        guard status.acceptsScores else { throw .invalidTransition(from: status, to: .completed) }
        status = .completed
        completedAt = date
        if let action { actions.append(action) }
    }

    /// The default time a finished round can be reopened in (issue 35): a wrong score
    /// found at the car park, or the next morning.
    public static let defaultReopenWindow: TimeInterval = 24 * 3600

    /// Issue 35: a completed round is active again, in a new generation, until it is
    /// finished again. Its participants and pars stay as they were (FR13).
    public mutating func reopen(at date: Date, window: TimeInterval, action: RecordedAction) throws(RoundError) {
        guard status == .completed, let finished = completedAt else {
            throw .invalidTransition(from: status, to: .active)
        }
        guard date.timeIntervalSince(finished) <= window else { throw .reopenWindowPassed(hours: window / 3600) }
        status = .active
        completedAt = nil
        generation += 1
        actions.append(action)
    }

    /// Whether `reopen` would be allowed at `date`: the kiosk shows "Reopen" only then.
    public func canReopen(at date: Date, window: TimeInterval) -> Bool {
        guard status == .completed, let finished = completedAt else { return false }
        return date.timeIntervalSince(finished) <= window
    }
}

public enum RoundError: Error, Equatable, Sendable, CustomStringConvertible {
    case participantsLocked(RoundStatus)
    case duplicateParticipant(String)
    case unknownParticipant(UUID)
    case tooManyParticipants(Int)
    case noParticipants
    case emptyGuestName
    case invalidTransition(from: RoundStatus, to: RoundStatus)
    case parsLocked(RoundStatus)
    case otherCourse(String)
    case reopenWindowPassed(hours: Double)
    case noSuchStartHole(Int, holeCount: Int)
    case startHoleLocked(RoundStatus)

    public var description: String {
        switch self {
        case .participantsLocked(let s):
            "the participant list cannot change once the round is \(s.rawValue)"
        case .duplicateParticipant(let name): "\(name) is already in this round"
        case .unknownParticipant(let id): "participant \(id) is not in this round"
        case .tooManyParticipants(let n): "a round has at most \(n) participants"
        case .noParticipants: "a round needs at least one participant before it starts"
        case .emptyGuestName: "a guest needs a name"
        case .invalidTransition(let from, let to):
            "a round cannot go from \(from.rawValue) to \(to.rawValue)"
        case .parsLocked(let s): "a round keeps the pars it started with; this one is \(s.rawValue)"
        case .otherCourse(let name): "this round is not played on \(name)"
        case .reopenWindowPassed(let hours):
            "a round can be reopened only within \(String(format: "%g", hours)) h of its finish"
        case .noSuchStartHole(let hole, let count): "a round on \(count) holes cannot start on hole \(hole)"
        case .startHoleLocked(let s): "a round keeps the hole it started on; this one is \(s.rawValue)"
        }
    }
}
