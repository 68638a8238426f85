#if canImport(Glibc)
import Glibc
#endif

/// How to find one GPIO line: by name, as the board's device tree calls it ("GPIO17" on both the
/// Pi 4 and the Pi 5), with an optional chip + offset fallback for device trees without names.
public struct GpioLineSpec: Sendable, Hashable, CustomStringConvertible {
    public var name: String?
    public var fallback: GpioChipOffset?

    public init(name: String?, fallback: GpioChipOffset? = nil) {
        self.name = name
        self.fallback = fallback
    }

    /// Parses "GPIO17", "GPIO17,pinctrl-rp1:17" or "pinctrl-bcm2711:17" (chip by label, name
    /// such as gpiochip0, or device path; the label survives kernel renumbering).
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", maxSplits: 1).map { String($0).trimmingWhitespace }
        guard let first = parts.first, !first.isEmpty else { return nil }
        if parts.count == 2 {
            guard let fallback = GpioChipOffset(parsing: parts[1]) else { return nil }
            self.init(name: first, fallback: fallback)
        } else if first.contains(":") {
            guard let fallback = GpioChipOffset(parsing: first) else { return nil }
            self.init(name: nil, fallback: fallback)
        } else {
            self.init(name: first)
        }
    }

    public var description: String {
        switch (name, fallback) {
        case (let name?, let fallback?): "\(name) (or \(fallback))"
        case (let name?, nil): name
        case (nil, let fallback?): fallback.description
        case (nil, nil): "(unset)"
        }
    }
}

public struct GpioChipOffset: Sendable, Hashable, CustomStringConvertible {
    /// A chip label ("pinctrl-rp1"), name ("gpiochip4") or path ("/dev/gpiochip4").
    public var chip: String
    public var offset: Int

    public init(chip: String, offset: Int) {
        self.chip = chip
        self.offset = offset
    }

    public init?(parsing text: String) {
        guard let colon = text.lastIndex(of: ":"),
            let offset = Int(text[text.index(after: colon)...]), offset >= 0
        else { return nil }
        let chip = String(text[..<colon])
        guard !chip.isEmpty else { return nil }
        self.init(chip: chip, offset: offset)
    }

    public var description: String { "\(chip):\(offset)" }
}

/// The lines the knob uses. Defaults follow board/pinmap-pi4.md and board/pinmap-pi5.md.
public struct GpiodKnobConfig: Sendable, Hashable {
    public var a: GpioLineSpec
    public var b: GpioLineSpec
    public var sw: GpioLineSpec
    /// nil: no buzzer fitted.
    public var buzzer: GpioLineSpec?
    /// Shown by `gpioinfo` as the line's user.
    public var consumer: String
    /// Request the SoC's internal pull-ups on A, B and SW. Turn off for modules with their own
    /// pull-up resistors if the kernel is too old for bias flags (before Linux 5.5).
    public var pullUp: Bool
    /// Where to look for gpiochip devices.
    public var deviceDirectory: String
    /// The buzzer sounds while its line is low (a PNP transistor or a module with an
    /// inverting driver); most modules sound on high.
    public var buzzerActiveLow: Bool = false

    public init(
        a: GpioLineSpec = GpioLineSpec(name: "GPIO17"),
        b: GpioLineSpec = GpioLineSpec(name: "GPIO27"),
        sw: GpioLineSpec = GpioLineSpec(name: "GPIO22"),
        buzzer: GpioLineSpec? = GpioLineSpec(name: "GPIO23"),
        consumer: String = "hyzer-kiosk",
        pullUp: Bool = true,
        deviceDirectory: String = "/dev"
    ) {
        self.a = a
        self.b = b
        self.sw = sw
        self.buzzer = buzzer
        self.consumer = consumer
        self.pullUp = pullUp
        self.deviceDirectory = deviceDirectory
    }
}

/// What each line is for, so errors can say "encoder A (GPIO17)" rather than a bare number.
public enum KnobLineRole: String, Sendable, Hashable, CaseIterable {
    case encoderA = "encoder A"
    case encoderB = "encoder B"
    case button = "push switch"
    case buzzer

    public var inputLine: KnobLine? {
        switch self {
        case .encoderA: .a
        case .encoderB: .b
        case .button: .sw
        case .buzzer: nil
        }
    }
}

/// A GPIO failure, phrased for the diagnostics screen: what went wrong, on which line and chip,
/// and what to do about it.
public struct GpioError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// No /dev/gpiochip* at all: not a Pi, or no GPIO driver.
        case noChip
        /// A chip device exists but could not be opened for a reason other than permissions.
        case chipUnavailable
        case permissionDenied
        case lineNotFound
        /// Another process or a kernel driver holds the line.
        case lineBusy
        case requestFailed
        case invalidConfig
        /// Reading events failed after start-up (chip removed, driver error).
        case readFailed
    }

    public var kind: Kind
    /// The lines concerned, e.g. "encoder A (GPIO17)".
    public var lines: [String]
    /// The chip concerned, e.g. "/dev/gpiochip0 [pinctrl-bcm2711]", if one is.
    public var chip: String?
    public var problem: String
    public var fix: String

    public init(kind: Kind, lines: [String], chip: String?, problem: String, fix: String) {
        self.kind = kind
        self.lines = lines
        self.chip = chip
        self.problem = problem
        self.fix = fix
    }

    public var description: String {
        let lineList = lines.isEmpty ? "" : " Line\(lines.count == 1 ? "" : "s"): \(lines.joined(separator: ", "))."
        // Only a missing chip says so; a line that was not found names the chips scanned in `problem`.
        let chipText = chip.map { " Chip: \($0)." } ?? (kind == .noChip ? " Chip: none found." : "")
        return "Knob GPIO: \(problem).\(lineList)\(chipText) Fix: \(fix)"
    }

    static let groupFix =
        "add the user to the `gpio` group (sudo usermod -aG gpio $USER, then log in again) "
        + "and install board/99-gpio.rules so /dev/gpiochip* belongs to that group"
}

/// An errno from a GPIO call.
public struct GpioErrno: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: Int32
    public init(_ code: Int32) { self.code = code }
    public var description: String { String(cString: strerror(code)) }
    var isPermission: Bool { code == EACCES || code == EPERM }
}

/// One opened GPIO chip: the seam between the knob's logic and libgpiod, so that logic runs in
/// tests on machines without any GPIO.
public protocol GpioChip: AnyObject {
    var path: String { get }
    var name: String { get }
    var label: String { get }
    var lineCount: Int { get }
    func lineName(at offset: Int) -> String?
    /// Who holds the line, if anyone.
    func lineConsumer(at offset: Int) -> String?
    /// Requests rising and falling edge events; the line stays requested while the result lives.
    func requestEdgeEvents(offset: Int, consumer: String, pullUp: Bool) throws(GpioErrno) -> any EdgeEventLine
    func requestOutput(offset: Int, consumer: String, initialLevel: Int) throws(GpioErrno) -> any OutputLine
}

/// One edge of an input line, as the kernel stamped it.
public struct LineEdge: Sendable, Equatable {
    public var level: Int
    /// CLOCK_MONOTONIC nanoseconds.
    public var timestampNs: UInt64
}

/// An input line requested for both edges. Only the event pump's thread reads it.
public protocol EdgeEventLine: AnyObject, Sendable {
    /// To poll() for edges. It belongs to the line: never closed by anyone else.
    var fd: Int32 { get }
    /// The line's level when it was requested.
    var initialLevel: Int { get }
    /// Appends the edges queued now (at most `limit`) to `edges` and returns how many it read:
    /// 0 when none are queued (the fd is non-blocking). Throws the errno when the line is gone.
    func readEdges(into edges: inout [LineEdge], limit: Int) throws(GpioErrno) -> Int
}

/// Lists and opens chips.
public protocol GpioChipProvider {
    /// The chips' device paths, in a stable order (gpiochip2 before gpiochip10).
    func chipPaths() -> [String]
    func openChip(path: String) throws(GpioErrno) -> any GpioChip
}

/// An input line requested for edge events.
struct RequestedInput {
    var line: KnobLine
    var events: any EdgeEventLine
    /// "encoder A (GPIO17 at gpiochip0:17)", for errors after start-up.
    var label: String
    var chip: String
}

/// Finds the knob's lines by name across all chips (chip + offset as a fallback) and requests
/// them, turning every failure into a `GpioError` that names the line, the chip and the fix.
/// Pure apart from the provider, so each failure path is testable with a fake one.
struct GpioLineResolver {
    let config: GpiodKnobConfig
    let provider: any GpioChipProvider

    private var roles: [(KnobLineRole, GpioLineSpec)] {
        var roles: [(KnobLineRole, GpioLineSpec)] = [(.encoderA, config.a), (.encoderB, config.b), (.button, config.sw)]
        if let buzzer = config.buzzer { roles.append((.buzzer, buzzer)) }
        return roles
    }

    private func describe(_ role: KnobLineRole, _ spec: GpioLineSpec) -> String { "\(role.rawValue) (\(spec))" }

    private static func describe(_ chip: any GpioChip) -> String {
        chip.label.isEmpty ? chip.path : "\(chip.path) [\(chip.label)]"
    }

    struct Opened {
        var chips: [any GpioChip]
        var failures: [(path: String, error: GpioErrno)]
    }

    func openChips() throws(GpioError) -> Opened {
        let allLines = roles.map { describe($0.0, $0.1) }
        let paths = provider.chipPaths()
        guard !paths.isEmpty else {
            throw GpioError(
                kind: .noChip, lines: allLines, chip: nil,
                problem: "no GPIO chip: \(config.deviceDirectory) has no gpiochip devices",
                fix: "run on the Raspberry Pi (or check that its GPIO driver is loaded: `ls /dev/gpiochip*`); "
                    + "on a development machine the kiosk uses the keyboard and mouse wheel instead"
            )
        }
        var opened = Opened(chips: [], failures: [])
        for path in paths {
            do throws(GpioErrno) {
                opened.chips.append(try provider.openChip(path: path))
            } catch {
                opened.failures.append((path, error))
            }
        }
        if opened.chips.isEmpty, let first = opened.failures.first {
            if let denied = opened.failures.first(where: { $0.error.isPermission }) {
                throw GpioError(
                    kind: .permissionDenied, lines: allLines, chip: denied.path,
                    problem: "permission denied opening \(denied.path)", fix: GpioError.groupFix
                )
            }
            throw GpioError(
                kind: .chipUnavailable, lines: allLines, chip: first.path,
                problem: "cannot open \(first.path): \(first.error)",
                fix: "check that \(first.path) is a GPIO character device (`gpiodetect` lists them) and that nothing replaced it"
            )
        }
        return opened
    }

    /// Where each role's line is, without requesting anything.
    func locate(in opened: Opened) throws(GpioError) -> [(role: KnobLineRole, chip: any GpioChip, offset: Int, label: String)] {
        // Index every named line once; the first chip wins, as with gpiod_line_find().
        var byName: [String: (chip: any GpioChip, offset: Int)] = [:]
        for chip in opened.chips {
            for offset in 0..<chip.lineCount {
                if let name = chip.lineName(at: offset), !name.isEmpty, byName[name] == nil {
                    byName[name] = (chip, offset)
                }
            }
        }
        let chipList = opened.chips.map { "\(Self.describe($0)) (\($0.lineCount) lines)" }.joined(separator: ", ")
        let unopened = opened.failures.map { "\($0.path): \($0.error)" }

        var located: [(role: KnobLineRole, chip: any GpioChip, offset: Int, label: String)] = []
        for (role, spec) in roles {
            let what = describe(role, spec)
            if let name = spec.name, let found = byName[name] {
                located.append((role, found.chip, found.offset, "\(name) at \(found.chip.name):\(found.offset)"))
                continue
            }
            guard let fallback = spec.fallback else {
                var problem = "no line named \"\(spec.name ?? "")\" on any chip; scanned \(chipList)"
                if !unopened.isEmpty { problem += "; could not open \(unopened.joined(separator: ", "))" }
                let fix =
                    opened.failures.contains(where: { $0.error.isPermission })
                    ? GpioError.groupFix
                    : "use the line names from board/pinmap-pi4.md or board/pinmap-pi5.md (`gpioinfo` lists them), "
                        + "or add a chip:offset fallback such as \"\(spec.name ?? "GPIO17"),pinctrl-rp1:17\""
                throw GpioError(kind: .lineNotFound, lines: [what], chip: nil, problem: problem, fix: fix)
            }
            let wanted = fallback.chip
            guard
                let chip = opened.chips.first(where: {
                    $0.label == wanted || $0.name == wanted || $0.path == wanted
                        || $0.path == "\(config.deviceDirectory)/\(wanted)"
                })
            else {
                throw GpioError(
                    kind: .lineNotFound, lines: [what], chip: wanted,
                    problem: (spec.name.map { "no line named \"\($0)\", and " } ?? "")
                        + "no chip \"\(wanted)\"; found \(chipList)",
                    fix:
                        "name the chip by its label (stable across kernels, e.g. pinctrl-bcm2711 on a Pi 4, pinctrl-rp1 on a Pi 5), "
                        + "see board/pinmap-pi4.md and board/pinmap-pi5.md"
                )
            }
            guard fallback.offset < chip.lineCount else {
                throw GpioError(
                    kind: .invalidConfig, lines: [what], chip: Self.describe(chip),
                    problem: "offset \(fallback.offset) is out of range; the chip has \(chip.lineCount) lines",
                    fix: "check the offset against `gpioinfo \(chip.name)`"
                )
            }
            located.append((role, chip, fallback.offset, "\(chip.name):\(fallback.offset)"))
        }

        for (index, entry) in located.enumerated() {
            if let other = located[..<index].first(where: { $0.chip === entry.chip && $0.offset == entry.offset }) {
                throw GpioError(
                    kind: .invalidConfig, lines: [other.role.rawValue, entry.role.rawValue], chip: Self.describe(entry.chip),
                    problem: "\(other.role.rawValue) and \(entry.role.rawValue) are both configured as \(entry.label)",
                    fix: "give each function its own pin; see board/wiring-ec11-ky040.md"
                )
            }
        }
        return located
    }

    /// Requests the inputs (both edges, pull-up) and the buzzer output.
    func request(
        _ located: [(role: KnobLineRole, chip: any GpioChip, offset: Int, label: String)]
    ) throws(GpioError) -> (inputs: [RequestedInput], buzzer: (any OutputLine)?) {
        var inputs: [RequestedInput] = []
        var buzzer: (any OutputLine)?
        for entry in located {
            do throws(GpioErrno) {
                if let line = entry.role.inputLine {
                    let requested = try entry.chip.requestEdgeEvents(
                        offset: entry.offset, consumer: config.consumer, pullUp: config.pullUp)
                    inputs.append(
                        RequestedInput(
                            line: line, events: requested,
                            label: "\(entry.role.rawValue) (\(entry.label))", chip: Self.describe(entry.chip)
                        ))
                } else {
                    // Requested silent: high for a buzzer whose driver sounds on a low line.
                    let line = try entry.chip.requestOutput(
                        offset: entry.offset, consumer: config.consumer, initialLevel: config.buzzerActiveLow ? 1 : 0)
                    buzzer = config.buzzerActiveLow ? ActiveLowOutputLine(line) : line
                }
            } catch {
                throw requestError(error, role: entry.role, chip: entry.chip, offset: entry.offset, label: entry.label)
            }
        }
        return (inputs, buzzer)
    }

    private func requestError(_ error: GpioErrno, role: KnobLineRole, chip: any GpioChip, offset: Int, label: String) -> GpioError
    {
        let what = "\(role.rawValue) (\(label))"
        let chipText = Self.describe(chip)
        switch error.code {
        case EBUSY:
            let holder = chip.lineConsumer(at: offset).map { "\"\($0)\"" } ?? "another process"
            return GpioError(
                kind: .lineBusy, lines: [what], chip: chipText,
                problem: "the line is already in use by \(holder)",
                fix: "stop the other user (`gpioinfo \(chip.name)` shows it); if it is the kernel rotary-encoder or gpio-keys "
                    + "overlay, remove that dtoverlay line from /boot/firmware/config.txt (board/rotary-encoder-overlay.md)"
            )
        case EACCES, EPERM:
            return GpioError(
                kind: .permissionDenied, lines: [what], chip: chipText,
                problem: "permission denied requesting the line", fix: GpioError.groupFix
            )
        case EINVAL where config.pullUp && role.inputLine != nil:
            return GpioError(
                kind: .requestFailed, lines: [what], chip: chipText,
                problem: "the kernel rejected the request with pull-up bias (\(error))",
                fix: "bias flags need Linux 5.5 or later (with libgpiod 2, 5.10); on an older kernel set the pulls in config.txt "
                    + "(gpio=17,27,22=ip,pu) and turn pullUp off in the kiosk configuration"
            )
        default:
            return GpioError(
                kind: .requestFailed, lines: [what], chip: chipText,
                problem: "requesting the line failed: \(error)",
                fix: "check the line with `gpioinfo \(chip.name)` and the kernel log (`dmesg | grep -i gpio`)"
            )
        }
    }
}

extension String {
    var trimmingWhitespace: String {
        var view = Substring(self)
        while view.first?.isWhitespace == true { view = view.dropFirst() }
        while view.last?.isWhitespace == true { view = view.dropLast() }
        return String(view)
    }
}
