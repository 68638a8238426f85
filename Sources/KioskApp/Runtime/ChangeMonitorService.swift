import HyzerKit
import HyzerStore
import ServiceLifecycle

/// Notices commits to the kiosk's database by any process (`hyzer score`, `hyzer demo`,
/// a sync run) and asks the loop to read again: they must show within a second.
public struct ChangeMonitorService: Service {
    /// How often to look (a `PRAGMA data_version`: microseconds, no I/O beyond the WAL index).
    public static let interval: Duration = .milliseconds(400)

    let monitor: ChangeMonitor
    let inbox: KioskInbox
    let clock: any HyzerClock

    public func run() async throws {
        // Graceful shutdown cancels the sleep instead of waiting out the interval.
        try await cancelWhenGracefulShutdown { [monitor, inbox, clock] in
            while true {
                do {
                    try await clock.sleep(for: Self.interval)
                } catch {
                    return  // cancelled: the group is stopping
                }
                if try await monitor.changedSinceLastPoll() { inbox.post(.storeChanged(.external)) }
            }
        }
    }
}
