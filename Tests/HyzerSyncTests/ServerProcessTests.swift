import Foundation
import HyzerHarness
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import HyzerTestSupport
import Testing

/// The real `hyzer-server` binary, killed with SIGKILL in the middle of a push.
@Suite(.serialized) struct ServerProcessTests {
    static func binary() throws -> URL {
        if let beside = try? Binary.url("hyzer-server") { return beside }
        for scratch in [".build-sync", ".build"] {
            let candidate = repositoryRoot.appendingPathComponent("\(scratch)/debug/hyzer-server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "build the hyzer-server product first"])
    }

    final class ServerProcess: Sendable {
        let process: ChildProcess
        let log: URL

        /// `extra` adds `serve` options (the device-code lifetime, say).
        init(dir: URL, port: Int, extra: [String] = []) async throws {
            log = dir.appendingPathExtension("log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process = try await ChildProcess.start(
                try ServerProcessTests.binary(),
                ["--data", dir.path, "--port", "\(port)", "--host", "127.0.0.1", "--log-level", "info"] + extra,
                output: .file(log))
        }

        var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

        func waitUntilHealthy(_ url: String) async throws {
            for _ in 0..<200 {
                if (try? await SyncClient.health(server: url)) != nil { return }
                try await Task.sleep(nanoseconds: 25_000_000)
            }
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "server did not come up: \(logText)"])
        }

        func kill() async throws {
            process.kill()
            try await process.waitForExit()
        }

        func terminate() async throws -> Int32 {
            process.terminate()  // SIGTERM
            return try await process.waitForExit().termination.status  // a graceful stop takes seconds
        }
    }

    @Test func serverKilledMidPushAndRestartedLosesAndDoublesNothing() async throws {
        let dir = temporaryDirectory("server-process")
        defer { try? FileManager.default.removeItem(at: dir) }
        let port = try freePort()
        let url = "http://127.0.0.1:\(port)"
        let storage = try SQLiteStorage(directory: dir)
        let (group, admin) = try await storage.createGroup(name: "Kill League")
        try storage.close()

        var server = try await ServerProcess(dir: dir, port: port)
        try await server.waitUntilHealthy(url)
        let deviceDir = temporaryDirectory("device-kill")
        defer { try? FileManager.default.removeItem(at: deviceDir) }
        let db = try HyzerDatabase.open(dataDirectory: deviceDir, assets: repositoryRoot.appendingPathComponent("assets"))
        let enrolled = try await SyncClient.enroll(server: url, groupToken: admin, deviceID: db.deviceID, name: "A")
        let link = ServerLink(
            serverURL: url, groupID: group.id, groupName: group.name, deviceID: db.deviceID,
            deviceName: "A", deviceToken: enrolled.deviceToken, enrolledAt: db.clock.date)
        let device = TestDevice(name: "A", dir: deviceDir, db: db, link: link, options: .init())
        let round = try device.startRound(Array(HyzerDatabase.demoNames.prefix(24)))
        for hole in 1...18 { for p in 0..<24 { try device.score(round, p, hole: hole, 3) } }
        for hole in 1...18 { for p in 0..<12 { try device.score(round, p, hole: hole, 4) } }  // corrections
        let total = try device.snapshot(round).events.count  // 648

        // Push in small batches and kill the server as soon as the first one landed.
        var options = SyncEngine.Options()
        options.policy.pushBatch = 40
        options.requestTimeout = 2
        let engine = SyncEngine(database: db, link: link, options: options)
        let pushing = Task { try await engine.syncNow() }
        for _ in 0..<2000 where !server.logText.contains(" push") {
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        try await server.kill()
        let interrupted = await pushing.result
        #expect(throws: (any Error).self) { try interrupted.get() }
        let pendingAfterKill = try await db.read(.pendingSyncCount)
        #expect(pendingAfterKill > 0)

        server = try await ServerProcess(dir: dir, port: port)
        try await server.waitUntilHealthy(url)
        let report = try await engine.syncNow()
        #expect(report.rejected.isEmpty)
        #expect(report.epochChanged == false)
        #expect(try await db.read(.pendingSyncCount) == 0)
        #expect(try await server.terminate() == 0, "SIGTERM should exit cleanly")

        let after = try SQLiteStorage(directory: dir)
        var ids: [UUID] = []
        var cursor: Int64 = 0
        for _ in 0..<100 {
            let page = try await after.pull(groupID: group.id, after: cursor, limit: 1000)
            for r in page.records { if case .scoreEvent(let e) = r.record { ids.append(e.id) } }
            cursor = page.next
            if !page.hasMore { break }
        }
        #expect(ids.count == total)
        #expect(Set(ids).count == total)
        #expect(Set(ids) == Set(try device.snapshot(round).events.map(\.id)))
    }
}
