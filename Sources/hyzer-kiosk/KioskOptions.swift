import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore
import KioskRender

struct KioskOptions: ParsableArguments {
    @Option(help: ArgumentHelp(HyzerPaths.Owner.device.dataOptionHelp))
    var data: String?

    @Flag(help: "Run in a window instead of full-screen.")
    var windowed = false

    @Flag(help: "No display: SDL's dummy driver and software renderer. Use with --script and --snapshots.")
    var headless = false

    @Option(help: "Headless: a script of knob input and time steps (docs/kiosk-script-format.md).")
    var script: String?

    @Option(help: "Headless: where to write a PNG of each screen.")
    var snapshots: String?

    @Option(help: "Logical size WIDTHxHEIGHT (window or headless; full-screen uses the display's size).")
    var size: String?

    @Flag(help: "Portrait: turn the board 90° for a panel mounted on its side.")
    var rotate = false

    @Flag(name: .customLong("reduce-motion"), help: "Instant changes instead of motion (also in the menu).")
    var reduceMotion = false

    /// Named like the keys a configuration file will map onto (the appliance's job).
    @Option(
        name: .customLong("board-page-seconds"),
        help: "Seconds each board page stays when the group does not fit (3-120; default 8).")
    var boardPageSeconds: Double?

    @Option(
        name: .customLong("board-rows-per-page"),
        help: "Rotating rows on a board page (1-100; default: as many as fit at the minimum sizes, never more).")
    var boardRowsPerPage: Int?

    @Flag(help: "Create a demo round when none is active (what `make run` does).")
    var demo = false

    @Option(help: "Knob input: auto (the encoder if a GPIO chip exists, else keyboard), gpiod, or keyboard.")
    var knob: KnobChoice = .auto

    @Option(help: "The group server to join from the menu (Join a group), e.g. http://192.168.1.10:8630.")
    var server: String?

    @Option(name: .customLong("run-for"), help: "Exit after this many seconds and print CPU and memory use as JSON.")
    var runFor: Double?

    typealias KnobChoice = KioskConfiguration.Knob

    func validate() throws {
        if script != nil || snapshots != nil {
            guard headless else { throw ValidationError("--script and --snapshots go with --headless") }
            guard script != nil, snapshots != nil else { throw ValidationError("--script and --snapshots go together") }
        }
        if let size { _ = try viewport(size) }
        if let boardPageSeconds, !Self.pageSeconds.contains(boardPageSeconds) {
            throw ValidationError(
                "--board-page-seconds takes 3 to 120 (got \(boardPageSeconds)): shorter cannot be read from 3 m, longer looks stuck"
            )
        }
        if let boardRowsPerPage, !Self.rowsPerPage.contains(boardRowsPerPage) {
            throw ValidationError("--board-rows-per-page takes 1 to 100 (got \(boardRowsPerPage))")
        }
    }

    /// Below 3 s a person 3 m away cannot read a page of ten names before it turns; past two
    /// minutes the rotating players look left out. MiClub uses 10 s, the default is 8 s.
    static let pageSeconds: ClosedRange<Double> = 3...120
    static let rowsPerPage: ClosedRange<Int> = 1...100

    var dataDirectory: URL { HyzerPaths.dataDirectory(explicit: data) }

    /// The flags as the kiosk's configuration.
    func configuration() throws -> KioskConfiguration {
        var configuration = KioskConfiguration(dataDirectory: dataDirectory)
        configuration.display = headless ? .headless : .window(fullscreen: !windowed)
        configuration.size = requestedViewport
        configuration.rotate = rotate
        configuration.reduceMotion = reduceMotion ? true : nil
        configuration.demo = demo
        configuration.boardPageInterval = boardPageSeconds.map { Millis(($0 * 1_000).rounded()) }
        configuration.boardRowsPerPage = boardRowsPerPage
        configuration.knob = knob
        configuration.server = server
        return configuration
    }

    /// The headless script, when one was given.
    func loadScript() throws -> KioskScript? {
        guard let script else { return nil }
        let text: String
        do { text = try String(contentsOfFile: script, encoding: .utf8) } catch {
            throw KioskError("cannot read script \(script): \(error.localizedDescription)")
        }
        return try KioskScript(parsing: text)
    }

    var snapshotsDirectory: URL? { snapshots.map { URL(fileURLWithPath: $0, isDirectory: true) } }

    func viewport(_ text: String) throws -> Viewport {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (320...7680).contains(parts[0]), (240...4320).contains(parts[1]) else {
            throw ValidationError("--size takes WIDTHxHEIGHT, e.g. 1920x1080 (got \(text))")
        }
        return Viewport(width: parts[0], height: parts[1])
    }

    var requestedViewport: Viewport {
        if let size, let v = try? viewport(size) { return v }
        return headless ? Viewport(width: 1920, height: 1080) : Viewport(width: 1280, height: 720)
    }
}
extension KioskConfiguration.Knob: ExpressibleByArgument {}
