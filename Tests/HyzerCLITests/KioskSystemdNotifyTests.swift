import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// What systemd would hear from the kiosk (issue 13 item 3): a real datagram socket stands
/// where systemd's notify socket is, and the real hyzer-kiosk runs headless with the
/// variables a `Type=notify` unit with `WatchdogSec=` gives it.
@Suite(.serialized) struct KioskSystemdNotifyTests {
    /// READY=1 once the board is drawn, WATCHDOG=1 at half the interval while the board sits
    /// idle (its loop would otherwise sleep), STOPPING=1 on SIGTERM. Negative control: the
    /// same process stopped (SIGSTOP, as a hung loop) sends nothing, which is what makes
    /// systemd restart it.
    @Test func theKioskSaysReadyPingsTheWatchdogAndFallsSilentWhenHung() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-notify-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let socket = try NotifySocket(path: dir.appendingPathComponent("notify").path)
        defer { socket.close() }
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = socket.path
        environment["WATCHDOG_USEC"] = "400000"  // a ping every 200 ms
        let kiosk = try await Binary.start(
            "hyzer-kiosk", ["--data", dir.appendingPathComponent("data").path, "--headless"], environment: environment)
        defer { kiosk.kill() }

        let ready = try #require(socket.receive(timeout: 60), "no READY=1 within 60 s")
        #expect(ready.message == "READY=1")
        // An idle board for 1.5 s: the loop wakes for the watchdog alone.
        let idle = socket.collect(for: 1.5)
        let pings = idle.filter { $0.message == "WATCHDOG=1" }
        #expect(pings.count >= 5, "\(idle.map(\.message))")
        let gaps = zip(pings.dropFirst(), pings).map { $0.time - $1.time }
        #expect((gaps.max() ?? 0) < 0.4, "a gap as long as the watchdog's interval: \(gaps)")

        kiosk.send(SIGSTOP)
        let hung = socket.collect(for: 1.0)
        #expect(hung.isEmpty, "a stopped kiosk still pinged: \(hung.map(\.message))")
        kiosk.send(SIGCONT)
        let resumed = try #require(socket.receive(timeout: 5), "no ping after SIGCONT")
        #expect(resumed.message == "WATCHDOG=1")

        kiosk.terminate()
        let finished = try await kiosk.waitForExit(timeout: .seconds(30))
        let last = socket.collect(for: 0.2).map(\.message)
        #expect(last.contains("STOPPING=1"), "\(last); stderr: \(finished.stderr)")
    }
}
