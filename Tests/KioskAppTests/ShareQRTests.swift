import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import KioskRender
import Logging
import Testing

@testable import KioskApp

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Issue 11, "Done when": the QR codes the kiosk draws decode (with `zbarimg`, from Debian's
/// zbar-tools) back to links that work on a real group server: "Add a phone" to an invite
/// that enrolls a phone, the summary card to the round's summary. Drawn at the desk's
/// 1920×1080, the Pi panel's 800×480, and a portrait panel (the code under the card).
@Suite(.serialized) struct ShareQRTests {
    /// Issue 15's panel sizes, and a small portrait one.
    static let viewports = [
        Viewport(width: 800, height: 480), Viewport(width: 1024, height: 600), Viewport(width: 1280, height: 720),
        Viewport(width: 1920, height: 1080), Viewport(width: 1080, height: 1920), Viewport(width: 480, height: 800),
    ]

    struct World {
        let root: URL
        let server: RunningServer
        let kiosk: HyzerDatabase
        let link: ServerLink
        let clock = ManualClock()
        let inbox = KioskInbox()
        var share: ShareService {
            ShareService(store: kiosk, inbox: inbox, clock: clock, logger: Logger(label: "test.share"))
        }

        static func start(_ label: String) async throws -> World {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID())")
            let server = try await RunningServer.start(
                ServerConfiguration(
                    dataDirectory: root.appendingPathComponent("server"), host: "127.0.0.1", port: 0, logLevel: .warning))
            let (_, token) = try await server.storage.createGroup(name: "Tuesday League")
            let (kiosk, link) = try await ResolveSyncTests.enrolledDevice("kiosk", server: server, token: token, root: root)
            return World(root: root, server: server, kiosk: kiosk, link: link)
        }

        /// What the services posted so far, as the display loop would drain it: as soon as
        /// `done` holds, or after `seconds`. The default 60 s only detects a hang: under
        /// `make test-under-load` an invite from the in-process server took over the 10 s
        /// these waits had.
        func events(within seconds: Double = 60, until done: ([KioskEvent]) -> Bool) async throws -> [KioskEvent] {
            var seen: [KioskEvent] = []
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                for case .event(let event) in inbox.drain() { seen.append(event) }
                if done(seen) { break }
                try await Task.sleep(nanoseconds: 20_000_000)
            } while Date() < deadline
            return seen
        }

        func stop() async {
            await server.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    /// Draws the state headless and returns the PNG (copied to `HYZER_SNAPSHOT_DIR` as
    /// `snapshot` at 1920×1080 when set, as docs/screens gets them, and at every size as
    /// `contact-NAME-WxH.png` for `make screens` to tile into a contact sheet).
    static func draw(_ state: KioskState, _ name: String, snapshot: String? = nil) throws -> URL {
        let assets = try #require(HyzerPaths.assetsDirectory())
        let display = try Display(
            mode: .headless, size: state.viewport, fontsDirectory: assets.appendingPathComponent("fonts"))
        display.draw(state, now: 0, wallClock: Date(timeIntervalSince1970: 1_800_000_000))
        let png = FileManager.default.temporaryDirectory.appendingPathComponent(
            "\(name)-\(state.viewport.width)x\(state.viewport.height).png")
        try display.writePNG(to: png)
        if let out = ProcessInfo.processInfo.environment["HYZER_SNAPSHOT_DIR"], let snapshot {
            let size = "\(state.viewport.width)x\(state.viewport.height)"
            var targets = [URL(fileURLWithPath: out).appendingPathComponent("contact-\(name)-\(size).png")]
            if state.viewport.width == 1920 { targets.append(URL(fileURLWithPath: out).appendingPathComponent(snapshot)) }
            for target in targets {
                try? FileManager.default.removeItem(at: target)
                try FileManager.default.copyItem(at: png, to: target)
            }
        }
        return png
    }

    /// Every QR code `zbarimg` reads in the PNG (none: exit status 4). Awaited off the
    /// cooperative pool, as every child process of the tests is (HyzerTestSupport's Processes).
    static func decode(_ png: URL) async throws -> [String] {
        let run = try await Binary.run(
            executable: URL(fileURLWithPath: "/usr/bin/env"),
            ["zbarimg", "--raw", "-q", "-Sdisable", "-Sqrcode.enable", png.path])
        guard run.status == 0 else {
            #expect(run.status == 4, "zbarimg failed (is zbar-tools installed? make deps): \(run.stderr)")
            return []
        }
        return run.stdout.split(separator: "\n").map(String.init)
    }

    @Test(arguments: viewports)
    func theAddPhoneCodeScansToAnInviteThatEnrollsAPhone(viewport: Viewport) async throws {
        let world = try await World.start("add-phone")
        defer { Task { await world.stop() } }
        var state = KioskState(viewport: viewport)
        state.handle(.syncChanged(SyncIndicator(state: .idle)), now: 0)
        state.handle(.longPressed, now: 0)
        state.handle(.turned(try #require(state.menuItems.firstIndex(of: .addPhone))), now: 0)
        #expect(state.handle(.pressed, now: 0) == [.requestInvite])

        let share = world.share
        let asking = Task { await share.invite() }
        defer { asking.cancel() }
        let reported = try await world.events {
            $0.contains { if case .inviteChanged(.ready) = $0 { true } else { false } }
        }
        for event in reported { state.handle(event, now: 0) }
        guard case .addPhone(let screen) = state.screen, let url = screen.text.url else {
            Issue.record("no invite on screen: \(reported)")
            return
        }
        #expect(url.hasPrefix(world.server.baseURL + "/join/"))
        #expect(try await Self.decode(try Self.draw(state, "add-phone", snapshot: "add-phone.png")) == [url])

        // The scanned code enrolls a phone in the kiosk's group, once.
        let code = String(try #require(url.split(separator: "/").last))
        let phone = try await world.server.storage.redeemInvite(code: code, deviceID: "phone-1", name: "Ana's phone")
        #expect(phone.groupID == world.link.groupID)
        await #expect(throws: InviteError.used) {
            _ = try await world.server.storage.redeemInvite(code: code, deviceID: "phone-2", name: "Ben's phone")
        }
        // The kiosk learns the phone's name from the server, for "from Ana's phone".
        await share.deviceNames()
        let named = try await world.events { $0.contains { if case .deviceNamesChanged = $0 { true } else { false } } }
        #expect(
            named.contains { if case .deviceNamesChanged(let names) = $0 { names["phone-1"] == "Ana's phone" } else { false } })

        // Ten minutes on, the screen says it expired and draws no code (the negative
        // control: a screen without a code decodes to nothing).
        while world.clock.sleeperCount == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        world.clock.advance(by: .seconds(600))
        let later = try await world.events { $0.contains(.inviteChanged(.expired)) }
        for event in later { state.handle(event, now: 0) }
        #expect(state.screen == .addPhone(Screen.AddPhone(progress: .expired)))
        #expect(try await Self.decode(try Self.draw(state, "add-phone-expired")) == [])
    }

    @Test(arguments: viewports)
    func theSummaryCardCodeScansToTheRoundsSummaryPage(viewport: Viewport) async throws {
        let world = try await World.start("summary-qr")
        defer { Task { await world.stop() } }
        let kiosk = world.kiosk
        let course = try Course(name: "Maple Hill", pars: [3, 3, 4, 3, 3, 4, 3, 5, 3])
        try await kiosk.write(.saveCourse(course))
        let players = try ["Ana", "Ben", "Cy"].map { try Player(displayName: $0) }
        for p in players { try await kiosk.write(.savePlayer(p)) }
        let created = try await kiosk.write(
            .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        let round = try await kiosk.write(.startRound(created.id))
        for (index, player) in players.enumerated() {
            for hole in course.holes {
                _ = try await kiosk.write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: player.id, hole: hole,
                            strokes: (course.par(of: hole) ?? 3) + index - 1, reportedBy: players[0].id)))
            }
        }
        var state = KioskState(viewport: viewport)
        state.handle(.dataChanged(try KioskSession.load(kiosk), .remoteSync), now: 0)
        state.handle(.syncChanged(SyncIndicator(state: .idle)), now: 0)
        // Menu → Finish round now → confirm, as at the first tee.
        state.handle(.longPressed, now: 0)
        state.handle(.turned(try #require(state.menuItems.firstIndex(of: .finishRound))), now: 0)
        state.handle(.pressed, now: 0)
        let effects = state.handle(.pressed, now: 0)
        #expect(effects.contains(.finishRound(round.id)) && effects.contains(.requestSummaryLink(round.id)))
        _ = try await kiosk.write(.finishRound(round.id))
        // One push carries the finish and the scores: every score counts on the server
        // (before the fix for late scores, the finish went first and each was refused).
        let report = try await SyncEngine(database: kiosk, link: world.link).syncNow()
        #expect(report.rejected.isEmpty, "\(report.rejected.prefix(2))")
        state.handle(.dataChanged(try KioskSession.load(kiosk), .remoteSync), now: 0)
        #expect(state.screen.name == "summary")
        #expect(try await Self.decode(try Self.draw(state, "summary-no-link")) == [], "no link yet, no code")

        await world.share.summaryLink(round.id)
        for event in try await world.events(until: { !$0.isEmpty }) { state.handle(event, now: 0) }
        let url = try #require(state.summaryLinkOnShow)
        #expect(url.hasPrefix(world.server.baseURL + "/s/hzs_"))
        #expect(try await Self.decode(try Self.draw(state, "summary-qr", snapshot: "summary-qr.png")) == [url])

        // The page's data behind the scanned link: this round, as the kiosk's card ranks it.
        let token = String(try #require(url.split(separator: "/").last))
        let (data, response) = try await URLSession.shared.data(
            from: try #require(URL(string: world.server.baseURL + "/v1/summaries/" + token)))
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let summary = try JSONDecoder().decode(RoundSummary.self, from: data)
        let snapshot = try #require(state.summarySnapshot(round.id))
        #expect(summary.round.course == "Maple Hill" && summary.round.status == "completed")
        #expect(summary.round.rows.map(\.name) == snapshot.standings.rows.map(\.name))
        #expect(summary.cards.first?.strokes == course.pars.map { $0 - 1 }, "Ana, one under on every hole, leads")
    }
}
