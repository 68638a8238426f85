import CGpiod
import Foundation
import Logging

// The only file that calls libgpiod (v1, 1.6.x). Kept to one call per operation so that every
// decision (which chip, which line, what an errno means) lives in GpioLineResolver and
// GpioEventPump, where tests reach it without a GPIO chip.

/// Lists /dev/gpiochip* and opens chips with libgpiod. Scanning the directory ourselves instead
/// of gpiod_chip_iter lets a chip we may not open (permissions) be reported by name instead of
/// failing the whole scan.
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
        guard let handle = gpiod_chip_open(path) else { throw GpioErrno(errno == 0 ? ENODEV : errno) }
        return LibgpiodChip(handle: handle, path: path)
    }
}

/// An open chip. Closing it (on deinit) releases every line requested through it.
final class LibgpiodChip: GpioChip {
    private let handle: OpaquePointer
    let path: String

    init(handle: OpaquePointer, path: String) {
        self.handle = handle
        self.path = path
    }

    deinit { gpiod_chip_close(handle) }

    var name: String { String(cString: gpiod_chip_name(handle)) }
    var label: String { String(cString: gpiod_chip_label(handle)) }
    var lineCount: Int { Int(gpiod_chip_num_lines(handle)) }

    private func line(_ offset: Int) throws(GpioErrno) -> OpaquePointer {
        errno = 0
        guard let line = gpiod_chip_get_line(handle, UInt32(offset)) else { throw GpioErrno(errno == 0 ? EINVAL : errno) }
        return line
    }

    func lineName(at offset: Int) -> String? {
        guard let line = try? line(offset), let name = gpiod_line_name(line) else { return nil }
        return String(cString: name)
    }

    func lineConsumer(at offset: Int) -> String? {
        guard let line = try? line(offset) else { return nil }
        _ = gpiod_line_update(line)
        return gpiod_line_consumer(line).map { String(cString: $0) }
    }

    func requestEdgeEvents(offset: Int, consumer: String, pullUp: Bool) throws(GpioErrno) -> (fd: Int32, level: Int) {
        let line = try line(offset)
        let flags = pullUp ? Int32(GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP) : 0
        guard gpiod_line_request_both_edges_events_flags(line, consumer, flags) == 0 else { throw GpioErrno(errno) }
        let fd = gpiod_line_event_get_fd(line)
        let level = gpiod_line_get_value(line)
        guard fd >= 0, level >= 0 else {
            let error = GpioErrno(errno)
            gpiod_line_release(line)
            throw error
        }
        return (fd, Int(level))
    }

    func requestOutput(offset: Int, consumer: String, initialLevel: Int) throws(GpioErrno) -> any OutputLine {
        let line = try line(offset)
        guard gpiod_line_request_output(line, consumer, Int32(initialLevel)) == 0 else { throw GpioErrno(errno) }
        return GpiodOutputLine(line: line, chip: self)
    }
}

/// The buzzer's GPIO line.
final class GpiodOutputLine: OutputLine, @unchecked Sendable {
    // @unchecked: `line` is libgpiod's `struct gpiod_line *` and `chip` wraps a `struct gpiod_chip *`:
    // C pointers, not Sendable, and libgpiod handles are not thread-safe. The Buzzer only drives its
    // line under its own lock, so calls (and `failures`) never overlap. `chip` keeps the line's chip open.
    private let line: OpaquePointer
    private let chip: LibgpiodChip
    private let logger = Logger(label: "hyzer.knob.buzzer")
    private var failures = 0

    init(line: OpaquePointer, chip: LibgpiodChip) {
        self.line = line
        self.chip = chip
    }

    func drive(_ on: Bool) {
        guard gpiod_line_set_value(line, on ? 1 : 0) != 0 else { return }
        failures += 1
        // Once, then every thousandth: a dead buzzer must not flood the log at every detent.
        if failures == 1 || failures % 1000 == 0 {
            logger.error(
                "buzzer line \(chip.name):\(gpiod_line_offset(line)) could not be set: \(GpioErrno(errno)) (\(failures) failures)"
            )
        }
    }
}

/// Reads pending kernel events from a line's event fd (or anything speaking the same
/// `struct gpioevent_data` format). Returns the number read, 0 when none are pending (the fd is
/// non-blocking), or throws the errno.
func readLineEvents(fd: Int32, into buffer: inout [gpiod_line_event]) throws(GpioErrno) -> Int {
    let count = buffer.withUnsafeMutableBufferPointer { events in
        gpiod_line_event_read_fd_multiple(fd, events.baseAddress, UInt32(events.count))
    }
    if count >= 0 { return Int(count) }
    if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
    throw GpioErrno(errno)
}

extension gpiod_line_event {
    var edge: (level: Int, timestampNs: UInt64) {
        (
            event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE) ? 1 : 0,
            UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
        )
    }
}
