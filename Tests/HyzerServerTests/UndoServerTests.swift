import Foundation
import HyzerKit
import HyzerServer
import HyzerSyncProtocol
import Testing

/// Issue 35 on the server, on both backends: a reopening, a restore and a merge are new
/// versions that outrank what they undo, accepted only in the shapes that undo allows.
@Suite struct UndoServerTests {
    func pushed(
        _ h: Harness, _ g: (admin: String, device: String, token: String, groupID: String), _ records: [SyncRecord]
    ) async throws -> [PushResult] {
        try await h.storage.push(groupID: g.groupID, deviceID: g.device, records: records).results
    }

    static func action(_ kind: RecordedAction.Kind, at seconds: Double) -> RecordedAction {
        RecordedAction(kind: kind, at: Date(timeIntervalSince1970: seconds), deviceID: "kiosk", authority: .organizerCode)
    }

    /// `f.round`, finished at 1000, with one score.
    func finished(
        _ h: Harness, _ g: (admin: String, device: String, token: String, groupID: String)
    ) async throws -> (
        Fixture, RoundRecord
    ) {
        let f = try Fixture()
        var done = f.round
        (done.version, done.updatedAt, done.status, done.completedAt) = (UUID(), 1000, .completed, 1000)
        let results = try await pushed(h, g, f.setupRecords + [.scoreEvent(f.event()), .round(done)])
        #expect(results.allSatisfy { $0.status == .created }, "\(results)")
        return (f, done)
    }

    func reopening(_ done: RoundRecord, at seconds: Double, generation: Int = 1) -> RoundRecord {
        var r = done
        (r.version, r.updatedAt, r.status, r.completedAt) = (UUID(), seconds, .active, nil)
        (r.generation, r.actions) = (generation, [Self.action(.reopened, at: seconds)])
        return r
    }

    @Test(arguments: Backend.allCases) func aReopeningWithinTheWindowIsCurrentAndOnTheBoard(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let (f, done) = try await finished(h, g)
        let reopened = reopening(done, at: 1000 + 3600)
        // A late copy of the finish, from before the reopening, arrives after it.
        var lateFinish = done
        (lateFinish.version, lateFinish.updatedAt) = (UUID(), 99_999)
        var correction = f.event(1, hole: 2, strokes: 4).event
        (correction.correction, correction.createdAt) = (.organizerCode, Date(timeIntervalSince1970: 5000))
        let results = try await pushed(
            h, g,
            [.round(reopened), .scoreEvent(f.event(1, hole: 1, strokes: 5)), .round(lateFinish), .scoreEvent(.init(correction))])
        #expect(results.map(\.status) == [.created, .created, .created, .created], "\(results)")
        let source = try #require(try await h.storage.liveBoardSource(groupID: g.groupID))
        let shown = try #require(source.rounds.first)
        #expect(shown.id == f.round.id)
        #expect(shown.status == .active)
        #expect(shown.generation == 1)
        // An ordinary score made after the finish of a round that is finished again is still refused.
        var finishedAgain = reopened
        (finishedAgain.version, finishedAgain.updatedAt, finishedAgain.status, finishedAgain.completedAt) = (
            UUID(), 9000, .completed, 9000
        )
        var late = f.event(0, hole: 3).event
        late.createdAt = Date(timeIntervalSince1970: 9500)
        let after = try await pushed(h, g, [.round(finishedAgain), .scoreEvent(.init(late))])
        #expect(after.map(\.status) == [.created, .rejected])
    }

    @Test(arguments: Backend.allCases) func reopeningsOfTheWrongShapeAreRefused(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let (_, done) = try await finished(h, g)
        let tooLate = reopening(done, at: 1000 + Round.defaultReopenWindow + 1)
        let skipped = reopening(done, at: 2000, generation: 2)
        var otherPlayers = reopening(done, at: 2000)
        otherPlayers.participants.removeLast()
        let results = try await pushed(h, g, [.round(tooLate), .round(skipped), .round(otherPlayers)])
        #expect(results.map(\.status) == [.rejected, .rejected, .rejected])
        #expect(results[0].reason?.contains("only within 24 h of its finish") == true, "\(results[0])")
        #expect(results[1].reason?.contains("one generation at a time") == true, "\(results[1])")
        #expect(results[2].reason?.contains("keeps its participants") == true, "\(results[2])")
        // Control: the same reopening in time is taken.
        #expect(try await pushed(h, g, [.round(reopening(done, at: 2000))]).first?.status == .created)
    }

    @Test(arguments: Backend.allCases) func aRestoreOutranksTheDeletionAndOnlyADeletionIsRestored(_ backend: Backend) async throws
    {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        _ = try await pushed(h, g, [.course(f.course)])
        let course = try f.course.course()
        // Restoring a course that was never deleted: refused.
        let early = CourseRecord(
            course, version: UUID(), updatedAt: 200,
            lineage: CourseLineage(generation: 1, action: Self.action(.courseRestored, at: 200)))
        #expect(try await pushed(h, g, [.course(early)]).first?.status == .rejected)
        let tombstone = CourseRecord.tombstone(id: course.id, name: course.name, version: UUID(), updatedAt: 300)
        let restore = CourseRecord(
            course, version: UUID(), updatedAt: 250,
            lineage: CourseLineage(generation: 1, action: Self.action(.courseRestored, at: 250)))
        // An offline edit and an offline deletion of the old generation, made later by the clock.
        var offlineEdit = f.course
        (offlineEdit.version, offlineEdit.updatedAt, offlineEdit.name) = (UUID(), 900, "Edited Offline")
        let offlineDelete = CourseRecord.tombstone(id: course.id, name: course.name, version: UUID(), updatedAt: 950)
        let results = try await pushed(
            h, g, [.course(tombstone), .course(restore), .course(offlineEdit), .course(offlineDelete)])
        #expect(results.map(\.status) == [.created, .created, .created, .created], "\(results)")
        // The restore is current: a round in play on the course shows it live, under its name.
        #expect(try await pushed(h, g, [.round(f.round)]).first?.status == .created)
        let source = try #require(try await h.storage.liveBoardSource(groupID: g.groupID))
        #expect(source.courses[course.id]?.isTombstone == false)
        #expect(source.courses[course.id]?.name == "Pine Hollow")
        #expect(source.courses[course.id]?.generation == 1)
        let stamp = try #require(SyncRecord.course(restore).stamp)
        #expect(stamp > SyncRecord.course(offlineDelete).stamp!)
        #expect(stamp > SyncRecord.course(offlineEdit).stamp!)
        let deletedAgain = CourseRecord.tombstone(
            id: course.id, name: course.name, version: UUID(), updatedAt: 400, lineage: CourseLineage(generation: 1))
        #expect(SyncRecord.course(deletedAgain).stamp! > stamp)
        #expect(try await pushed(h, g, [.course(deletedAgain)]).first?.status == .created)
    }

    @Test(arguments: Backend.allCases) func aMergeNamesAPlayerStillOnTheRoster(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let nate = PlayerRecord(id: UUID(), version: UUID(), updatedAt: 1, displayName: "Nate", aliases: [])
        let nathan = PlayerRecord(id: UUID(), version: UUID(), updatedAt: 1, displayName: "Nathan", aliases: [])
        let kim = PlayerRecord(id: UUID(), version: UUID(), updatedAt: 1, displayName: "Kim", aliases: [])
        _ = try await pushed(h, g, [.player(nate), .player(nathan), .player(kim)])
        func retired(_ p: PlayerRecord, into: UUID?) -> PlayerRecord {
            PlayerRecord(
                id: p.id, version: UUID(), updatedAt: 2, displayName: p.displayName, aliases: [],
                retirement: PlayerRetirement(
                    mergedInto: into, action: Self.action(into == nil ? .playerRemoved : .playerMerged, at: 2)))
        }
        let results = try await pushed(
            h, g,
            [
                .player(retired(nathan, into: UUID())),  // unknown
                .player(retired(nathan, into: nathan.id)),  // itself
                .player(retired(kim, into: nil)),  // removed
                .player(retired(nathan, into: kim.id)),  // into a removed player
                .player(retired(nathan, into: nate.id)),  // fine
                .player(retired(nate, into: nathan.id)),  // back into the merged one: a loop
            ])
        #expect(results.map(\.status) == [.rejected, .rejected, .created, .rejected, .created, .rejected], "\(results)")
        // A rename made offline never brings a merged player back.
        var rename = nathan
        (rename.version, rename.updatedAt, rename.displayName) = (UUID(), 99, "Nat")
        #expect(SyncRecord.player(rename).stamp! < SyncRecord.player(retired(nathan, into: nate.id)).stamp!)
    }

    /// The group sets its window (`hyzer-server group set-reopen-window`): pulls carry it,
    /// and reopenings are held to it; a window out of range is refused and nothing changes.
    @Test(arguments: Backend.allCases) func theGroupsReopenWindowIsPulledAndHeld(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        #expect(try await h.storage.pull(groupID: g.groupID, after: 0, limit: 10).reopenWindow == Round.defaultReopenWindow)
        let set = try await h.storage.setReopenWindow(groupID: g.groupID, seconds: 3600)
        #expect(set.reopenWindow == 3600)
        #expect(try await h.storage.group(id: g.groupID)?.reopenWindow == 3600)
        #expect(try await h.storage.groups().first { $0.id == g.groupID }?.reopenWindow == 3600)
        await #expect(throws: StorageError.self) { try await h.storage.setReopenWindow(groupID: g.groupID, seconds: -1) }
        await #expect(throws: StorageError.self) {
            try await h.storage.setReopenWindow(groupID: g.groupID, seconds: .infinity)
        }
        await #expect(throws: StorageError.self) { try await h.storage.setReopenWindow(groupID: "nope", seconds: 60) }
        #expect(try await h.storage.pull(groupID: g.groupID, after: 0, limit: 10).reopenWindow == 3600)
        let (_, done) = try await finished(h, g)
        // Two hours after the finish: past this group's hour, though inside the default day.
        let late = try await pushed(h, g, [.round(reopening(done, at: 1000 + 7200))])
        #expect(late.first?.status == .rejected)
        #expect(late.first?.reason?.contains("only within 1 h of its finish") == true, "\(late)")
        #expect(try await pushed(h, g, [.round(reopening(done, at: 1000 + 1800))]).first?.status == .created)
    }

    /// A generation no device makes (the API fuzzer sends them): the stamp is computed
    /// without overflowing (an overflow trapped and took the server down, found by
    /// `make fuzz-api`), and the record is refused with the bound, not stored.
    @Test(arguments: Backend.allCases) func anAbsurdGenerationIsRefusedNotACrash(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let (f, done) = try await finished(h, g)
        var round = reopening(done, at: 2000)
        round.generation = .max
        let course = CourseRecord(
            try f.course.course(), version: UUID(), updatedAt: 300, lineage: CourseLineage(generation: .max))
        #expect(SyncRecord.round(round).stamp!.lifecycle == 4 * ChangeStamp.maxGeneration + 1)
        let results = try await pushed(h, g, [.round(round), .course(course)])
        #expect(results.map(\.status) == [.rejected, .rejected])
        #expect(results[0].reason?.contains("generation is 0 to 1000000") == true, "\(results)")
        // The server is still there and the round as it was.
        #expect(try await pushed(h, g, [.round(reopening(done, at: 2000))]).first?.status == .created)
    }

    /// The undo toast's retraction (issue 35) on both backends: taken in its one shape,
    /// kept in the feed with its flag, and read by the phones' board as an empty cell.
    @Test(arguments: Backend.allCases) func aRetractionIsKeptAndItsCellIsEmptyOnTheBoard(_ backend: Backend) async throws {
        let h = try await Harness.make(backend)
        let g = try await h.group()
        let f = try Fixture()
        let saved = f.event(1, hole: 2, strokes: 5)
        var retraction = f.event(1, hole: 2, strokes: 5, supersedes: [saved.id]).event
        retraction.retraction = true
        var bare = retraction
        (bare.id, bare.supersedes) = (UUID(), [])
        let results = try await pushed(
            h, g, f.setupRecords + [.scoreEvent(saved), .scoreEvent(.init(retraction)), .scoreEvent(.init(bare))])
        #expect(results.map(\.status) == [.created, .created, .created, .created, .rejected], "\(results)")
        #expect(results.last?.reason?.contains("must name the events it withdraws") == true)
        let source = try #require(try await h.storage.liveBoardSource(groupID: g.groupID))
        let events = source.events[f.round.id] ?? []
        #expect(events.filter(\.isRetraction).map(\.id) == [retraction.id])
        let card = Scorecard(course: try f.course.course(), round: f.round.round, events: events)
        #expect(card.value(participant: f.participants[1], hole: 2) == nil)
        // Control: without the retraction the board has the score.
        let before = Scorecard(course: try f.course.course(), round: f.round.round, events: events.filter { !$0.isRetraction })
        #expect(before.value(participant: f.participants[1], hole: 2) == 5)
        // And the feed a device pulls carries the flag.
        let page = try await h.storage.pull(groupID: g.groupID, after: 0, limit: 100)
        let pulled = page.records.compactMap { record -> ScoreEvent? in
            if case .scoreEvent(let e) = record.record { return e.event }
            return nil
        }
        #expect(pulled.first { $0.id == retraction.id }?.isRetraction == true)
    }
}
