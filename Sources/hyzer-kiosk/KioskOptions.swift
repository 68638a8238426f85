import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSystem
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
    var knob: KnobChoice?

    @Option(help: ArgumentHelp("The settings file (default: \(KioskSettingsFile.defaultPath) if it exists).", valueName: "path"))
    var config: String?

    @Flag(name: .customLong("check-config"), help: "Check the settings file and the flags, say what is wrong, and exit.")
    var checkConfig = false

    @Option(help: "The group server to join from the menu (Join a group), e.g. http://192.168.1.10:8630.")
    var server: String?
    @Option(
        help: ArgumentHelp(
            "The private CA (PEM) of an https group server; the join keeps it with the link.", valueName: "file"))
    var ca: String?

    @Option(
        name: .customLong("log-level"),
        help: ArgumentHelp(
            "What to log: \(HyzerLogging.levels.joined(separator: ", ")) (default: the file's log_level, else info)."))
    var logLevel: String?

    @Option(name: .customLong("run-for"), help: "Exit after this many seconds and print CPU and memory use as JSON.")
    var runFor: Double?

    @Flag(
        name: .customLong("hash-code"),
        help: "Read an organizer code (4 to 8 digits) from standard input, print kiosk.conf's code_hash line for it, and exit.")
    var hashCode = false

    typealias KnobChoice = KioskConfiguration.Knob

    func validate() throws {
        if let logLevel {
            do { _ = try HyzerLogging.level(logLevel) } catch { throw ValidationError("\(error)") }
        }
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

    /// The settings file's values, then the flags over them.
    func configuration(file: ConfigFile?) throws -> KioskConfiguration {
        var configuration = KioskConfiguration(dataDirectory: HyzerPaths.dataDirectory(explicit: data))
        if let file {
            KioskSettingsFile.apply(file, to: &configuration)
            // --data wins; the file's data wins over the defaults' guess.
            if let data { configuration.dataDirectory = URL(fileURLWithPath: data, isDirectory: true) }
        }
        configuration.display = headless ? .headless : .window(fullscreen: !windowed)
        // The flag, else the file's, else the mode's default (1920×1080 headless).
        if size != nil || file?.string("display.size") == nil { configuration.size = requestedViewport }
        if rotate { configuration.rotate = true }
        if reduceMotion { configuration.reduceMotion = true }
        configuration.demo = demo
        if let boardPageSeconds { configuration.boardPageInterval = Millis((boardPageSeconds * 1_000).rounded()) }
        if let boardRowsPerPage { configuration.boardRowsPerPage = boardRowsPerPage }
        if let knob { configuration.knob = knob }
        if let server { configuration.server = server }
        if let ca { configuration.serverCA = URL(fileURLWithPath: ca).standardizedFileURL.path }
        return configuration
    }

    /// What `--check-config` checks beyond the file's own keys: what the values name on
    /// this machine (the DRM card's path, which only the file sets).
    func check(_ configuration: KioskConfiguration, file: ConfigFile?) throws {
        guard let file, let card = configuration.drmCard else { return }
        do { _ = try DRMCard.deviceIndex(of: card) } catch { throw file.error("display.card", "\(error)") }
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
        guard let viewport = KioskSettingsFile.viewport(text) else {
            throw ValidationError("--size takes WIDTHxHEIGHT, e.g. 1920x1080 (got \(text))")
        }
        return viewport
    }

    var requestedViewport: Viewport {
        if let size, let v = try? viewport(size) { return v }
        return headless ? Viewport(width: 1920, height: 1080) : Viewport(width: 1280, height: 720)
    }
}
extension KioskConfiguration.Knob: ExpressibleByArgument {}
