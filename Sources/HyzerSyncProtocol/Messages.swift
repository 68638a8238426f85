import Foundation

/// Protocol constants shared by the server and the devices.
///
/// `version` is a capability level, not a path: a v1 device keeps working against a v2
/// server on the same `/v1` paths, because everything newer is an optional field its
/// decoder ignores. A change an older device could not read at all would need a new path.
/// - 2 (issue 35): undo. Generations of rounds and courses, removed and merged players,
///   corrections after a finish, and who did each. A device makes such records only for
///   a server that says it is at 2 (docs/sync-protocol.md, "Protocol 2").
/// - 3 (issue 36): league nights, a new record kind (`event`). A device says its version
///   when it pulls (`protocol=3`); the server leaves kinds newer than that out of its
///   pages, and a device pushes events only to a server at 3.
/// - 4 (issue 37): seasons, a new record kind (`season`), under the same rules as 3.
/// - 5 (issue 37): a league night ranked by net (`event`'s `net`): such a night is left
///   out of the pages of a device below 5 and pushed only to a server at 5
///   (`SyncRecord.sinceProtocol`).
public enum SyncProtocol {
    public static let version = 5
    /// Every device request names its device; it must match the device's token.
    public static let deviceHeader = "X-Hyzer-Device"
    /// Limits the server enforces (and the client respects when batching).
    public static let maxPushRecords = 500
    public static let maxPushBytes = 1 << 20
    public static let maxSmallBodyBytes = 16 << 10
    public static let defaultPullLimit = 500
    public static let maxPullLimit = 1000
    /// Device ids: the store's lowercase UUIDs, or any 1–64 of [A-Za-z0-9._-].
    public static func isValidDeviceID(_ id: String) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { c in
                (c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
                    || c == 0x2D || c == 0x2E || c == 0x5F
            }
    }

    /// Names people give the server (a device's, a group's, a name request's label, a
    /// phone's answer) hold no control character (U+0000–001F, U+007F–009F) anywhere, not
    /// even at an end where trimming would drop it: PostgreSQL's text cannot hold U+0000,
    /// none of them draws on the board or a phone, and docs/openapi.yaml's pattern can say
    /// "anywhere" but not "except where trimmed".
    public static func hasControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}

// MARK: Push

public struct PushRequest: Codable, Sendable {
    public var deviceID: String
    public var records: [SyncRecord]

    public init(deviceID: String, records: [SyncRecord]) {
        self.deviceID = deviceID
        self.records = records
    }
}

public enum PushStatus: String, Codable, Sendable {
    /// Stored durably now, at `seq`.
    case created
    /// Already stored (same id and version): `seq` is the one it got the first time.
    case duplicate
    /// Refused for good, with `reason`; retrying the same record will not help.
    case rejected
}

public struct PushResult: Codable, Sendable, Hashable {
    public var kind: RecordKind
    public var id: UUID
    public var version: UUID
    public var status: PushStatus
    public var seq: Int64?
    public var reason: String?

    public init(kind: RecordKind, id: UUID, version: UUID, status: PushStatus, seq: Int64? = nil, reason: String? = nil) {
        self.kind = kind
        self.id = id
        self.version = version
        self.status = status
        self.seq = seq
        self.reason = reason
    }
}

/// Sent only after the batch's transaction committed (synchronous=FULL): an ack is durable.
public struct PushResponse: Codable, Sendable {
    public var epoch: String
    public var head: Int64
    /// One per pushed record, in request order.
    public var results: [PushResult]
    /// The server's `SyncProtocol.version`; absent from a v1 server.
    public var protocolVersion: Int?

    public init(epoch: String, head: Int64, results: [PushResult], protocolVersion: Int? = SyncProtocol.version) {
        self.epoch = epoch
        self.head = head
        self.results = results
        self.protocolVersion = protocolVersion
    }
}

// MARK: Pull

public struct PulledRecord: Codable, Sendable, Hashable {
    public var seq: Int64
    public var record: SyncRecord

    public init(seq: Int64, record: SyncRecord) {
        self.seq = seq
        self.record = record
    }
}

public struct PullResponse: Sendable {
    public var epoch: String
    /// Ascending by `seq`, all greater than the request's `after`.
    public var records: [PulledRecord]
    /// Pass as `after` next time: the last record's seq, or `after` when none came.
    public var next: Int64
    /// The group's newest seq now.
    public var head: Int64
    public var hasMore: Bool
    /// The server's `SyncProtocol.version`; absent from a v1 server.
    public var protocolVersion: Int?
    /// Seconds after its finish a round can still be reopened, as the group set it.
    /// Absent from a v1 server.
    public var reopenWindow: Double?

    public init(
        epoch: String, records: [PulledRecord], next: Int64, head: Int64, hasMore: Bool,
        protocolVersion: Int? = SyncProtocol.version, reopenWindow: Double? = nil
    ) {
        self.epoch = epoch
        self.records = records
        self.next = next
        self.head = head
        self.hasMore = hasMore
        self.protocolVersion = protocolVersion
        self.reopenWindow = reopenWindow
    }
}

extension PullResponse: Codable {
    enum CodingKeys: String, CodingKey { case epoch, records, next, head, hasMore, protocolVersion, reopenWindow }

    /// A record of a kind this build does not know (from a server newer than it, which
    /// did not leave it out) is skipped, not a failed page: the cursor still moves past
    /// it with `next`, and every record this device can read is applied.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        epoch = try c.decode(String.self, forKey: .epoch)
        records = try c.decode([KnownKind].self, forKey: .records).compactMap(\.record)
        next = try c.decode(Int64.self, forKey: .next)
        head = try c.decode(Int64.self, forKey: .head)
        hasMore = try c.decode(Bool.self, forKey: .hasMore)
        protocolVersion = try c.decodeIfPresent(Int.self, forKey: .protocolVersion)
        reopenWindow = try c.decodeIfPresent(Double.self, forKey: .reopenWindow)
    }

    /// One pulled record, or nil for a kind this build does not know.
    private struct KnownKind: Decodable {
        var record: PulledRecord?

        enum Keys: String, CodingKey { case record }
        enum RecordKeys: String, CodingKey { case kind }

        init(from decoder: any Decoder) throws {
            let kind = try decoder.container(keyedBy: Keys.self)
                .nestedContainer(keyedBy: RecordKeys.self, forKey: .record).decode(String.self, forKey: .kind)
            record = RecordKind(rawValue: kind) == nil ? nil : try PulledRecord(from: decoder)
        }
    }
}

// MARK: Live

/// The only message on the live socket: "something was committed, the head is now N".
/// It carries no data on purpose (Replicache's poke): pull stays the single source of truth.
public struct Poke: Codable, Sendable, Hashable {
    public var type: String
    public var epoch: String
    public var head: Int64

    public init(epoch: String, head: Int64) {
        self.type = "poke"
        self.epoch = epoch
        self.head = head
    }
}

// MARK: Groups and devices

public struct EnrollRequest: Codable, Sendable {
    public var deviceID: String
    public var name: String

    public init(deviceID: String, name: String) {
        self.deviceID = deviceID
        self.name = name
    }
}

public struct EnrollResponse: Codable, Sendable {
    public var groupID: String
    public var groupName: String
    public var deviceID: String
    /// Shown once; the server keeps only its SHA-256.
    public var deviceToken: String
    public var epoch: String
    /// The registered player the device plays as, when it claimed one joining with an
    /// invite (`InviteRedemption.playerID`). Absent otherwise, so the answer is the same
    /// bytes as before claims existed and an older client decodes it.
    public var playerID: UUID?

    public init(
        groupID: String, groupName: String, deviceID: String, deviceToken: String, epoch: String, playerID: UUID? = nil
    ) {
        self.groupID = groupID
        self.groupName = groupName
        self.deviceID = deviceID
        self.deviceToken = deviceToken
        self.epoch = epoch
        self.playerID = playerID
    }
}

public struct DeviceInfo: Codable, Sendable, Hashable {
    public var deviceID: String
    public var name: String
    public var enrolledAt: Double
    public var revokedAt: Double?
    /// The registered player an active device plays as ("Which player am I?"), and that
    /// player's name now. Both absent for a device that claimed nobody, and for a revoked
    /// one (revoking frees the claim).
    public var playerID: UUID?
    public var playerName: String?

    public init(
        deviceID: String, name: String, enrolledAt: Double, revokedAt: Double?, playerID: UUID? = nil,
        playerName: String? = nil
    ) {
        self.deviceID = deviceID
        self.name = name
        self.enrolledAt = enrolledAt
        self.revokedAt = revokedAt
        self.playerID = playerID
        self.playerName = playerName
    }
}

public struct DeviceList: Codable, Sendable {
    public var groupID: String
    public var devices: [DeviceInfo]

    public init(groupID: String, devices: [DeviceInfo]) {
        self.groupID = groupID
        self.devices = devices
    }
}

public struct HealthResponse: Codable, Sendable {
    public var status: String
    public var protocolVersion: Int
    public var epoch: String

    public init(status: String, protocolVersion: Int, epoch: String) {
        self.status = status
        self.protocolVersion = protocolVersion
        self.epoch = epoch
    }
}

/// Every 4xx/5xx body: `{"error": {"message": "…"}}` (Hummingbird's HTTPError shape).
/// The device-token poll adds a `code` (RFC 8628's `authorization_pending`, …) that a
/// device acts on without reading the message.
public struct ErrorResponse: Codable, Sendable {
    public struct Detail: Codable, Sendable {
        public var message: String
        public var code: String?

        public init(message: String, code: String? = nil) {
            self.message = message
            self.code = code
        }
    }
    public var error: Detail

    public init(error: Detail) { self.error = error }
}

/// One JSON coder configuration for both sides.
public enum SyncCoding {
    public static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }

    public static func decoder() -> JSONDecoder { JSONDecoder() }
}
