import KioskCore
import KioskHardware
import Logging
import ServiceLifecycle

/// The encoder and its push switch: the driver's own threads decode edges and tick the
/// buzzer (within 50 ms of a detent, whatever the screen is doing); this service runs the
/// driver and forwards what it reports to the inbox, as the state machine's events.
public struct KnobService: Service {
    let driver: KnobDriver
    let inbox: KioskInbox
    /// Where a fault that stops the knob is kept for the status screen.
    var report: KnobReport?

    public func run() async throws {
        let (driver, inbox) = (driver, inbox)
        // `--log-level debug` shows every detent and press in the journal: an installer
        // turning the knob sees at once whether the wiring is right.
        let logger = Logger(label: "hyzer.knob")
        try await withThrowingDiscardingTaskGroup { group in
            // The stream ends when the driver's run returns (shutdown, or input ended).
            group.addTask {
                for await event in driver.events {
                    if let mapped = KnobInput.kioskEvent(for: event) {
                        logger.debug("knob event \(mapped)")
                        inbox.post(.event(mapped))
                    }
                }
            }
            do {
                try await driver.run()
            } catch {
                report?.failed(error)
                throw error
            }
        }
    }
}
