import Foundation

/// What let a guarded change through (issue 35): the kiosk's organizer code, a kiosk
/// whose lock is turned off, or the command line (whoever can run `hyzer` on a device
/// already owns its store).
///
/// A string on the wire, not a closed enum, so a device meets a value a newer one
/// invented without refusing the record that carries it. (A `RawRepresentable` of
/// `String` codes as its plain string: the standard library's default.)
public struct Authority: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let organizerCode = Authority(rawValue: "organizerCode")
    public static let lockOff = Authority(rawValue: "lockOff")
    public static let commandLine = Authority(rawValue: "commandLine")
    /// The kiosk's "Undo" toast, seconds after the thing undone was made there: a new
    /// player made by mistake in round setup comes off the roster without the code.
    public static let undoToast = Authority(rawValue: "undoToast")

    /// The end of an attribution line: "Reopened · at the kiosk *with the organizer code*".
    public var description: String {
        switch self {
        case .organizerCode: "with the organizer code"
        case .lockOff: "with the lock off"
        case .commandLine: "from the command line"
        case .undoToast: "with Undo, right after adding them"
        default: "(\(rawValue))"
        }
    }
}

/// One destructive or corrective change, said by whom (issue 35 item 4): which device,
/// when, and with what authority. It travels inside the record it changed (a round's list
/// of them, a course's or player's last one), so it syncs with that record, needs no
/// record kind an older device cannot read, and is never stored apart from what it explains.
public struct RecordedAction: Sendable, Hashable, Codable {
    /// A string on the wire for the same reason as `Authority`.
    public struct Kind: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// A completed round made active again (it is finished again later).
        public static let reopened = Kind(rawValue: "reopened")
        /// A round finished with holes unscored: someone has a DNF.
        public static let finishedEarly = Kind(rawValue: "finishedEarly")
        /// A round dropped before any score.
        public static let discarded = Kind(rawValue: "discarded")
        public static let courseDeleted = Kind(rawValue: "courseDeleted")
        public static let courseRestored = Kind(rawValue: "courseRestored")
        public static let playerRemoved = Kind(rawValue: "playerRemoved")
        public static let playerMerged = Kind(rawValue: "playerMerged")

        /// "Reopened", "Finished early": the start of an attribution line.
        public var description: String {
            switch self {
            case .reopened: "Reopened"
            case .finishedEarly: "Finished early"
            case .discarded: "Discarded"
            case .courseDeleted: "Deleted"
            case .courseRestored: "Restored"
            case .playerRemoved: "Removed"
            case .playerMerged: "Merged"
            default: rawValue
            }
        }
    }

    public var kind: Kind
    @UnixSeconds public var at: Date
    public var deviceID: String
    /// The device's name then ("Clubhouse kiosk"), so every device words it alike.
    public var deviceName: String?
    public var authority: Authority

    public init(kind: Kind, at: Date, deviceID: String, deviceName: String? = nil, authority: Authority) {
        self.kind = kind
        self.at = at
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.authority = authority
    }

    /// The same limits as a score event's device name.
    public var problem: String? {
        if deviceID.isEmpty { return "an action needs the id of the device that made it" }
        if let deviceName,
            deviceName.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
                || deviceName.count > ScoreEvent.maxDeviceNameLength
        {
            return "a device name has 1 to \(ScoreEvent.maxDeviceNameLength) characters, not \(deviceName.count)"
        }
        return nil
    }
}

/// Who is making a guarded change, as the store needs to record it: everything of a
/// `RecordedAction` but its kind and time, which the write itself knows.
public struct ActionContext: Sendable, Hashable {
    public var authority: Authority
    public var deviceName: String?

    public init(authority: Authority, deviceName: String? = nil) {
        self.authority = authority
        self.deviceName = deviceName
    }

    public func action(_ kind: RecordedAction.Kind, at date: Date, deviceID: String) -> RecordedAction {
        RecordedAction(kind: kind, at: date, deviceID: deviceID, deviceName: deviceName, authority: authority)
    }
}

/// Where a course is in its life (issue 35): each restore after a deletion starts a new
/// generation, which outranks the deletion it undid, as the deletion outranked the edits
/// before it. `action` is who last deleted or restored it.
public struct CourseLineage: Sendable, Hashable {
    public var generation: Int
    public var action: RecordedAction?

    public init(generation: Int = 0, action: RecordedAction? = nil) {
        self.generation = generation
        self.action = action
    }

    public static let original = CourseLineage()
}

/// A player off the roster (issue 35): removed, or merged into another player who is the
/// same person. Played rounds keep the player either way; a merge makes history count the
/// two as one.
public struct PlayerRetirement: Sendable, Hashable {
    /// Nil for a plain removal.
    public var mergedInto: UUID?
    public var action: RecordedAction?

    public init(mergedInto: UUID? = nil, action: RecordedAction? = nil) {
        self.mergedInto = mergedInto
        self.action = action
    }
}

/// Merged players as one (issue 35): whom each player counts as. A merge names the player
/// merged into, who may have been merged on in turn; the chain is followed to its end.
/// Offline merges made on two devices can form a loop (A into B here, B into A there): then
/// every player of the loop counts as the one with the smallest id, the same on every
/// device whatever order the merges arrived in.
public struct PlayerMerges: Sendable, Hashable {
    private let into: [UUID: UUID]

    public init(_ into: [UUID: UUID] = [:]) { self.into = into }

    public var isEmpty: Bool { into.isEmpty }

    public func canonical(_ id: UUID) -> UUID {
        var seen: [UUID] = [id]
        var current = id
        while let next = into[current] {
            if let loopStart = seen.firstIndex(of: next) {
                return seen[loopStart...].min { $0.precedes($1) } ?? next
            }
            seen.append(next)
            current = next
        }
        return current
    }
}

/// A deleted course, as the Courses list's "Deleted" section shows it (issue 35).
public struct DeletedCourse: Sendable, Hashable, Identifiable {
    public var id: UUID
    public var name: String
    public var deletedAt: Date
    /// Who deleted it, when that was recorded.
    public var deletedBy: RecordedAction?
    /// False when this device never had its holes (it heard only of the deletion): it can
    /// be restored only where it was played.
    public var restorable: Bool

    public init(id: UUID, name: String, deletedAt: Date, deletedBy: RecordedAction? = nil, restorable: Bool) {
        self.id = id
        self.name = name
        self.deletedAt = deletedAt
        self.deletedBy = deletedBy
        self.restorable = restorable
    }
}
