import KioskCore
import KioskHardware
import Synchronization

/// The knob as the status screen shows it: written once at start-up (main thread) and by
/// the knob service if the knob fails later (the pool), read by the status screen.
public final class KnobReport: Sendable {
    private let state = Mutex(KioskStatus.Knob(backend: "keyboard"))

    public init() {}

    public var current: KioskStatus.Knob { state.withLock { $0 } }

    public func set(_ knob: KioskStatus.Knob) { state.withLock { $0 = knob } }

    /// The knob stopped: keep its backend and lines, say what failed and, for a GPIO
    /// fault, what to do about it (the driver's own wording).
    public func failed(_ error: any Error) {
        state.withLock { knob in
            if let gpio = error as? GpioError {
                (knob.error, knob.fix) = (gpio.problem, gpio.fix)
            } else {
                (knob.error, knob.fix) = ("\(error)", "restart the kiosk; the keyboard works meanwhile")
            }
        }
    }
}
