import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore
import KioskHardware
import KioskRender
import Logging

/// Builds the kiosk from its options: store, display, knob, then one of the two loops.
struct KioskLauncher {
    let options: KioskOptions

    func run() throws {
        let start = MonotonicMillis()
        let store = try HyzerDatabase.open(dataDirectory: options.dataDirectory)
        for recovery in store.recoveries { FileHandle.standardError.write(Data("hyzer-kiosk: \(recovery)\n".utf8)) }
        if options.demo, try store.activeRounds().isEmpty {
            try store.createDemoRound()
        }
        guard let assets = HyzerPaths.assetsDirectory() else {
            throw LaunchError("cannot find the assets folder (fonts, courses); run from the checkout or set HYZER_ASSETS")
        }
        let fonts = assets.appendingPathComponent("fonts")
        let display = try Display(mode: options.headless ? .headless : .window(fullscreen: !options.windowed),
                                  size: options.requestedViewport, rotate: options.rotate, fontsDirectory: fonts)
        let session = try KioskSession(store: store, viewport: display.viewport, now: start.now,
                                       reduceMotion: options.reduceMotion ? true : nil)

        if let scriptPath = options.script, let snapshots = options.snapshots {
            let text: String
            do { text = try String(contentsOfFile: scriptPath, encoding: .utf8) } catch {
                throw LaunchError("cannot read script \(scriptPath): \(error.localizedDescription)")
            }
            var runner = try ScriptRunner(session: session, display: display,
                                          snapshots: URL(fileURLWithPath: snapshots, isDirectory: true), startingAt: start.now)
            try runner.run(try KioskScript(parsing: text))
            for url in runner.written { print(url.path) }
            return
        }

        let knob = try knobDriver(session)
        // Sync with the group server when this kiosk is enrolled (`hyzer device enroll`).
        let sync = try SyncBridge(store: store)
        sync?.start()
        let loop = InteractiveLoop(session: session, display: display, knob: knob, sync: sync)
        let launchedAt = start.now
        var cpuAtFirstFrame = 0.0
        loop.onFirstFrame = {
            cpuAtFirstFrame = ResourceUsage.current().cpuSeconds
            // Read by `hyzer-bench render` to time launch to first frame.
            let line = "{\"event\": \"first-frame\", \"renderer\": \"\(display.rendererName)\", \"driver\": \"\(display.videoDriver)\", \"ms\": \(start.now - launchedAt)}\n"
            FileHandle.standardOutput.write(Data(line.utf8))  // unbuffered: a reader is timing it
        }
        loop.run(seconds: options.runFor)
        if options.runFor != nil {
            let usage = ResourceUsage.current()
            let rss = ResourceUsage.currentRSSMegabytes() ?? usage.maxRSSMegabytes
            // CPU after the first frame is what the board costs while it sits there.
            print("{\"event\": \"exit\", \"cpu_seconds\": \(usage.cpuSeconds), \"cpu_after_first_frame\": \(usage.cpuSeconds - cpuAtFirstFrame), \"max_rss_mb\": \(usage.maxRSSMegabytes), \"rss_mb\": \(rss), \"frames\": \(loop.frames)}")
        }
    }

    /// The encoder when configured and present; the keyboard (handled by the loop itself)
    /// always. A knob fault never stops the kiosk: it is shown and logged.
    private func knobDriver(_ session: KioskSession) throws -> KnobDriver? {
        let hasChip = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("gpiochip") } ?? false
        switch options.knob {
        case .keyboard: return nil
        case .auto where !hasChip: return nil
        case .auto, .gpiod:
            let (backend, fault) = KnobBackends.hardwareOrKeyboard()
            if let fault {
                session.send(.effectFailed("Knob unavailable: \(fault.kind.rawValue) · using the keyboard"), now: MonotonicMillis().now)
                Logger(label: "hyzer.kiosk").error("\(fault)")
                return nil
            }
            return KnobDriver(backend: backend)
        }
    }
}

struct LaunchError: Error, CustomStringConvertible {
    var description: String
    init(_ text: String) { description = text }
}
