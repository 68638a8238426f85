import Foundation
import HyzerKit
import HyzerStore
import ServiceLifecycle

/// Notices commits to the kiosk's database by any process (`hyzer score`, `hyzer demo`,
/// a sync run) and asks the loop to read again: they must show within a second.
///
/// The question is `PRAGMA data_version` (microseconds, no I/O beyond the WAL index),
/// asked every `interval`, but only while the database files are being written: the data
/// directory is watched (`StoreFileWatch`), and an idle board does not wake up for it at
/// all. Each poll costs more than the query: on Linux the timer and GRDB's queue wake
/// half a dozen threads (measured with strace: 6 threads per poll), and polling for ever
/// put an idle kiosk at 0.13% of a core against 0.08% when the main loop did it.
/// Where the directory cannot be watched (an in-memory store, no inotify), it polls
/// all the time.
public struct ChangeMonitorService: Service {
    /// How often to look while the files are being written (or always, unwatched).
    public static let interval: Duration = .milliseconds(400)
    /// How long to keep looking after a burst of writes: a write is reported when it
    /// starts, the commit becomes visible only after its fsync (tens of milliseconds on
    /// an SD card, more under load), and nothing reports that moment.
    public static let settle: Duration = .seconds(2)

    let monitor: ChangeMonitor
    let inbox: KioskInbox
    let clock: any HyzerClock
    /// The data directory to watch; nil polls all the time.
    var directory: URL? = nil

    public func run() async throws {
        // Graceful shutdown cancels the sleep or the wait instead of waiting them out.
        try await cancelWhenGracefulShutdown { [self] in
            let names: Set<String> = [HyzerDatabase.domainFileName, HyzerDatabase.domainFileName + "-wal"]
            guard let watch = directory.flatMap({ StoreFileWatch(directory: $0, fileNames: names) }) else {
                _ = try await poll(until: nil)
                return
            }
            // Released (and the watch stopped) only once the loop is over.
            defer { withExtendedLifetime(watch) {} }
            // A commit made after the monitor's first look but before the watch began
            // was never reported: start as if a write had just been seen.
            try await check()
            guard try await poll(until: clock.uptime + Self.settle) else { return }
            // A write during a window leaves one more burst in the stream: the window
            // after the last write is always at least `settle` long.
            for await _ in watch.writes {
                try await check()
                guard try await poll(until: clock.uptime + Self.settle) else { return }
            }
        }
    }

    /// Looks every `interval` until `end` on the clock (for ever when nil). False when
    /// cancelled (the group is stopping).
    private func poll(until end: Duration?) async throws -> Bool {
        while end.map({ clock.uptime < $0 }) ?? true {
            do {
                try await clock.sleep(for: Self.interval)
            } catch {
                return false
            }
            try await check()
        }
        return true
    }

    private func check() async throws {
        if try await monitor.changedSinceLastPoll() { inbox.post(.storeChanged(.external)) }
    }
}
