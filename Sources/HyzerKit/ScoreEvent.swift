import Foundation

/// One immutable score statement (FR36): "participant P took N strokes on hole H",
/// said by `reportedBy` on device `deviceID`.
///
/// Events are never edited. A correction (FR37) or a discrepancy resolution (FR52) is a
/// new event listing the events it replaces in `supersedes`. The architecture document
/// had a single `supersedesEventID`; a resolution must replace *every* conflicting leaf,
/// which one id cannot express, hence a list.
public struct ScoreEvent: Sendable, Hashable, Codable, Identifiable {
    public static let allowedStrokes: ClosedRange<Int> = 1...10

    public var id: UUID
    public var roundID: UUID
    public var participantID: UUID
    public var hole: Int
    public var strokes: Int
    public var supersedes: [UUID]
    /// The person who made the statement (attribution: "Jake says 3"), or `nobody` for a
    /// score entered at a shared device (the kiosk), which is credited to the device.
    public var reportedBy: UUID
    public var deviceID: String
    /// The entering device's name then ("Clubhouse kiosk", "Nate's phone"), carried with
    /// the score so every device credits it the same way, online or not (issue 14).
    /// Absent from older devices' events: then the device is named by the server's list.
    public var deviceName: String?
    /// Display only. Never used to decide which value counts (A7): clocks skew. Coded as
    /// Unix seconds, the number the sync protocol carries (`ScoreEventRecord` is this value).
    @UnixSeconds public var createdAt: Date
    /// A discrepancy resolution: authoritative, never raises a discrepancy itself.
    public var isResolution: Bool
    /// Set on a correction of a finished round's score (issue 35), with what allowed it:
    /// accepted after the finish, authoritative like a resolution, and shown as corrected.
    /// Absent on every other event, so their bytes are as before; an older device ignores
    /// it and counts the correction as an ordinary later statement.
    public var correction: Authority?
    /// Set on a retraction (issue 35's "Undo" toast): the events in `supersedes` are
    /// withdrawn, as if never said, and the cell resolves from what is left (empty again
    /// when the withdrawn score filled it). Absent on every other event. Its `strokes` is
    /// what a device older than protocol 2, which ignores the field, shows: the cell's
    /// value after the undo, or the withdrawn value when the undo leaves the cell empty.
    public var retraction: Bool?
    /// How the score was entered, when not by hand (issue 38): `voice` for one spoken at a
    /// phone and confirmed on its overlay, so every device credits it "by voice, Nate's
    /// phone". Absent otherwise, so other events' bytes are as before; an older device or
    /// server ignores it and the score counts the same.
    public var input: Input?

    /// A string on the wire, not a closed enum, as `Authority`: a value a newer device
    /// invents is kept, not refused.
    public struct Input: RawRepresentable, Sendable, Hashable, Codable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// Spoken, parsed, and confirmed (FR21–FR29).
        public static let voice = Input(rawValue: "voice")
        /// At most this long: a word, not a message.
        public static let maxLength = 20
    }

    public init(
        id: UUID = UUID(), roundID: UUID, participantID: UUID, hole: Int, strokes: Int,
        supersedes: [UUID] = [], reportedBy: UUID, deviceID: String,
        createdAt: Date, isResolution: Bool = false, deviceName: String? = nil, correction: Authority? = nil,
        retraction: Bool = false, input: Input? = nil
    ) {
        self.id = id
        self.roundID = roundID
        self.participantID = participantID
        self.hole = hole
        self.strokes = strokes
        self.supersedes = supersedes
        self.reportedBy = reportedBy
        self.deviceID = deviceID
        self.createdAt = createdAt
        self.isResolution = isResolution
        self.deviceName = deviceName
        self.correction = correction
        self.retraction = retraction ? true : nil
        self.input = input
    }

    public var isCorrection: Bool { correction != nil }
    public var isRetraction: Bool { retraction == true }

    /// `reportedBy` of a score no one person entered: one typed at a shared device.
    public static let nobody = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
    /// Longer device names are refused: a name is a caption on a hole card.
    public static let maxDeviceNameLength = 80

    public var cell: ScoreCell { ScoreCell(participantID: participantID, hole: hole) }
}

/// The {participant, hole} pair a score belongs to.
public struct ScoreCell: Sendable, Hashable, Codable, Comparable {
    public var participantID: UUID
    public var hole: Int

    public init(participantID: UUID, hole: Int) {
        self.participantID = participantID
        self.hole = hole
    }

    public static func < (a: ScoreCell, b: ScoreCell) -> Bool {
        a.hole != b.hole ? a.hole < b.hole : a.participantID.precedes(b.participantID)
    }
}

extension UUID {
    /// A total order on the 16 bytes, the same on every device. Used wherever ties need
    /// a deterministic break; it avoids building `uuidString`s on the hot path.
    @inlinable public func precedes(_ other: UUID) -> Bool {
        withUnsafeBytes(of: uuid) { a in
            withUnsafeBytes(of: other.uuid) { b in
                for i in 0..<16 where a[i] != b[i] { return a[i] < b[i] }
                return false
            }
        }
    }
}

/// Why a score event was refused. Every case says what was wrong.
public enum ScoringError: Error, Equatable, Sendable, CustomStringConvertible {
    case strokesOutOfRange(Int)
    case unknownHole(Int, holeCount: Int)
    case unknownParticipant(UUID)
    case wrongRound(expected: UUID, got: UUID)
    case roundNotStarted
    case roundCompleted
    case emptyDeviceID
    case badDeviceName(Int)
    case selfSupersession
    case supersedesOtherCell(UUID)
    case resolutionWithoutTargets
    case retractionWithoutTargets
    case retractionNotAStatement
    case badInput(String)

    public var description: String {
        switch self {
        case .strokesOutOfRange(let n):
            "strokes must be between \(ScoreEvent.allowedStrokes.lowerBound) and \(ScoreEvent.allowedStrokes.upperBound), not \(n)"
        case .unknownHole(let h, let count): "hole \(h) does not exist on this \(count)-hole course"
        case .unknownParticipant(let id): "participant \(id) is not in this round"
        case .wrongRound(let expected, let got): "the event belongs to round \(got), not \(expected)"
        case .roundNotStarted: "the round has not started yet"
        case .roundCompleted: "the round is completed; its scores are final"
        case .emptyDeviceID: "a score event needs the id of the device that made it"
        case .badDeviceName(let n):
            "a device name has 1 to \(ScoreEvent.maxDeviceNameLength) characters, not \(n)"
        case .selfSupersession: "an event cannot supersede itself"
        case .supersedesOtherCell(let id):
            "event \(id) belongs to another participant or hole and cannot be superseded by this one"
        case .resolutionWithoutTargets: "a resolution must supersede the events it resolves"
        case .retractionWithoutTargets: "a retraction must name the events it withdraws in supersedes"
        case .retractionNotAStatement: "a retraction withdraws a score; it cannot also be a resolution or a correction"
        case .badInput(let input):
            "an event's input is a word of 1 to \(ScoreEvent.Input.maxLength) letters, such as \"voice\", not \"\(input)\""
        }
    }
}

extension ScoreEvent {
    /// Checks an event against its round and course before anything stores it. A completed
    /// round takes only events made before it was finished (late arrivals) and corrections.
    ///
    /// `known` are the events already recorded for the round; any of them this event
    /// supersedes must be in the same cell. Supersession of an event not (yet) known is
    /// allowed: on a syncing device the corrected event may arrive after its correction.
    public func validate(in round: Round, course: Course, known: [UUID: ScoreEvent] = [:]) throws(ScoringError) {
        guard roundID == round.id else { throw .wrongRound(expected: round.id, got: roundID) }
        switch round.status {
        case .setup: throw .roundNotStarted
        case .completed:
            // Final from its finish on. A score made before the finish still counts when it
            // arrives later (NFR8: no score lost to connectivity): a phone that scored the
            // last hole offline, or the finishing kiosk's own outbox, which may carry the
            // round's completion ahead of its scores.
            // A correction (issue 35) is made after the finish on purpose.
            if !isCorrection {
                guard let finished = round.completedAt, createdAt <= finished else { throw .roundCompleted }
            }
        case .active, .awaitingFinalization: break
        }
        guard ScoreEvent.allowedStrokes.contains(strokes) else { throw .strokesOutOfRange(strokes) }
        let holeCount = round.played(on: course).holeCount
        guard (1...holeCount).contains(hole) else { throw .unknownHole(hole, holeCount: holeCount) }
        guard round.participant(participantID) != nil else { throw .unknownParticipant(participantID) }
        guard !deviceID.isEmpty else { throw .emptyDeviceID }
        if let deviceName {
            let trimmed = deviceName.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, deviceName.count <= ScoreEvent.maxDeviceNameLength else {
                throw .badDeviceName(deviceName.count)
            }
        }
        if let input {
            guard (1...Input.maxLength).contains(input.rawValue.count),
                input.rawValue.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("A"..."Z").contains($0) })
            else { throw .badInput(input.rawValue) }
        }
        guard !supersedes.contains(id) else { throw .selfSupersession }
        if isResolution && supersedes.isEmpty { throw .resolutionWithoutTargets }
        if isRetraction {
            guard !supersedes.isEmpty else { throw .retractionWithoutTargets }
            guard !isResolution, !isCorrection else { throw .retractionNotAStatement }
        }
        for target in supersedes {
            if let old = known[target], old.cell != cell { throw .supersedesOtherCell(target) }
        }
    }
}
