import Foundation
import HTTPTypes
import HummingbirdTesting
import HyzerKit
import HyzerSyncProtocol
import Testing

@testable import HyzerServer

/// Validation, idempotency, last-writer-wins and epochs, straight on the storage.
@Suite struct StorageTests {
    func pushed(
        _ h: Harness, _ g: (admin: String, device: String, token: String, groupID: String), _ records: [SyncRecord]
    ) async throws -> [PushResult] {
        try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: records).results
    }

    /// NFR8: a score made before the round was finished counts whenever it arrives (a phone
    /// that scored the last hole offline; the kiosk's outbox, which carries the finish ahead
    /// of the scores); one made after the finish is refused. Negative control (by hand):
    /// with `validate` refusing every event of a completed round, as before, the late score
    /// below was rejected and so were the kiosk's in KioskAppTests/ShareQRTests.
    @Test(arguments: Backend.allCases) func aScoreMadeBeforeTheFinishCountsWhenItArrivesLate(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        var finished = f.round
        // Events are made at 200 (Fixture.event); finished at 300.
        (finished.status, finished.version, finished.updatedAt, finished.completedAt) = (.completed, UUID(), 300, 300)
        let results = try await pushed(h, g, f.setupRecords + [.round(finished), .scoreEvent(f.event(1, hole: 9))])
        #expect(results.map(\.status) == [.created, .created, .created, .created])
        var after = f.event(0, hole: 9)
        after.event.createdAt = Date(timeIntervalSince1970: 301)
        let refused = try #require(try await pushed(h, g, [.scoreEvent(after)]).first)
        #expect(refused.status == .rejected && refused.reason?.contains("its scores are final") == true)
    }

    @Test(arguments: Backend.allCases) func validatesEveryEvent(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        #expect(try await pushed(h, g, f.setupRecords).allSatisfy { $0.status == .created })
        let stranger = ScoreEventRecord(
            ScoreEvent(
                roundID: f.round.id, participantID: UUID(), hole: 1, strokes: 3,
                reportedBy: f.participants[0], deviceID: "dev", createdAt: Date(timeIntervalSince1970: 200)))
        var otherRound = f.event()
        otherRound.roundID = UUID()
        let cases: [(ScoreEventRecord, String)] = [
            (f.event(strokes: 11), "strokes must be between 1 and 10"),
            (f.event(strokes: 0), "strokes must be between 1 and 10"),
            (f.event(hole: 10), "hole 10 does not exist"),
            (stranger, "is not in this round"),
            (otherRound, "unknown round"),
            (f.event(device: ""), "needs the id of the device"),
        ]
        for (event, reason) in cases {
            let result = try #require(try await pushed(h, g, [.scoreEvent(event)]).first)
            #expect(result.status == .rejected)
            #expect(result.reason?.contains(reason) == true, "\(result.reason ?? "nil") should mention \(reason)")
            #expect(result.seq == nil)
        }
        // Nothing rejected reached the feed.
        #expect(try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100).records.count == 2)
    }

    /// Issue 14: the server's side of tombstones and round pars. A tombstone beats a later
    /// edit; a round's own pars decide its holes, on a deleted course too; a round without
    /// pars on a deleted course, or a tombstone carrying pars, is refused.
    @Test(arguments: Backend.allCases) func tombstonesAndRoundParsDecideWhatIsValid(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        var round = f.round
        round.pars = Array(repeating: 3, count: 12)  // played before the course lost 3 holes
        #expect(try await pushed(h, g, [.course(f.course), .round(round)]).allSatisfy { $0.status == .created })
        let tombstone = CourseRecord.tombstone(id: f.course.id, name: f.course.name, version: UUID(), updatedAt: 150)
        var edit = f.course
        (edit.version, edit.updatedAt, edit.name) = (UUID(), 900, "Edited After")
        var badTombstone = tombstone
        (badTombstone.version, badTombstone.pars) = (UUID(), [3])
        var oldStyle = f.round
        (oldStyle.id, oldStyle.version, oldStyle.pars) = (UUID(), UUID(), nil)
        let results = try await pushed(
            h, g,
            [
                .course(tombstone), .course(edit), .course(badTombstone), .round(oldStyle),
                .scoreEvent(f.event(hole: 12)), .scoreEvent(f.event(hole: 13)),
            ])
        #expect(results.map(\.status) == [.created, .created, .rejected, .rejected, .created, .rejected])
        #expect(results[2].reason?.contains("a deleted course carries no pars") == true, "\(results[2])")
        #expect(results[3].reason?.contains("was deleted, and the round names no pars") == true, "\(results[3])")
        #expect(results[5].reason?.contains("hole 13 does not exist") == true, "\(results[5])")
        // The edit was appended but the tombstone stayed current: the board shows the
        // round under the course's name, on its own 12 holes.
        let source = try #require(try await h.storage.liveBoardSource(groupID: g.groupID))
        #expect(source.courses[f.course.id]?.isTombstone == true)
        #expect(LiveBoard(source).rounds.first?.holes == 12)
    }

    @Test(arguments: Backend.allCases) func refusesEventsForCompletedOrUnstartedRounds(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        var f = try Fixture(status: .setup)
        _ = try await pushed(h, g, f.setupRecords)
        #expect(try await pushed(h, g, [.scoreEvent(f.event())]).first?.reason?.contains("not started") == true)

        var completed = f.round
        completed.version = UUID()
        completed.status = .completed
        completed.startedAt = 150
        completed.completedAt = 300
        completed.updatedAt = 300
        _ = try await pushed(h, g, [.round(completed)])
        f = Fixture(course: f.course, round: completed)
        // Made after the finish (one made before it is a late arrival, and counts).
        var late = f.event()
        late.event.createdAt = Date(timeIntervalSince1970: 301)
        let result = try #require(try await pushed(h, g, [.scoreEvent(late)]).first)
        #expect(result.status == .rejected)
        #expect(result.reason?.contains("completed") == true)
    }

    @Test(arguments: Backend.allCases) func duplicatesKeepTheirFirstSequence(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        let event = f.event()
        let first = try await pushed(h, g, f.setupRecords + [.scoreEvent(event)])
        let again = try await pushed(h, g, f.setupRecords + [.scoreEvent(event)])
        #expect(first.map(\.status) == [.created, .created, .created])
        #expect(again.map(\.status) == [.duplicate, .duplicate, .duplicate])
        #expect(again.map(\.seq) == first.map(\.seq))
        // The same id with other content is not a retry.
        var forged = event
        forged.strokes = 7
        let refused = try #require(try await pushed(h, g, [.scoreEvent(forged)]).first)
        #expect(refused.status == .rejected)
        #expect(refused.reason?.contains("different content") == true)
        #expect(try await h.storage.head(groupID: g.groupID) == first.last?.seq)
    }

    @Test(arguments: Backend.allCases) func roundsMergeByLifecycleThenTime(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        _ = try await pushed(h, g, f.setupRecords)
        // A late, older "setup" copy is stored in the feed but does not reopen setup:
        // scoring still works against the active version.
        var stale = f.round
        stale.version = UUID()
        stale.status = .setup
        stale.updatedAt = 500
        #expect(try await pushed(h, g, [.round(stale)]).first?.status == .created)
        #expect(try await pushed(h, g, [.scoreEvent(f.event())]).first?.status == .created)
        // Changing the participants of a started round is refused.
        var renamed = f.round
        renamed.version = UUID()
        renamed.updatedAt = 600
        renamed.participants.append(Participant(id: UUID(), name: "Late", kind: .guest))
        let refused = try #require(try await pushed(h, g, [.round(renamed)]).first)
        #expect(refused.status == .rejected)
        #expect(refused.reason?.contains("participant list") == true)
    }

    @Test(arguments: Backend.allCases) func pullPagesThroughTheFeed(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        _ = try await pushed(h, g, f.setupRecords + (1...9).map { .scoreEvent(f.event(hole: $0)) })
        var after: Int64 = 0
        var seen: [Int64] = []
        for _ in 0..<10 {
            let page = try await h.storage.pull(groupID: g.groupID, after: after, limit: 4)
            seen += page.records.map(\.seq)
            #expect(page.head == 11)
            #expect(page.next == (page.records.last?.seq ?? after))
            after = page.next
            if !page.hasMore { break }
        }
        #expect(seen == Array(1...11))
        let empty = try await h.storage.pull(groupID: g.groupID, after: 11, limit: 4)
        #expect(empty.records.isEmpty && !empty.hasMore && empty.next == 11)
    }

    @Test func tokensAreStoredHashed() async throws {
        let h = try Harness()
        let g = try await h.group()
        let raw = try Data(contentsOf: h.dir.appendingPathComponent(SQLiteStorage.fileName))
        #expect(raw.range(of: Data(g.token.utf8)) == nil)
        #expect(raw.range(of: Data(g.admin.utf8)) == nil)
        #expect(try await h.storage.authenticate(token: g.token)?.deviceID == g.device)
        #expect(try await h.storage.authenticate(token: g.admin)?.role == .admin)
    }

    /// A push over HTTP moves the state file's head too (the route writes it after poking
    /// the other devices): without it a later restore of an older copy would go unnoticed.
    @Test func aPushOverHTTPMovesTheStateFilesHead() async throws {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        let before = try #require(SQLiteStorage.readState(h.dir)).head
        try await h.test { client in
            try await client.execute(
                uri: "/v1/push", method: .post, headers: headers(token: g.token, device: g.device),
                body: try body(PushRequest(deviceID: g.device, records: f.setupRecords + [.scoreEvent(f.event())]))
            ) { r in #expect(r.status == .ok) }
        }
        let after = try #require(SQLiteStorage.readState(h.dir)).head
        #expect(after == (try await h.storage.head(groupID: g.groupID)))
        #expect(after > before)
    }

    /// A restore keeps what was revoked since the backup: a stolen phone's token does not
    /// come back with an older copy. Negative control: the backup alone, put in place
    /// without the restore command, still grants the token.
    @Test func aRestoreKeepsTheRevocationsMadeSinceTheBackup() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-revoked-\(UUID().uuidString)")
        let bare = dir.appendingPathExtension("bare")
        let backup = dir.appendingPathExtension("backup")
        defer { for url in [dir, bare, backup] { try? FileManager.default.removeItem(at: url) } }
        let storage = try SQLiteStorage(directory: dir)
        let (group, _) = try await storage.createGroup(name: "League")
        let stolen = try await storage.enroll(groupID: group.id, deviceID: "stolen", name: "Phone")
        let kept = try await storage.enroll(groupID: group.id, deviceID: "kept", name: "Kiosk")
        let view = try await storage.createViewToken(groupID: group.id)
        try await storage.backup(to: backup)
        try await storage.revoke(groupID: group.id, deviceID: "stolen")
        #expect(try await storage.revokeViewTokens(groupID: group.id) == 1)
        try storage.close()

        _ = try SQLiteStorage.restore(backup: backup, into: dir)
        let restored = try SQLiteStorage(directory: dir)
        #expect(try await restored.authenticate(token: stolen) == nil)
        #expect(try await restored.viewGroup(token: view) == nil)
        #expect(try await restored.authenticate(token: kept)?.deviceID == "kept")
        #expect(try await restored.devices(groupID: group.id).first { $0.deviceID == "stolen" }?.revokedAt != nil)
        try restored.close()

        try FileManager.default.createDirectory(at: bare, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: backup, to: bare.appendingPathComponent(SQLiteStorage.fileName))
        let copy = try SQLiteStorage(directory: bare)
        #expect(try await copy.authenticate(token: stolen)?.deviceID == "stolen", "the backup itself grants the token")
        try copy.close()
    }

    @Test func epochSurvivesRestartsButNotARestore() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-epoch-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let f = try Fixture()
        var storage: SQLiteStorage? = try SQLiteStorage(directory: dir)
        let (group, _) = try await storage!.createGroup(name: "League")
        _ = try await storage!.enroll(groupID: group.id, deviceID: "d1", name: "Phone")
        _ = try await storage!.push(groupID: group.id, deviceID: "d1", records: f.setupRecords)
        let epoch = storage!.epoch
        let backup = dir.appendingPathExtension("backup")
        defer { try? FileManager.default.removeItem(at: backup) }
        try await storage!.backup(to: backup)
        _ = try await storage!.push(groupID: group.id, deviceID: "d1", records: [.scoreEvent(f.event())])
        try storage!.close()
        storage = nil

        // A plain restart keeps the epoch.
        storage = try SQLiteStorage(directory: dir)
        #expect(storage!.epoch == epoch)
        try storage!.close()
        storage = nil

        // The file replaced by an older copy (a restore by hand): the head went back, so
        // the epoch changes.
        let path = dir.appendingPathComponent(SQLiteStorage.fileName).path
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        try FileManager.default.copyItem(atPath: backup.path, toPath: path)
        storage = try SQLiteStorage(directory: dir)
        let restoredEpoch = storage!.epoch
        #expect(restoredEpoch != epoch)
        #expect(try await storage!.head(groupID: group.id) == 2)
        try storage!.close()
        storage = nil

        // The restore command always rotates it.
        let again = try SQLiteStorage.restore(backup: backup, into: dir)
        #expect(again != restoredEpoch && again != epoch)
        #expect(try SQLiteStorage(directory: dir).epoch == again)
    }
}

extension Fixture {
    init(course: CourseRecord, round: RoundRecord) {
        self.course = course
        self.round = round
    }
}
