import Logging
import ServiceLifecycle
import Synchronization

/// The knob as a long-running service: runs a backend on its own input thread, where edges are
/// decoded, a detent's tick is started, and only then is the event handed to the UI through
/// `events`, which never blocks.
///
/// ```swift
/// let driver = KnobDriver(backend: try GpiodKnobBackend())
/// // in a ServiceGroup, or in a task of its own:
/// async let knob: Void = driver.run()
/// for await event in driver.events { … }
/// driver.buzzer.play(.limit)   // from the UI, when a value hits its clamp
/// ```
///
/// `run()` starts the input thread (and, in real time, the buzzer's timer thread). Both are
/// dedicated pthreads, not tasks, at SCHED_FIFO by default (see `KnobThreadPriority`): measured,
/// that took the tick's p99 under full load from 2.2 ms to 64 µs, and they block in poll() or timed
/// waits, which must never happen on Swift concurrency's pool. `run()` returns when input ends (a
/// replay ran out), when its task is cancelled, or on graceful shutdown; by then both threads have
/// ended, the buzzer is off and `events` has finished.
public final class KnobDriver: Service, Sendable {
    public let backend: any KnobBackend
    public let buzzer: Buzzer
    public let config: KnobConfig
    public let priority: KnobThreadPriority
    /// Every event, in order. Unbounded on purpose: a detent dropped because the UI was busy
    /// would be a wrong score, and the knob cannot produce events faster than a few thousand a second.
    public let events: AsyncStream<KnobEvent>

    private let continuation: AsyncStream<KnobEvent>.Continuation
    private let observer: (@Sendable (KnobEvent) -> Void)?
    private let logger = Logger(label: "hyzer.knob")
    private let state = Mutex(RunState())

    private struct RunState {
        var started = false
        var finished = false
        var failure: (any Error)?
        var realtimeGranted: Bool?
        /// `run()` waiting for the input thread to end.
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// - Parameter observer: called on the input thread for each event, after the tick and before
    ///   the event is queued; for benchmarks and tests that need to see events without a consumer task.
    public init(
        backend: any KnobBackend,
        config: KnobConfig = KnobConfig(),
        buzzerTiming: BuzzerTiming = BuzzerTiming(),
        priority: KnobThreadPriority = .kioskDefault,
        observer: (@Sendable (KnobEvent) -> Void)? = nil
    ) {
        self.backend = backend
        self.config = config
        self.priority = priority
        self.observer = observer
        self.buzzer = Buzzer(line: backend.buzzerLine, timing: buzzerTiming, clock: backend.clock)
        (events, continuation) = AsyncStream.makeStream(of: KnobEvent.self, bufferingPolicy: .unbounded)
    }

    /// Runs the knob until input ends, the task is cancelled or the service group shuts down
    /// gracefully; then stops the threads, leaves the buzzer off and returns. A driver runs once.
    ///
    /// - Throws: the error that ended input (the GPIO chip went away, say), after cleaning up. A
    ///   kiosk that carries on with the keyboard then registers the driver in its `ServiceGroup`
    ///   with `failureTerminationBehavior: .ignore`; `failure` keeps the error for diagnostics.
    public func run() async throws {
        let first = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        precondition(first, "KnobDriver.run() was called twice; a driver and its event stream run once")
        startThreads()
        await withGracefulShutdownHandler {
            await withTaskCancellationHandler {
                await inputThreadEnded()
            } onCancel: { [backend] in
                backend.stop()
            }
        } onGracefulShutdown: { [backend] in
            backend.stop()
        }
        // The timer thread lets go as soon as it is woken (microseconds): a bounded hand-off, not
        // a wait on I/O.
        buzzer.stopTimerThread()
        if let failure { throw failure }
    }

    /// Whether the input thread got realtime scheduling; nil until it has started.
    public var inputThreadIsRealtime: Bool? { state.withLock { $0.realtimeGranted } }

    /// The error that ended input, if any (e.g. the GPIO chip went away).
    public var failure: (any Error)? { state.withLock { $0.failure } }

    private func startThreads() {
        let virtual = backend.usesVirtualTime
        // A replay on trace time is pure computation, flat out: at realtime priority it would
        // starve everything else on its core until it finished.
        let priority = virtual ? KnobThreadPriority.normal : priority
        if !virtual { buzzer.startTimerThread(priority: priority) }
        spawnThread { [self] in
            let refused = priority.apply()
            if let refused {
                // Expected on development machines; on the kiosk the unit grants LimitRTPRIO=.
                logger.notice(
                    "knob input thread runs at normal priority (\(GpioErrno(refused))); LimitRTPRIO= or CAP_SYS_NICE allows realtime"
                )
            }
            state.withLock { $0.realtimeGranted = priority != .normal && refused == nil }
            let pipeline = InputPipeline(
                decoder: KnobDecoder(config: config, initial: backend.initialLevels),
                buzzer: buzzer,
                virtualTime: virtual,
                deliver: { [continuation, observer] event in
                    observer?(event)
                    continuation.yield(event)
                }
            )
            var failure: (any Error)?
            do {
                try backend.run(pipeline)
            } catch {
                logger.error("knob input stopped: \(error)")
                failure = error
            }
            // Failure first, so whoever sees the stream end can read why.
            let waiter = state.withLock { state in
                state.failure = failure
                state.finished = true
                defer { state.waiter = nil }
                return state.waiter
            }
            continuation.finish()
            waiter?.resume()
        }
    }

    /// Suspends (without holding a thread) until the input thread has ended.
    private func inputThreadEnded() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { state in
                if !state.finished { state.waiter = continuation }
                return state.finished
            }
            if finished { continuation.resume() }
        }
    }
}

/// The input thread's side: decoder state, tick first, then delivery.
final class InputPipeline: KnobInputHandler {
    private var decoder: KnobDecoder
    private let buzzer: Buzzer
    private let virtualTime: Bool
    private let deliver: (KnobEvent) -> Void

    init(decoder: KnobDecoder, buzzer: Buzzer, virtualTime: Bool, deliver: @escaping (KnobEvent) -> Void) {
        self.decoder = decoder
        self.buzzer = buzzer
        self.virtualTime = virtualTime
        self.deliver = deliver
    }

    func handleEdges(_ edges: [EdgeEvent]) {
        for edge in edges {
            if virtualTime { buzzer.advance(nowNs: edge.timestampNs) }
            decoder.feed(edge) { react(to: $0) }
        }
    }

    func handleEvents(_ events: [KnobEvent]) {
        for event in events {
            if virtualTime { buzzer.advance(nowNs: event.timestampNs) }
            react(to: event)
        }
    }

    func handleTimer(nowNs: UInt64) {
        decoder.poll(now: nowNs) { react(to: $0) }
        if virtualTime { buzzer.advance(nowNs: nowNs) }
    }

    var nextDeadlineNs: UInt64? {
        let decoderDeadline = decoder.nextDeadlineNs
        guard virtualTime, let buzzerDeadline = buzzer.nextDeadlineNs else { return decoderDeadline }
        return min(decoderDeadline ?? buzzerDeadline, buzzerDeadline)
    }

    private func react(to event: KnobEvent) {
        // The tick goes first and on this thread: the UI may be mid-frame.
        if case .detent(_, let t) = event {
            buzzer.play(.tick, nowNs: virtualTime ? t : nil)
        }
        deliver(event)
    }
}
