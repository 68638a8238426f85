import CGpiod
import Foundation
import HyzerKit
import Testing

@testable import KioskHardware

/// A GPIO chip in memory. Requested inputs are pipes that tests write events to, in libgpiod 1's
/// kernel record format (`struct gpioevent_data`), whichever libgpiod the kiosk is built against.
final class FakeChip: GpioChip {
    let path: String
    let name: String
    let label: String
    let names: [String?]
    var consumers: [Int: String] = [:]
    var requestErrors: [Int: Int32] = [:]
    var initialLevels: [Int: Int] = [:]
    private(set) var eventPipes: [Int: (read: Int32, write: Int32)] = [:]
    private(set) var outputs: [Int: RecordingOutputLine] = [:]
    private(set) var outputInitialLevels: [Int: Int] = [:]
    private(set) var requestedPullUp: [Int: Bool] = [:]

    init(path: String, label: String, names: [String?]) {
        self.path = path
        self.name = String(path.split(separator: "/").last!)
        self.label = label
        self.names = names
    }

    deinit {
        for pipe in eventPipes.values {
            close(pipe.read)
            if pipe.write >= 0 { close(pipe.write) }
        }
    }

    var lineCount: Int { names.count }
    func lineName(at offset: Int) -> String? { names[offset] }
    func lineConsumer(at offset: Int) -> String? { consumers[offset] }

    func requestEdgeEvents(offset: Int, consumer: String, pullUp: Bool) throws(GpioErrno) -> any EdgeEventLine {
        if let code = requestErrors[offset] { throw GpioErrno(code) }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw GpioErrno(errno) }
        eventPipes[offset] = (fds[0], fds[1])
        requestedPullUp[offset] = pullUp
        consumers[offset] = consumer
        return PipeEdgeLine(fd: fds[0], initialLevel: initialLevels[offset] ?? 1)
    }

    func requestOutput(offset: Int, consumer: String, initialLevel: Int) throws(GpioErrno) -> any OutputLine {
        if let code = requestErrors[offset] { throw GpioErrno(code) }
        let line = RecordingOutputLine()
        outputs[offset] = line
        outputInitialLevels[offset] = initialLevel
        consumers[offset] = consumer
        return line
    }

    /// One clockwise detent on the Pi's default lines (A GPIO17, B GPIO27), edge by edge in
    /// Gray-code order, 1 µs apart from `t`.
    func injectClockwiseDetent(atNs t: UInt64) {
        inject(offset: 17, rising: false, atNs: t + 1_000)
        inject(offset: 27, rising: false, atNs: t + 2_000)
        inject(offset: 17, rising: true, atNs: t + 3_000)
        inject(offset: 27, rising: true, atNs: t + 4_000)
    }

    /// Writes one `struct gpioevent_data` as the kernel would: u64 timestamp, u32 event id, padding.
    func inject(offset: Int, rising: Bool, atNs t: UInt64) {
        inject(offset: offset, edges: [(rising, t)])
    }

    /// Several edges of one line in one write, so the reader finds them all at once, as it
    /// finds a burst the kernel queued while it slept. Written one by one, a busy machine may
    /// deschedule the writer between them, and a reader that saw the first edge alone for
    /// 5 ms would rightly take it as settled (the press test once failed so under load).
    func inject(offset: Int, edges: [(rising: Bool, atNs: UInt64)]) {
        var bytes: [UInt8] = []
        for edge in edges {
            var event = [UInt8](repeating: 0, count: 16)
            withUnsafeBytes(of: edge.atNs.littleEndian) { event.replaceSubrange(0..<8, with: $0) }
            event[8] = edge.rising ? 0x01 : 0x02
            bytes += event
        }
        // A pipe write of at most PIPE_BUF (4,096) bytes is atomic.
        precondition(bytes.count <= 4_096)
        let written = write(eventPipes[offset]!.write, bytes, bytes.count)
        precondition(written == bytes.count)
    }

    /// Closes the writing end: the read end then reports a hang-up, like a vanished chip.
    func hangUp(offset: Int) {
        close(eventPipes[offset]!.write)
        eventPipes[offset]!.write = -1
    }
}

/// A FakeChip's input: reads the 16-byte records `FakeChip.inject` writes (u64 nanoseconds,
/// u32 1 rising or 2 falling, padding). The pipe belongs to the chip.
final class PipeEdgeLine: EdgeEventLine {
    let fd: Int32
    let initialLevel: Int

    init(fd: Int32, initialLevel: Int) {
        self.fd = fd
        self.initialLevel = initialLevel
    }

    func readEdges(into edges: inout [LineEdge], limit: Int) throws(GpioErrno) -> Int {
        var bytes = [UInt8](repeating: 0, count: 16 * limit)
        let count = read(fd, &bytes, bytes.count)
        if count < 0 {
            if errno == EAGAIN || errno == EWOULDBLOCK { return 0 }
            throw GpioErrno(errno)
        }
        // End of file: the writer hung up, as a chip that went away does. libgpiod says EIO.
        guard count > 0 else { throw GpioErrno(EIO) }
        precondition(count % 16 == 0, "FakeChip writes whole records")
        for start in stride(from: 0, to: count, by: 16) {
            let ns = bytes[start..<start + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            edges.append(LineEdge(level: bytes[start + 8] == 0x01 ? 1 : 0, timestampNs: ns))
        }
        return count / 16
    }
}

final class FakeProvider: GpioChipProvider {
    var chips: [FakeChip] = []
    var openErrors: [String: Int32] = [:]

    func chipPaths() -> [String] { (chips.map(\.path) + openErrors.keys).sorted() }

    func openChip(path: String) throws(GpioErrno) -> any GpioChip {
        if let code = openErrors[path] { throw GpioErrno(code) }
        return chips.first { $0.path == path }!
    }
}

/// Raspberry Pi 5 header chip: lines named GPIO0…GPIO27 followed by unnamed ones.
func rp1(_ path: String) -> FakeChip {
    FakeChip(path: path, label: "pinctrl-rp1", names: (0..<28).map { "GPIO\($0)" } + Array(repeating: nil, count: 26))
}

@Suite("gpiod backend", .timeLimit(.minutes(2)))
struct GpiodBackendTests {
    func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpio-\(UUID())")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    // MARK: the real libgpiod, on a machine without a GPIO chip

    @Test func noChipIsAClearErrorNamingTheLines() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect {
            try GpiodKnobBackend(config: GpiodKnobConfig(deviceDirectory: dir.path))
        } throws: { error in
            guard let error = error as? GpioError else { return false }
            return error.kind == .noChip
                && error.lines == ["encoder A (GPIO17)", "encoder B (GPIO27)", "push switch (GPIO22)", "buzzer (GPIO23)"]
                && error.chip == nil
                && error.description.contains("no GPIO chip") && error.description.contains("Chip: none found")
                && error.description.contains("Fix: ") && error.description.contains("keyboard")
        }
    }

    @Test func aFileThatIsNotAGpioChipIsRejectedByLibgpiod() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let fake = dir.appendingPathComponent("gpiochip0").path
        _ = FileManager.default.createFile(atPath: fake, contents: Data("not a chip".utf8))
        #expect {
            try GpiodKnobBackend(config: GpiodKnobConfig(deviceDirectory: dir.path))
        } throws: { error in
            guard let error = error as? GpioError else { return false }
            return error.kind == .chipUnavailable && error.chip == fake && error.description.contains(fake)
        }
    }

    @Test func withoutHardwareTheKioskFallsBackToTheKeyboardAndKeepsTheReason() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (backend, fault) = KnobBackends.hardwareOrKeyboard(GpiodKnobConfig(deviceDirectory: dir.path))
        #expect(backend is KeyboardKnobBackend)
        #expect(fault?.kind == .noChip)
    }

    @Test func chipsAreListedInNumericOrder() throws {
        let dir = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        for name in ["gpiochip10", "gpiochip2", "gpiochip0", "ttyS0"] {
            _ = FileManager.default.createFile(atPath: dir.appendingPathComponent(name).path, contents: nil)
        }
        #expect(
            LibgpiodChipProvider(deviceDirectory: dir.path).chipPaths()
                == ["gpiochip0", "gpiochip2", "gpiochip10"].map { "\(dir.path)/\($0)" })
    }

    // MARK: line lookup and request failures, with fake chips

    func fails(_ provider: FakeProvider, config: GpiodKnobConfig = GpiodKnobConfig()) -> GpioError? {
        do {
            _ = try GpiodKnobBackend(config: config, provider: provider)
            return nil
        } catch {
            return error
        }
    }

    @Test func linesAreFoundByNameWhicheverChipHoldsThem() throws {
        // Pi 5 before and after the kernel renumbered its header chip from gpiochip4 to gpiochip0.
        for layout in [["/dev/gpiochip0"], ["/dev/gpiochip0", "/dev/gpiochip1", "/dev/gpiochip4"]] {
            let provider = FakeProvider()
            for path in layout.dropLast() {
                provider.chips.append(FakeChip(path: path, label: "gpio-brcmstb", names: Array(repeating: nil, count: 32)))
            }
            let header = rp1(layout.last!)
            provider.chips.append(header)
            let backend = try GpiodKnobBackend(config: GpiodKnobConfig(), provider: provider)
            #expect(Set(header.eventPipes.keys) == [17, 27, 22])
            #expect(header.requestedPullUp.values.allSatisfy { $0 })
            #expect(header.outputs[23] != nil)
            #expect(header.consumers[17] == "hyzer-kiosk")
            #expect(backend.description.contains("GPIO17 at \(header.name):17"))
        }
    }

    @Test func permissionDeniedNamesTheChipAndTheGpioGroup() {
        let provider = FakeProvider()
        provider.openErrors["/dev/gpiochip0"] = EACCES
        let error = fails(provider)
        #expect(error?.kind == .permissionDenied)
        #expect(error?.chip == "/dev/gpiochip0")
        #expect(error?.description.contains("encoder A (GPIO17)") == true)
        #expect(error?.description.contains("`gpio` group") == true)
    }

    @Test func missingLineNameListsTheChipsScannedAndTheFallbackSyntax() {
        let provider = FakeProvider()
        provider.chips = [FakeChip(path: "/dev/gpiochip0", label: "pinctrl-bcm2711", names: Array(repeating: nil, count: 58))]
        let error = fails(provider)
        #expect(error?.kind == .lineNotFound)
        #expect(error?.lines == ["encoder A (GPIO17)"])
        #expect(error?.problem.contains("/dev/gpiochip0 [pinctrl-bcm2711] (58 lines)") == true)
        #expect(error?.fix.contains("GPIO17,pinctrl-rp1:17") == true)
    }

    @Test func anUnreadableChipIsMentionedWhenTheLineIsNotFoundElsewhere() {
        let provider = FakeProvider()
        provider.chips = [FakeChip(path: "/dev/gpiochip0", label: "other", names: [nil, nil])]
        provider.openErrors["/dev/gpiochip4"] = EACCES
        let error = fails(provider)
        #expect(error?.kind == .lineNotFound)
        #expect(error?.problem.contains("could not open /dev/gpiochip4") == true)
        #expect(error?.fix.contains("`gpio` group") == true)
    }

    @Test func chipAndOffsetFallbackByLabel() throws {
        let provider = FakeProvider()
        let unnamed = FakeChip(path: "/dev/gpiochip0", label: "pinctrl-bcm2711", names: Array(repeating: nil, count: 58))
        provider.chips = [unnamed]
        var config = GpiodKnobConfig()
        config.a = GpioLineSpec(parsing: "GPIO17,pinctrl-bcm2711:17")!
        config.b = GpioLineSpec(parsing: "pinctrl-bcm2711:27")!
        config.sw = GpioLineSpec(parsing: "GPIO22,gpiochip0:22")!
        config.buzzer = nil
        _ = try GpiodKnobBackend(config: config, provider: provider)
        #expect(Set(unnamed.eventPipes.keys) == [17, 27, 22])

        config.a = GpioLineSpec(parsing: "GPIO17,pinctrl-rp1:17")!
        #expect(fails(provider, config: config)?.kind == .lineNotFound)
        config.a = GpioLineSpec(parsing: "pinctrl-bcm2711:99")!
        #expect(fails(provider, config: config)?.kind == .invalidConfig)
        config.a = GpioLineSpec(parsing: "pinctrl-bcm2711:27")!
        let duplicate = fails(provider, config: config)
        #expect(duplicate?.kind == .invalidConfig)
        #expect(duplicate?.lines == ["encoder A", "encoder B"])
    }

    @Test func busyLineNamesItsHolderAndTheOverlay() {
        let provider = FakeProvider()
        let chip = rp1("/dev/gpiochip0")
        chip.requestErrors[27] = EBUSY
        chip.consumers[27] = "rotary-encoder"
        provider.chips = [chip]
        let error = fails(provider)
        #expect(error?.kind == .lineBusy)
        #expect(error?.lines == ["encoder B (GPIO27 at gpiochip0:27)"])
        #expect(error?.chip == "/dev/gpiochip0 [pinctrl-rp1]")
        #expect(error?.problem.contains("\"rotary-encoder\"") == true)
        #expect(error?.fix.contains("dtoverlay") == true)
    }

    @Test func requestErrnosMapToTheirFixes() {
        for (code, kind, hint) in [
            (EPERM, GpioError.Kind.permissionDenied, "`gpio` group"),
            (EINVAL, .requestFailed, "config.txt"),
            (EIO, .requestFailed, "gpioinfo gpiochip0"),
        ] {
            let provider = FakeProvider()
            let chip = rp1("/dev/gpiochip0")
            chip.requestErrors[22] = code
            provider.chips = [chip]
            let error = fails(provider)
            #expect(error?.kind == kind)
            #expect(error?.lines == ["push switch (GPIO22 at gpiochip0:22)"])
            #expect(error?.fix.contains(hint) == true, "\(code): \(error?.fix ?? "")")
        }
    }

    @Test func lineSpecParsing() {
        #expect(GpioLineSpec(parsing: "GPIO17") == GpioLineSpec(name: "GPIO17"))
        #expect(
            GpioLineSpec(parsing: "GPIO17, pinctrl-rp1:17")
                == GpioLineSpec(name: "GPIO17", fallback: GpioChipOffset(chip: "pinctrl-rp1", offset: 17)))
        #expect(
            GpioLineSpec(parsing: "/dev/gpiochip4:5")
                == GpioLineSpec(name: nil, fallback: GpioChipOffset(chip: "/dev/gpiochip4", offset: 5)))
        #expect(GpioLineSpec(parsing: "") == nil)
        #expect(GpioLineSpec(parsing: "GPIO17,chip:x") == nil)
        #expect(GpioLineSpec(parsing: ":3") == nil)
    }

    // MARK: the poll() loop, reading kernel-format events through libgpiod from pipes

    @Test func eventsFromSeparateLineFdsAreMergedByKernelTimestamp() async throws {
        let provider = FakeProvider()
        let chip = rp1("/dev/gpiochip0")
        provider.chips = [chip]
        let backend = try GpiodKnobBackend(config: GpiodKnobConfig(), provider: provider)
        let base = SystemClock().uptimeNanoseconds
        // One clockwise detent, queued before the thread reads anything: A's two edges sit in
        // A's fd and B's two in B's. Read fd by fd they would be A, A, B, B: no detent at all.
        chip.inject(offset: 17, rising: false, atNs: base + 1_000)
        chip.inject(offset: 17, rising: true, atNs: base + 3_000)
        chip.inject(offset: 27, rising: false, atNs: base + 2_000)
        chip.inject(offset: 27, rising: true, atNs: base + 4_000)
        let driver = KnobDriver(backend: backend)
        let run = DriverRun(driver)
        let first = await nextEvents(driver, count: 1).events
        #expect(first == [.detent(.clockwise, timestampNs: base + 4_000)])
        #expect(chip.outputs[23]!.changes.first?.on == true, "the detent ticked the buzzer line")

        // Then a press, bouncing, arriving while the thread waits in poll().
        let now = SystemClock().uptimeNanoseconds
        chip.inject(offset: 22, edges: [(false, now), (true, now + 300_000), (false, now + 600_000)])
        let press = await nextEvents(driver, count: 1).events
        #expect(press == [.press(timestampNs: now + 600_000 + 5 * ms)])
        #expect(await run.cancel())
        try await run.task.value
        #expect(driver.failure == nil)
    }

    /// `buzzer.active = "low"` in kiosk.conf: the line is requested high (silent) and each
    /// tick drives it low. Negative control: the default (active high) starts low and ticks high.
    @Test func anActiveLowBuzzerIsRequestedSilentAndTicksLow() async throws {
        for activeLow in [true, false] {
            let provider = FakeProvider()
            let chip = rp1("/dev/gpiochip0")
            provider.chips = [chip]
            var config = GpiodKnobConfig()
            config.buzzerActiveLow = activeLow
            let backend = try GpiodKnobBackend(config: config, provider: provider)
            #expect(chip.outputInitialLevels[23] == (activeLow ? 1 : 0))
            chip.injectClockwiseDetent(atNs: SystemClock().uptimeNanoseconds)
            let driver = KnobDriver(backend: backend)
            let run = DriverRun(driver)
            _ = await nextEvents(driver, count: 1)
            #expect(chip.outputs[23]!.changes.first?.on == !activeLow, "the tick's level, active \(activeLow ? "low" : "high")")
            #expect(await run.cancel())
            try await run.task.value
        }
    }

    @Test func aVanishedLineEndsInputWithAReadError() async throws {
        let provider = FakeProvider()
        let chip = rp1("/dev/gpiochip0")
        provider.chips = [chip]
        let driver = KnobDriver(backend: try GpiodKnobBackend(config: GpiodKnobConfig(), provider: provider))
        let run = DriverRun(driver)
        chip.hangUp(offset: 27)
        // The stream ends when the input thread does.
        let rest = await nextEvents(driver)
        #expect(rest.streamEnded && rest.events.isEmpty)
        let error = driver.failure as? GpioError
        #expect(error?.kind == .readFailed)
        #expect(error?.lines == ["encoder B (GPIO27 at gpiochip0:27)"])
        #expect(error?.chip == "/dev/gpiochip0 [pinctrl-rp1]")
        // As a service, the driver reports it by throwing from run().
        #expect(await run.ended())
        await #expect(throws: GpioError.self) { try await run.task.value }
    }

    /// The emulated Pi on a loaded host read the probe's 0.2 s press as a long press: the
    /// input thread ran late, past the press's long-press time, with the release edge already
    /// queued, and fired the timer before reading it. Edges queued before a deadline decide
    /// first. Here the clock reads 2 s after the press, and the release (100 ms after it) is
    /// queued as the press is handled, before the loop looks at its deadline again: a click.
    /// Negative control: firing a past deadline before polling (the loop as it was) gives
    /// press, longPress, release(afterLongPress: true).
    @Test func aReleaseQueuedBeforeTheLongPressTimeIsAClickHoweverLateTheThreadRuns() throws {
        let provider = FakeProvider()
        let chip = rp1("/dev/gpiochip0")
        provider.chips = [chip]
        let backend = try GpiodKnobBackend(config: GpiodKnobConfig(), provider: provider)
        let pressedAt: UInt64 = 1_000_000_000
        let clock = ManualClock(uptime: .nanoseconds(Int64(pressedAt + 2_000_000_000)))

        /// The switch's debouncer behind the loop; queues the release when it sees the press.
        final class Handler: KnobInputHandler {
            var debouncer = ButtonDebouncer()
            var events: [KnobEvent] = []
            let onEdges: ([EdgeEvent]) -> Void
            let onEvent: (KnobEvent) -> Void
            init(onEdges: @escaping ([EdgeEvent]) -> Void, onEvent: @escaping (KnobEvent) -> Void) {
                (self.onEdges, self.onEvent) = (onEdges, onEvent)
            }
            func handleEdges(_ edges: [EdgeEvent]) {
                for edge in edges { debouncer.feed(edge) { record($0) } }
                onEdges(edges)
            }
            func handleEvents(_ events: [KnobEvent]) {}
            func handleTimer(nowNs: UInt64) { debouncer.poll(now: nowNs) { record($0) } }
            var nextDeadlineNs: UInt64? { debouncer.nextDeadlineNs }
            private func record(_ event: KnobEvent) {
                events.append(event)
                onEvent(event)
            }
        }
        let handler = Handler(
            onEdges: { edges in
                if edges.contains(where: { $0.line == .sw && $0.level == 0 }) {
                    chip.inject(offset: 22, rising: true, atNs: pressedAt + 100 * ms)
                }
            },
            onEvent: { if case .release = $0 { backend.stop() } })
        chip.inject(offset: 22, rising: false, atNs: pressedAt)
        try backend.pump.run(handler, clock: clock)
        let click: [KnobEvent] = [
            .press(timestampNs: pressedAt + 5 * ms),
            .release(timestampNs: pressedAt + 100 * ms + 5 * ms, afterLongPress: false),
        ]
        #expect(handler.events == click)
    }

    @Test func stopWakesTheLoopEvenWithNothingHappening() async throws {
        let provider = FakeProvider()
        provider.chips = [rp1("/dev/gpiochip0")]
        let driver = KnobDriver(backend: try GpiodKnobBackend(config: GpiodKnobConfig(), provider: provider))
        let run = DriverRun(driver)
        #expect(await run.cancel())
        try await run.task.value
        #expect(driver.failure == nil)
        #expect(await nextEvents(driver).streamEnded)
    }

    /// The shim picks its API from the header at build time; the library loaded at run time must
    /// be the same major version, or every request would go through the wrong calls.
    @Test func theLibgpiodLoadedIsTheOneTheShimWasBuiltFor() {
        let api = Int(HYZER_GPIOD_API)
        #expect(api == 1 || api == 2)
        #expect(libgpiodDescription.hasPrefix("libgpiod \(api)."), "\(libgpiodDescription)")
        #expect(libgpiodDescription.hasSuffix("(API \(api))"))
    }
}
