import Foundation
import HyzerKit
import HyzerStore
import HyzerTestSupport
import Testing

/// The kiosk in a real SDL window under Xvfb, driven through X11 key events exactly as a
/// development machine's keyboard (the knob's stand-in) would drive it.
@Suite(.serialized) struct KioskWindowTests {
    @Test func wholeRoundInARealWindowWithTheKeyboardAsTheKnob() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-window-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        for args in [["init"], ["player", "add", "Ana"], ["player", "add", "Ben"]] {
            #expect(try await Binary.run("hyzer", args + ["--data", dir.path]).status == 0)
        }
        let x = try await XServer.start()
        defer { x.stop() }
        let kiosk = try await Binary.start(
            "hyzer-kiosk", ["--data", dir.path, "--windowed", "--size", "1024x600", "--knob", "keyboard", "--run-for", "90"],
            environment: ProcessInfo.processInfo.environment.merging(["DISPLAY": x.display]) { $1 }, output: .collected)
        defer { kiosk.terminate() }

        // Bounded wait for the window: a kiosk that failed to start must fail the test, not hang it.
        var window: String?
        for _ in 0..<150 where window == nil && kiosk.isRunning {
            window = (try? await x.xdotool(["search", "--name", "^Hyzer$"]))?.split(separator: "\n").last.map(String.init)
            if window == nil { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        if !kiosk.isRunning {
            let ended = try await kiosk.waitForExit()
            Issue.record("hyzer-kiosk exited before showing a window (\(ended.termination)): \(ended.stderr)")
            return
        }
        let id = try #require(window, "no Hyzer window appeared on \(x.display)")
        // No window manager under Xvfb: focus directly (`--sync` can wait forever without one).
        _ = try await x.xdotool(["windowfocus", id])
        try await Task.sleep(nanoseconds: 300_000_000)
        func keys(_ k: [String], settle: Double = 0.3) async throws {
            _ = try await x.xdotool(["key", "--delay", "90"] + k)
            try await Task.sleep(nanoseconds: UInt64(settle * 1e9))
        }
        // Board → course list → Riverside Nine → Ana, Ben → Start.
        try await keys(["Return", "Right", "Right", "Return", "Return", "Right", "Return", "Right", "Return"])
        for _ in 1...9 {
            // Ana: one under par (Left = one stroke less); Ben: par. Then auto-advance.
            try await keys(["Return", "Left", "Return", "Return", "Return"], settle: 1.3)
        }
        try await keys(["Return"])  // finalize → summary
        try await keys(["Escape"], settle: 0.5)  // back to the board
        kiosk.terminate()  // SIGTERM: a clean stop, as systemd does it
        let ended = try await kiosk.waitForExit()
        #expect(ended.termination == .exited(0), "\(ended.stderr)")
        #expect(ended.stdout.contains("\"first-frame\""))

        let db = try HyzerDatabase(directory: dir)
        let round = try #require(try db.history().first)
        let snapshot = try db.snapshot(round: round.id)
        #expect(snapshot.round.status == .completed)
        #expect(snapshot.events.count == 18)
        let rows = snapshot.standings.rows
        #expect(rows.map(\.name) == ["Ana", "Ben"])
        #expect(rows.map(\.toPar) == [-9, 0])
    }
}

/// A private Xvfb server on a free display number.
final class XServer: Sendable {
    let display: String
    private let process: ChildProcess

    private init(display: String, process: ChildProcess) {
        self.display = display
        self.process = process
    }

    static func start() async throws -> XServer {
        guard let xvfb = ["/usr/bin/Xvfb", "/usr/local/bin/Xvfb"].first(where: FileManager.default.isExecutableFile) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSLocalizedDescriptionKey: "Xvfb is missing: run `make deps`"])
        }
        // Skip numbers with a socket or a lock file: a killed server leaves both behind.
        var number = 100 + Int.random(in: 0..<400)
        while FileManager.default.fileExists(atPath: "/tmp/.X11-unix/X\(number)")
            || FileManager.default.fileExists(atPath: "/tmp/.X\(number)-lock")
        { number += 1 }
        let process = try await ChildProcess.start(
            URL(fileURLWithPath: xvfb), [":\(number)", "-screen", "0", "1280x720x24", "-nolisten", "tcp"])
        let server = XServer(display: ":\(number)", process: process)
        // Ready means answering requests, not just having created its socket.
        for _ in 0..<100 {
            if (try? await server.xdotool(["getdisplaygeometry"])) != nil { return server }
            guard process.isRunning else { break }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        server.stop()
        throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "Xvfb on :\(number) did not come up"])
    }

    /// SIGKILL: a child of the test runner may inherit a blocked SIGTERM, and a throwaway
    /// X server has nothing to save. swift-subprocess reaps it in the background.
    func stop() {
        process.kill()
    }

    @discardableResult
    func xdotool(_ args: [String]) async throws -> String {
        let run = try await Binary.run(
            executable: URL(fileURLWithPath: "/usr/bin/xdotool"), args, environment: ["DISPLAY": display])
        guard run.status == 0 else {
            throw CocoaError(.executableLoad, userInfo: [NSLocalizedDescriptionKey: "xdotool \(args) failed"])
        }
        return run.stdout
    }
}
