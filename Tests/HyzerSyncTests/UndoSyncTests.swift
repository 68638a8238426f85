import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Testing

/// Someone older than protocol 2 on the other end. An older server answers without a
/// version. An older device (`recordsToo`) also read every record without the undo fields:
/// its record types had none, so decoding dropped them; its own pushes never carry them
/// (it cannot make them).
struct OlderPeerTransport: SyncTransport {
    let client: SyncClient
    var recordsToo = false
    /// The protocol the older server says it speaks: nil for a v1 server, which says none
    /// (and no reopen window); 3 for one before seasons, say.
    var version: Int? = nil

    func push(_ records: [SyncRecord]) async throws(SyncClientError) -> PushResponse {
        var answer = try await client.push(records)
        answer.protocolVersion = version
        return answer
    }

    func pull(after: Int64, limit: Int) async throws(SyncClientError) -> PullResponse {
        var page = try await client.pull(after: after, limit: limit)
        page.protocolVersion = version
        if version == nil { page.reopenWindow = nil }
        if recordsToo { page.records = page.records.map { PulledRecord(seq: $0.seq, record: Self.asVersion1($0.record)) } }
        return page
    }

    static func asVersion1(_ record: SyncRecord) -> SyncRecord {
        switch record {
        case .course(var c):
            (c.generation, c.action) = (nil, nil)
            return .course(c)
        case .player(var p):
            (p.removed, p.mergedInto, p.action) = (nil, nil, nil)
            return .player(p)
        case .round(var r):
            (r.generation, r.actions, r.startHole) = (nil, nil, nil)
            return .round(r)
        case .scoreEvent(var e):
            (e.correction, e.retraction) = (nil, nil)
            return .scoreEvent(e)
        case .event, .season:
            return record  // a v1 server never sends one: its pages never hold the kind
        }
    }
}

/// Issue 35 through a real server (loopback, SQLite files): a reopening, a correction, a
/// restore and a merge made on one device reach the others, and a device built before
/// protocol 2 keeps syncing through all of it.
@Suite(.serialized) struct UndoSyncTests {
    static let code = ActionContext(authority: .organizerCode, deviceName: "Clubhouse kiosk")

    @Test func undoOrdersAboveWhatItUndoes() throws {
        let course = try Course(name: "Order Park", holeCount: 9)
        func c(_ g: Int, deleted: Bool, at t: Double) -> SyncRecord {
            let lineage = CourseLineage(generation: g)
            return deleted
                ? .course(.tombstone(id: course.id, name: course.name, version: UUID(), updatedAt: t, lineage: lineage))
                : .course(CourseRecord(course, version: UUID(), updatedAt: t, lineage: lineage))
        }
        // Later clocks first: the order is the lifecycle's, whatever the clocks say.
        let courses = [
            c(0, deleted: false, at: 9), c(0, deleted: true, at: 8), c(1, deleted: false, at: 7), c(1, deleted: true, at: 6),
        ]
        #expect(courses.map { $0.stamp! } == courses.map { $0.stamp! }.sorted())
        let round = RoundRecord(
            id: UUID(), version: UUID(), updatedAt: 9, courseID: course.id, organizerID: UUID(),
            participants: [Participant(id: UUID(), name: "A", kind: .guest)], status: .completed, createdAt: 1)
        func r(_ status: RoundStatus, _ g: Int, at t: Double) -> SyncRecord {
            var copy = round
            (copy.status, copy.generation, copy.updatedAt, copy.version) = (status, g, t, UUID())
            return .round(copy)
        }
        let rounds = [r(.completed, 0, at: 9), r(.active, 1, at: 8), r(.awaitingFinalization, 1, at: 7), r(.completed, 1, at: 6)]
        #expect(rounds.map { $0.stamp! } == rounds.map { $0.stamp! }.sorted())
        let player = try Player(displayName: "P")
        let players: [SyncRecord] = [
            .player(PlayerRecord(player, version: UUID(), updatedAt: 9)),
            .player(PlayerRecord(player, version: UUID(), updatedAt: 8, retirement: PlayerRetirement())),
            .player(PlayerRecord(player, version: UUID(), updatedAt: 7, retirement: PlayerRetirement(mergedInto: UUID()))),
        ]
        #expect(players.map { $0.stamp! } == players.map { $0.stamp! }.sorted())
    }

    @Test func reopenCorrectRestoreAndMergeReachEveryDeviceAndAnOlderOneKeepsUp() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let old = try await group.device("Old", transport: { OlderPeerTransport(client: $0, recordsToo: true) })
            let round = try a.startRound(["Nate", "Mike"])
            for hole in 1...18 {
                try a.score(round, 0, hole: hole, 3)
                try a.score(round, 1, hole: hole, 4)
            }
            _ = try await a.db.write(.finishRound(round.id))
            try await a.sync()
            for d in [b, old] { try await d.sync() }
            #expect(try await b.db.read(.undoPermission(inGroup: true)).allowed)
            #expect(try await old.db.read(.round(id: round.id))?.status == .completed)

            // B reopens it with the code; A scores a fix in the reopened round; B finishes it again.
            let reopened = try await b.db.write(.reopenRound(round.id, by: Self.code))
            #expect(reopened.generation == 1)
            let pushed = try await b.sync()
            #expect(pushed.rejected.isEmpty)
            try await a.sync()
            // Every hole has a value: it waits to be finalized again, on both.
            #expect(try await a.db.read(.round(id: round.id))?.status == .awaitingFinalization)
            #expect(try await a.db.read(.pendingSyncCount) == 0)
            #expect(try await a.db.read(.round(id: round.id))?.actions.first?.deviceID == b.db.deviceID)
            // The phones' board shows it in play again.
            let source = try #require(try await group.server.storage.liveBoardSource(groupID: group.groupID))
            #expect(source.rounds.map(\.id) == [round.id])
            try a.score(reopened, 1, hole: 18, 3)
            try await a.sync()
            try await b.sync()
            _ = try await b.db.write(.finishRound(round.id))
            try await b.sync()

            // Later, A corrects hole 1 of the finished round without reopening it.
            try await a.sync()
            _ = try await a.db.write(
                .correctFinishedScore(
                    ScoreEntry(
                        roundID: round.id, participantID: round.participants[0].id, hole: 1, strokes: 2,
                        reportedBy: ScoreEvent.nobody, deviceName: "A"), authority: .organizerCode))
            try await a.sync()
            for d in [b, old] { try await d.sync() }
            let standings = try a.snapshot(round).standings
            #expect(standings.rows.map(\.toPar) == [-1, 17])
            let bSnapshot = try b.snapshot(round)
            #expect(bSnapshot.standings == standings)
            #expect(bSnapshot.round.status == .completed)
            #expect(bSnapshot.round.generation == 1)
            #expect(bSnapshot.scorecard.resolution(participant: round.participants[0].id, hole: 1).isCorrected)
            let line = try #require(try await b.db.read(.historyPage()).lines.first { $0.roundID == round.id })
            #expect(line.actions.map(\.kind) == [.reopened])
            #expect(line.correctedCells == 1)

            // A deletes a course; B, not told yet, edits it offline; B then restores it.
            let course = try #require(try await a.db.read(.course(id: round.courseID)))
            try await a.db.write(.deleteCourse(id: course.id, by: Self.code))
            try await a.sync()
            try await b.db.write(.saveCourse(try Course(id: course.id, name: "Renamed Offline", pars: course.pars)))
            try await b.sync()
            #expect(try await b.db.read(.course(id: course.id)) == nil)
            try await b.db.write(.restoreCourse(id: course.id, by: Self.code))
            try await b.sync()
            // A merges a player entered twice.
            let nathan = try Player(displayName: "Nathan")
            try await a.db.write(.savePlayer(nathan))
            try await a.sync()
            try await a.db.write(.mergePlayer(id: nathan.id, into: round.participants[0].id, by: Self.code))
            try await a.sync()
            // B removes Mike from the roster; his round keeps him.
            try await b.sync()
            let mike = round.participants[1]
            try await b.db.write(.removePlayer(id: mike.id, by: Self.code))
            try await b.sync()
            for d in [b, a] { try await d.sync() }
            for d in [a, b] {
                #expect(try await d.db.read(.course(id: course.id))?.name == course.name, "\(d.name)")
                #expect(try await d.db.read(.players).contains { $0.id == nathan.id } == false, "\(d.name)")
                #expect(try await d.db.read(.players).contains { $0.id == mike.id } == false, "\(d.name)")
                #expect(
                    try await d.db.read(.allPlayers).first { $0.player.id == mike.id }?.retirement?.action?.deviceID
                        == b.db.deviceID, "\(d.name)")
                #expect(try d.snapshot(round).round.participants.contains { $0.id == mike.id }, "\(d.name)")
                #expect(try await d.db.read(.pendingSyncCount) == 0, "\(d.name)")
            }

            // The older device: no error, every record read, the same scores; it shows less
            // (the round's corrected mark, the restore, the merge), by design.
            let report = try await old.sync()
            #expect(report.rejected.isEmpty)
            #expect(report.cursor == report.head)
            let oldSnapshot = try old.snapshot(round)
            #expect(oldSnapshot.round.status == .completed)
            #expect(oldSnapshot.scorecard.value(participant: round.participants[0].id, hole: 1) == 2)
            #expect(oldSnapshot.scorecard.value(participant: round.participants[1].id, hole: 18) == 3)
            #expect(try await old.db.read(.pendingSyncCount) == 0)
            if case .error(let message) = old.engine.state.status { Issue.record("the older device shows: \(message)") }
            #expect(old.engine.state.failed == 0)
        }
    }

    @Test func aDeviceWhoseServerIsOlderMakesNoUndoRecords() async throws {
        try await withGroup { group in
            let newer = try await group.device("Newer")
            let behindOld = try await group.device("Behind", transport: { OlderPeerTransport(client: $0) })
            #expect(try await behindOld.db.read(.undoPermission(inGroup: true)).refusal == UndoPermission.notHeardYet)
            for d in [newer, behindOld] { try await d.sync() }
            #expect(try await newer.db.read(.undoPermission(inGroup: true)).allowed)
            #expect(try await newer.db.read(.undoPermission(inGroup: true)).reopenWindow == Round.defaultReopenWindow)
            // The group's own window reaches the device on its next pull.
            _ = try await group.server.storage.setReopenWindow(groupID: group.groupID, seconds: 2 * 3600)
            try await newer.sync()
            #expect(try await newer.db.read(.undoPermission(inGroup: true)).reopenWindow == 2 * 3600)
            #expect(try await behindOld.db.read(.undoPermission(inGroup: true)).refusal == UndoPermission.olderServer)
        }
    }

    /// The undo toast's retraction through a real server: the kiosk undoes a change it made
    /// over a phone's score and a score it saved in an empty cell; every device then shows
    /// the phone's score and the empty cell. A device older than retractions shows the value
    /// each retraction carries, and the next score gives everyone the same value.
    @Test func anUndoneScoreIsUndoneEverywhereAndAnOlderDeviceKeepsUp() async throws {
        try await withGroup { group in
            let kiosk = try await group.device("Kiosk")
            let phone = try await group.device("Phone")
            let old = try await group.device("Old", transport: { OlderPeerTransport(client: $0, recordsToo: true) })
            let round = try kiosk.startRound(["Nate", "Mike"])
            let (nate, mike) = (round.participants[0].id, round.participants[1].id)
            try await kiosk.sync()
            try await phone.sync()
            try phone.score(round, 0, hole: 1, 3)
            try await phone.sync()
            try await kiosk.sync()
            // The kiosk changes Nate's 3 to 5 and puts a 4 on Mike, both by mistake, and undoes both.
            try kiosk.score(round, 0, hole: 1, 5)
            try kiosk.score(round, 1, hole: 1, 4)
            for (who, strokes) in [(nate, 5), (mike, 4)] {
                _ = try await kiosk.db.write(
                    .retractScore(
                        ScoreEntry(
                            roundID: round.id, participantID: who, hole: 1, strokes: strokes,
                            reportedBy: ScoreEvent.nobody)))
            }
            let pushed = try await kiosk.sync()
            #expect(pushed.rejected.isEmpty)
            for d in [phone, old, kiosk] { try await d.sync() }
            for d in [kiosk, phone] {
                let card = try d.snapshot(round).scorecard
                #expect(card.value(participant: nate, hole: 1) == 3, "\(d.name)")
                #expect(card.resolution(participant: nate, hole: 1).leaves.first?.deviceID == phone.db.deviceID, "\(d.name)")
                #expect(card.value(participant: mike, hole: 1) == nil, "\(d.name)")
                #expect(card.discrepancies.isEmpty, "\(d.name)")
            }
            // The phones' board, built on the server, agrees.
            let source = try #require(try await group.server.storage.liveBoardSource(groupID: group.groupID))
            let events = source.events[round.id] ?? []
            let onServer = Scorecard(pars: Array(repeating: 3, count: 18), participantIDs: [nate, mike], events: events)
            #expect(onServer.value(participant: mike, hole: 1) == nil)
            #expect(events.filter(\.isRetraction).count == 2)
            // The older device: Nate's 3 (what the retraction says), Mike's withdrawn 4.
            let oldCard = try old.snapshot(round).scorecard
            #expect(oldCard.value(participant: nate, hole: 1) == 3)
            #expect(oldCard.value(participant: mike, hole: 1) == 4)
            #expect(oldCard.discrepancies.isEmpty)
            // Mike's real score, from the phone: the same everywhere, no dispute anywhere.
            try phone.score(round, 1, hole: 1, 2)
            try await phone.sync()
            for d in [kiosk, old] { try await d.sync() }
            for d in [kiosk, phone, old] {
                #expect(try d.snapshot(round).scorecard.value(participant: mike, hole: 1) == 2, "\(d.name)")
            }
            for d in [kiosk, phone] { #expect(try d.snapshot(round).scorecard.discrepancies.isEmpty, "\(d.name)") }
            // The older device reads the phone's 2 as replacing the kiosk's 4: a check to
            // confirm there, by design (docs/sync-protocol.md), never a lost or wrong value.
            #expect(try old.snapshot(round).scorecard.discrepancies.map(\.kinds) == [[.crossDeviceOverride]])
            #expect(old.engine.state.failed == 0)
        }
    }

    /// The server holds a retraction to its shape, as a device does.
    @Test func aRetractionOfTheWrongShapeIsRefusedByTheServer() async throws {
        try await withGroup { group in
            let kiosk = try await group.device("Kiosk")
            let round = try kiosk.startRound(["Nate"])
            try kiosk.score(round, 0, hole: 1, 4)
            try await kiosk.sync()
            let saved = try #require(try kiosk.snapshot(round).events.first)
            var bare = ScoreEvent(
                roundID: round.id, participantID: saved.participantID, hole: 1, strokes: 4, supersedes: [],
                reportedBy: ScoreEvent.nobody, deviceID: kiosk.db.deviceID, createdAt: saved.createdAt, retraction: true)
            var resolving = bare
            (resolving.supersedes, resolving.isResolution, resolving.id) = ([saved.id], true, UUID())
            let answer = try await group.server.storage.push(
                groupID: group.groupID, deviceID: kiosk.db.deviceID,
                records: [.scoreEvent(.init(bare)), .scoreEvent(.init(resolving))])
            #expect(answer.results.map(\.status) == [.rejected, .rejected])
            #expect(answer.results[0].reason?.contains("must name the events it withdraws") == true)
            #expect(answer.results[1].reason?.contains("cannot also be a resolution") == true)
            // Control: the right shape is taken.
            (bare.supersedes, bare.id) = ([saved.id], UUID())
            let taken = try await group.server.storage.push(
                groupID: group.groupID, deviceID: kiosk.db.deviceID, records: [.scoreEvent(.init(bare))])
            #expect(taken.results.map(\.status) == [.created])
        }
    }

    /// Issue 36: a card's start hole reaches every device with its round; a device older
    /// than it plays the round from hole 1 and syncs on; the server refuses a start hole off
    /// the round's holes.
    @Test func aShotgunStartHoleTravelsWithItsRound() async throws {
        try await withGroup { group in
            let a = try await group.device("A")
            let b = try await group.device("B")
            let old = try await group.device("Old", transport: { OlderPeerTransport(client: $0, recordsToo: true) })
            let course = try #require(try await a.db.read(.courses).first { $0.holeCount == 18 })
            let players = try ["Nate", "Mike"].map { try Player(displayName: $0) }
            for p in players { try await a.db.write(.savePlayer(p)) }
            let created = try await a.db.write(
                .createRound(
                    courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered),
                    startHole: 10))
            let round = try await a.db.write(.startRound(created.id))
            try a.score(round, 0, hole: 10, 3)
            #expect(try await a.sync().rejected.isEmpty)
            for d in [b, old] { try await d.sync() }
            #expect(try b.snapshot(round).round.startHole == 10)
            #expect(try b.snapshot(round).currentHole == 10)
            #expect(try old.snapshot(round).round.startHole == 1)
            #expect(try await old.db.read(.pendingSyncCount) == 0)
            // A start hole past the round's holes is refused, with why.
            var bad = RoundRecord(round, version: UUID(), updatedAt: 1)
            (bad.id, bad.startHole) = (UUID(), 19)
            #expect(bad.problem() == "a round on 18 holes cannot start on hole 19")
            let answer = try await group.server.storage.push(
                groupID: group.groupID, deviceID: a.db.deviceID, records: [.round(bad)])
            #expect(answer.results.map(\.status) == [.rejected])
        }
    }
}
