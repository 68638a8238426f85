import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
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
        let window = try await WindowedKiosk.start(data: dir)
        let kiosk = window.kiosk
        // Board → course list → Riverside Nine → Ana, Ben → Start → the card's Start.
        try await window.keys(["Return", "Right", "Right", "Return", "Return", "Right", "Return", "Right", "Return", "Return"])
        for _ in 1...9 {
            // Ana: one under par (Left = one stroke less); Ben: par. Then auto-advance.
            try await window.keys(["Return", "Left", "Return", "Return", "Return"], settle: 1.3)
        }
        try await window.keys(["Return"])  // finalize → summary
        try await window.keys(["Escape"], settle: 0.5)  // back to the board
        kiosk.terminate()  // SIGTERM: a clean stop, as systemd does it
        let ended = try await kiosk.waitForExit()
        #expect(ended.termination == .exited(0), "\(ended.stderr)")
        #expect(ended.stdout.contains("\"first-frame\""))

        let db = try HyzerDatabase(directory: dir)
        let round = try #require(try await db.read(.history()).first)
        let snapshot = try await db.read(.snapshot(round: round.id))
        #expect(snapshot.round.status == .completed)
        #expect(snapshot.events.count == 18)
        let rows = snapshot.standings.rows
        #expect(rows.map(\.name) == ["Ana", "Ben"])
        #expect(rows.map(\.toPar) == [-9, 0])
    }

    /// Issue 14: from an empty board (no player registered) to the summary with one new
    /// player and one walk-up guest, in a real window, the keyboard as the knob and as a
    /// keyboard (the names are typed).
    @Test func aNewPlayerAndAGuestFromTheEmptyBoardToTheSummary() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-window-guest-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Binary.run("hyzer", ["init", "--data", dir.path]).status == 0)
        let window = try await WindowedKiosk.start(data: dir)
        let kiosk = window.kiosk
        // Board → course list → Riverside Nine → (no players yet) the new player's name.
        try await window.keys(["Return", "Right", "Right", "Return"])
        try await window.type("Dana")
        try await window.keys(["Return"])  // done: Dana registered and picked, the cursor on Start
        try await window.keys(["Right", "Right", "Return"])  // Add a guest
        try await window.type("Marcus")
        try await window.keys(["Return"])  // done: Marcus picked, the cursor on Start
        try await window.keys(["Return", "Return"])  // Start round, and the card's Start
        for _ in 1...9 {
            // Dana: one over par (Right = one stroke more); Marcus: par. Then auto-advance.
            try await window.keys(["Return", "Right", "Return", "Return", "Return"], settle: 1.3)
        }
        try await window.keys(["Return"])  // finalize → summary
        try await window.keys(["Escape"], settle: 0.5)
        kiosk.terminate()
        let ended = try await kiosk.waitForExit()
        #expect(ended.termination == .exited(0), "\(ended.stderr)")

        let db = try HyzerDatabase(directory: dir)
        #expect(try await db.read(.players).map(\.displayName) == ["Dana"], "the guest is not registered")
        let round = try #require(try await db.read(.history()).first)
        let snapshot = try await db.read(.snapshot(round: round.id))
        #expect(snapshot.round.status == .completed)
        #expect(snapshot.round.participants.map(\.name) == ["Dana", "Marcus"])
        #expect(snapshot.round.participants.map(\.kind) == [.registered, .guest])
        #expect(snapshot.round.organizerID == snapshot.round.participants[0].id)
        #expect(snapshot.standings.rows.map(\.name) == ["Marcus", "Dana"])
        #expect(snapshot.standings.rows.map(\.toPar) == [0, 9])
    }
}

/// Issue 33: a window draws with SDL's software renderer, as the console does, and maps no GL
/// library: Mesa's GL stack (libGL, its DRI driver and, for llvmpipe, LLVM) cost the windowed
/// kiosk about 60 MB of its memory. The negative control asks SDL to back the window's
/// surface with a GL texture (`SDL_FRAMEBUFFER_ACCELERATION=1`, which the environment may
/// set over the kiosk's own hint): the same check must then find GL mapped.
@Suite(.serialized) struct KioskWindowRendererTests {
    @Test func aWindowDrawsInSoftwareWithNoGLLibraryMapped() async throws {
        let (mapped, ended) = try await Self.librariesOfARunningWindow(environment: [:])
        #expect(Self.glLibraries(mapped).isEmpty, "GL mapped by the windowed kiosk: \(Self.glLibraries(mapped))")
        #expect(ended.stdout.contains("\"renderer\":\"software\""), "\(ended.stdout)")
        // The window's own libraries are there: the check reads the right process.
        #expect(mapped.contains { $0.contains("libX11") }, "\(mapped)")
    }

    @Test func negativeControlAGLBackedSurfaceIsSeen() async throws {
        let (mapped, _) = try await Self.librariesOfARunningWindow(environment: ["SDL_FRAMEBUFFER_ACCELERATION": "1"])
        #expect(!Self.glLibraries(mapped).isEmpty, "the check saw no GL where SDL was asked for it: \(mapped)")
    }

    /// The files mapped by a windowed kiosk once its board is on screen, and how it ended.
    static func librariesOfARunningWindow(environment: [String: String]) async throws -> ([String], ChildProcess.Finished) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-window-gl-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(try await Binary.run("hyzer", ["init", "--data", dir.path]).status == 0)
        let window = try await WindowedKiosk.start(data: dir, environment: environment)
        // The first frame is drawn by now (the window is viewable); a key press draws another.
        try await window.keys(["Right"], settle: 0.5)
        let maps = try procFile("/proc/\(window.kiosk.processIdentifier)/maps")
        window.kiosk.terminate()
        let ended = try await window.kiosk.waitForExit()
        #expect(ended.termination == .exited(0), "\(ended.stderr)")
        // A maps line: address, permissions, offset, device, inode, path (when there is one).
        let files = Set(maps.split(separator: "\n").compactMap { $0.split(separator: " ").dropFirst(5).first })
        return (files.map(String.init).sorted(), ended)
    }

    /// A /proc file whole: they report a size of 0, and Foundation's readers stop after the
    /// first block (a process's maps run to tens of kilobytes).
    static func procFile(_ path: String) throws -> String {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path]) }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// GL implementations among `files` (the appliance test's list, board/appliance-test). Not
    /// libgbm: Debian's libSDL2 links it (a buffer allocator that loads a driver only when
    /// asked for a device), so it is mapped in every SDL process, the console's too.
    static func glLibraries(_ files: [String]) -> [String] {
        files.filter { $0.contains(/lib(EGL|GL|GLX|GLESv\d|GLdispatch|glapi|LLVM)[-_.]|_dri\.so/) }
    }
}

/// The kiosk in a real window on a private Xvfb, the keyboard as its knob, driven by X11
/// key events (xdotool) as a development machine's keyboard would drive it. Stopped (both
/// the kiosk and the server) when released.
final class WindowedKiosk: Sendable {
    let x: XServer
    let kiosk: ChildProcess

    /// Starts the kiosk on `dir` for at most 90 s and gives its window the keyboard.
    /// `environment` is added to the test's own (and `DISPLAY`).
    static func start(data dir: URL, environment: [String: String] = [:]) async throws -> WindowedKiosk {
        let x = try await XServer.start()
        let kiosk: ChildProcess
        do {
            kiosk = try await Binary.start(
                "hyzer-kiosk",
                ["--data", dir.path, "--windowed", "--size", "1024x600", "--knob", "keyboard", "--run-for", "90"],
                environment: ProcessInfo.processInfo.environment.merging(["DISPLAY": x.display]) { $1 }
                    .merging(environment) { $1 },
                output: .collected)
        } catch {
            x.stop()
            throw error
        }
        let window = WindowedKiosk(x: x, kiosk: kiosk)
        try await window.focus()
        return window
    }

    private init(x: XServer, kiosk: ChildProcess) {
        self.x = x
        self.kiosk = kiosk
    }

    deinit {
        kiosk.terminate()
        x.stop()
    }

    /// Key presses (X keysym names), 90 ms apart, then `settle` seconds for the kiosk.
    func keys(_ k: [String], settle: Double = 0.3) async throws {
        _ = try await x.xdotool(["key", "--delay", "90"] + k)
        try await Task.sleep(nanoseconds: UInt64(settle * 1e9))
    }

    /// Text typed as a keyboard types it.
    func type(_ text: String) async throws {
        _ = try await x.xdotool(["type", "--delay", "90", text])
        try await Task.sleep(nanoseconds: 300_000_000)
    }

    /// Finds the kiosk's window (within 15 s; a kiosk that failed to start fails the test and
    /// does not hang it) and gives it the keyboard. No window manager runs under Xvfb, so the
    /// focus is set directly (`--sync` can wait forever without one), and again until X
    /// takes it: a window found the instant it is created may not be viewable yet.
    private func focus() async throws {
        let id = try await window()
        for attempt in 1...20 {
            do {
                _ = try await x.xdotool(["windowfocus", id])
                break
            } catch  where attempt < 20 {
                try await Task.sleep(nanoseconds: 100_000_000)
            }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
    }

    private func window() async throws -> String {
        var window: String?
        for _ in 0..<150 where window == nil && kiosk.isRunning {
            window = (try? await x.xdotool(["search", "--name", "^Hyzer$"]))?.split(separator: "\n").last.map(String.init)
            if window == nil { try await Task.sleep(nanoseconds: 100_000_000) }
        }
        if !kiosk.isRunning {
            let ended = try await kiosk.waitForExit()
            Issue.record("hyzer-kiosk exited before showing a window (\(ended.termination)): \(ended.stderr)")
        }
        return try #require(window, "no Hyzer window appeared on \(x.display)")
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
