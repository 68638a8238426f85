import Foundation
import HyzerSystem
import KioskCore
import KioskHardware

/// `/etc/hyzer/kiosk.conf`: what an installer sets once for a board (where the scores live,
/// the group server, the knob's wiring, the panel), as a TOML file the package ships with
/// every key commented (systemd/kiosk.conf). The command line's flags override it.
public enum KioskSettingsFile {
    public static let defaultPath = "/etc/hyzer/kiosk.conf"

    /// Every key the file may hold; anything else stops the start.
    public static let schema: [ConfigKey] = [
        ConfigKey("data", .absolutePath),
        ConfigKey("server", .text(expects: "an http:// or https:// address, or \"\" for none", check: serverAddress)),
        ConfigKey("server_ca", .absolutePath),
        ConfigKey("log_level", .choice(HyzerLogging.levels)),
        ConfigKey("display.rotation", .integerChoice([0, 90])),
        ConfigKey(
            "display.size", .text(expects: "WIDTHxHEIGHT, e.g. \"1280x720\"", check: { viewport($0) == nil ? "not a size" : nil })
        ),
        ConfigKey("display.card", .text(expects: "\"auto\" or a path under /dev/dri/ (by-path is stable)", check: drmCard)),
        ConfigKey("display.output", .choice(KioskConfiguration.Output.allCases.map(\.rawValue))),
        ConfigKey("display.reduce_motion", .boolean),
        ConfigKey("display.dim_after_minutes", .integer(0...1440)),
        ConfigKey("display.dim_level", .integer(5...100)),
        ConfigKey("board.page_seconds", .number(3...120)),
        ConfigKey("board.rows_per_page", .integer(1...100)),
        ConfigKey("knob.input", .choice(KioskConfiguration.Knob.allCases.map(\.rawValue))),
        ConfigKey("knob.a", lineKind),
        ConfigKey("knob.b", lineKind),
        ConfigKey("knob.button", lineKind),
        ConfigKey("knob.mode", .choice(QuadratureMode.allCases.map(\.rawValue))),
        ConfigKey("knob.swap_direction", .boolean),
        ConfigKey("knob.pull_up", .boolean),
        ConfigKey(
            "buzzer.line",
            .text(expects: "a line such as \"GPIO23\", or \"none\"", check: { $0 == "none" ? nil : lineProblem($0) })),
        ConfigKey("buzzer.active", .choice(["high", "low"])),
        ConfigKey("lock.enabled", .boolean),
        ConfigKey(
            "lock.code_hash",
            .text(
                expects: "an organizer code's hash (hyzer-kiosk --hash-code makes one)",
                check: { text in
                    do { _ = try OrganizerCode(encoded: text) } catch { return "\(error)" }
                    return nil
                })),
    ]

    /// Reads the file (nil when it is absent and was not asked for by name).
    public static func read(path: String?) throws(ConfigError) -> ConfigFile? {
        try ConfigFile.read(path: path ?? defaultPath, schema: schema, required: path != nil)
    }

    /// The file's settings over `configuration`'s defaults; the flags are applied after this.
    public static func apply(_ file: ConfigFile, to configuration: inout KioskConfiguration) {
        if let data = file.string("data") { configuration.dataDirectory = URL(fileURLWithPath: data, isDirectory: true) }
        if let server = file.string("server") { configuration.server = server.isEmpty ? nil : server }
        if let ca = file.string("server_ca") { configuration.serverCA = ca }
        if let rotation = file.int("display.rotation") { configuration.rotate = rotation == 90 }
        if let size = file.string("display.size").flatMap(viewport) { configuration.size = size }
        if let card = file.string("display.card") { configuration.drmCard = card == "auto" ? nil : card }
        if let output = file.string("display.output").flatMap(KioskConfiguration.Output.init) { configuration.output = output }
        if let reduce = file.bool("display.reduce_motion") { configuration.reduceMotion = reduce }
        if let minutes = file.int("display.dim_after_minutes") {
            configuration.dimAfter = minutes == 0 ? nil : Millis(minutes) * 60_000
        }
        if let percent = file.int("display.dim_level") { configuration.dimLevel = Double(percent) / 100 }
        if let seconds = file.double("board.page_seconds") {
            configuration.boardPageInterval = Millis((seconds * 1_000).rounded())
        }
        if let rows = file.int("board.rows_per_page") { configuration.boardRowsPerPage = rows }
        if let input = file.string("knob.input").flatMap(KioskConfiguration.Knob.init) { configuration.knob = input }
        if let a = file.string("knob.a").flatMap(GpioLineSpec.init(parsing:)) { configuration.gpio.a = a }
        if let b = file.string("knob.b").flatMap(GpioLineSpec.init(parsing:)) { configuration.gpio.b = b }
        if let sw = file.string("knob.button").flatMap(GpioLineSpec.init(parsing:)) { configuration.gpio.sw = sw }
        if let mode = file.string("knob.mode").flatMap(QuadratureMode.init) { configuration.decoding.mode = mode }
        if let swap = file.bool("knob.swap_direction") { configuration.decoding.swapDirection = swap }
        if let pullUp = file.bool("knob.pull_up") { configuration.gpio.pullUp = pullUp }
        if let line = file.string("buzzer.line") {
            configuration.gpio.buzzer = line == "none" ? nil : GpioLineSpec(parsing: line)
        }
        if let active = file.string("buzzer.active") { configuration.gpio.buzzerActiveLow = active == "low" }
        if let enabled = file.bool("lock.enabled") { configuration.lock.enabled = enabled }
        if let hash = file.string("lock.code_hash") { configuration.lock.code = try? OrganizerCode(encoded: hash) }
    }

    // MARK: Values

    static let lineKind = ConfigKey.Kind.text(
        expects: "a line name such as \"GPIO17\", optionally with a chip:offset fallback (\"GPIO17,pinctrl-rp1:17\")",
        check: lineProblem)

    static func lineProblem(_ text: String) -> String? { GpioLineSpec(parsing: text) == nil ? "not a GPIO line" : nil }

    static func serverAddress(_ text: String) -> String? {
        guard !text.isEmpty else { return nil }
        guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
            return "not an http:// or https:// address"
        }
        return nil
    }

    static func drmCard(_ text: String) -> String? {
        text == "auto" || text.hasPrefix("/dev/dri/") ? nil : "not under /dev/dri/"
    }

    /// `WIDTHxHEIGHT` within what a panel can be (320×240 to 8K); nil otherwise. The same
    /// rule as `--size`.
    public static func viewport(_ text: String) -> Viewport? {
        let parts = text.lowercased().split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2, (320...7680).contains(parts[0]), (240...4320).contains(parts[1]) else { return nil }
        return Viewport(width: parts[0], height: parts[1])
    }
}
