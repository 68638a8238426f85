import Logging

/// Runs a backend on its own input thread: edges are decoded there, a detent's tick is started
/// there, and only then is the event handed to the UI through `events`, which never blocks.
///
/// ```swift
/// let driver = KnobDriver(backend: try GpiodKnobBackend())
/// driver.start()
/// for await event in driver.events { … }
/// driver.buzzer.play(.limit)   // from the UI, when a value hits its clamp
/// ```
public final class KnobDriver: @unchecked Sendable {
    // @unchecked: the mutable state below is only touched under `lock`.
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
    private let lock = ConditionLock()
    private var started = false
    private var finished = false
    private var runError: (any Error)?
    private var realtimeGranted: Bool?

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

    /// Starts the input thread (and the buzzer's timer thread in real time). Idempotent.
    public func start() {
        let first = lock.withLock {
            defer { started = true }
            return !started
        }
        guard first else { return }
        let virtual = backend.usesVirtualTime
        // A replay on trace time is pure computation, flat out: at realtime priority it would
        // starve everything else on its core until it finished.
        let priority = virtual ? KnobThreadPriority.normal : priority
        if !virtual { buzzer.startTimerThread(priority: priority) }
        spawnThread { [self] in
            let refused = priority.apply()
            if let refused {
                // Expected on development machines; on the kiosk the unit grants LimitRTPRIO=.
                logger.notice("knob input thread runs at normal priority (\(GpioErrno(refused))); LimitRTPRIO= or CAP_SYS_NICE allows realtime")
            }
            lock.withLock { realtimeGranted = priority != .normal && refused == nil }
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
            lock.withLock {
                runError = failure
                finished = true
                lock.broadcast()
            }
            continuation.finish()
        }
    }

    /// Stops input, waits for the input thread to end, and leaves the buzzer off.
    public func stop() {
        backend.stop()
        let wasStarted = lock.withLock { started }
        if wasStarted { waitUntilFinished() }
        buzzer.stopTimerThread()
    }

    /// Blocks until the input thread ends (a replay ran out, or `stop()`); returns why it failed,
    /// if it did. Not for the main actor: it blocks the calling thread.
    @discardableResult
    public func waitUntilFinished() -> (any Error)? {
        lock.withLock {
            while !finished { lock.wait() }
            return runError
        }
    }

    /// Whether the input thread got realtime scheduling; nil until it has started.
    public var inputThreadIsRealtime: Bool? { lock.withLock { realtimeGranted } }

    /// The error that ended input, if any (e.g. the GPIO chip went away).
    public var failure: (any Error)? { lock.withLock { runError } }
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
