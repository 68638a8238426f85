import Foundation
import HyzerSystem
import HyzerTestSupport
import Testing

/// The kiosk's half of systemd's notify protocol, without a process: the environment it
/// reads, the watchdog's schedule, and an abstract socket. The real process is
/// HyzerCLITests' KioskSystemdNotifyTests.
@Suite struct SystemdNotifierTests {
    /// Without WATCHDOG_USEC (a unit without WatchdogSec) there is no watchdog to ping; with
    /// WATCHDOG_PID naming another process, the variables were inherited and are not ours.
    @Test func theWatchdogIsOnOnlyForTheProcessItNames() {
        let path = "/run/systemd/notify"
        #expect(SystemdNotifier(environment: ["NOTIFY_SOCKET": path]).watchdog == nil)
        #expect(SystemdNotifier(environment: ["WATCHDOG_USEC": "10000000"]).watchdog == nil, "nowhere to send")
        let ours = SystemdNotifier(environment: ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"], pid: 42)
        #expect(ours.watchdog?.interval == 5_000, "half of WatchdogSec=10")
        let named = ["NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "42"]
        #expect(SystemdNotifier(environment: named, pid: 42).watchdog != nil)
        #expect(SystemdNotifier(environment: named, pid: 43).watchdog == nil)
    }

    @Test func thePingsFollowTheScheduleTheLoopIsGiven() {
        var schedule = WatchdogSchedule(interval: 5_000)
        #expect(schedule.isDue(now: 0) && schedule.due == nil, "due at once before the first ping")
        schedule.pinged(at: 100)
        #expect(!schedule.isDue(now: 5_099) && schedule.isDue(now: 5_100))
        #expect(schedule.due == 5_100)
        let silent = SystemdNotifier(environment: [:])
        #expect(silent.keepAlive(now: 0) == nil)
        #expect(!silent.send("READY=1"), "no socket, nothing sent")
    }

    /// systemd may name an abstract socket (`@` first); the datagram reaches it too.
    @Test func anAbstractSocketIsReached() throws {
        let name = "@hyzer-notify-test-\(UUID())"
        let socket = try NotifySocket(path: name)
        defer { socket.close() }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "2000000"])
        #expect(notifier.keepAlive(now: 5) == nil, "no pings before READY=1: TimeoutStartSec covers the start")
        notifier.ready()
        #expect(notifier.keepAlive(now: 7) == 1_007)
        #expect(notifier.keepAlive(now: 8) == 1_007, "not due again before its time")
        #expect(socket.collect(for: 0.2).map(\.message) == ["READY=1", "WATCHDOG=1"])
    }
}
