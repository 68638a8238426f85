import Foundation
import HyzerKit
import Testing

@testable import HyzerSync

/// The engine's timing as a pure state machine, on a made-up clock.
@Suite struct SchedulerTests {
    @Test func backoffDoublesUpToTheCapWithJitterInTheUpperHalf() {
        let backoff = Backoff(base: 0.5, cap: 60)
        #expect((1...9).map { backoff.ceiling(attempt: $0) } == [0.5, 1, 2, 4, 8, 16, 32, 60, 60])
        var rng = SeededGenerator(seed: 42)
        var distinct = Set<Double>()
        for attempt in 1...12 {
            for _ in 0..<50 {
                let d = backoff.delay(attempt: attempt, using: &rng)
                let ceiling = backoff.ceiling(attempt: attempt)
                #expect(d >= ceiling / 2 && d <= ceiling)
                distinct.insert(d)
            }
        }
        #expect(distinct.count > 500, "jitter spreads retries")
    }

    @Test func startsByPushingThenPulling() {
        var s = SyncScheduler()
        #expect(s.next(now: 0) == .push)
        s.pushSucceeded(more: false)
        #expect(s.next(now: 0) == .pull)
        s.pullSucceeded(more: false, now: 1)
        #expect(s.next(now: 1) == .wait(until: 1 + SyncPolicy().pollIdle))
    }

    @Test func pollsAtMostEveryFiveSecondsInAnActiveRoundWithoutTheSocket() {
        var s = SyncScheduler()
        s.pushSucceeded(more: false)
        s.pullSucceeded(more: false, now: 10)
        s.activeRoundChanged(true)
        guard case .wait(let until) = s.next(now: 10) else {
            Issue.record("expected a wait")
            return
        }
        #expect(until - 10 <= 5)
        #expect(s.next(now: until) == .pull)
        s.activeRoundChanged(false)
        guard case .wait(let idle) = s.next(now: 10) else {
            Issue.record("expected a wait")
            return
        }
        #expect((30...60).contains(idle - 10))
    }

    @Test func withTheSocketUpPokesDriveThePulls() {
        var s = SyncScheduler()
        s.pushSucceeded(more: false)
        s.socketUp()
        s.pullSucceeded(more: false, now: 0)
        s.activeRoundChanged(true)
        #expect(s.next(now: 1) == .wait(until: SyncPolicy().pollWithSocket))
        s.poked(head: 5, cursor: 5)  // nothing new
        #expect(s.next(now: 1) == .wait(until: SyncPolicy().pollWithSocket))
        s.poked(head: 6, cursor: 5)
        #expect(s.next(now: 1) == .pull)
        s.socketDown()
        s.pullSucceeded(more: false, now: 2)
        #expect(s.next(now: 2) == .wait(until: 2 + SyncPolicy().pollActiveRound))
    }

    @Test func failuresBackOffAndALocalWriteWaitsForTheRetryTime() {
        var s = SyncScheduler()
        var rng = SeededGenerator(seed: 7)
        var now = 0.0
        var waits: [Double] = []
        for _ in 0..<8 {
            #expect(s.next(now: now) == .push)
            s.failed(now: now, using: &rng)
            guard case .wait(let until) = s.next(now: now) else {
                Issue.record("expected a wait")
                return
            }
            waits.append(until - now)
            s.localWrite()
            #expect(s.next(now: now + (until - now) / 2) == .wait(until: until), "no request inside the backoff")
            now = until
        }
        #expect(waits.last! > waits.first! * 8)
        #expect(waits.allSatisfy { $0 <= SyncPolicy().retry.cap })
        // Success resets the backoff.
        s.pushSucceeded(more: false)
        #expect(s.failures == 0 && s.retryAt == nil)
    }

    @Test func aReconnectedSocketEndsTheBackoffAndCatchesUp() {
        var s = SyncScheduler()
        var rng = SeededGenerator(seed: 1)
        s.pushSucceeded(more: false)
        s.pullSucceeded(more: false, now: 0)
        for _ in 0..<5 { s.failed(now: 0, using: &rng) }
        #expect(s.next(now: 0.1) != .pull)
        s.socketUp()
        #expect(s.next(now: 0.1) == .pull)
    }

    @Test func morePagesOrBatchesContinueAtOnce() {
        var s = SyncScheduler()
        s.pushSucceeded(more: true)
        #expect(s.next(now: 0) == .push)
        s.pushSucceeded(more: false)
        s.pullSucceeded(more: true, now: 0)
        #expect(s.next(now: 0) == .pull)
    }
}

/// A 429's `Retry-After` in the pure scheduler, time injected: no request before it,
/// however short the backoff, and a poke socket coming up does not clear it.
@Suite struct RetryAfterSchedulerTests {
    @Test func noRequestGoesOutBeforeTheServersRetryAfter() {
        var rng = SeededGenerator(seed: 7)
        var s = SyncScheduler()
        s.failed(now: 100, retryAfter: 30, using: &rng)
        #expect(s.next(now: 100) == .wait(until: 130))
        #expect(s.next(now: 129.9) == .wait(until: 130))
        // The socket proves the server reachable: the backoff is cleared, the pause is not.
        s.socketUp()
        #expect(s.next(now: 110) == .wait(until: 130))
        #expect(s.next(now: 130) == .push)
        // A second, shorter Retry-After never shortens the first.
        s.failed(now: 131, retryAfter: 60, using: &rng)
        s.failed(now: 132, retryAfter: 1, using: &rng)
        #expect(s.next(now: 180) == .wait(until: 191))
    }

    /// Negative control: the same failure without `Retry-After` retries within the
    /// backoff (at most half a second at the first attempt).
    @Test func withoutRetryAfterTheBackoffAloneDecides() {
        var rng = SeededGenerator(seed: 7)
        var s = SyncScheduler()
        s.failed(now: 100, using: &rng)
        #expect(s.next(now: 100.5) == .push)
        #expect(s.notBefore == nil)
    }
}
