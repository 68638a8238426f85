import Synchronization

@testable import KioskHardware

/// Edges that walk the encoder through `states` ("11", "01", …), one line change per step,
/// `stepNs` apart starting at `startNs`. Steps that change both lines are not expressible as one
/// edge; use `QuadratureDecoder.advance(to:at:)` for those.
func edges(_ states: [String], startNs: UInt64 = 1_000, stepNs: UInt64 = 1_000) -> [EdgeEvent] {
    var result: [EdgeEvent] = []
    var previous = state(states[0])
    var t = startNs
    for text in states.dropFirst() {
        let next = state(text)
        precondition(
            next != previous && (next.a == previous.a || next.b == previous.b), "one line per step: \(previous) → \(next)")
        t += stepNs
        result.append(
            next.a != previous.a
                ? EdgeEvent(line: .a, level: next.a, timestampNs: t)
                : EdgeEvent(line: .b, level: next.b, timestampNs: t))
        previous = next
    }
    return result
}

func state(_ text: String) -> QuadratureState {
    let bits = Array(text)
    return QuadratureState(a: bits[0] == "1" ? 1 : 0, b: bits[1] == "1" ? 1 : 0)
}

/// Runs edges through a fresh decoder and returns the detents.
func detents(_ edges: [EdgeEvent], mode: QuadratureMode = .full, swap: Bool = false, initial: QuadratureState = .rest) -> [Detent]
{
    var decoder = QuadratureDecoder(mode: mode, swapDirection: swap, initial: initial)
    return edges.compactMap { decoder.feed($0) }
}

func sw(_ level: Int, atMs ms: Double) -> EdgeEvent {
    EdgeEvent(line: .sw, level: level, timestampNs: UInt64(ms * 1_000_000))
}

let ms: UInt64 = 1_000_000

/// Pulses on a recorded line: (start, end) pairs; a pulse still on at the end has end == nil.
func pulses(_ changes: [RecordingOutputLine.Change]) -> [(start: UInt64, end: UInt64?)] {
    var result: [(start: UInt64, end: UInt64?)] = []
    for change in changes {
        if change.on {
            result.append((change.atNs, nil))
        } else if let last = result.indices.last, result[last].end == nil {
            result[last].end = change.atNs
        }
    }
    return result
}

/// Events from the driver until `count` have arrived or the stream ends, giving up after
/// `seconds` so that a broken input thread fails the test instead of hanging it.
func nextEvents(
    _ driver: KnobDriver, count: Int = .max, within seconds: Double = 30
) async -> (events: [KnobEvent], streamEnded: Bool) {
    await withTaskGroup(of: (events: [KnobEvent], streamEnded: Bool)?.self) { group in
        group.addTask {
            var events: [KnobEvent] = []
            for await event in driver.events {
                events.append(event)
                if events.count >= count { return (events, false) }
            }
            // A cancelled wait also ends the loop; only an uncancelled one means the stream finished.
            return (events, !Task.isCancelled)
        }
        group.addTask {
            try? await Task.sleep(for: .seconds(seconds))
            return nil
        }
        var result: (events: [KnobEvent], streamEnded: Bool) = ([], false)
        for await value in group {
            if let value { result = value }
            // Whichever finishes first ends the other: cancelling the collector ends its stream.
            group.cancelAll()
        }
        return result
    }
}

/// A driver running in a task of its own, as a `ServiceGroup` runs it.
final class DriverRun: Sendable {
    private final class Flag: Sendable {
        let value = Mutex(false)
    }

    let task: Task<Void, any Error>
    private let returned: Flag

    init(_ driver: KnobDriver) {
        let returned = Flag()
        self.returned = returned
        task = Task {
            defer { returned.value.withLock { $0 = true } }
            try await driver.run()
        }
    }

    /// Whether `run()` has returned (or thrown) within `seconds`: a driver that ignores its
    /// cancellation fails the test instead of hanging it. A hang detector, not a latency
    /// bound, so it is long: on a loaded machine (`make test-under-load`) the run's task may
    /// wait 10 s and more for a thread of the cooperative pool, which synchronous tests hold.
    /// A prompt end is the knob benchmarks' business.
    func ended(within seconds: Double = 60) async -> Bool {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(seconds)
        while clock.now < deadline {
            if returned.value.withLock({ $0 }) { return true }
            try? await Task.sleep(for: .milliseconds(2))
        }
        return returned.value.withLock { $0 }
    }

    /// Cancels the task and reports whether `run()` then returned within `seconds`.
    func cancel(within seconds: Double = 60) async -> Bool {
        task.cancel()
        return await ended(within: seconds)
    }
}
