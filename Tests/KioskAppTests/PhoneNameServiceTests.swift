import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Logging
import Testing

@testable import KioskApp

/// Issue 32 item 6, the kiosk's shell: `ShareService` asks the group server for a code when
/// a name entry opens, reports it, polls for the name every second on the injected clock,
/// and reports the name, the code's expiry, or why there is no code; a cancel stops it.
/// Over real HTTP against `NameRequestStub` (the contract), with the screens' machine and
/// drawing in the loop: the QR code drawn on the name entry decodes (zbarimg) to the URL
/// the phone opens.
@Suite(.serialized) struct PhoneNameServiceTests {
    static let token = "hzd_kiosk-token"

    struct World {
        let root: URL
        let server: NameRequestStub
        let store: HyzerDatabase
        let link: ServerLink
        let clock = ManualClock()
        let inbox = KioskInbox()
        let share: ShareService
        let running: Task<Void, any Error>

        /// `linked`: the kiosk is in a group (its link saved), pointing at the stub.
        static func start(_ label: String, expiresIn: Int = 300, linked: Bool = true) throws -> World {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID())")
            let server = try NameRequestStub(token: PhoneNameServiceTests.token, expiresIn: expiresIn)
            let directory = root.appendingPathComponent("kiosk")
            let store = try HyzerDatabase.open(dataDirectory: directory, assets: nil)
            let link = ServerLink(
                serverURL: server.baseURL, groupID: "grp_1", groupName: "Tuesday League", deviceID: store.deviceID,
                deviceName: "Clubhouse kiosk", deviceToken: PhoneNameServiceTests.token, enrolledAt: Date())
            if linked { try link.save(to: directory) }
            return World(root: root, server: server, store: store, link: link)
        }

        private init(root: URL, server: NameRequestStub, store: HyzerDatabase, link: ServerLink) {
            self.root = root
            self.server = server
            self.store = store
            self.link = link
            var logger = Logger(label: "test.phone-names")
            logger.logLevel = .critical
            let share = ShareService(store: store, inbox: inbox, clock: clock, logger: logger)
            self.share = share
            running = Task { try await share.run() }
        }

        /// What the service posted, as the display loop would drain it, until `done` says so
        /// (or `seconds` pass: a liveness bound, generous for a busy machine: a passing run
        /// returns as soon as the events are there).
        func events(within seconds: Double = 60, until done: ([KioskEvent]) -> Bool) async throws -> [KioskEvent] {
            var seen: [KioskEvent] = []
            let deadline = Date().addingTimeInterval(seconds)
            repeat {
                for case .event(let event) in inbox.drain() { seen.append(event) }
                if done(seen) { break }
                try await Task.sleep(nanoseconds: 10_000_000)
            } while Date() < deadline
            return seen
        }

        /// Waits for the service to sleep until its next poll, then lets a second pass. The
        /// wait is a liveness bound as `events`'s is (its answer may be slow on a busy machine).
        func nextPoll() async throws {
            let deadline = Date().addingTimeInterval(60)
            while clock.sleeperCount == 0, Date() < deadline { try await Task.sleep(nanoseconds: 5_000_000) }
            #expect(clock.sleeperCount == 1, "the service waits for its next poll")
            clock.advance(by: ShareService.phoneNamePoll)
        }

        /// The answer polls the server has seen.
        var polls: Int { server.requests.filter { $0.method == "GET" }.count }

        func stop() {
            running.cancel()
            server.stop()
            try? FileManager.default.removeItem(at: root)
        }
    }

    static func ready(_ events: [KioskEvent]) -> (url: String, expiresIn: Int)? {
        for case .phoneNameChanged(.ready(let url, let expiresIn)) in events { return (url, expiresIn) }
        return nil
    }

    /// A kiosk in a group with a course and three players, on round setup's "Add a guest",
    /// pressed: the name entry asks for a code. Returns the state and the label asked with.
    static func guestEntry(_ viewport: Viewport) throws -> (KioskState, String) {
        let course = try Course(name: "Maple Hill", holeCount: 9)
        let players = try ["Nate", "Priya", "Mike"].map { try Player(displayName: $0) }
        var state = KioskState(viewport: viewport)
        state.handle(.dataChanged(KioskData(courses: [course], players: players), .localScore), now: 0)
        state.handle(.syncChanged(SyncIndicator(state: .idle)), now: 0)
        state.handle(.longPressed, now: 0)
        state.handle(.turned(try #require(state.menuItems.firstIndex(of: .startRound))), now: 0)
        state.handle(.pressed, now: 0)
        state.handle(.pressed, now: 0)
        guard case .setupPlayers(let setup) = state.screen else {
            Issue.record("not on setup: \(state.screen.name)")
            throw CancellationError()
        }
        let row = try #require(setup.rows(in: state.data).firstIndex(of: .addGuest))
        state.handle(.turned(row - setup.cursor), now: 0)
        let effects = state.handle(.pressed, now: 0)
        guard case .requestPhoneName(let label) = effects.last else {
            Issue.record("no code asked for: \(effects)")
            throw CancellationError()
        }
        return (state, label)
    }

    /// The whole way: the screen asks, the server makes a code, the QR drawn on the name
    /// entry decodes to its page, the phone's name comes back within a poll, and a press
    /// adds the guest. At every panel size `ShareQRTests` draws its codes at (`make screens`
    /// tiles them into docs/screens/contact/name-entry-phone.png).
    @Test(arguments: ShareQRTests.viewports)
    func theCodeOnTheNameEntryScansAndTheNameComesBack(viewport: Viewport) async throws {
        let world = try World.start("phone-name")
        defer { world.stop() }
        let opened = try Self.guestEntry(viewport)
        var state = opened.0
        let label = opened.1
        #expect(label == "Guest's name")
        world.share.requestPhoneName(label: label)
        let shown = try await world.events { Self.ready($0) != nil }
        let ready = try #require(Self.ready(shown), "\(shown)")
        let code = try #require(world.server.codes.first)
        #expect(ready.url == world.server.baseURL + "/n/" + code)
        #expect(ready.expiresIn == 300)
        #expect(world.server.label(of: code) == "Guest's name")
        let create = try #require(world.server.requests.first)
        #expect(create.method == "POST" && create.path == "/v1/name-requests")
        #expect(create.authorization == "Bearer \(Self.token)" && create.device == world.store.deviceID)
        #expect(try JSONDecoder().decode(NameRequestCreation.self, from: Data(create.body.utf8)).label == "Guest's name")

        for event in shown { state.handle(event, now: 0) }
        guard case .nameEntry(let entry) = state.screen else {
            Issue.record("not on the name entry: \(state.screen.name)")
            return
        }
        #expect(entry.phoneCode?.url == ready.url)
        let png = try ShareQRTests.draw(state, "name-entry-phone", snapshot: "name-entry-phone.png")
        #expect(try await ShareQRTests.decode(png) == [ready.url])

        // Nobody typed yet: a poll a second, each answered 204, reports nothing.
        try await world.nextPoll()
        try await world.nextPoll()
        let waiting = try await world.events(within: 0.3) { _ in false }
        #expect(waiting.isEmpty, "\(waiting)")
        #expect(world.polls >= 1)
        #expect(world.server.requests.last?.path == "/v1/name-requests/\(code)/answer")
        #expect(world.server.requests.last?.authorization == "Bearer \(Self.token)")

        world.server.answer(code, with: "Zoë")
        try await world.nextPoll()
        let arrived = try await world.events { $0.contains(.phoneNameArrived("Zoë")) }
        #expect(arrived == [.phoneNameArrived("Zoë")])
        for event in arrived { state.handle(event, now: 0) }
        guard case .nameEntry(let typed) = state.screen else {
            Issue.record("not on the name entry: \(state.screen.name)")
            return
        }
        #expect(typed.wheel.text == "Zoë" && typed.wheel.selected == .done)
        #expect(try await ShareQRTests.decode(try ShareQRTests.draw(state, "name-entry-from-phone")) == [], "spent")
        let effects = state.handle(.pressed, now: 0)
        #expect(effects.contains(.cancelPhoneName))
        guard case .setupPlayers(let setup) = state.screen else {
            Issue.record("not back on setup: \(state.screen.name)")
            return
        }
        #expect(setup.guests.map(\.name) == ["Zoë"])
        // The name came: the service stops asking.
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(world.clock.sleeperCount == 0)
    }

    /// 410 (its minutes are over) and 404 (the server forgot it) both end the code: the
    /// screen is told it expired, and asks again once by itself.
    @Test(arguments: [410, 404])
    func aCodeTheServerNoLongerHasIsReportedExpired(status: Int) async throws {
        let world = try World.start("phone-name-gone")
        defer { world.stop() }
        world.share.requestPhoneName(label: "New player's name")
        _ = try await world.events { Self.ready($0) != nil }
        let code = try #require(world.server.codes.first)
        if status == 410 { world.server.expire(code) } else { world.server.forget(code) }
        try await world.nextPoll()
        let ended = try await world.events { !$0.isEmpty }
        #expect(ended == [.phoneNameChanged(.expired)])
        try await Task.sleep(nanoseconds: 100_000_000)
        #expect(world.clock.sleeperCount == 0, "nothing more to ask")
    }

    /// Leaving the screen: no more polls, and a name typed meanwhile is never posted.
    @Test func aCancelStopsThePollingAndDropsALateName() async throws {
        let world = try World.start("phone-name-cancel")
        defer { world.stop() }
        world.share.requestPhoneName(label: "Guest's name")
        _ = try await world.events { Self.ready($0) != nil }
        let code = try #require(world.server.codes.first)
        try await world.nextPoll()
        world.server.answer(code, with: "Zoë")
        world.share.cancelPhoneName()
        // Whatever the service was doing, nothing reaches the screen now.
        world.clock.advance(by: .seconds(5))
        let after = try await world.events(within: 0.5) { _ in false }
        #expect(after.isEmpty, "\(after)")
        let polls = world.polls
        world.clock.advance(by: .seconds(5))
        try await Task.sleep(nanoseconds: 200_000_000)
        #expect(world.polls == polls, "no poll after the cancel")
        #expect(world.clock.sleeperCount == 0)
    }

    /// A new request (the code renewed, or another name entry) replaces the one waiting:
    /// the old code's name is never posted.
    @Test func aNewRequestReplacesTheOld() async throws {
        let world = try World.start("phone-name-renew")
        defer { world.stop() }
        world.share.requestPhoneName(label: "Guest's name")
        _ = try await world.events { Self.ready($0) != nil }
        world.share.requestPhoneName(label: "Guest's name")
        let second = try await world.events { Self.ready($0) != nil }
        let codes = world.server.codes
        #expect(codes.count == 2)
        #expect(Self.ready(second)?.url == world.server.baseURL + "/n/" + codes[1])
        world.server.answer(codes[0], with: "Old")
        world.server.answer(codes[1], with: "New")
        try await world.nextPoll()
        let arrived = try await world.events { !$0.isEmpty }
        #expect(arrived == [.phoneNameArrived("New")])
    }

    /// However the cancel and a poll race (the request stream is read later, on the pool),
    /// once `cancelPhoneName` returns nothing more is posted for the screen that was left:
    /// here the poll that fetches the name runs after the cancel, and its name is dropped.
    @Test func aNameFetchedAfterTheCancelIsNeverPosted() async throws {
        let world = try World.start("phone-name-ticket")
        defer { world.stop() }
        // Run directly, as `run()` would, but out of its reach: the cancel cannot stop it.
        let generation = world.share.phoneNames.next()
        let asking = Task { await world.share.phoneName(label: "Guest's name", generation: generation) }
        _ = try await world.events { Self.ready($0) != nil }
        let code = try #require(world.server.codes.first)
        world.server.answer(code, with: "Zoë")
        world.share.cancelPhoneName()
        try await world.nextPoll()
        await asking.value
        #expect(world.polls == 1, "the name was fetched")
        let after = try await world.events(within: 0.3) { _ in false }
        #expect(after.isEmpty, "\(after)")
    }

    /// Offline when the screen opens: a sentence, and the wheel alone. In no group: the
    /// sentence says how to join.
    @Test func withoutAServerTheCodeFailsWithASentence() async throws {
        let world = try World.start("phone-name-offline")
        defer { world.stop() }
        world.server.stop()
        world.share.requestPhoneName(label: "Guest's name")
        let failed = try await world.events { !$0.isEmpty }
        guard case .phoneNameChanged(.failed(let why)) = failed.first else {
            Issue.record("no failure: \(failed)")
            return
        }
        #expect(why.hasPrefix("Cannot get a code from \(world.server.baseURL)"), "\(why)")

        let alone = try World.start("phone-name-no-group", linked: false)
        defer { alone.stop() }
        alone.share.requestPhoneName(label: "Guest's name")
        let refused = try await alone.events { !$0.isEmpty }
        #expect(refused == [.phoneNameChanged(.failed(ShareService.notInAGroup))])
        #expect(alone.server.requests.isEmpty)
    }

    /// The server gone after the code was shown: polls fail, and are tried again, until the
    /// code's time (and a little grace) is up; then it is reported expired.
    @Test func pollsThatFailGoOnUntilTheCodesTimeIsUp() async throws {
        let world = try World.start("phone-name-lost", expiresIn: 2)
        defer { world.stop() }
        world.share.requestPhoneName(label: "Guest's name")
        _ = try await world.events { Self.ready($0) != nil }
        world.server.stop()
        var seen: [KioskEvent] = []
        // 2 s and 5 s of grace: the 7th failed poll is the last.
        for _ in 0..<7 where seen.isEmpty {
            try await world.nextPoll()
            seen += try await world.events(within: 0.2) { _ in false }
        }
        let ended = seen.isEmpty ? try await world.events { !$0.isEmpty } : seen
        #expect(ended == [.phoneNameChanged(.expired)])
    }
}
