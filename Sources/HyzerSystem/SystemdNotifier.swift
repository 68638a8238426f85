import Foundation
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// When the display loop owes systemd's watchdog a sign of life: half the unit's
/// `WatchdogSec` after the last one (sd_watchdog_enabled(3) advises pinging at half, so one
/// late wake-up never trips it). Pure: the loop passes its time in.
public struct WatchdogSchedule: Sendable, Equatable {
    public let interval: Int64
    public private(set) var lastPing: Int64?

    public init(interval: Int64) { self.interval = max(1, interval) }

    /// Due at once before the first ping, then every `interval`.
    public var due: Int64? { lastPing.map { $0 + interval } }

    public func isDue(now: Int64) -> Bool { due.map { now >= $0 } ?? true }

    public mutating func pinged(at now: Int64) { lastPing = now }
}

/// systemd's notification protocol (sd_notify(3)), spoken directly: one datagram to the
/// socket in `$NOTIFY_SOCKET`. The documented datagram is all libsystemd would send, and
/// speaking it keeps libsystemd out of the kiosk's package and a build on a machine without
/// its headers. Without `$NOTIFY_SOCKET` (a developer's run, a test) every call does nothing.
///
/// The kiosk says READY=1 once the first frame is on the panel (`Type=notify` then means
/// "the board shows"), WATCHDOG=1 from the display loop so a hung loop is restarted, and
/// STOPPING=1 as it leaves.
public final class SystemdNotifier: Sendable {
    /// Where the datagrams go: a path, or an abstract name (`@` first, as systemd writes it).
    public let socketPath: String?
    /// What the display loop and a shutdown share.
    private struct State {
        /// Half of `$WATCHDOG_USEC`, when the watchdog is on for this process.
        var watchdog: WatchdogSchedule?
        /// READY=1 was sent: the watchdog counts from then (before it, `TimeoutStartSec` does).
        var isReady = false
    }
    private let state: Mutex<State>

    /// Half of `$WATCHDOG_USEC`, when the watchdog is on for this process.
    public var watchdog: WatchdogSchedule? { state.withLock { $0.watchdog } }

    public init(environment: [String: String] = ProcessInfo.processInfo.environment, pid: Int32 = getpid()) {
        socketPath = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        // WATCHDOG_PID names the process the watchdog is for: a child that inherited the
        // variables (a helper the kiosk starts) must not ping for it.
        let forUs = environment["WATCHDOG_PID"].map { Int32($0) == pid } ?? true
        var watchdog: WatchdogSchedule?
        if socketPath != nil, forUs, let usec = environment["WATCHDOG_USEC"].flatMap(UInt64.init), usec > 0 {
            watchdog = WatchdogSchedule(interval: Int64(usec / 2_000))
        }
        state = Mutex(State(watchdog: watchdog))
    }

    /// The first frame is on the panel.
    public func ready() {
        state.withLock { $0.isReady = true }
        send("READY=1")
    }

    public func stopping() { send("STOPPING=1") }

    /// From the display loop, each time round: pings the watchdog when due. Returns when the
    /// next ping is due, for the loop's sleep (nil: no watchdog).
    @discardableResult
    public func keepAlive(now: Int64) -> Int64? {
        // Decided under the lock (one ping per due time, whoever calls), sent outside it.
        let (ping, due): (Bool, Int64?) = state.withLock { state in
            guard state.isReady, var schedule = state.watchdog else { return (false, nil) }
            guard schedule.isDue(now: now) else { return (false, schedule.due) }
            schedule.pinged(at: now)
            state.watchdog = schedule
            return (true, schedule.due)
        }
        if ping { send("WATCHDOG=1") }
        return due
    }

    /// One datagram; false when it could not be sent (systemd gone: nothing to do about it).
    @discardableResult
    public func send(_ message: String) -> Bool {
        guard let socketPath, let address = UnixSocketAddress(socketPath) else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        let bytes = Array(message.utf8)
        let sent = address.withSockaddr { sendto(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL), $0, $1) }
        return sent == bytes.count
    }
}
