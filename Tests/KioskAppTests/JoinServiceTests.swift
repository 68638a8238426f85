import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import KioskCore
import Logging
import Testing

@testable import KioskApp

/// Issue 9 item 5, the kiosk's side: `JoinService` asks a real group server for a code,
/// reports it to the screen, polls, and once the admin approves saves its link and syncs
/// without a restart. (The server's side, with the `hyzer-server` process and its CLI,
/// is `DeviceJoinProcessTests` in HyzerSyncTests.)
@Suite(.serialized) struct JoinServiceTests {
    struct Rig {
        let root: URL
        let server: RunningServer
        let groupID: String
        let admin: String
        let store: HyzerDatabase
        let inbox = KioskInbox()
        let sync = SyncSlot()
        let join: JoinService
        let running: Task<Void, any Error>

        /// `tls`: serve https with this server certificate; `ca`: the kiosk's `--ca`.
        static func start(
            _ label: String, lifetime: Int = 600, tls: TestCertificates? = nil, ca: String? = nil
        ) async throws -> Rig {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID())")
            var config = ServerConfiguration(
                dataDirectory: root.appendingPathComponent("server"), host: "127.0.0.1", port: 0, logLevel: .warning,
                deviceCodes: DeviceCodePolicy(lifetime: lifetime, interval: 1))
            if let tls {
                config.tls = try ServerTLS.configuration(certificate: tls.serverCertificate.path, key: tls.serverKey.path)
            }
            let server = try await RunningServer.start(config)
            let (group, admin) = try await server.storage.createGroup(name: "Tuesday League")
            let store = try HyzerDatabase.open(dataDirectory: root.appendingPathComponent("kiosk"), assets: nil)
            return Rig(root: root, server: server, groupID: group.id, admin: admin, store: store, ca: ca)
        }

        private init(root: URL, server: RunningServer, groupID: String, admin: String, store: HyzerDatabase, ca: String?) {
            self.root = root
            self.server = server
            self.groupID = groupID
            self.admin = admin
            self.store = store
            var logger = Logger(label: "test.join")
            logger.logLevel = .warning
            let join = JoinService(
                server: server.baseURL, store: store, inbox: inbox, clock: SystemClock(), sync: sync, logger: logger, ca: ca)
            self.join = join
            running = Task { try await join.run() }
        }

        /// The next join report the service posts, within `seconds` (a liveness bound).
        func nextProgress(within seconds: Double = 10) async throws -> JoinProgress? {
            let deadline = Date().addingTimeInterval(seconds)
            while Date() < deadline {
                for message in inbox.drain() {
                    if case .event(.joinChanged(let progress)) = message, progress != .requesting { return progress }
                }
                try await Task.sleep(nanoseconds: 20_000_000)
            }
            return nil
        }

        func stop() async {
            running.cancel()
            _ = await running.result
            await server.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    @Test func theKioskJoinsWithAnApprovedCodeAndSyncsWithoutARestart() async throws {
        let rig = try await Rig.start("join")
        rig.join.requestCode()
        guard case .waiting(let code, let server, let expiresIn) = try await rig.nextProgress() else {
            Issue.record("no code shown")
            return await rig.stop()
        }
        #expect(server == rig.server.baseURL && expiresIn == 600)
        #expect(DeviceUserCode.normalize(code) != nil)
        #expect(!rig.sync.isSet)

        // The admin approves over the API with the group's admin token.
        _ = try await SyncClient.approveDevice(
            server: rig.server.baseURL, adminToken: rig.admin, userCode: code, groupID: rig.groupID)
        #expect(try await rig.nextProgress() == .joined(group: "Tuesday League"))
        let link = try #require(try ServerLink.load(from: rig.root.appendingPathComponent("kiosk")))
        #expect(link.groupID == rig.groupID && link.deviceID == rig.store.deviceID)
        #expect(rig.sync.isSet)

        // A score saved at the kiosk now reaches the server, through the sync the join started.
        let course = try Course(name: "Join Nine", holeCount: 9)
        try await rig.store.write(.saveCourse(course))
        let players = try ["Ana", "Ben"].map { try Player(displayName: $0) }
        for p in players { try await rig.store.write(.savePlayer(p)) }
        let created = try await rig.store.write(
            .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        let round = try await rig.store.write(.startRound(created.id))
        let scored = try await rig.store.write(
            .recordScore(
                ScoreEntry(
                    roundID: round.id, participantID: round.participants[0].id, hole: 1, strokes: 3,
                    reportedBy: round.participants[0].id)))
        rig.sync.localWrite()
        var onServer = false
        for _ in 0..<100 where !onServer {
            let feed = try await rig.server.storage.pull(groupID: rig.groupID, after: 0, limit: 1000)
            onServer = feed.records.contains { if case .scoreEvent(let e) = $0.record { e.id == scored.event.id } else { false } }
            if !onServer { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(onServer, "the score did not reach the server within 10 s")
        // Asked again once in a group: the screen is told so rather than left waiting.
        rig.join.requestCode()
        #expect(try await rig.nextProgress() == .failed(JoinService.alreadyInAGroup))
        await rig.stop()
    }

    /// An https server with a private CA: the kiosk started with `--ca` gets its code, joins,
    /// and keeps the CA in its link for the sync that follows. Negative control: without
    /// `--ca` the join screen says the server's certificate was refused.
    @Test func theKioskJoinsAnHTTPSServerWithItsCA() async throws {
        let certificates = try await TestCertificates.make()
        defer { certificates.remove() }
        let bare = try await Rig.start("join-tls-bare", tls: certificates)
        bare.join.requestCode()
        let refused = try await bare.nextProgress()
        if case .failed(let message) = refused {
            #expect(message.contains("certificate refused") && message.contains("--ca"), "\(message)")
        } else {
            Issue.record("joined or waited without the CA: \(String(describing: refused))")
        }
        await bare.stop()

        let ca = certificates.caCertificate.path
        let rig = try await Rig.start("join-tls", tls: certificates, ca: ca)
        rig.join.requestCode()
        guard case .waiting(let code, _, _) = try await rig.nextProgress() else {
            Issue.record("no code shown")
            return await rig.stop()
        }
        _ = try await SyncClient.approveDevice(
            server: rig.server.baseURL, adminToken: rig.admin, userCode: code, groupID: rig.groupID, ca: ca)
        #expect(try await rig.nextProgress() == .joined(group: "Tuesday League"))
        let link = try #require(try ServerLink.load(from: rig.root.appendingPathComponent("kiosk")))
        #expect(link.caFile == ca && link.serverURL.hasPrefix("https://"))
        try await rig.store.write(.savePlayer(try Player(displayName: "Cal")))
        rig.sync.localWrite()
        var onServer = false
        for _ in 0..<100 where !onServer {
            onServer = try await rig.server.storage.head(groupID: rig.groupID) > 0
            if !onServer { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        #expect(onServer, "nothing reached the server over https within 10 s")
        await rig.stop()
    }

    @Test func anExpiredCodeIsReportedAndANewOneCanBeHad() async throws {
        let rig = try await Rig.start("join-expired", lifetime: 1)
        rig.join.requestCode()
        guard case .waiting(let first, _, _) = try await rig.nextProgress() else {
            Issue.record("no code shown")
            return await rig.stop()
        }
        #expect(try await rig.nextProgress() == .expired)
        // The screen's "press for a new code".
        rig.join.requestCode()
        guard case .waiting(let second, _, _) = try await rig.nextProgress() else {
            Issue.record("no second code")
            return await rig.stop()
        }
        #expect(second != first)
        await rig.stop()
    }

    /// Without `--server` the menu's "Join a group" says how to give one.
    @Test func withoutAServerTheJoinScreenSaysHowToGiveOne() throws {
        let store = try HyzerDatabase.inMemory()
        let session = try KioskSession(store: store, viewport: Viewport(width: 1280, height: 720), now: 0)
        session.send(.longPressed, now: 10)
        session.send(.turned(try #require(session.state.menuItems.firstIndex(of: .joinGroup))), now: 20)
        session.send(.pressed, now: 30)
        #expect(session.state.screen == .join(Screen.Join(progress: .failed(JoinService.noServer))))
    }
}
