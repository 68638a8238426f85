import CGpiod
import Foundation
import Logging

// The only file that calls libgpiod, and only through the CGpiod shim's hyzer_gpio_* functions,
// which hide whether libgpiod 1 (Debian 12, Pi OS bookworm) or 2 (Debian 13, Pi OS trixie) was
// built against. One call per operation, so that every decision (which chip, which line, what
// an errno means) lives in GpioLineResolver and GpioEventPump, where tests reach it without a
// GPIO chip.

/// Which libgpiod the kiosk runs on: "libgpiod 1.6.3 (API 1)", for the log and diagnostics.
public let libgpiodDescription: String = {
    var buffer = [CChar](repeating: 0, count: 64)
    hyzer_gpio_library(&buffer, buffer.count)
    return "\(string(buffer)) (API \(HYZER_GPIOD_API))"
}()

/// Lists /dev/gpiochip* and opens chips with libgpiod. Scanning the directory ourselves instead
/// of the library's chip iterator lets a chip we may not open (permissions) be reported by name
/// instead of failing the whole scan.
public struct LibgpiodChipProvider: GpioChipProvider {
    public let deviceDirectory: String

    public init(deviceDirectory: String = "/dev") {
        self.deviceDirectory = deviceDirectory
    }

    public func chipPaths() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: deviceDirectory)) ?? []
        return
            names
            .filter { $0.hasPrefix("gpiochip") }
            .sorted { lhs, rhs in
                // Numeric order, so gpiochip10 sorts after gpiochip2.
                let l = Int(lhs.dropFirst("gpiochip".count)) ?? Int.max
                let r = Int(rhs.dropFirst("gpiochip".count)) ?? Int.max
                return l != r ? l < r : lhs < rhs
            }
            .map { "\(deviceDirectory)/\($0)" }
    }

    public func openChip(path: String) throws(GpioErrno) -> any GpioChip {
        errno = 0
        guard let handle = hyzer_gpio_chip_open(path) else { throw GpioErrno(errno == 0 ? ENODEV : errno) }
        var name = [CChar](repeating: 0, count: 64)
        var label = [CChar](repeating: 0, count: 64)
        var lines: UInt32 = 0
        guard hyzer_gpio_chip_describe(handle, &name, name.count, &label, label.count, &lines) == 0 else {
            let error = GpioErrno(errno)
            hyzer_gpio_chip_close(handle)
            throw error
        }
        return LibgpiodChip(handle: handle, path: path, name: string(name), label: string(label), lineCount: Int(lines))
    }
}

private func string(_ buffer: [CChar]) -> String {
    String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// An open chip. Every line requested through it holds it open: libgpiod 1 releases a chip's
/// lines when it closes, so the chip must outlive them.
final class LibgpiodChip: GpioChip, @unchecked Sendable {
    // @unchecked: `handle` is libgpiod's `struct gpiod_chip *`. After the lines are requested
    // (on one thread, at start-up) nothing calls through it; it is only kept open.
    private let handle: OpaquePointer
    let path: String
    let name: String
    let label: String
    let lineCount: Int

    init(handle: OpaquePointer, path: String, name: String, label: String, lineCount: Int) {
        self.handle = handle
        self.path = path
        self.name = name
        self.label = label
        self.lineCount = lineCount
    }

    deinit { hyzer_gpio_chip_close(handle) }

    private func text(_ offset: Int, consumer: Bool) -> String? {
        var buffer = [CChar](repeating: 0, count: 64)
        guard hyzer_gpio_line_text(handle, UInt32(offset), consumer ? 1 : 0, &buffer, buffer.count) == 1 else { return nil }
        return string(buffer)
    }

    func lineName(at offset: Int) -> String? { text(offset, consumer: false) }

    func lineConsumer(at offset: Int) -> String? { text(offset, consumer: true) }

    func requestEdgeEvents(offset: Int, consumer: String, pullUp: Bool) throws(GpioErrno) -> any EdgeEventLine {
        var level: Int32 = 0
        errno = 0
        guard let line = hyzer_gpio_request_input(handle, UInt32(offset), consumer, pullUp ? 1 : 0, &level) else {
            throw GpioErrno(errno == 0 ? EINVAL : errno)
        }
        return LibgpiodInputLine(line: line, chip: self, initialLevel: Int(level))
    }

    func requestOutput(offset: Int, consumer: String, initialLevel: Int) throws(GpioErrno) -> any OutputLine {
        errno = 0
        guard let line = hyzer_gpio_request_output(handle, UInt32(offset), consumer, Int32(initialLevel)) else {
            throw GpioErrno(errno == 0 ? EINVAL : errno)
        }
        return GpiodOutputLine(line: line, chip: self, offset: offset)
    }
}

/// A requested input: A, B or the switch.
final class LibgpiodInputLine: EdgeEventLine, @unchecked Sendable {
    // @unchecked: `line` is the shim's handle on a libgpiod request, not thread-safe. Only the
    // event pump's thread reads it; it is released on deinit, before the chip it holds closes.
    private let line: UnsafeMutablePointer<hyzer_gpio_line>
    private let chip: LibgpiodChip
    let initialLevel: Int
    let fd: Int32
    private var batch = [hyzer_gpio_edge](repeating: hyzer_gpio_edge(), count: Int(HYZER_GPIO_EDGE_BATCH))

    init(line: UnsafeMutablePointer<hyzer_gpio_line>, chip: LibgpiodChip, initialLevel: Int) {
        self.line = line
        self.chip = chip
        self.initialLevel = initialLevel
        fd = hyzer_gpio_line_fd(line)
    }

    deinit { hyzer_gpio_line_release(line) }

    func readEdges(into edges: inout [LineEdge], limit: Int) throws(GpioErrno) -> Int {
        let count = batch.withUnsafeMutableBufferPointer { batch in
            hyzer_gpio_read_edges(line, batch.baseAddress, UInt32(min(limit, batch.count)))
        }
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            throw GpioErrno(errno)
        }
        for edge in batch[..<Int(count)] {
            edges.append(LineEdge(level: edge.rising != 0 ? 1 : 0, timestampNs: edge.timestamp_ns))
        }
        return Int(count)
    }
}

/// The buzzer's GPIO line.
final class GpiodOutputLine: OutputLine, @unchecked Sendable {
    // @unchecked: `line` is the shim's handle on a libgpiod request, not thread-safe. The Buzzer
    // only drives its line under its own lock, so calls (and `failures`) never overlap. `chip`
    // keeps the line's chip open.
    private let line: UnsafeMutablePointer<hyzer_gpio_line>
    private let chip: LibgpiodChip
    private let offset: Int
    private let logger = Logger(label: "hyzer.knob.buzzer")
    private var failures = 0

    init(line: UnsafeMutablePointer<hyzer_gpio_line>, chip: LibgpiodChip, offset: Int) {
        self.line = line
        self.chip = chip
        self.offset = offset
    }

    deinit { hyzer_gpio_line_release(line) }

    func drive(_ on: Bool) {
        guard hyzer_gpio_line_set(line, on ? 1 : 0) != 0 else { return }
        failures += 1
        // Once, then every thousandth: a dead buzzer must not flood the log at every detent.
        if failures == 1 || failures % 1000 == 0 {
            logger.error(
                "buzzer line \(chip.name):\(offset) could not be set: \(GpioErrno(errno)) (\(failures) failures)"
            )
        }
    }
}
