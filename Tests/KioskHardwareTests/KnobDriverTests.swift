import ServiceLifecycleTestKit
import Testing

@testable import KioskHardware

@Suite("Decode → buzzer, end to end", .timeLimit(.minutes(2)))
struct KnobDriverTests {
    @Test func simulatedReplayOnTraceTimeTicksAtEveryDetentExactly() async throws {
        // 50 detents/s: slower than one tick + gap, so each detent gets its own pulse.
        let trace = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 300, rateHz: 50, bounceUs: 1000, wiggle: 0.2, presses: 2, longPresses: 1))
        let backend = SimulatedKnobBackend(records: trace.records, pacing: .asFastAsPossible)
        let timing = BuzzerTiming()
        let driver = KnobDriver(backend: backend, buzzerTiming: timing)
        let run = DriverRun(driver)
        let (events, ended) = await nextEvents(driver)
        #expect(ended, "the stream ends with the replay")
        #expect(await run.ended(), "run() returns when the replay ends")
        try await run.task.value
        #expect(driver.failure == nil)

        #expect(events == KnobDecoder.decode(trace.records.map(\.edge)))
        #expect(events.compactMap { $0.detentDirection == nil ? nil : $0 } == trace.truth.map(\.event))
        #expect(KnobSummary(events) == trace.summary)
        let ps = pulses(backend.recorder.changes)
        #expect(ps.map(\.start) == trace.truth.map(\.timestampNs), "a pulse starts at the very edge that completed each detent")
        for p in ps { #expect(p.end! - p.start == timing.tickNs) }
        #expect(driver.buzzer.stats.ticksImmediate == trace.truth.count)
    }

    @Test func fastSpinOnTraceTimeNeverMergesPulsesAndLeavesNoDetentUnticked() async throws {
        let trace = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 1000, rateHz: 1000, bounceUs: 1000, wiggle: 0.1, turn: .cw))
        let backend = SimulatedKnobBackend(records: trace.records, pacing: .asFastAsPossible)
        let timing = BuzzerTiming()
        let driver = KnobDriver(backend: backend, buzzerTiming: timing)
        let run = DriverRun(driver)
        let (events, ended) = await nextEvents(driver)
        #expect(ended, "the stream ends with the replay")
        #expect(await run.ended())
        #expect(events.count == 1000)
        let ps = pulses(backend.recorder.changes)
        #expect(ps.allSatisfy { $0.end != nil }, "the buzzer ends off")
        for (a, b) in zip(ps, ps.dropFirst()) { #expect(b.start - a.end! >= timing.minGapNs) }
        var next = ps.startIndex
        for detent in trace.truth {
            while next < ps.endIndex, ps[next].start < detent.timestampNs { next += 1 }
            #expect(next < ps.endIndex && ps[next].start - detent.timestampNs <= timing.worstTickDelayNs)
        }
        // About one pulse per 14 ms over one second.
        #expect((60...80).contains(ps.count))
    }

    /// Real time and real threads: no timing bounds are asserted (the machine may be loaded),
    /// only what must hold whatever the scheduler does.
    @Test func simulatedReplayWithOriginalTimingOnRealThreads() async throws {
        let trace = try TraceGenerator.generate(
            TraceGeneratorOptions(detents: 40, rateHz: 100, bounceUs: 800, wiggle: 0.2, seed: 5, presses: 1))
        let backend = SimulatedKnobBackend(records: trace.records, pacing: .originalTiming)
        let timing = BuzzerTiming()
        let driver = KnobDriver(backend: backend, buzzerTiming: timing)
        let run = DriverRun(driver)
        let (events, ended) = await nextEvents(driver)
        #expect(ended, "the stream ends with the replay")
        #expect(await run.ended(), "run() returns when the replay ends, its threads stopped")
        try await run.task.value

        // The same events as offline decoding, on the replay's clock.
        let shift = try #require(backend.replayStartNs) - trace.records[0].tNs
        let shifted = trace.records.map { EdgeEvent(line: $0.line, level: $0.value, timestampNs: $0.tNs + shift) }
        #expect(events == KnobDecoder.decode(shifted))
        #expect(KnobSummary(events) == trace.summary)

        let ps = pulses(backend.recorder.changes)
        #expect(backend.recorder.changes.last?.on == false, "run() ends with the buzzer off")
        for (a, b) in zip(ps, ps.dropFirst()) { #expect(b.start - a.end! >= timing.minGapNs) }
        for detent in events.filter({ $0.detentDirection != nil }) {
            #expect(ps.contains { $0.start >= detent.timestampNs }, "every detent is followed by a pulse")
        }
        #expect(ps.first!.start >= events.first { $0.detentDirection != nil }!.timestampNs, "no pulse before the first detent")
    }

    @Test func keyboardBackendFeedsTheSameStreamAndTicks() async throws {
        let line = RecordingOutputLine()
        let keyboard = KeyboardKnobBackend(buzzerLine: line)
        let driver = KnobDriver(backend: keyboard)
        let run = DriverRun(driver)
        keyboard.post(.keyDown(.right, isRepeat: false))
        keyboard.post(.keyDown(.enter, isRepeat: false))
        keyboard.post(.keyUp(.enter))
        keyboard.post(.wheel(-1))
        let events = await nextEvents(driver, count: 4).events
        let kinds = events.map { event in
            switch event {
            case .detent(let direction, _): direction.rawValue
            case .press: "press"
            case .release: "release"
            case .longPress: "long"
            }
        }
        #expect(kinds == ["cw", "press", "release", "ccw"])
        #expect(line.changes.first?.on == true)
        #expect(await run.cancel())
        #expect(line.changes.last?.on == false)
    }

    @Test func cancellingRunEndsTheEventStream() async throws {
        let driver = KnobDriver(backend: KeyboardKnobBackend())
        let run = DriverRun(driver)
        #expect(await run.cancel(), "run() returns once its task is cancelled")
        try await run.task.value
        let rest = await nextEvents(driver)
        #expect(rest.streamEnded && rest.events.isEmpty)
    }

    /// The driver as a service: cancelling `run()` stops both threads; nothing comes out after.
    @Test func cancellingRunStopsTheDriver() async throws {
        let line = RecordingOutputLine()
        let keyboard = KeyboardKnobBackend(buzzerLine: line)
        // The real buzzer timing: a 6 ms tick is still on when the task is cancelled.
        let driver = KnobDriver(backend: keyboard, priority: .normal)
        let run = DriverRun(driver)
        keyboard.post(.keyDown(.up, isRepeat: false))
        #expect(await nextEvents(driver, count: 1).events.map(\.detentDirection) == [.clockwise])
        #expect(await run.cancel(), "run() returns once its task is cancelled")
        try await run.task.value
        #expect(driver.failure == nil)
        #expect(line.changes.map(\.on) == [true, false], "the tick's pulse was ended and the line left off")

        // Stopped for good: input is no longer read, and the buzzer no longer sounds.
        keyboard.post(.keyDown(.up, isRepeat: false))
        keyboard.post(.keyDown(.enter, isRepeat: false))
        let after = await nextEvents(driver, within: 2)
        #expect(after.streamEnded)
        #expect(after.events.isEmpty, "no events after the driver stopped")
        driver.buzzer.play(.confirm)
        #expect(line.changes.count == 2)
        #expect(!driver.buzzer.isOn)
    }

    /// In a `ServiceGroup`, shutdown arrives as a graceful-shutdown signal rather than a cancellation.
    @Test func gracefulShutdownStopsTheDriver() async throws {
        let keyboard = KeyboardKnobBackend()
        let driver = KnobDriver(backend: keyboard, priority: .normal)
        try await testGracefulShutdown { trigger in
            let run = DriverRun(driver)
            keyboard.post(.keyDown(.down, isRepeat: false))
            #expect(await nextEvents(driver, count: 1).events.map(\.detentDirection) == [.counterClockwise])
            #expect(!(await run.ended(within: 0.05)), "the driver runs until told otherwise")
            trigger.triggerGracefulShutdown()
            #expect(await run.ended(), "run() returns on graceful shutdown")
            try await run.task.value
        }
        keyboard.post(.keyDown(.down, isRepeat: false))
        let after = await nextEvents(driver, within: 2)
        #expect(after.streamEnded && after.events.isEmpty)
    }
}

@Suite("Keyboard and wheel mapping")
struct KeyboardKnobMappingTests {
    @Test func arrowsAreDetentsAndRepeatSpins() {
        var mapping = KeyboardKnobMapping()
        #expect(mapping.map(.keyDown(.up, isRepeat: false), atNs: 1) == [.detent(.clockwise, timestampNs: 1)])
        #expect(mapping.map(.keyDown(.right, isRepeat: true), atNs: 2) == [.detent(.clockwise, timestampNs: 2)])
        #expect(mapping.map(.keyDown(.down, isRepeat: false), atNs: 3) == [.detent(.counterClockwise, timestampNs: 3)])
        #expect(mapping.map(.keyDown(.left, isRepeat: true), atNs: 4) == [.detent(.counterClockwise, timestampNs: 4)])
        #expect(mapping.map(.keyUp(.left), atNs: 5).isEmpty)
    }

    @Test func enterIsAClickAndEscapeALongPress() {
        var mapping = KeyboardKnobMapping()
        #expect(mapping.map(.keyDown(.enter, isRepeat: false), atNs: 1) == [.press(timestampNs: 1)])
        #expect(mapping.map(.keyDown(.enter, isRepeat: true), atNs: 2).isEmpty, "key repeat is not more presses")
        #expect(mapping.map(.keyDown(.escape, isRepeat: false), atNs: 3).isEmpty, "one button: Escape while Enter is held")
        #expect(mapping.map(.keyUp(.escape), atNs: 4).isEmpty)
        #expect(mapping.map(.keyUp(.enter), atNs: 5) == [.release(timestampNs: 5, afterLongPress: false)])
        #expect(mapping.map(.keyDown(.escape, isRepeat: false), atNs: 6) == [.press(timestampNs: 6), .longPress(timestampNs: 6)])
        #expect(mapping.map(.keyUp(.escape), atNs: 7) == [.release(timestampNs: 7, afterLongPress: true)])
        #expect(mapping.map(.keyUp(.enter), atNs: 8).isEmpty, "a release without a press is ignored")
    }

    @Test func wheelNotchesAreDetentsAndFractionsAccumulate() {
        var mapping = KeyboardKnobMapping()
        #expect(mapping.map(.wheel(2), atNs: 1) == Array(repeating: .detent(.clockwise, timestampNs: 1), count: 2))
        #expect(mapping.map(.wheel(-1), atNs: 2) == [.detent(.counterClockwise, timestampNs: 2)])
        #expect(mapping.map(.wheel(0.4), atNs: 3).isEmpty)
        #expect(mapping.map(.wheel(0.4), atNs: 4).isEmpty)
        #expect(mapping.map(.wheel(0.4), atNs: 5) == [.detent(.clockwise, timestampNs: 5)])
        #expect(mapping.map(.wheel(.nan), atNs: 6).isEmpty)
        var natural = KeyboardKnobMapping(invertWheel: true)
        #expect(natural.map(.wheel(1), atNs: 7) == [.detent(.counterClockwise, timestampNs: 7)])
    }
}
