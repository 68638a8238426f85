import Foundation
import GRDB
import HyzerKit
import HyzerSync
import HyzerSyncProtocol
import Testing

@testable import HyzerStore

/// The store half of sync, without a server: what becomes pending, how pulled records
/// apply, and that the cursor only moves with the data.
@Suite struct SyncStoreTests {
    /// In memory: the same migrations and triggers as a device's files, no disk.
    final class Store {
        let db: HyzerDatabase
        init() throws { db = try HyzerDatabase.inMemory() }
    }

    static let stream = "http://server|group"

    func course() throws -> Course { try Course(name: "Nine", holeCount: 9) }

    @Test func everyWriteIsPendingUntilItsVersionIsAcknowledged() throws {
        let s = try Store()
        let course = try course()
        try s.db.write(.saveCourse(course))
        let player = try Player(displayName: "Nate")
        try s.db.write(.savePlayer(player))
        var pending = try s.db.write(.pendingSyncRecords())
        #expect(pending.map(\.record.kind) == [.course, .player])
        let courseV1 = try #require(pending.first { $0.record.kind == .course }).record

        // A change while v1 is "in flight": the ack of v1 must not clear the change.
        try s.db.write(.saveCourse(try Course(id: course.id, name: "Nine Renamed", holeCount: 9)))
        try s.db.write(.acknowledgeSynced([RecordVersionKey(kind: .course, id: course.id, version: courseV1.version)]))
        pending = try s.db.write(.pendingSyncRecords())
        let courseV2 = try #require(pending.first { $0.record.kind == .course }).record
        #expect(courseV2.version != courseV1.version)
        guard case .course(let c) = courseV2 else {
            Issue.record("not a course")
            return
        }
        #expect(c.name == "Nine Renamed")
        try s.db.write(
            .acknowledgeSynced(
                pending.map { RecordVersionKey(kind: $0.record.kind, id: $0.record.id, version: $0.record.version) }))
        #expect(try s.db.read(.pendingSyncCount) == 0)

        // Rounds: participants and status changes are new versions too; events follow.
        let round = try s.db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        _ = try s.db.write(.startRound(round.id))
        try s.db.write(
            .recordScore(ScoreEntry(roundID: round.id, participantID: player.id, hole: 1, strokes: 3, reportedBy: player.id)))
        pending = try s.db.write(.pendingSyncRecords())
        #expect(pending.map(\.record.kind) == [.round, .scoreEvent])
        guard case .round(let r) = pending[0].record else {
            Issue.record("not a round")
            return
        }
        #expect(r.status == .active && r.participants.count == 1)
    }

    @Test func pulledRecordsApplyInOrderWithTheCursorAndDoNotEcho() throws {
        let s = try Store()
        let course = try course()
        let people = [
            Participant(id: UUID(), name: "Nate", kind: .registered),
            Participant(id: UUID(), name: "Guest", kind: .guest),
        ]
        let round = RoundRecord(
            id: UUID(), version: UUID(), updatedAt: 10, courseID: course.id, organizerID: people[0].id,
            participants: people, status: .active, createdAt: 5, startedAt: 6)
        let e1 = ScoreEventRecord(
            ScoreEvent(
                roundID: round.id, participantID: people[1].id, hole: 2, strokes: 4,
                reportedBy: people[0].id, deviceID: "phone", createdAt: s.db.clock.date))
        let page: [PulledRecord] = [
            PulledRecord(seq: 1, record: .course(CourseRecord(course, version: UUID(), updatedAt: 1))),
            PulledRecord(seq: 2, record: .round(round)),
            PulledRecord(seq: 3, record: .scoreEvent(e1)),
        ]
        // Not adopted yet: refused, nothing stored, cursor untouched.
        #expect(throws: StoreError.self) { try s.db.write(.applyPulled(page, next: 3, stream: Self.stream, epoch: "e1")) }
        #expect(try s.db.read(.syncCursor).cursor == 0)
        #expect(try s.db.read(.round(id: round.id)) == nil)

        try s.db.write(.adoptSyncStream(Self.stream, epoch: "e1"))
        let result = try s.db.write(.applyPulled(page, next: 3, stream: Self.stream, epoch: "e1"))
        #expect(result.applied == 3 && result.rejected.isEmpty)
        #expect(result.roundsChanged == [round.id])
        #expect(try s.db.read(.syncCursor) == SyncCursor(stream: Self.stream, epoch: "e1", cursor: 3))
        let stored = try #require(try s.db.read(.round(id: round.id)))
        #expect(stored.status == .active)
        #expect(stored.participants.map(\.name) == ["Nate", "Guest"])
        #expect(try s.db.read(.events(round: round.id)).map(\.id) == [e1.id])
        // Nothing pulled is pushed back.
        #expect(try s.db.read(.pendingSyncCount) == 0)
        // Applying the same page again changes nothing.
        let again = try s.db.write(.applyPulled(page, next: 3, stream: Self.stream, epoch: "e1"))
        #expect(again.applied == 0 && again.unchanged == 3)
    }

    @Test func lastWriterWinsAndRoundsNeverMoveBack() throws {
        let s = try Store()
        let course = try course()
        try s.db.write(.saveCourse(course))  // local, updated "now"
        try s.db.write(.adoptSyncStream(Self.stream, epoch: "e1"))
        let older = CourseRecord(id: course.id, version: UUID(), updatedAt: 1, name: "Old Name", pars: course.pars)
        _ = try s.db.write(
            .applyPulled([PulledRecord(seq: 1, record: .course(older))], next: 1, stream: Self.stream, epoch: "e1"))
        #expect(try s.db.read(.course(id: course.id))?.name == "Nine")
        #expect(try s.db.read(.pendingSyncCount) == 1, "the local, newer version still has to be pushed")
        let newer = CourseRecord(
            id: course.id, version: UUID(), updatedAt: Date().timeIntervalSince1970 + 60,
            name: "New Name", pars: course.pars)
        _ = try s.db.write(
            .applyPulled([PulledRecord(seq: 2, record: .course(newer))], next: 2, stream: Self.stream, epoch: "e1"))
        #expect(try s.db.read(.course(id: course.id))?.name == "New Name")
        #expect(try s.db.read(.pendingSyncCount) == 0)

        // A round finished here stays finished when an "active" copy with a later time arrives,
        // and a remote score accepted before the finish is still stored.
        let player = try Player(displayName: "Nate")
        try s.db.write(.savePlayer(player))
        var round = try s.db.write(.createRound(courseID: course.id, organizerID: player.id, participants: [.registered(player)]))
        round = try s.db.write(.startRound(round.id))
        round = try s.db.write(.finishRound(round.id))
        var stale = RoundRecord(round, version: UUID(), updatedAt: Date().timeIntervalSince1970 + 3600)
        stale.status = .active
        stale.completedAt = nil
        let late = ScoreEventRecord(
            ScoreEvent(
                roundID: round.id, participantID: player.id, hole: 3, strokes: 2,
                reportedBy: player.id, deviceID: "phone", createdAt: s.db.clock.date))
        let result = try s.db.write(
            .applyPulled(
                [PulledRecord(seq: 3, record: .round(stale)), PulledRecord(seq: 4, record: .scoreEvent(late))],
                next: 4, stream: Self.stream, epoch: "e1"))
        #expect(result.rejected.isEmpty)
        #expect(try s.db.read(.round(id: round.id))?.status == .completed)
        #expect(try s.db.read(.events(round: round.id)).map(\.id) == [late.id])
    }

    @Test func aNewEpochMakesEverythingPendingAgain() throws {
        let s = try Store()
        try s.db.write(.saveCourse(try course()))
        try s.db.write(.adoptSyncStream(Self.stream, epoch: "e1"))
        let pending = try s.db.write(.pendingSyncRecords())
        try s.db.write(
            .acknowledgeSynced(
                pending.map { RecordVersionKey(kind: $0.record.kind, id: $0.record.id, version: $0.record.version) }))
        #expect(try s.db.read(.pendingSyncCount) == 0)
        #expect(try s.db.write(.adoptSyncStream(Self.stream, epoch: "e1")) == false)
        #expect(try s.db.write(.adoptSyncStream(Self.stream, epoch: "e2")) == true)
        #expect(try s.db.read(.pendingSyncCount) == 1)
        #expect(try s.db.read(.syncCursor).cursor == 0)
    }

    @Test func outboxFollowsTheA1States() throws {
        let s = try Store()
        try s.db.write(.saveCourse(try course()))
        let pending = try s.db.write(.pendingSyncRecords())
        #expect(try s.db.write(.reconcileOutbox(with: pending)).enqueued == 1)
        #expect(try s.db.write(.reconcileOutbox(with: pending)).enqueued == 0, "reconciling twice enqueues nothing new")
        let claimed = try s.db.write(.claimOutbox(limit: 10))
        #expect(try s.db.read(.outboxStatus(of: claimed[0].record.id)) == .inFlight)
        // Rejected → failed, and reconciling the same version does not retry it.
        let key = claimed[0].key
        _ = try s.db.write(
            .completeOutbox([
                PushResult(kind: key.kind, id: key.id, version: key.version, status: .rejected, reason: "no")
            ]))
        #expect(try s.db.read(.outboxStatus(of: key.id)) == .failed)
        #expect(try s.db.read(.failedOutbox()).first?.reason == "no")
        _ = try s.db.write(.reconcileOutbox(with: try s.db.write(.pendingSyncRecords())))
        #expect(try s.db.read(.outboxStatus(of: key.id)) == .failed)
        // A new epoch gives it another chance.
        try s.db.write(.resetOutboxForNewEpoch)
        #expect(try s.db.read(.outboxStatus(of: key.id)) == .pending)
    }
}
