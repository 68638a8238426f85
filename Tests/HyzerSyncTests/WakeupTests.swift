import Foundation
import HyzerKit
import Testing

@testable import HyzerSync

@Suite struct WakeupTests {
    /// Lets other tasks (the wait's cancelled timer) run to completion.
    func settle() async {
        for _ in 0..<50 { await Task.yield() }
    }

    /// Regression: a wait ended by a signal cancels its timer; the cancelled timer used to
    /// signal anyway, so every later wait returned at once and the engine spun a core.
    @Test func aWaitEndedEarlyLeavesNoStaleSignal() async throws {
        let clock = ManualClock()
        let wakeup = Wakeup(clock: clock)
        for _ in 0..<3 {
            let signaller = Task {
                while clock.sleeperCount == 0 { await Task.yield() }  // the wait's timer is armed
                wakeup.signal()
            }
            #expect(await wakeup.wait(until: clock.uptime + .seconds(30)))  // ends on the signal
            await signaller.value
            await settle()
            #expect(clock.sleeperCount == 0, "the ended wait's timer was cancelled")
            clock.advance(by: .seconds(31))  // past the cancelled timer's deadline
            await settle()
            #expect(!wakeup.isSignaled)
        }
    }

    @Test func aWaitEndsAtItsDeadline() async {
        let clock = ManualClock()
        let wakeup = Wakeup(clock: clock)
        let waiting = Task { await wakeup.wait(until: clock.uptime + .seconds(4)) }
        while clock.sleeperCount == 0 { await Task.yield() }
        clock.advance(by: .seconds(3))
        await settle()
        #expect(clock.sleeperCount == 1, "not yet due")
        clock.advance(by: .seconds(1))
        #expect(await waiting.value)
        #expect(!wakeup.isSignaled)
    }

    @Test func aSignalWithNobodyWaitingIsKeptForTheNextWait() async {
        let clock = ManualClock()
        let wakeup = Wakeup(clock: clock)
        wakeup.signal()
        #expect(wakeup.isSignaled)
        #expect(await wakeup.wait(until: clock.uptime + .seconds(30)))  // returns at once: the signal was kept
        #expect(!wakeup.isSignaled)
    }

    @Test func finishEndsEveryWait() async {
        let clock = ManualClock()
        let wakeup = Wakeup(clock: clock)
        wakeup.finish()
        #expect(await wakeup.wait(until: clock.uptime + .seconds(30)) == false)
    }
}

/// The poke socket's reconnect timing as a pure machine, on made-up times.
@Suite struct ReconnectSchedulerTests {
    @Test func failedAttemptsBackOffAndAHealthyConnectionStartsOver() {
        let backoff = Backoff(base: 1, cap: 30)
        var machine = ReconnectScheduler(backoff: backoff)
        var rng = SeededGenerator(seed: 3)
        var expectedRNG = SeededGenerator(seed: 3)
        #expect(machine == ReconnectScheduler(backoff: backoff))

        machine.connecting(now: 0)
        #expect(machine.attempt == 0 && machine.attemptStartedAt == 0)
        let first = machine.ended(now: 0.2, using: &rng)
        #expect(first == backoff.delay(attempt: 1, using: &expectedRNG))
        #expect(machine.attempt == 1 && machine.attemptStartedAt == nil)

        machine.connecting(now: 1.5)
        let second = machine.ended(now: 1.6, using: &rng)
        #expect(second == backoff.delay(attempt: 2, using: &expectedRNG))
        #expect(machine.attempt == 2 && machine.attemptStartedAt == nil)
        #expect((1...2).contains(second))

        // A connection that held for more than 30 s was fine: the next wait is short again.
        machine.connecting(now: 10)
        let afterHealthy = machine.ended(now: 45, using: &rng)
        #expect(afterHealthy == backoff.delay(attempt: 1, using: &expectedRNG))
        #expect(machine.attempt == 1 && machine.attemptStartedAt == nil)

        // Short-lived connections keep backing off, up to the cap.
        var now = 50.0
        for _ in 0..<10 {
            machine.connecting(now: now)
            now += 1
            _ = machine.ended(now: now, using: &rng)
        }
        #expect(machine.attempt == 11)
        #expect(machine.backoff.ceiling(attempt: machine.attempt) == 30)
    }
}
