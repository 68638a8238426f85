import HyzerKit

/// Where the knob's input comes from and where its buzzer goes: libgpiod on the kiosk, a trace
/// replay in tests and benchmarks, the keyboard and mouse wheel on a development machine.
///
/// A backend owns one input thread: `run` is called on it by `KnobDriver` and blocks there,
/// handing input to the handler as soon as it is read. Everything downstream of the handler
/// (decoding, the buzzer tick) happens on that same thread.
public protocol KnobBackend: AnyObject, Sendable {
    /// For diagnostics, e.g. "gpiod: A=GPIO17 (gpiochip0:17), …".
    var description: String { get }
    /// Line levels when input starts; the decoder starts from them.
    var initialLevels: KnobLevels { get }
    /// The line the buzzer drives.
    var buzzerLine: any OutputLine { get }
    /// The clock edge timestamps are in: `SystemClock` (CLOCK_MONOTONIC, the base the kernel
    /// stamps GPIO events in) for real input, a `ManualClock` following the trace for replays on
    /// trace time. Read in `uptimeNanoseconds`.
    var clock: any HyzerClock { get }
    /// True when time is the trace's rather than the machine's: then `run` also fires every
    /// deadline the handler asks for (button and buzzer), instead of real timer threads.
    var usesVirtualTime: Bool { get }

    /// Reads input until `stop()` is called or the input ends, on the calling thread.
    /// Edges are delivered in timestamp order; the handler's deadlines are honoured by calling
    /// `handleTimer(nowNs:)` no earlier than `nextDeadlineNs`.
    func run(_ handler: any KnobInputHandler) throws
    /// Makes `run` return soon. Safe from any thread.
    func stop()
}

/// The receiving end of a backend. Used only from the backend's input thread.
public protocol KnobInputHandler: AnyObject {
    /// Edges read together, sorted by timestamp.
    func handleEdges(_ edges: [EdgeEvent])
    /// Input that is already knob events (the keyboard mapping).
    func handleEvents(_ events: [KnobEvent])
    func handleTimer(nowNs: UInt64)
    /// When the handler next needs `handleTimer`, or nil.
    var nextDeadlineNs: UInt64? { get }
}
