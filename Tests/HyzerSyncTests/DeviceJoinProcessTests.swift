import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import Testing

/// Joining a group from a device that cannot type (RFC 8628), end to end: the real
/// `hyzer-server` process, its `device approve` command run as the admin would, and a
/// device (the kiosk's `HyzerSync` client) that polls, saves its link and pushes a score.
@Suite(.serialized) struct DeviceJoinProcessTests {
    struct Server {
        let dir: URL
        let url: String
        let process: ServerProcessTests.ServerProcess
        let groups: [(id: String, admin: String)]

        /// `hyzer-server` on a free port, with one group per name, polling allowed every
        /// `interval` seconds.
        static func start(groups names: [String], interval: Int = 1, extra: [String] = []) async throws -> Server {
            let dir = temporaryDirectory("join-server")
            let storage = try SQLiteStorage(directory: dir)
            var groups: [(id: String, admin: String)] = []
            for name in names {
                let (group, admin) = try await storage.createGroup(name: name)
                groups.append((group.id, admin))
            }
            try storage.close()
            let port = try freePort()
            let url = "http://127.0.0.1:\(port)"
            let process = try await ServerProcessTests.ServerProcess(
                dir: dir, port: port, extra: ["--device-code-interval", "\(interval)"] + extra)
            try await process.waitUntilHealthy(url)
            return Server(dir: dir, url: url, process: process, groups: groups)
        }

        /// `hyzer-server device approve CODE --group G`, as the admin types it on the server.
        func approve(_ code: String, group: String) async throws -> Binary.Result {
            try await Binary.run(
                executable: try ServerProcessTests.binary(), ["device", "approve", code, "--group", group, "--data", dir.path])
        }

        func stop() async throws {
            #expect(try await process.terminate() == 0)
            try? FileManager.default.removeItem(at: dir)
        }
    }

    static func refusal(_ poll: DeviceTokenPoll) -> DeviceTokenRefusal? {
        if case .refused(let refusal, _) = poll { return refusal }
        return nil
    }

    /// Polls at the server's interval until the answer is no longer "pending".
    static func pollUntilDecided(_ server: String, _ codes: DeviceAuthorizationResponse) async throws -> DeviceTokenPoll {
        for _ in 0..<20 {
            let poll = try await SyncClient.pollDeviceToken(server: server, deviceCode: codes.deviceCode)
            if refusal(poll) != .authorizationPending { return poll }
            try await Task.sleep(for: .seconds(codes.interval))
        }
        throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "still pending"])
    }

    @Test func approvedByTheCLIThenTheDevicePushesAScore() async throws {
        let server = try await Server.start(groups: ["League"], interval: 3)
        let deviceDir = temporaryDirectory("join-device")
        defer { try? FileManager.default.removeItem(at: deviceDir) }
        let db = try HyzerDatabase.open(dataDirectory: deviceDir, assets: repositoryRoot.appendingPathComponent("assets"))

        let codes = try await SyncClient.authorizeDevice(server: server.url, deviceID: db.deviceID, name: "Clubhouse kiosk")
        #expect(codes.expiresIn == 600 && codes.interval == 3)
        // Two polls at once: whichever the server takes first is pending, the other came too
        // soon after it. Sent together, they stay inside the interval however busy the machine
        // (one after the other, a loaded run once spaced them more than 3 s apart).
        async let first = SyncClient.pollDeviceToken(server: server.url, deviceCode: codes.deviceCode)
        async let second = SyncClient.pollDeviceToken(server: server.url, deviceCode: codes.deviceCode)
        let answers = try await [first, second].compactMap(Self.refusal).map(\.rawValue).sorted()
        #expect(answers == [DeviceTokenRefusal.authorizationPending.rawValue, DeviceTokenRefusal.slowDown.rawValue].sorted())

        // A mistyped code: non-zero exit and one line saying what to do.
        let wrong = try await server.approve(
            "BCDF-GHJK" == codes.userCode ? "BCDF-GHJL" : "BCDF-GHJK", group: server.groups[0].id)
        #expect(wrong.status != 0)
        #expect(wrong.stderr.contains("no device is waiting with that code"), "\(wrong.stderr)")
        #expect(wrong.stderr.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: "\n").count == 1)

        let approved = try await server.approve(codes.userCode, group: server.groups[0].id)
        #expect(approved.status == 0, "\(approved.stderr)")
        #expect(approved.stdout.contains("approved Clubhouse kiosk"))
        let again = try await server.approve(codes.userCode, group: server.groups[0].id)
        #expect(again.status != 0)
        #expect(again.stderr.contains("already approved"), "\(again.stderr)")

        try await Task.sleep(for: .seconds(codes.interval))
        guard case .enrolled(let answer) = try await Self.pollUntilDecided(server.url, codes) else {
            Issue.record("no token after the approval")
            return
        }
        #expect(answer.groupID == server.groups[0].id && answer.deviceID == db.deviceID)
        let link = ServerLink(server: server.url, enrolled: answer, deviceName: "Clubhouse kiosk", at: Date())
        try link.save(to: deviceDir)
        #expect(try ServerLink.load(from: deviceDir)?.deviceToken == answer.deviceToken)

        // Used once: the same device code gets no second token. (Negative control: without
        // the spent-code check in `exchangeDeviceCode` this answered 409 "already enrolled"
        // instead, and after a revoke it enrolled the device again; checked once, by hand.)
        try await Task.sleep(for: .seconds(codes.interval))
        let reused = try await SyncClient.pollDeviceToken(server: server.url, deviceCode: codes.deviceCode)
        #expect(Self.refusal(reused) == .invalidGrant)

        // The device syncs with the token it got: its score reaches the server.
        let device = TestDevice(name: "Kiosk", dir: deviceDir, db: db, link: link, options: .init())
        let round = try device.startRound(Array(HyzerDatabase.demoNames.prefix(2)))
        let scored = try device.score(round, 0, hole: 1, 3)
        let report = try await device.sync()
        #expect(report.rejected.isEmpty)
        #expect(try await db.read(.pendingSyncCount) == 0)
        let feed = try await SyncClient(link: link).pull(after: 0)
        let events = feed.records.compactMap { r -> UUID? in
            if case .scoreEvent(let e) = r.record { return e.id }
            return nil
        }
        #expect(events == [scored.event.id])
        try await server.stop()
    }

    @Test func anExpiredCodeIsRefusedToTheAdminAndTheDevice() async throws {
        let server = try await Server.start(groups: ["League"], extra: ["--device-code-lifetime", "1"])
        let codes = try await SyncClient.authorizeDevice(server: server.url, deviceID: "kiosk-late", name: "Late kiosk")
        #expect(codes.expiresIn == 1)
        try await Task.sleep(for: .milliseconds(1500))
        let late = try await server.approve(codes.userCode, group: server.groups[0].id)
        #expect(late.status != 0)
        #expect(late.stderr.contains("expired"), "\(late.stderr)")
        #expect(
            Self.refusal(try await SyncClient.pollDeviceToken(server: server.url, deviceCode: codes.deviceCode)) == .expiredToken)
        try await server.stop()
    }

    /// "Wrong group": group H's admin token cannot let a device into group G, and the
    /// code stays waiting for G's admin, who can.
    @Test func anotherGroupsAdminCannotApproveIntoThisGroup() async throws {
        let server = try await Server.start(groups: ["G", "H"])
        let (g, h) = (server.groups[0], server.groups[1])
        let codes = try await SyncClient.authorizeDevice(server: server.url, deviceID: "kiosk-g", name: "G kiosk")
        await #expect(
            throws: SyncClientError.http(status: 403, message: "this admin token belongs to another group than the one named")
        ) {
            try await SyncClient.approveDevice(server: server.url, adminToken: h.admin, userCode: codes.userCode, groupID: g.id)
        }
        let unknownGroup = try await server.approve(codes.userCode, group: "no-such-group")
        #expect(unknownGroup.status != 0)
        #expect(unknownGroup.stderr.contains("no group no-such-group"), "\(unknownGroup.stderr)")
        #expect(
            Self.refusal(try await SyncClient.pollDeviceToken(server: server.url, deviceCode: codes.deviceCode))
                == .authorizationPending)

        let approved = try await SyncClient.approveDevice(
            server: server.url, adminToken: g.admin, userCode: codes.userCode, groupID: g.id)
        #expect(approved.groupID == g.id)
        try await Task.sleep(for: .seconds(codes.interval))
        guard case .enrolled(let answer) = try await Self.pollUntilDecided(server.url, codes) else {
            Issue.record("no token after the approval")
            return
        }
        #expect(answer.groupID == g.id && answer.groupName == "G")
        try await server.stop()
    }
}
