import Foundation
import HyzerKit
import Logging

/// Waits on the input lines' event fds with one poll() on one thread, and hands the kernel's
/// events on in timestamp order.
///
/// Each line is its own request, with its own fd and its own kernel queue, so A and B events
/// that were both pending are read separately; they are merged by their kernel timestamps before
/// decoding, because the quadrature order is the whole signal. The fds are made non-blocking so
/// each wake-up drains everything queued (the kernel queues only 16 events per line).
final class GpioEventPump: Sendable {
    struct Source: Sendable {
        var line: KnobLine
        var events: any EdgeEventLine
        /// For error messages: "encoder A (GPIO17 at gpiochip0:17)" and the chip it is on.
        var label: String
        var chip: String?
    }

    private let sources: [Source]
    private let wakeRead: Int32
    private let wakeWrite: Int32

    init(sources: [Source]) throws(GpioError) {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            throw GpioError(
                kind: .readFailed, lines: sources.map(\.label), chip: nil,
                problem: "cannot create the wake-up pipe: \(GpioErrno(errno))",
                fix: "check the process's file descriptor limit (ulimit -n)"
            )
        }
        wakeRead = fds[0]
        wakeWrite = fds[1]
        self.sources = sources
        for fd in sources.map(\.events.fd) + [wakeRead, wakeWrite] {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        }
    }

    deinit {
        close(wakeRead)
        close(wakeWrite)
    }

    /// Makes `run` return. Safe from any thread, and before `run` has even started.
    func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    func run(_ handler: any KnobInputHandler, clock: any HyzerClock) throws(GpioError) {
        var pollFds = sources.map { pollfd(fd: $0.events.fd, events: Int16(POLLIN), revents: 0) }
        pollFds.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
        let wakeIndex = sources.count
        let readLimit = 16
        var edges: [LineEdge] = []
        edges.reserveCapacity(readLimit)
        var batch: [(edge: EdgeEvent, order: Int)] = []

        while true {
            var timeoutMs: Int32 = -1
            let deadline = handler.nextDeadlineNs
            if let deadline {
                let now = clock.uptimeNanoseconds
                // poll() counts whole milliseconds; round up so a deadline is never fired early.
                // A deadline already past still polls, without waiting: edges the kernel stamped
                // before it may be queued, unread because this thread ran late (a busy machine),
                // and they decide first. A release queued before the long-press time is a click;
                // firing the timer first made it a long press (the emulated Pi's menu opened
                // on a 0.2 s press while the host was loaded).
                timeoutMs = deadline <= now ? 0 : Int32(min((deadline - now + 999_999) / 1_000_000, UInt64(Int32.max)))
            }
            let ready = poll(&pollFds, nfds_t(pollFds.count), timeoutMs)
            if ready == 0 {
                // Nothing queued: the deadline is due (poll waited for it, rounded up).
                let now = clock.uptimeNanoseconds
                if let deadline, deadline <= now { handler.handleTimer(nowNs: now) }
                continue
            }
            if ready < 0 {
                if errno == EINTR { continue }
                throw GpioError(
                    kind: .readFailed, lines: sources.map(\.label), chip: sources.first?.chip,
                    problem: "poll() on the line event fds failed: \(GpioErrno(errno))",
                    fix: "restart the kiosk; report it if it recurs"
                )
            }
            if pollFds[wakeIndex].revents != 0 { return }

            batch.removeAll(keepingCapacity: true)
            for (index, source) in sources.enumerated() {
                let revents = Int32(pollFds[index].revents)
                if revents & Int32(POLLIN) != 0 {
                    do throws(GpioErrno) {
                        while true {
                            edges.removeAll(keepingCapacity: true)
                            let count = try source.events.readEdges(into: &edges, limit: readLimit)
                            for edge in edges {
                                let event = EdgeEvent(line: source.line, level: edge.level, timestampNs: edge.timestampNs)
                                batch.append((event, batch.count))
                            }
                            if count < readLimit { break }
                        }
                    } catch {
                        throw readError(source, error)
                    }
                } else if revents & Int32(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw readError(source, GpioErrno(EIO))
                }
            }
            if !batch.isEmpty {
                // Kernel timestamps order A against B; arrival order breaks ties.
                batch.sort { ($0.edge.timestampNs, $0.order) < ($1.edge.timestampNs, $1.order) }
                handler.handleEdges(batch.map(\.edge))
            }
        }
    }

    private func readError(_ source: Source, _ error: GpioErrno) -> GpioError {
        GpioError(
            kind: .readFailed, lines: [source.label], chip: source.chip,
            problem: "reading the line's events failed: \(error)",
            fix: "the GPIO chip may have gone away; check `dmesg | grep -i gpio` and restart the kiosk"
        )
    }
}

/// The knob on the Raspberry Pi, through libgpiod (1 or 2, whichever it was built against).
///
/// Lines are found by name on whichever chip has them (the Pi 5's header chip moved from
/// gpiochip4 to gpiochip0 between kernel versions, so no chip number is ever assumed), A, B and
/// the switch are requested for both edges with pull-up bias, the buzzer line as an output.
/// Every failure throws a `GpioError` naming the line, the chip and the fix; the kiosk then
/// shows it in diagnostics and carries on with the keyboard (`KnobBackends.hardwareOrKeyboard`).
public final class GpiodKnobBackend: KnobBackend, Sendable {
    public let description: String
    public let initialLevels: KnobLevels
    public let buzzerLine: any OutputLine
    /// CLOCK_MONOTONIC: the kernel stamps GPIO line events on it (Linux 5.7+), so edge timestamps
    /// and "now" compare directly.
    public let clock: any HyzerClock = SystemClock()
    public var usesVirtualTime: Bool { false }

    /// Internal, not private: tests run its loop with a clock of their own.
    let pump: GpioEventPump

    public convenience init(config: GpiodKnobConfig = GpiodKnobConfig()) throws(GpioError) {
        try self.init(config: config, provider: LibgpiodChipProvider(deviceDirectory: config.deviceDirectory))
    }

    public init(config: GpiodKnobConfig, provider: any GpioChipProvider) throws(GpioError) {
        let resolver = GpioLineResolver(config: config, provider: provider)
        let opened = try resolver.openChips()
        let located = try resolver.locate(in: opened)
        let requested = try resolver.request(located)

        var levels = KnobLevels.idle
        for input in requested.inputs {
            switch input.line {
            case .a: levels.a = input.events.initialLevel
            case .b: levels.b = input.events.initialLevel
            case .sw: levels.sw = input.events.initialLevel
            }
        }
        initialLevels = levels
        buzzerLine = requested.buzzer ?? NullOutputLine()
        pump = try GpioEventPump(
            sources: requested.inputs.map {
                GpioEventPump.Source(line: $0.line, events: $0.events, label: $0.label, chip: $0.chip)
            })
        description = "gpiod: " + located.map { "\($0.role.rawValue) \($0.label)" }.joined(separator: ", ")
        Logger(label: "hyzer.knob").info("\(description), through \(libgpiodDescription)")
    }

    public func run(_ handler: any KnobInputHandler) throws {
        try pump.run(handler, clock: clock)
    }

    public func stop() { pump.wake() }
}
