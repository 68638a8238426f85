import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSyncProtocol
import HyzerTestSupport
import Logging
import NIOCore
import Testing

@testable import HyzerSync

/// Server operations as a device meets them: HTTPS and WSS with a private CA, and a
/// rate-limited token whose engine waits for `Retry-After`.
@Suite struct ServerOperationsTests {
    /// `/metrics` of a running server, read strictly.
    func metrics(_ server: RunningServer, ca: String? = nil) async throws -> PrometheusText {
        let (status, data) = try await SyncClient.exchange(
            .sync, "GET", server.baseURL + "/metrics", token: nil, deviceID: nil, body: nil, timeout: .seconds(5),
            tls: ServerTrust.configuration(caFile: ca))
        #expect(status == 200)
        return try PrometheusText(String(decoding: data, as: UTF8.self))
    }

    /// Polls `condition` (real time) for up to `seconds`.
    func eventually(_ seconds: Double = 10, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return try await condition()
    }

    func untrusted(_ error: any Error) -> String? {
        if case .untrusted(let why) = error as? SyncClientError { return why }
        return nil
    }

    /// A throwaway CA issues the server's certificate; a device enrolled with `--ca` (the
    /// CA kept in its link) pushes and pulls over https and holds its poke socket over wss.
    /// Negative controls: without the CA, and with another CA, the device refuses the
    /// server with a certificate error that says what to do, and nothing reaches it.
    @Test func aDeviceSyncsOverHTTPSWithItsPrivateCAAndRefusesTheServerWithoutIt() async throws {
        let certificates = try await TestCertificates.make()
        let stranger = try await TestCertificates.make(name: "Some Other CA")
        let serverDir = temporaryDirectory("tls-server")
        let deviceDir = temporaryDirectory("tls-device")
        defer {
            certificates.remove()
            stranger.remove()
            try? FileManager.default.removeItem(at: serverDir)
            try? FileManager.default.removeItem(at: deviceDir)
        }
        var config = ServerConfiguration(dataDirectory: serverDir, host: "127.0.0.1", port: 0, logLevel: .warning)
        config.tls = try ServerTLS.configuration(
            certificate: certificates.serverCertificate.path, key: certificates.serverKey.path)
        let server = try await RunningServer.start(config)
        let (group, admin) = try await server.storage.createGroup(name: "TLS League")
        let db = try HyzerDatabase.open(dataDirectory: deviceDir, assets: repositoryRoot.appendingPathComponent("assets"))
        #expect(server.baseURL.hasPrefix("https://127.0.0.1:"))

        // No CA given: the system's CAs do not know this server.
        do {
            _ = try await SyncClient.enroll(server: server.baseURL, groupToken: admin, deviceID: db.deviceID, name: "Kiosk")
            Issue.record("enrolled without the CA")
        } catch {
            let why = untrusted(error)
            #expect(why?.contains("--ca") == true, "\(error)")
            #expect(error.description.hasPrefix("server's certificate refused"), "\(error)")
        }
        // Another CA: refused too, with the hint for a link that has a CA.
        do {
            _ = try await SyncClient.enroll(
                server: server.baseURL, groupToken: admin, deviceID: db.deviceID, name: "Kiosk",
                ca: stranger.caCertificate.path)
            Issue.record("enrolled with another CA")
        } catch {
            #expect(untrusted(error)?.contains("not issued by the CA file") == true, "\(error)")
        }
        #expect(try await server.storage.devices(groupID: group.id).isEmpty, "a refused server was sent the enrollment")

        // The right CA, kept in the link as `hyzer device enroll --ca` does.
        let caFile = try ServerTrust.checkCAFile(certificates.caCertificate.path)
        let answer = try await SyncClient.enroll(
            server: server.baseURL, groupToken: admin, deviceID: db.deviceID, name: "Kiosk", ca: caFile)
        try ServerLink(server: server.baseURL, enrolled: answer, deviceName: "Kiosk", at: db.clock.date, caFile: caFile)
            .save(to: deviceDir)
        let link = try #require(try ServerLink.load(from: deviceDir))
        #expect(link.caFile == caFile)

        try await db.write(.savePlayer(try Player(displayName: "Ann")))
        let engine = SyncEngine(database: db, link: link)
        let running = Task { try? await engine.run() }
        defer { running.cancel() }
        let report = try await engine.syncNow()
        // (The running loop may have pushed first: what counts is that nothing waits.)
        #expect(report.pending == 0)
        #expect(try await server.storage.head(groupID: answer.groupID) > 0)
        // The poke socket, over wss with the same CA.
        #expect(await eventually { engine.state.live }, "the poke socket did not come up over wss")
        #expect(try await metrics(server, ca: caFile).value("hyzer_live_sockets") == 1)

        // The same link without its CA: refused, and the engine says so instead of "offline".
        var bare = link
        bare.caFile = nil
        let refusing = SyncEngine(database: db, link: bare)
        await #expect(throws: SyncClientError.self) { try await refusing.syncNow() }
        #expect(refusing.state.status != .offline)
        if case .error(let message) = refusing.state.status {
            #expect(message.contains("certificate"), "\(message)")
        } else {
            Issue.record("status \(refusing.state.status)")
        }
        running.cancel()
        await running.value
        await server.stop()
    }

    /// A token over its rate: the server answers 429 with Retry-After 2; the engine (on an
    /// injected clock) sends nothing more until 2 s have passed on it, although its own
    /// backoff after one failure is at most half a second and the server would already
    /// take the request again; then it pushes and succeeds.
    @Test func theEngineWaitsForRetryAfterThenSucceeds() async throws {
        let serverClock = ManualClock()
        let deviceClock = ManualClock()
        let serverDir = temporaryDirectory("limited-server")
        let deviceDir = temporaryDirectory("limited-device")
        defer {
            try? FileManager.default.removeItem(at: serverDir)
            try? FileManager.default.removeItem(at: deviceDir)
        }
        var config = ServerConfiguration(
            dataDirectory: serverDir, host: "127.0.0.1", port: 0, logLevel: .warning, clock: serverClock)
        config.rateLimit = RateLimitPolicy(rate: 0.5, burst: 2)
        let server = try await RunningServer.start(config)
        let (group, admin) = try await server.storage.createGroup(name: "Busy League")
        let db = try HyzerDatabase.open(dataDirectory: deviceDir, assets: repositoryRoot.appendingPathComponent("assets"))
        let answer = try await SyncClient.enroll(
            server: server.baseURL, groupToken: admin, deviceID: db.deviceID, name: "Phone")
        let link = ServerLink(server: server.baseURL, enrolled: answer, deviceName: "Phone", at: db.clock.date)
        // The device's burst spent.
        let client = SyncClient(link: link)
        _ = try await client.pull(after: 0)
        _ = try await client.pull(after: 0)
        do {
            _ = try await client.pull(after: 0)
            Issue.record("a third request in the burst of two was answered")
        } catch {
            #expect(error.retryAfter == 2, "\(error)")
        }

        try await db.write(.savePlayer(try Player(displayName: "Ann")))
        var options = SyncEngine.Options()
        options.liveUpdates = false
        let engine = SyncEngine(database: db, link: link, options: options, clock: deviceClock)
        let running = Task { try? await engine.run() }
        defer { running.cancel() }
        func pushes(_ status: String? = nil) async throws -> Double {
            let m = try await metrics(server)
            if let status {
                return m.value("hyzer_http_errors_total", ["method": "POST", "route": "/v1/push", "status": status]) ?? 0
            }
            return m.value("hyzer_http_requests_total", ["method": "POST", "route": "/v1/push"]) ?? 0
        }
        #expect(try await eventually { try await pushes("429") == 1 }, "the engine's first push was not refused")
        // The server counts the 429 before the engine reads it: wait until the engine has
        // taken it (it sleeps on its clock), or the time moved below would count from later.
        #expect(await eventually { deviceClock.sleeperCount > 0 }, "the engine did not wait")
        #expect(engine.state.status != .offline)
        // The server would take it now; the device's clock is short of the 2 s.
        serverClock.advance(by: .seconds(10))
        deviceClock.advance(by: .milliseconds(1_900))
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await pushes() == 1, "a request went out before Retry-After")
        #expect(try await server.storage.head(groupID: group.id) == 0)
        deviceClock.advance(by: .milliseconds(200))
        #expect(try await eventually { try await server.storage.head(groupID: group.id) > 0 }, "no push after Retry-After")
        #expect(try await pushes() == 2)
        running.cancel()
        await running.value
        await server.stop()
    }
}

/// The installer's path with the real `hyzer` binary: `device enroll --ca` against an
/// https server, then a plain `hyzer sync` that finds the CA in the link. Negative control:
/// enrolling without `--ca` fails with a certificate error that names the option.
@Suite(.serialized) struct CLITLSTests {
    @Test func hyzerEnrollsWithCaAndSyncsOverHTTPS() async throws {
        let certificates = try await TestCertificates.make()
        let serverDir = temporaryDirectory("cli-tls-server")
        let device = temporaryDirectory("cli-tls-device").path
        defer {
            certificates.remove()
            try? FileManager.default.removeItem(at: serverDir)
            try? FileManager.default.removeItem(atPath: device)
        }
        var config = ServerConfiguration(dataDirectory: serverDir, host: "127.0.0.1", port: 0, logLevel: .warning)
        config.tls = try ServerTLS.configuration(
            certificate: certificates.serverCertificate.path, key: certificates.serverKey.path)
        let server = try await RunningServer.start(config)
        let (group, admin) = try await server.storage.createGroup(name: "CLI TLS League")
        let enroll = ["device", "enroll", "--server", server.baseURL, "--group-token", admin, "--name", "Desk", "--data", device]

        let refused = try await CLIDeviceTests.hyzer(enroll)
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("certificate refused") && refused.stderr.contains("--ca"), "\(refused.stderr)")

        let enrolled = try await CLIDeviceTests.hyzer(enroll + ["--ca", certificates.caCertificate.path])
        #expect(enrolled.status == 0, "\(enrolled.stderr)")
        let show = try await CLIDeviceTests.hyzer(["device", "show", "--data", device])
        #expect(show.stdout.contains(certificates.caCertificate.path), "\(show.stdout)")
        #expect(try await CLIDeviceTests.hyzer(["demo", "--data", device, "--players", "2", "--holes-played", "1"]).status == 0)
        let sync = try await CLIDeviceTests.hyzer(["sync", "--data", device])
        #expect(sync.status == 0, "\(sync.stdout)\(sync.stderr)")
        #expect(try await server.storage.head(groupID: group.id) > 0)
        await server.stop()
    }
}

/// The real `hyzer-server serve` with the operations flags: TLS files that cannot serve
/// stop the start with exit 78 and one line (a wrong path, a key of another certificate,
/// half a pair), a bad value is refused, and a server started with them serves https to a
/// device with the CA, keeps `/metrics` for the admin, and limits a token.
@Suite(.serialized) struct ServeOperationsFlagsTests {
    @Test func serveChecksItsTLSFilesAndServesWithTheFlags() async throws {
        let certificates = try await TestCertificates.make()
        let other = try await TestCertificates.make(name: "Other CA")
        let dir = temporaryDirectory("serve-flags")
        defer {
            certificates.remove()
            other.remove()
            try? FileManager.default.removeItem(at: dir)
        }
        let cert = certificates.serverCertificate.path
        let key = certificates.serverKey.path
        let refusals: [([String], String)] = [
            (["--tls-cert", dir.appendingPathComponent("none.pem").path, "--tls-key", key], "cannot read the TLS certificate"),
            (["--tls-cert", cert, "--tls-key", other.serverKey.path], "does not go with the certificate"),
            (["--tls-cert", cert], "needs both a certificate and a key"),
        ]
        for (flags, message) in refusals {
            let run = try await Binary.run("hyzer-server", ["serve", "--data", dir.path, "--port", "0"] + flags)
            #expect(run.status == 78, "\(flags): \(run.stderr)")
            #expect(run.stderr.contains(message), "\(flags): \(run.stderr)")
        }
        for flags in [["--metrics", "everyone"], ["--rate-limit", "lots"], ["--burst", "-1"]] {
            let run = try await Binary.run("hyzer-server", ["serve", "--data", dir.path] + flags)
            #expect(run.status != 0 && run.status != 78, "\(flags): \(run.status)")
            #expect(run.stderr.contains(flags[0]), "\(run.stderr)")
        }

        let storage = try SQLiteStorage(directory: dir)
        let (_, admin) = try await storage.createGroup(name: "Flags League")
        try storage.close()
        let port = try freePort()
        let url = "https://127.0.0.1:\(port)"
        let server = try await ServerProcessTests.ServerProcess(
            dir: dir, port: port,
            extra: ["--tls-cert", cert, "--tls-key", key, "--metrics", "admin", "--rate-limit", "1/min", "--burst", "2"])
        let ca = certificates.caCertificate.path
        var healthy = false
        for _ in 0..<200 where !healthy {
            healthy = (try? await SyncClient.health(server: url, ca: ca)) != nil
            if !healthy { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(healthy, "\(server.logText)")
        let tls = ServerTrust.configuration(caFile: ca)
        func get(_ path: String, token: String?) async throws -> Int {
            try await SyncClient.exchange(
                .sync, "GET", url + path, token: token, deviceID: nil, body: nil, timeout: .seconds(5), tls: tls
            ).status
        }
        #expect(try await get("/metrics", token: nil) == 401)
        #expect(try await get("/metrics", token: admin) == 200)
        #expect(try await get("/metrics", token: admin) == 200)
        // The burst of two is spent: the admin token is told to come back in a minute.
        do {
            _ = try await get("/metrics", token: admin)
            Issue.record("a third request in a burst of two was answered")
        } catch {
            #expect((59...60).contains((error as? SyncClientError)?.retryAfter ?? 0), "\(error)")
        }
        #expect(try await server.terminate() == 0)
    }
}
