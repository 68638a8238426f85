import HyzerKit

/// Replays a recorded or generated trace as if it came from the encoder, into a fake buzzer line
/// that records when it was driven.
public final class SimulatedKnobBackend: KnobBackend {
    public enum Pacing: Sendable, Hashable {
        /// Each edge is released at its original offset from the first, on the real monotonic
        /// clock, and stamped with that scheduled time, the way the kernel stamps an interrupt.
        /// The input thread then wakes up late by whatever the scheduler makes it wait, exactly
        /// like a thread blocked in poll() on a GPIO fd, so latency measured against those
        /// stamps includes wake-up latency under load.
        case originalTiming
        /// Edges are delivered back to back on trace time (a `ManualClock` the replay advances);
        /// timers fire at their exact deadlines. Deterministic; for tests and accuracy runs.
        case asFastAsPossible
    }

    public let records: [KnobTraceRecord]
    public let pacing: Pacing
    public let initialLevels: KnobLevels
    /// The fake buzzer line; its record is the output to check.
    public let recorder: RecordingOutputLine
    public let clock: any HyzerClock
    public var buzzerLine: any OutputLine { recorder }
    public var usesVirtualTime: Bool { pacing == .asFastAsPossible }
    public var description: String { "simulated: \(records.count) edges, \(pacing)" }

    /// Trace time, when replaying as fast as possible.
    private let traceClock: ManualClock?
    private let leadInNs: UInt64
    /// A condition lock: with original timing the input thread sleeps until each edge is due, the
    /// way the GPIO backend's thread sleeps in poll(), and that wake-up is part of the latency the
    /// benchmark measures (see `ConditionLock`). `stop()` wakes it.
    private let lock = ConditionLock(Control())

    private struct Control: Sendable {
        var stopRequested = false
        var replayStart: UInt64?
    }

    /// - Parameter leadInNs: with original timing, how long after `run` starts the first edge is
    ///   due, so the first edges are not already late.
    public init(records: [KnobTraceRecord], pacing: Pacing, initialLevels: KnobLevels = .idle, leadInNs: UInt64 = 2_000_000) {
        self.records = records
        self.pacing = pacing
        self.initialLevels = initialLevels
        self.leadInNs = leadInNs
        switch pacing {
        case .originalTiming:
            traceClock = nil
            clock = SystemClock()
        case .asFastAsPossible:
            let trace = ManualClock(uptime: .nanoseconds(Int64(records.first?.tNs ?? 0)))
            traceClock = trace
            clock = trace
        }
        // Each edge can produce at most one pulse, i.e. two line changes.
        recorder = RecordingOutputLine(clock: clock, expectedChanges: 2 * records.count / 4 + 16)
    }

    public convenience init(tracePath: String, pacing: Pacing) throws {
        self.init(records: try KnobTrace.read(path: tracePath), pacing: pacing)
    }

    /// With original timing: the monotonic time the trace's first record was mapped to.
    /// Add `record.tNs - records[0].tNs` to get a record's stamped time.
    public var replayStartNs: UInt64? { lock.withLock { $0.replayStart } }

    public func stop() {
        lock.withLock(wakingWaiters: true) { $0.stopRequested = true }
    }

    private var isStopped: Bool { lock.withLock { $0.stopRequested } }

    public func run(_ handler: any KnobInputHandler) throws {
        switch pacing {
        case .asFastAsPossible: runOnTraceTime(handler)
        case .originalTiming: runInRealTime(handler)
        }
    }

    private func runOnTraceTime(_ handler: any KnobInputHandler) {
        guard let clock = traceClock else { return }
        var batch: [EdgeEvent] = []
        var index = 0
        while index < records.count, !isStopped {
            let t = records[index].tNs
            fireTimers(handler, upTo: t, clock: clock)
            clock.advance(to: .nanoseconds(Int64(t)))
            batch.removeAll(keepingCapacity: true)
            // Edges with the same timestamp arrive together, as from one kernel read.
            while index < records.count, records[index].tNs == t {
                batch.append(records[index].edge)
                index += 1
            }
            handler.handleEdges(batch)
        }
        fireTimers(handler, upTo: .max, clock: clock)
    }

    /// Fires every handler deadline up to `limit`, each at its exact time.
    private func fireTimers(_ handler: any KnobInputHandler, upTo limit: UInt64, clock: ManualClock) {
        while let deadline = handler.nextDeadlineNs, deadline <= limit, !isStopped {
            clock.advance(to: .nanoseconds(Int64(deadline)))
            handler.handleTimer(nowNs: max(deadline, clock.uptimeNanoseconds))
            // A handler whose deadline does not move after firing would spin here forever.
            if handler.nextDeadlineNs == deadline { break }
        }
    }

    private func runInRealTime(_ handler: any KnobInputHandler) {
        // The system clock, whatever else is injected: the lock's timed waits are on CLOCK_MONOTONIC.
        let clock = SystemClock()
        let firstT = records.first?.tNs ?? 0
        let start = clock.uptimeNanoseconds + leadInNs
        func due(_ index: Int) -> UInt64 { start + (records[index].tNs - firstT) }

        var batch: [EdgeEvent] = []
        var index = 0
        lock.withLock { $0.replayStart = start }
        while true {
            // Sleep until the next edge or handler deadline is due; nil when stopped or done.
            let woken: UInt64? = lock.wait { control in
                if control.stopRequested { return .done(nil) }
                let nextEdge: UInt64? = index < records.count ? due(index) : nil
                let timer = handler.nextDeadlineNs
                guard let wake = [nextEdge, timer].compactMap({ $0 }).min() else { return .done(nil) }
                let now = clock.uptimeNanoseconds
                return now < wake ? .sleepUntil(nanoseconds: wake) : .done(now)
            }
            guard let now = woken else { break }
            batch.removeAll(keepingCapacity: true)
            while index < records.count, due(index) <= now {
                let record = records[index]
                batch.append(EdgeEvent(line: record.line, level: record.value, timestampNs: due(index)))
                index += 1
            }
            if !batch.isEmpty { handler.handleEdges(batch) }
            if let deadline = handler.nextDeadlineNs, deadline <= now {
                handler.handleTimer(nowNs: now)
            }
        }
    }
}
