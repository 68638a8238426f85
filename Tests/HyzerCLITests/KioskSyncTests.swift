import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import HyzerTestSupport
import Testing

/// The kiosk as one more device: a running kiosk enrolled with a real group server
/// pushes its round, and a score entered on another device reaches the kiosk's store
/// (and so its board) while it runs.
@Suite(.serialized) struct KioskSyncTests {
    @Test func aScoreFromAnotherDeviceReachesARunningKiosk() async throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-sync-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let (server, kioskDir, phoneDir) = (
            root.appendingPathComponent("server"), root.appendingPathComponent("kiosk"),
            root.appendingPathComponent("phone")
        )
        let group = try await Binary.run("hyzer-server", ["group", "create", "Test League", "--data", server.path])
        #expect(group.status == 0, "\(group.stderr)")
        let token = try #require(group.stdout.split(separator: "\n").last.map(String.init))

        let port = try freePort()
        let serverProcess = try await Binary.start(
            "hyzer-server", ["--data", server.path, "--port", "\(port)", "--host", "127.0.0.1"])
        defer { serverProcess.kill() }

        let url = "http://127.0.0.1:\(port)"
        for (dir, name) in [(kioskDir, "Clubhouse kiosk"), (phoneDir, "Phone")] {
            var enrolled = false
            for _ in 0..<40 where !enrolled {  // the server may still be starting
                enrolled =
                    try await Binary.run(
                        "hyzer",
                        [
                            "device", "enroll", "--server", url, "--group-token", token,
                            "--name", name, "--data", dir.path,
                        ]
                    ).status == 0
                if !enrolled { try await Task.sleep(nanoseconds: 250_000_000) }
            }
            #expect(enrolled, "\(name) could not enroll")
        }
        let demo = try await Binary.run("hyzer", ["demo", "--data", kioskDir.path, "--players", "2", "--holes-played", "0"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let roundID = try #require(demo.stdout.split(separator: "\n").last.flatMap { UUID(uuidString: String($0)) })

        // Until the test stops it: a kiosk given a fixed lifetime (it was `--run-for 10`) could
        // end before a busy machine had carried the score to it.
        let kiosk = try await Binary.start("hyzer-kiosk", ["--data", kioskDir.path, "--headless"])
        defer { kiosk.kill() }
        // Hang detectors, not latency bounds (a loaded machine may take seconds a step).
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(120)

        // The phone pulls the round the kiosk pushed, then scores Nate on hole 1.
        var pulled = false
        while !pulled && clock.now < deadline {
            try await Task.sleep(nanoseconds: 250_000_000)
            _ = try await Binary.run("hyzer", ["sync", "--data", phoneDir.path])
            pulled = await (try? HyzerDatabase(directory: phoneDir).read(.round(id: roundID))) != nil
        }
        #expect(pulled, "the kiosk's round never reached the server")
        let score = try await Binary.run("hyzer", ["score", "--data", phoneDir.path, roundID.uuidString, "Nate", "1", "2"])
        #expect(score.status == 0, "\(score.stderr)")
        let phoneDevice = try HyzerDatabase(directory: phoneDir).deviceID

        // While the kiosk runs, its engine pulls the phone's score into the kiosk's store.
        var arrived = false
        while !arrived && kiosk.isRunning && clock.now < deadline {
            try await Task.sleep(nanoseconds: 200_000_000)
            arrived =
                await (try? HyzerDatabase(directory: kioskDir).read(.events(round: roundID)))?
                .contains { $0.deviceID == phoneDevice && $0.strokes == 2 && $0.hole == 1 } == true
        }
        #expect(arrived, "the phone's score did not reach the running kiosk")
        #expect(kiosk.isRunning, "the kiosk must outlive the sync traffic")
        kiosk.terminate()
        let ended = try await kiosk.waitForExit(timeout: .seconds(60))
        #expect(ended.termination == .exited(0), "a stopped kiosk ends cleanly: \(ended.stderr.suffix(500))")
    }
}
