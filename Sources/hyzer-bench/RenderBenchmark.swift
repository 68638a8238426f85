import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore
import KioskRender

/// The board's costs (issue 4): frame time during a 20-row reshuffle at 1920×1080 on
/// the software renderer, score saved → board redrawn, launch to first frame, idle CPU
/// and memory of a running kiosk.
enum RenderBenchmark {
    @Sendable static func run() async throws -> String {
        guard let assets = HyzerPaths.assetsDirectory() else { throw BenchError("cannot find assets/ (run from the checkout)") }
        let fonts = assets.appendingPathComponent("fonts")
        let (p50, p99, frames) = try reshuffleFrames(fonts: fonts)
        log("render: \(frames) frames of 20-row reshuffles at 1920x1080, software renderer")
        let commit = try commitToRedraw(fonts: fonts)
        let kiosk = try kioskBinary()
        let launch = try launchToFirstFrame(kiosk)
        let idleSeconds = Double(ProcessInfo.processInfo.environment["HYZER_BENCH_IDLE_SECONDS"] ?? "") ?? 60
        let (idleCPU, rss) = try idle(kiosk, seconds: idleSeconds)
        return jsonLine([
            "frame_p50_ms": round3(p50), "frame_p99_ms": round3(p99), "commit_to_redraw_ms": round3(commit),
            "launch_ms": round3(launch), "idle_cpu_pct": round3(idleCPU), "rss_mb": round3(rss),
        ])
    }

    /// A 20-player round whose order flips back and forth: every row moves every time.
    static func reshuffleFrames(fonts: URL) throws -> (Double, Double, Int) {
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        let course = try Course(name: "Bench Park", holeCount: 18)
        var round = Round(courseID: course.id, organizerID: UUID())
        for i in 0..<20 { try round.add(Participant(id: UUID(), name: "Player \(i + 1)", kind: .registered)) }
        try round.start()
        func events(flipped: Bool) -> [ScoreEvent] {
            round.participants.enumerated().map { index, p in
                let strokes = 2 + (flipped ? 19 - index : index) % 8
                return ScoreEvent(roundID: round.id, participantID: p.id, hole: 1, strokes: strokes, reportedBy: p.id, deviceID: "bench")
            }
        }
        var state = KioskState(viewport: display.viewport)
        var now: Millis = 0
        var samples: [Double] = []
        for cycle in 0..<40 {
            state.handle(.dataChanged(KioskData(round: RoundSnapshot(round: round, course: course, events: events(flipped: cycle % 2 == 1)),
                                                courses: [course]), .remoteSync), now: now)
            let end = now + MotionTokens.reshuffleBudget
            while now <= end {
                let start = nowNs()
                display.draw(state, now: now, wallClock: SystemClock().date)
                display.present()
                if cycle > 0 { samples.append(Double(nowNs() - start) / 1e6) }  // the first cycle warms the text cache
                now += MotionTokens.frameInterval
            }
            now += 2_000
        }
        return (percentile(samples, 50), percentile(samples, 99), samples.count)
    }

    /// Press to save in crown entry → SQLite commit → reload → state → frame drawn.
    static func commitToRedraw(fonts: URL) throws -> Double {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-render-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let store = try HyzerDatabase.open(dataDirectory: dir)
        try store.createDemoRound(players: 20, holesPlayed: 9)
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        var now: Millis = 1_000
        let session = try KioskSession(store: store, viewport: display.viewport, now: now)
        var samples: [Double] = []
        for i in 0..<60 {
            session.send(.pressed, now: now)                     // board → hole card, or hole card → entry
            if case .holeCard = session.state.screen { session.send(.pressed, now: now) }
            session.send(.turned(i % 2 == 0 ? 1 : -1), now: now)
            let start = nowNs()
            session.send(.pressed, now: now)                     // save
            display.draw(session.state, now: now, wallClock: SystemClock().date)
            display.present()
            samples.append(Double(nowNs() - start) / 1e6)
            now += 3_000
            session.send(.tick, now: now)
            session.send(.longPressed, now: now)                 // back to the board
        }
        log("render: \(samples.count) saves through the store, median \(round3(percentile(samples, 50))) ms")
        return percentile(samples, 50)
    }

    static func kioskBinary() throws -> URL {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let url = own.appendingPathComponent("hyzer-kiosk")
        guard FileManager.default.isExecutableFile(atPath: url.path) else {
            throw BenchError("\(url.path) is missing: build it in the same configuration (make bench does)")
        }
        return url
    }

    static func dataDirWithDemo() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-bench-kiosk-\(UUID())")
        let store = try HyzerDatabase.open(dataDirectory: dir)
        try store.createDemoRound(players: 6, holesPlayed: 7)
        return dir
    }

    /// Process start to the kiosk's "first-frame" line, median of five launches.
    static func launchToFirstFrame(_ kiosk: URL) throws -> Double {
        let dir = try dataDirWithDemo()
        defer { try? FileManager.default.removeItem(at: dir) }
        var samples: [Double] = []
        for _ in 0..<5 {
            let p = Process()
            p.executableURL = kiosk
            p.arguments = ["--data", dir.path, "--headless", "--run-for", "0.3"]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = FileHandle.nullDevice
            let start = nowNs()
            try p.run()
            var buffer = Data()
            while !String(decoding: buffer, as: UTF8.self).contains("first-frame") {
                let chunk = out.fileHandleForReading.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
            }
            samples.append(Double(nowNs() - start) / 1e6)
            _ = out.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            guard String(decoding: buffer, as: UTF8.self).contains("first-frame") else { throw BenchError("the kiosk drew no frame") }
        }
        return percentile(samples, 50)
    }

    /// A kiosk showing the board with nobody touching it: CPU after its first frame, and
    /// memory. In a real X11 window under Xvfb when there is one (the path that blocks in
    /// the display server like KMSDRM on the Pi), else headless.
    static func idle(_ kiosk: URL, seconds: Double) throws -> (cpuPercent: Double, rssMB: Double) {
        let dir = try dataDirWithDemo()
        defer { try? FileManager.default.removeItem(at: dir) }
        let p = Process()
        p.executableURL = kiosk
        var xvfb: Process?
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") {
            let x = Process()
            let display = ":\(700 + Int.random(in: 0..<200))"
            x.executableURL = URL(fileURLWithPath: "/usr/bin/Xvfb")
            x.arguments = [display, "-screen", "0", "1920x1080x24", "-nolisten", "tcp"]
            x.standardError = FileHandle.nullDevice
            try x.run()
            Thread.sleep(forTimeInterval: 1)
            xvfb = x
            p.environment = ProcessInfo.processInfo.environment.merging(["DISPLAY": display]) { $1 }
            p.arguments = ["--data", dir.path, "--windowed", "--size", "1920x1080", "--run-for", String(seconds)]
            log("render: idle kiosk in an X11 window on Xvfb \(display)")
        } else {
            p.arguments = ["--data", dir.path, "--headless", "--run-for", String(seconds)]
            log("render: idle kiosk headless (no Xvfb)")
        }
        defer { if let xvfb { kill(xvfb.processIdentifier, SIGKILL); xvfb.waitUntilExit() } }
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        guard let line = text.split(separator: "\n").last(where: { $0.contains("\"exit\"") }),
              let json = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
              let cpu = json["cpu_after_first_frame"] as? Double, let rss = json["rss_mb"] as? Double
        else { throw BenchError("no exit report from the kiosk: \(text)") }
        log("render: idle \(seconds) s: \(cpu) s CPU after the first frame, \(json["frames"] ?? "?") frames, RSS \(rss) MB")
        return (cpu / seconds * 100, rss)
    }
}
