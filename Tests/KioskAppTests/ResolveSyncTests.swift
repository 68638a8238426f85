import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Logging
import Testing

@testable import KioskApp

/// Issue 9 item 1, "Done when": two devices and a real group server. The devices disagree on
/// a score; the kiosk settles it with the knob (menu → Check 1 score → turn → press); the
/// resolution reaches the other device through the server, and the count reads zero on both.
@Suite(.serialized) struct ResolveSyncTests {
    /// A device enrolled with the group: its own data directory, its link saved there as
    /// `hyzer device enroll` saves it (the kiosk's `SyncService` reads it from there).
    static func enrolledDevice(
        _ name: String, server: RunningServer, token: String, root: URL
    ) async throws -> (
        HyzerDatabase, ServerLink
    ) {
        let dir = root.appendingPathComponent(name)
        let db = try HyzerDatabase.open(dataDirectory: dir, assets: nil)
        let answer = try await SyncClient.enroll(
            server: server.baseURL, groupToken: token, deviceID: db.deviceID, name: name)
        let link = ServerLink(
            serverURL: server.baseURL, groupID: answer.groupID, groupName: answer.groupName,
            deviceID: db.deviceID, deviceName: name, deviceToken: answer.deviceToken, enrolledAt: db.clock.date)
        try link.save(to: dir)
        return (db, link)
    }

    /// Polls `condition` until it holds or `seconds` pass: a liveness bound, not a timing assertion.
    static func eventually(within seconds: Double, _ condition: () throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        return try condition()
    }

    /// A group server, a kiosk (its real `SyncService`) and a phone (a `SyncEngine`), both
    /// enrolled, and a round the kiosk started and both devices hold.
    struct Pair {
        let root: URL
        let server: RunningServer
        let kiosk: HyzerDatabase
        let phone: HyzerDatabase
        let phoneEngine: SyncEngine
        let sync: SyncService
        let round: Round
        let players: [Player]

        static func start(_ label: String) async throws -> Pair {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID())")
            let server = try await RunningServer.start(
                ServerConfiguration(
                    dataDirectory: root.appendingPathComponent("server"), host: "127.0.0.1", port: 0, logLevel: .warning))
            let (_, token) = try await server.storage.createGroup(name: "Test League")
            let (kiosk, _) = try await enrolledDevice("kiosk", server: server, token: token, root: root)
            let (phone, phoneLink) = try await enrolledDevice("phone", server: server, token: token, root: root)
            let phoneEngine = SyncEngine(database: phone, link: phoneLink)
            let sync = try #require(
                try SyncService(store: kiosk, inbox: KioskInbox(), clock: kiosk.clock), "the kiosk is enrolled")
            let course = try Course(name: "Sync Nine", holeCount: 9)
            try await kiosk.write(.saveCourse(course))
            let players = try ["Ana", "Ben"].map { try Player(displayName: $0) }
            for p in players { try await kiosk.write(.savePlayer(p)) }
            let created = try await kiosk.write(
                .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
            let round = try await kiosk.write(.startRound(created.id))
            try await sync.engine.syncNow()
            try await phoneEngine.syncNow()
            return Pair(
                root: root, server: server, kiosk: kiosk, phone: phone, phoneEngine: phoneEngine, sync: sync, round: round,
                players: players)
        }

        /// The kiosk's session wired to its sync service as `buildKiosk` wires it, and both
        /// devices' sync running as in the field, for the duration of `body`.
        func running(_ body: (KioskSession) async throws -> Void) async throws {
            let session = try KioskSession(store: kiosk, viewport: Viewport(width: 800, height: 480), now: 0)
            let sync = sync
            session.onLocalWrite = { sync.localWrite() }
            let (engine, phoneEngine) = (sync, phoneEngine)
            let kioskRun = Task { try? await engine.run() }
            let phoneRun = Task { try? await phoneEngine.run() }
            do {
                try await body(session)
            } catch {
                kioskRun.cancel()
                phoneRun.cancel()
                throw error
            }
            kioskRun.cancel()
            phoneRun.cancel()
            await kioskRun.value
            await phoneRun.value
        }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func aDiscrepancyResolvedAtTheKioskClearsOnBothDevices() async throws {
        let pair = try await Pair.start("resolve-sync")
        let (kiosk, phone, sync, phoneEngine, round, players) = (
            pair.kiosk, pair.phone, pair.sync, pair.phoneEngine, pair.round, pair.players
        )

        // Both devices score Ben's hole 1 before either hears of the other: 3 here, 5 there.
        let ben = players[1].id
        let entry = { (strokes: Int) in
            ScoreEntry(roundID: round.id, participantID: ben, hole: 1, strokes: strokes, reportedBy: players[0].id)
        }
        try await kiosk.write(.recordScore(entry(3)))
        try await phone.write(.recordScore(entry(5)))
        try await sync.engine.syncNow()
        try await phoneEngine.syncNow()
        try await sync.engine.syncNow()
        for db in [kiosk, phone] {
            #expect(try await db.read(.snapshot(round: round.id)).scorecard.discrepancies.map(\.values) == [[3, 5]])
        }

        // From here both run as they do in the field: the kiosk's sync service pushes on each
        // local write, the phone's engine pulls when poked.
        try await pair.running { session in
            // At the knob: hold for the menu, turn to "Check 1 score", press; 3 counts for
            // now, two detents make it 5; press settles it.
            session.send(.longPressed, now: 10)
            let items = session.state.menuItems
            let check = try #require(items.firstIndex(of: .checkScores(1)), "\(items)")
            session.send(.turned(check), now: 20)
            session.send(.pressed, now: 30)
            #expect(session.state.screen.name == "resolve")
            session.send(.turned(2), now: 40)
            session.send(.pressed, now: 50)
            #expect(session.state.screen == .board)

            // One resolution event, superseding both conflicting statements.
            let events = try await kiosk.read(.events(round: round.id)).filter { $0.participantID == ben && $0.hole == 1 }
            let resolutions = events.filter(\.isResolution)
            #expect(resolutions.count == 1)
            #expect(resolutions.first?.strokes == 5)
            #expect(Set(resolutions.first?.supersedes ?? []) == Set(events.filter { !$0.isResolution }.map(\.id)))
            #expect(session.state.round?.scorecard.discrepancies.isEmpty == true)

            // The phone hears of it through the server with nobody calling sync.
            let cleared = try await Self.eventually(within: 20) {
                try phone.read(.snapshot(round: round.id)).scorecard.discrepancies.isEmpty
            }
            #expect(cleared, "the resolution never reached the phone")
            let onPhone = try await phone.read(.snapshot(round: round.id))
            #expect(onPhone.scorecard.value(participant: ben, hole: 1) == 5)
            #expect(onPhone.standings.row(for: ben)?.strokes == 5, "the phone's standings use the resolved value")
            #expect(onPhone.standings == (try await kiosk.read(.snapshot(round: round.id))).standings)
            #expect(try await kiosk.read(.snapshot(round: round.id)).scorecard.discrepancies.isEmpty)
            // And the server holds it, as synced from the kiosk's outbox.
            let pushed = try await Self.eventually(within: 10) {
                try kiosk.read(.outboxStatus(of: resolutions[0].id)) == .synced
            }
            #expect(pushed)
        }
        await pair.stop()
    }

    /// Issue 9 item 2: a round started by mistake, discarded at the kiosk, leaves the other
    /// device's active rounds and stays out of its history (docs/sync-protocol.md).
    @Test func aRoundDiscardedAtTheKioskLeavesTheOtherDevice() async throws {
        let pair = try await Pair.start("discard-sync")
        let (kiosk, phone, round) = (pair.kiosk, pair.phone, pair.round)
        #expect(try await phone.read(.activeRounds).map(\.id) == [round.id])
        try await pair.running { session in
            session.send(.longPressed, now: 10)
            let items = session.state.menuItems
            let discard = try #require(items.firstIndex(of: .discardRound), "\(items)")
            session.send(.turned(discard), now: 20)
            session.send(.pressed, now: 30)
            #expect(session.state.screen.name == "discard")
            session.send(.pressed, now: 40)
            #expect(session.state.screen == .board)
            #expect(session.state.round == nil)
            #expect(try await kiosk.read(.round(id: round.id))?.status == .completed)

            let gone = try await Self.eventually(within: 20) { try phone.read(.activeRounds).isEmpty }
            #expect(gone, "the discard never reached the phone")
            #expect(try await phone.read(.round(id: round.id))?.status == .completed)
            #expect(try await phone.read(.history()).isEmpty, "a discarded round is not history on any device")
            // A score the phone makes now is refused locally: the round is closed everywhere.
            #expect(throws: StoreError.scoring(.roundCompleted)) {
                try phone.write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: pair.players[1].id, hole: 1, strokes: 3,
                            reportedBy: pair.players[1].id)))
            }
        }
        await pair.stop()
    }
}
