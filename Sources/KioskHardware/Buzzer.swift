import HyzerKit
import Logging
import Synchronization

/// What the buzzer can say.
public enum BuzzerPattern: String, Sendable, Hashable, Codable, CaseIterable {
    /// A short pulse per detent.
    case tick
    /// One long pulse: a score was saved.
    case confirm
    /// A double pulse: the value is at its clamp and did not move.
    case limit
    /// Three long pulses: something went wrong.
    case error
}

/// One pulse of a pattern: on for `widthNs`, then off for at least `gapAfterNs`.
public struct BuzzerPulse: Sendable, Hashable {
    public var widthNs: UInt64
    public var gapAfterNs: UInt64

    public init(widthNs: UInt64, gapAfterNs: UInt64) {
        self.widthNs = widthNs
        self.gapAfterNs = gapAfterNs
    }
}

/// Pulse widths, per buzzer. A piezo clicks audibly at 1–2 ms; a vibration motor behind a
/// transistor needs 5–10 ms to spin up enough to be felt, hence the defaults.
public struct BuzzerTiming: Sendable, Hashable {
    public var tickNs: UInt64
    /// The shortest off-time between any two pulses. This is what keeps a fast spin a train of
    /// distinct ticks instead of one continuous buzz.
    public var minGapNs: UInt64
    public var confirmNs: UInt64
    public var limitPulseNs: UInt64
    public var limitGapNs: UInt64
    public var errorPulseNs: UInt64
    public var errorGapNs: UInt64
    public var errorPulses: Int

    public init(
        tickNs: UInt64 = 6_000_000,
        minGapNs: UInt64 = 8_000_000,
        confirmNs: UInt64 = 80_000_000,
        limitPulseNs: UInt64 = 25_000_000,
        limitGapNs: UInt64 = 50_000_000,
        errorPulseNs: UInt64 = 60_000_000,
        errorGapNs: UInt64 = 60_000_000,
        errorPulses: Int = 3
    ) {
        self.tickNs = tickNs
        self.minGapNs = minGapNs
        self.confirmNs = confirmNs
        self.limitPulseNs = limitPulseNs
        self.limitGapNs = limitGapNs
        self.errorPulseNs = errorPulseNs
        self.errorGapNs = errorGapNs
        self.errorPulses = errorPulses
    }

    public func pulses(for pattern: BuzzerPattern) -> [BuzzerPulse] {
        switch pattern {
        case .tick:
            [BuzzerPulse(widthNs: tickNs, gapAfterNs: minGapNs)]
        case .confirm:
            [BuzzerPulse(widthNs: confirmNs, gapAfterNs: minGapNs)]
        case .limit:
            [
                BuzzerPulse(widthNs: limitPulseNs, gapAfterNs: limitGapNs),
                BuzzerPulse(widthNs: limitPulseNs, gapAfterNs: minGapNs),
            ]
        case .error:
            (0..<max(1, errorPulses)).map { index in
                BuzzerPulse(widthNs: errorPulseNs, gapAfterNs: index == errorPulses - 1 ? minGapNs : errorGapNs)
            }
        }
    }

    /// The longest a tick can wait: it arrived just as another tick started, so it waits for that
    /// pulse and the gap after it.
    public var worstTickDelayNs: UInt64 { tickNs + minGapNs }
}

/// What happened to tick and pattern requests; exposed in diagnostics and benchmarks.
public struct BuzzerStats: Sendable, Hashable {
    /// Ticks that drove the line at once, on the requesting thread.
    public var ticksImmediate = 0
    /// Ticks that arrived during a pulse or its gap and were queued to start when the gap ends.
    public var ticksDeferred = 0
    /// Ticks folded into a tick that was already queued.
    public var ticksCoalesced = 0
    /// Ticks dropped because a stronger pattern was playing or queued.
    public var ticksClipped = 0
    public var patternsQueued = 0
    /// Pattern requests dropped because the same pattern was already queued and not yet started.
    public var patternsCoalesced = 0

    public init() {}
}

/// Decides when the buzzer line goes on and off. Pure: the caller passes the time and applies
/// the level changes handed to `drive`, in order, each `drive` returning when the line changed
/// on the caller's clock (`now` for a caller on virtual time). Widths and gaps count from
/// that instant, not from `now`: a thread preempted between reading its clock and driving the
/// line would otherwise leave a gap shorter than `minGapNs` by the delay (16 µs once on CI's
/// loaded machine).
///
/// Ticks: if the buzzer is idle the tick starts now; if a pulse or its gap is in progress, one
/// tick is queued to start when the gap ends and any further ticks fold into it. So a fast spin
/// becomes a pulse train at most 1 / (tick + gap) per second with a guaranteed gap, every detent
/// is followed by a pulse starting within `worstTickDelayNs`, and nothing piles up to buzz on after
/// the knob stops. Patterns (confirm, limit, error) replace queued ticks, swallow ticks while they
/// play (the pattern says more than the tick would), and queue behind a pulse already on.
public struct BuzzerScheduler: Sendable {
    public let timing: BuzzerTiming
    public private(set) var stats = BuzzerStats()

    private enum Phase: Sendable {
        case idle
        case on(untilNs: UInt64, gapAfterNs: UInt64, pattern: BuzzerPattern)
        case gap(untilNs: UInt64)
    }

    private struct Queued: Sendable {
        var pulse: BuzzerPulse
        var pattern: BuzzerPattern
        var startsPattern: Bool
    }

    private var phase = Phase.idle
    private var queue: [Queued] = []

    public init(timing: BuzzerTiming = BuzzerTiming()) {
        self.timing = timing
        queue.reserveCapacity(8)
    }

    public var isOn: Bool {
        if case .on = phase { true } else { false }
    }

    /// When `advance(now:)` next has a change to make; nil while idle.
    public var nextDeadlineNs: UInt64? {
        switch phase {
        case .idle: nil
        case .on(let until, _, _): until
        case .gap(let until): until
        }
    }

    public mutating func request(_ pattern: BuzzerPattern, now: UInt64, drive: (Bool) -> UInt64) {
        advance(now: now, drive: drive)
        if pattern == .tick {
            requestTick(now: now, drive: drive)
            return
        }
        if queue.contains(where: { $0.pattern == pattern && $0.startsPattern }) {
            stats.patternsCoalesced += 1
            return
        }
        queue.removeAll { $0.pattern == .tick }
        let pulses = timing.pulses(for: pattern)
        for (index, pulse) in pulses.enumerated() {
            queue.append(Queued(pulse: pulse, pattern: pattern, startsPattern: index == 0))
        }
        stats.patternsQueued += 1
        advance(now: now, drive: drive)
    }

    private mutating func requestTick(now: UInt64, drive: (Bool) -> UInt64) {
        if case .idle = phase {
            // advance() starts queued pulses whenever idle, so idle means nothing is queued.
            start(Queued(pulse: timing.pulses(for: .tick)[0], pattern: .tick, startsPattern: true), now: now, drive: drive)
            stats.ticksImmediate += 1
        } else if patternIsActive {
            stats.ticksClipped += 1
        } else if queue.isEmpty {
            queue.append(Queued(pulse: timing.pulses(for: .tick)[0], pattern: .tick, startsPattern: true))
            stats.ticksDeferred += 1
        } else {
            stats.ticksCoalesced += 1
        }
    }

    private var patternIsActive: Bool {
        if case .on(_, _, let pattern) = phase, pattern != .tick { return true }
        return queue.contains { $0.pattern != .tick }
    }

    /// Applies every change due by `now`. When the caller is late, the off-gap is measured from
    /// the actual off time and each pulse keeps its full width, so lateness never merges pulses.
    public mutating func advance(now: UInt64, drive: (Bool) -> UInt64) {
        while true {
            switch phase {
            case .idle:
                guard !queue.isEmpty else { return }
                start(queue.removeFirst(), now: now, drive: drive)
            case .on(let until, let gapAfter, _):
                guard now >= until else { return }
                let off = max(now, drive(false))
                phase = .gap(untilNs: off + max(gapAfter, timing.minGapNs))
            case .gap(let until):
                guard now >= until else { return }
                phase = .idle
            }
        }
    }

    /// Drops everything and leaves the line off.
    public mutating func silence(drive: (Bool) -> UInt64) {
        queue.removeAll()
        if isOn { _ = drive(false) }
        phase = .idle
    }

    private mutating func start(_ item: Queued, now: UInt64, drive: (Bool) -> UInt64) {
        let on = max(now, drive(true))
        phase = .on(untilNs: on + item.pulse.widthNs, gapAfterNs: item.pulse.gapAfterNs, pattern: item.pattern)
    }
}

/// The buzzer: a `BuzzerScheduler` made thread-safe and attached to a line.
///
/// `play(.tick)` from the input thread drives the line on that very thread when the buzzer is
/// idle, so a tick never waits for a timer, the UI or the render loop. Turning pulses off and
/// starting queued ones is done by a small timer thread (`startTimerThread()`), or, on trace time
/// (a `ManualClock`), by whoever advances time (`advance(nowNs:)`).
public final class Buzzer: Sendable {
    public let line: any OutputLine
    public let clock: any HyzerClock
    public let timing: BuzzerTiming
    /// A condition lock rather than a `Mutex`: the timer thread sleeps in it until the current
    /// pulse or gap ends (a timed wait on CLOCK_MONOTONIC) and `play` wakes it when a pulse is
    /// queued. That wake-up is on the measured tick path (see `ConditionLock`).
    private let lock: ConditionLock<State>

    private struct State: Sendable {
        var scheduler: BuzzerScheduler
        var timerRunning = false
        var timerStopRequested = false
        /// Set by `stopTimerThread()`: with nothing left to end a pulse, a late `play` from the UI
        /// must not switch the line on for good.
        var retired = false
    }

    public init(line: any OutputLine, timing: BuzzerTiming = BuzzerTiming(), clock: any HyzerClock = SystemClock()) {
        self.line = line
        self.clock = clock
        self.timing = timing
        lock = ConditionLock(State(scheduler: BuzzerScheduler(timing: timing)))
    }

    /// Plays a pattern. Safe from any thread; the line is driven before this returns if the
    /// buzzer was idle. `nowNs` defaults to the buzzer's clock.
    public func play(_ pattern: BuzzerPattern, nowNs: UInt64? = nil) {
        lock.withLock(wakingWaiters: true) { state in
            guard !state.retired else { return }
            let now = nowNs ?? clock.uptimeNanoseconds
            state.scheduler.request(pattern, now: now) { driveLine($0, virtualNow: nowNs) }
        }
    }

    /// Applies changes due by `nowNs`; for virtual time, where no timer thread runs.
    public func advance(nowNs: UInt64) {
        lock.withLock { $0.scheduler.advance(now: nowNs) { driveLine($0, virtualNow: nowNs) } }
    }

    public var nextDeadlineNs: UInt64? { lock.withLock { $0.scheduler.nextDeadlineNs } }
    public var stats: BuzzerStats { lock.withLock { $0.scheduler.stats } }
    public var isOn: Bool { lock.withLock { $0.scheduler.isOn } }

    /// Drops queued pulses and switches the line off.
    public func silence() {
        lock.withLock(wakingWaiters: true) { $0.scheduler.silence { driveLine($0) } }
    }

    /// Starts the thread that ends pulses and starts queued ones on time. Needs a real monotonic
    /// clock (the thread sleeps on CLOCK_MONOTONIC). Calling it twice is harmless.
    public func startTimerThread(priority: KnobThreadPriority = .normal) {
        let alreadyRunning = lock.withLock { state in
            if state.timerRunning { return true }
            state.timerRunning = true
            state.timerStopRequested = false
            state.retired = false
            return false
        }
        guard !alreadyRunning else { return }
        spawnThread { [self] in
            if let error = priority.apply() {
                Logger(label: "hyzer.knob").notice("buzzer thread runs at normal priority: \(GpioErrno(error))")
            }
            timerLoop()
        }
    }

    /// Stops the timer thread and leaves the line off; later `play` calls do nothing until
    /// `startTimerThread()` is called again. Blocks until the thread has let go of the lock, which
    /// it does as soon as it is woken (microseconds).
    public func stopTimerThread() {
        lock.withLock(wakingWaiters: true) { state in
            state.retired = true
            state.timerStopRequested = true
        }
        lock.wait { state -> ConditionLock<State>.Step<Void> in
            guard !state.timerRunning else { return .sleep }
            state.scheduler.silence { driveLine($0) }
            return .done(())
        }
    }

    /// Sets the line and says when: on virtual time, the instant given; else the buzzer's clock,
    /// read after the change, so the scheduler's widths and gaps count from no earlier than
    /// the edge itself.
    private func driveLine(_ on: Bool, virtualNow: UInt64? = nil) -> UInt64 {
        line.drive(on)
        return virtualNow ?? clock.uptimeNanoseconds
    }

    private func timerLoop() {
        lock.wait { state -> ConditionLock<State>.Step<Void> in
            guard !state.timerStopRequested else { return .done(()) }
            while let deadline = state.scheduler.nextDeadlineNs {
                let now = clock.uptimeNanoseconds
                guard now >= deadline else { return .sleepUntil(nanoseconds: deadline) }
                state.scheduler.advance(now: now) { driveLine($0) }
            }
            return .sleep
        }
        lock.withLock(wakingWaiters: true) { $0.timerRunning = false }
    }
}
