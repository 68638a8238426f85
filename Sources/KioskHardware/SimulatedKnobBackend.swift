/// Replays a recorded or generated trace as if it came from the encoder, into a fake buzzer line
/// that records when it was driven.
public final class SimulatedKnobBackend: KnobBackend, @unchecked Sendable {
    // @unchecked: `stopRequested` and `replayStart` are only touched under `lock`; the rest is immutable.
    public enum Pacing: Sendable, Hashable {
        /// Each edge is released at its original offset from the first, on the real monotonic
        /// clock, and stamped with that scheduled time, the way the kernel stamps an interrupt.
        /// The input thread then wakes up late by whatever the scheduler makes it wait, exactly
        /// like a thread blocked in poll() on a GPIO fd, so latency measured against those
        /// stamps includes wake-up latency under load.
        case originalTiming
        /// Edges are delivered back to back on trace time (a virtual clock); timers fire at
        /// their exact deadlines. Deterministic; for tests and accuracy runs.
        case asFastAsPossible
    }

    public let records: [KnobTraceRecord]
    public let pacing: Pacing
    public let initialLevels: KnobLevels
    /// The fake buzzer line; its record is the output to check.
    public let recorder: RecordingOutputLine
    public let clock: any MonotonicClock
    public var buzzerLine: any OutputLine { recorder }
    public var usesVirtualTime: Bool { pacing == .asFastAsPossible }
    public var description: String { "simulated: \(records.count) edges, \(pacing)" }

    private let virtualClock: VirtualClock?
    private let leadInNs: UInt64
    private let lock = ConditionLock()
    private var stopRequested = false
    private var replayStart: UInt64?

    /// - Parameter leadInNs: with original timing, how long after `run` starts the first edge is
    ///   due, so the first edges are not already late.
    public init(records: [KnobTraceRecord], pacing: Pacing, initialLevels: KnobLevels = .idle, leadInNs: UInt64 = 2_000_000) {
        self.records = records
        self.pacing = pacing
        self.initialLevels = initialLevels
        self.leadInNs = leadInNs
        switch pacing {
        case .originalTiming:
            virtualClock = nil
            clock = SystemMonotonicClock()
        case .asFastAsPossible:
            let virtual = VirtualClock(startNs: records.first?.tNs ?? 0)
            virtualClock = virtual
            clock = virtual
        }
        // Each edge can produce at most one pulse, i.e. two line changes.
        recorder = RecordingOutputLine(clock: clock, expectedChanges: 2 * records.count / 4 + 16)
    }

    public convenience init(tracePath: String, pacing: Pacing) throws {
        self.init(records: try KnobTrace.read(path: tracePath), pacing: pacing)
    }

    /// With original timing: the monotonic time the trace's first record was mapped to.
    /// Add `record.tNs - records[0].tNs` to get a record's stamped time.
    public var replayStartNs: UInt64? { lock.withLock { replayStart } }

    public func stop() {
        lock.withLock {
            stopRequested = true
            lock.broadcast()
        }
    }

    private var isStopped: Bool { lock.withLock { stopRequested } }

    public func run(_ handler: any KnobInputHandler) throws {
        switch pacing {
        case .asFastAsPossible: runOnTraceTime(handler)
        case .originalTiming: runInRealTime(handler)
        }
    }

    private func runOnTraceTime(_ handler: any KnobInputHandler) {
        guard let clock = virtualClock else { return }
        var batch: [EdgeEvent] = []
        var index = 0
        while index < records.count, !isStopped {
            let t = records[index].tNs
            fireTimers(handler, upTo: t, clock: clock)
            clock.advance(to: t)
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
    private func fireTimers(_ handler: any KnobInputHandler, upTo limit: UInt64, clock: VirtualClock) {
        while let deadline = handler.nextDeadlineNs, deadline <= limit, !isStopped {
            clock.advance(to: deadline)
            handler.handleTimer(nowNs: max(deadline, clock.nowNs))
            // A handler whose deadline does not move after firing would spin here forever.
            if handler.nextDeadlineNs == deadline { break }
        }
    }

    private func runInRealTime(_ handler: any KnobInputHandler) {
        let clock = SystemMonotonicClock()
        let firstT = records.first?.tNs ?? 0
        let start = clock.nowNs + leadInNs
        func due(_ index: Int) -> UInt64 { start + (records[index].tNs - firstT) }

        var batch: [EdgeEvent] = []
        var index = 0
        lock.lock()
        replayStart = start
        while !stopRequested {
            let nextEdge: UInt64? = index < records.count ? due(index) : nil
            let timer = handler.nextDeadlineNs
            guard let wake = [nextEdge, timer].compactMap({ $0 }).min() else { break }
            let now = clock.nowNs
            if now < wake {
                lock.wait(untilNs: wake)
                continue
            }
            lock.unlock()
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
            lock.lock()
        }
        lock.unlock()
    }
}
