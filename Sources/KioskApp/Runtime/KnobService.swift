import KioskCore
import KioskHardware
import ServiceLifecycle

/// The encoder and its push switch: the driver's own threads decode edges and tick the
/// buzzer (within 50 ms of a detent, whatever the screen is doing); this service only
/// forwards what they report to the inbox, as the state machine's events.
public struct KnobService: Service {
    let driver: KnobDriver
    let inbox: KioskInbox

    public func run() async {
        driver.start()
        defer { driver.stop() }
        for await event in driver.events.cancelOnGracefulShutdown() {
            if let mapped = KnobInput.kioskEvent(for: event) { inbox.post(.event(mapped)) }
        }
    }
}
