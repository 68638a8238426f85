import Foundation
import HyzerKit
import HyzerSyncProtocol
import Testing

/// The JSON the devices and the server exchange, pinned byte for byte: devices in the field
/// and servers of other versions read and write exactly this, so a refactoring of the wire
/// types must not move a key, rename one or change how a time or an id is spelt.
/// The expected texts were captured from the wire types of commit 7d23aad, before they
/// were reorganised around the domain values.
/// Negative control: without `@UnixSeconds` on `ScoreEvent.createdAt` the event's time
/// goes out in seconds since 2001 and `encodesToTheShippedJSON` fails (checked once).
@Suite struct WireFormatTests {
    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static let course = CourseRecord(id: id(1), version: id(2), updatedAt: 1_790_000_000.25, name: "Maple Hill", pars: [3, 4])
    static let player = PlayerRecord(
        id: id(3), version: id(4), updatedAt: 1_790_000_001.5, displayName: "Nate", aliases: ["N", "Nathan"])
    static let round = RoundRecord(
        id: id(5), version: id(6), updatedAt: 1_790_000_002.75, courseID: id(1), organizerID: id(3),
        participants: [
            Participant(id: id(3), name: "Nate", kind: .registered),
            Participant(id: id(7), name: "Guest", kind: .guest),
        ],
        status: .active, createdAt: 1_790_000_000.125, startedAt: 1_790_000_002.75, completedAt: nil)
    static let event = ScoreEventRecord(
        ScoreEvent(
            id: id(8), roundID: id(5), participantID: id(7), hole: 2, strokes: 4, supersedes: [id(9), id(10)],
            reportedBy: id(3), deviceID: "kiosk-1", createdAt: Date(timeIntervalSince1970: 1_790_000_003.0625),
            isResolution: true))
    static let records: [SyncRecord] = [.course(course), .player(player), .round(round), .scoreEvent(event)]

    static func action(_ kind: RecordedAction.Kind) -> RecordedAction {
        RecordedAction(
            kind: kind, at: Date(timeIntervalSince1970: 1_790_000_100), deviceID: "kiosk-1", deviceName: "Clubhouse",
            authority: .organizerCode)
    }
    static let undoRecords: [SyncRecord] = {
        var reopened = round
        (reopened.version, reopened.generation, reopened.actions) = (id(11), 1, [action(.reopened)])
        let restored = CourseRecord(
            try! Course(id: id(1), name: "Maple Hill", pars: [3, 4]), version: id(12), updatedAt: 1_790_000_100,
            lineage: CourseLineage(generation: 1, action: action(.courseRestored)))
        let merged = PlayerRecord(
            id: id(3), version: id(13), updatedAt: 1_790_000_100, displayName: "Nate", aliases: [],
            retirement: PlayerRetirement(mergedInto: id(7), action: action(.playerMerged)))
        let correction = ScoreEvent(
            id: id(14), roundID: id(5), participantID: id(7), hole: 2, strokes: 3, supersedes: [id(8)], reportedBy: id(3),
            deviceID: "kiosk-1", createdAt: Date(timeIntervalSince1970: 1_790_000_100), deviceName: "Clubhouse",
            correction: .organizerCode)
        return [.course(restored), .player(merged), .round(reopened), .scoreEvent(ScoreEventRecord(correction))]
    }()

    /// Each message of the protocol with the JSON it must encode to.
    static let messages: [(name: String, value: any Codable & Sendable, json: String)] = [
        ("push request", PushRequest(deviceID: "kiosk-1", records: records), pushRequestJSON),
        (
            "push response",
            PushResponse(
                epoch: "e1", head: 12,
                results: [
                    PushResult(kind: .course, id: id(1), version: id(2), status: .created, seq: 11),
                    PushResult(kind: .scoreEvent, id: id(8), version: id(8), status: .rejected, reason: "no such round"),
                ], protocolVersion: nil),
            pushResponseJSON
        ),
        (
            "pull response",
            PullResponse(
                epoch: "e1", records: [PulledRecord(seq: 3, record: .round(round))], next: 3, head: 4, hasMore: true,
                protocolVersion: nil),
            pullResponseJSON
        ),
        // Issue 35, protocol 2: optional fields again. A reopened round, a restored course,
        // a merged player and a correction, each with who did it; and what a v2 server
        // adds to its answers. Absent above, so a v1 device reads the same bytes as before.
        ("protocol 2 push request", PushRequest(deviceID: "kiosk-1", records: undoRecords), undoPushRequestJSON),
        (
            "protocol 2 pull response",
            PullResponse(
                epoch: "e1", records: [], next: 3, head: 3, hasMore: false, protocolVersion: 2, reopenWindow: 86400),
            undoPullResponseJSON
        ),
        ("poke", Poke(epoch: "e1", head: 4), pokeJSON),
        ("enroll request", EnrollRequest(deviceID: "kiosk-1", name: "Clubhouse"), enrollRequestJSON),
        (
            "enroll response",
            EnrollResponse(groupID: "g1", groupName: "League", deviceID: "kiosk-1", deviceToken: "t0k", epoch: "e1"),
            enrollResponseJSON
        ),
        (
            "device list",
            DeviceList(
                groupID: "g1",
                devices: [DeviceInfo(deviceID: "kiosk-1", name: "Clubhouse", enrolledAt: 1_790_000_000.5, revokedAt: nil)]),
            deviceListJSON
        ),
        ("health", HealthResponse(status: "ok", protocolVersion: 1, epoch: "e1"), healthJSON),
        // Issue 32, "Which player am I?": optional fields, absent above (the bytes older
        // clients know), present here; the invite's player list, `claimedBy` null when free.
        (
            "invite redemption claiming a player",
            InviteRedemption(code: "BCDFGHJK", deviceID: "phone-1", name: "Nate's phone", playerID: id(3)),
            claimingRedemptionJSON
        ),
        (
            "enroll response with a player",
            EnrollResponse(
                groupID: "g1", groupName: "League", deviceID: "phone-1", deviceToken: "t0k", epoch: "e1", playerID: id(3)),
            claimedEnrollResponseJSON
        ),
        (
            "device list with a player",
            DeviceList(
                groupID: "g1",
                devices: [
                    DeviceInfo(
                        deviceID: "phone-1", name: "Nate's phone", enrolledAt: 1_790_000_000.5, revokedAt: nil, playerID: id(3),
                        playerName: "Nate")
                ]),
            claimedDeviceListJSON
        ),
        (
            "invite players",
            InvitePlayers(
                groupName: "League",
                players: [
                    InvitePlayers.Player(id: id(3), name: "Nate", claimedBy: "Nate's phone"),
                    InvitePlayers.Player(id: id(7), name: "Priya", claimedBy: nil),
                ]),
            invitePlayersJSON
        ),
    ]

    @Test(arguments: messages.indices) func encodesToTheShippedJSON(_ index: Int) throws {
        let message = Self.messages[index]
        let json = String(decoding: try SyncCoding.encoder().encode(message.value), as: UTF8.self)
        #expect(json == message.json, "\(message.name)")
    }

    /// The pinned JSON decodes, and says the same thing again when encoded.
    @Test(arguments: messages.indices) func decodesTheShippedJSON(_ index: Int) throws {
        let message = Self.messages[index]
        #expect(try Self.reencoded(message.value, message.json) == message.json, "\(message.name)")
    }

    static func reencoded<T: Codable>(_: T, _ json: String) throws -> String {
        let decoded = try SyncCoding.decoder().decode(T.self, from: Data(json.utf8))
        return String(decoding: try SyncCoding.encoder().encode(decoded), as: UTF8.self)
    }

    /// The records read back as the same values, and a score event as the same domain event.
    /// Issue 14: what a device older than tombstones does with one. Its course record had no
    /// `deleted`, so decoding skips the key, and its domain refuses a course without holes:
    /// the pull reports that one record as refused and the course stays, nothing crashes.
    /// A live course has no `deleted` key, and a round without pars none of `pars`: the
    /// same bytes as before (the pinned JSON above holds them).
    @Test func anOlderDeviceRefusesATombstoneInsteadOfShowingIt() throws {
        struct OlderCourseRecord: Decodable {
            var id: UUID
            var version: UUID
            var updatedAt: Double
            var name: String
            var pars: [Int]
        }
        let tombstone = CourseRecord.tombstone(id: Self.id(1), name: "Maple Hill", version: Self.id(11), updatedAt: 1_790_000_100)
        let json = try SyncCoding.encoder().encode(SyncRecord.course(tombstone))
        #expect(
            String(decoding: json, as: UTF8.self)
                == #"{"data":{"deleted":true,"id":"00000000-0000-4000-8000-000000000001","name":"Maple Hill","pars":[],"updatedAt":1790000100,"version":"00000000-0000-4000-8000-000000000011"},"kind":"course"}"#
        )
        #expect(try SyncCoding.decoder().decode(SyncRecord.self, from: json) == .course(tombstone))
        #expect(SyncRecord.course(tombstone).stamp! > SyncRecord.course(Self.course).stamp!)
        struct OlderEnvelope: Decodable { var data: OlderCourseRecord }
        let older = try JSONDecoder().decode(OlderEnvelope.self, from: json).data
        #expect(throws: CourseError.invalidHoleCount(0)) { try Course(id: older.id, name: older.name, pars: older.pars) }
    }

    @Test func recordsDecodeToTheSameValues() throws {
        let request = try SyncCoding.decoder().decode(PushRequest.self, from: Data(Self.pushRequestJSON.utf8))
        #expect(request.records == Self.records)
        #expect(Self.event.event.createdAt == Date(timeIntervalSince1970: 1_790_000_003.0625))
        #expect(Self.round.round.participants.map(\.name) == ["Nate", "Guest"])
    }

    static let pushRequestJSON =
        #"{"deviceID":"kiosk-1","records":[{"data":{"id":"00000000-0000-4000-8000-000000000001","name":"Maple Hill","pars":[3,4],"updatedAt":1790000000.25,"version":"00000000-0000-4000-8000-000000000002"},"kind":"course"},{"data":{"aliases":["N","Nathan"],"displayName":"Nate","id":"00000000-0000-4000-8000-000000000003","updatedAt":1790000001.5,"version":"00000000-0000-4000-8000-000000000004"},"kind":"player"},{"data":{"courseID":"00000000-0000-4000-8000-000000000001","createdAt":1790000000.125,"id":"00000000-0000-4000-8000-000000000005","organizerID":"00000000-0000-4000-8000-000000000003","participants":[{"id":"00000000-0000-4000-8000-000000000003","kind":"registered","name":"Nate"},{"id":"00000000-0000-4000-8000-000000000007","kind":"guest","name":"Guest"}],"startedAt":1790000002.75,"status":"active","updatedAt":1790000002.75,"version":"00000000-0000-4000-8000-000000000006"},"kind":"round"},{"data":{"createdAt":1790000003.0625,"deviceID":"kiosk-1","hole":2,"id":"00000000-0000-4000-8000-000000000008","isResolution":true,"participantID":"00000000-0000-4000-8000-000000000007","reportedBy":"00000000-0000-4000-8000-000000000003","roundID":"00000000-0000-4000-8000-000000000005","strokes":4,"supersedes":["00000000-0000-4000-8000-000000000009","00000000-0000-4000-8000-000000000010"]},"kind":"scoreEvent"}]}"#
    static let pushResponseJSON =
        #"{"epoch":"e1","head":12,"results":[{"id":"00000000-0000-4000-8000-000000000001","kind":"course","seq":11,"status":"created","version":"00000000-0000-4000-8000-000000000002"},{"id":"00000000-0000-4000-8000-000000000008","kind":"scoreEvent","reason":"no such round","status":"rejected","version":"00000000-0000-4000-8000-000000000008"}]}"#
    static let pullResponseJSON =
        #"{"epoch":"e1","hasMore":true,"head":4,"next":3,"records":[{"record":{"data":{"courseID":"00000000-0000-4000-8000-000000000001","createdAt":1790000000.125,"id":"00000000-0000-4000-8000-000000000005","organizerID":"00000000-0000-4000-8000-000000000003","participants":[{"id":"00000000-0000-4000-8000-000000000003","kind":"registered","name":"Nate"},{"id":"00000000-0000-4000-8000-000000000007","kind":"guest","name":"Guest"}],"startedAt":1790000002.75,"status":"active","updatedAt":1790000002.75,"version":"00000000-0000-4000-8000-000000000006"},"kind":"round"},"seq":3}]}"#
    static let undoActionJSON =
        #""at":1790000100,"authority":"organizerCode","deviceID":"kiosk-1","deviceName":"Clubhouse","kind":"#
    static let undoPushRequestJSON =
        #"{"deviceID":"kiosk-1","records":[{"data":{"action":{"# + undoActionJSON
        + #""courseRestored"},"generation":1,"id":"00000000-0000-4000-8000-000000000001","name":"Maple Hill","pars":[3,4],"updatedAt":1790000100,"version":"00000000-0000-4000-8000-000000000012"},"kind":"course"},{"data":{"action":{"#
        + undoActionJSON
        + #""playerMerged"},"aliases":[],"displayName":"Nate","id":"00000000-0000-4000-8000-000000000003","mergedInto":"00000000-0000-4000-8000-000000000007","removed":true,"updatedAt":1790000100,"version":"00000000-0000-4000-8000-000000000013"},"kind":"player"},{"data":{"actions":[{"#
        + undoActionJSON
        + #""reopened"}],"courseID":"00000000-0000-4000-8000-000000000001","createdAt":1790000000.125,"generation":1,"id":"00000000-0000-4000-8000-000000000005","organizerID":"00000000-0000-4000-8000-000000000003","participants":[{"id":"00000000-0000-4000-8000-000000000003","kind":"registered","name":"Nate"},{"id":"00000000-0000-4000-8000-000000000007","kind":"guest","name":"Guest"}],"startedAt":1790000002.75,"status":"active","updatedAt":1790000002.75,"version":"00000000-0000-4000-8000-000000000011"},"kind":"round"},{"data":{"correction":"organizerCode","createdAt":1790000100,"deviceID":"kiosk-1","deviceName":"Clubhouse","hole":2,"id":"00000000-0000-4000-8000-000000000014","isResolution":false,"participantID":"00000000-0000-4000-8000-000000000007","reportedBy":"00000000-0000-4000-8000-000000000003","roundID":"00000000-0000-4000-8000-000000000005","strokes":3,"supersedes":["00000000-0000-4000-8000-000000000008"]},"kind":"scoreEvent"}]}"#
    static let undoPullResponseJSON =
        #"{"epoch":"e1","hasMore":false,"head":3,"next":3,"protocolVersion":2,"records":[],"reopenWindow":86400}"#
    static let pokeJSON = #"{"epoch":"e1","head":4,"type":"poke"}"#
    static let enrollRequestJSON = #"{"deviceID":"kiosk-1","name":"Clubhouse"}"#
    static let enrollResponseJSON =
        #"{"deviceID":"kiosk-1","deviceToken":"t0k","epoch":"e1","groupID":"g1","groupName":"League"}"#
    static let deviceListJSON =
        #"{"devices":[{"deviceID":"kiosk-1","enrolledAt":1790000000.5,"name":"Clubhouse"}],"groupID":"g1"}"#
    static let healthJSON = #"{"epoch":"e1","protocolVersion":1,"status":"ok"}"#
    static let claimingRedemptionJSON =
        #"{"code":"BCDFGHJK","deviceID":"phone-1","name":"Nate's phone","playerID":"00000000-0000-4000-8000-000000000003"}"#
    static let claimedEnrollResponseJSON =
        #"{"deviceID":"phone-1","deviceToken":"t0k","epoch":"e1","groupID":"g1","groupName":"League","playerID":"00000000-0000-4000-8000-000000000003"}"#
    static let claimedDeviceListJSON =
        #"{"devices":[{"deviceID":"phone-1","enrolledAt":1790000000.5,"name":"Nate's phone","playerID":"00000000-0000-4000-8000-000000000003","playerName":"Nate"}],"groupID":"g1"}"#
    static let invitePlayersJSON =
        #"{"groupName":"League","players":[{"claimedBy":"Nate's phone","id":"00000000-0000-4000-8000-000000000003","name":"Nate"},{"claimedBy":null,"id":"00000000-0000-4000-8000-000000000007","name":"Priya"}]}"#
}
