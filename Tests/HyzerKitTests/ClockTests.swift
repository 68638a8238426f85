import Foundation
import HyzerKit
import Synchronization
import Testing

/// The injected clock tests drive every shell with.
@Suite struct ManualClockTests {
    final class Log: Sendable {
        let values = Mutex<[Int]>([])
        func append(_ value: Int) { values.withLock { $0.append(value) } }
        var all: [Int] { values.withLock { $0 } }
    }

    @Test func sleepersWakeInDeadlineOrderOnlyWhenTheClockReachesThem() async throws {
        let clock = ManualClock()
        let woke = Log()
        let sleepers = [300, 100, 200].map { ms in
            Task {
                try await clock.sleep(until: .milliseconds(ms))
                woke.append(ms)
            }
        }
        while clock.sleeperCount < 3 { try await Task.sleep(for: .milliseconds(1)) }
        clock.advance(by: .milliseconds(150))
        _ = try await sleepers[1].value
        #expect(woke.all == [100])
        #expect(clock.sleeperCount == 2, "the later sleepers are still asleep")
        clock.advance(to: .milliseconds(300))
        for task in sleepers { _ = try await task.value }
        #expect(Set(woke.all) == [100, 200, 300])
        #expect(clock.uptime == .milliseconds(300))
    }

    @Test func theWallClockMovesWithUptimeAndNeverBack() {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let clock = ManualClock(date: start)
        clock.advance(by: .seconds(90))
        #expect(clock.date == start + 90)
        clock.advance(to: .seconds(10))  // earlier than now: nothing happens
        #expect(clock.uptime == .seconds(90))
        #expect(clock.uptimeMilliseconds == 90_000)
    }

    @Test func cancellingASleeperEndsItsSleepWithCancellationError() async throws {
        let clock = ManualClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        while clock.sleeperCount == 0 { try await Task.sleep(for: .milliseconds(1)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
        #expect(clock.sleeperCount == 0)
    }

    /// A test learns that a shell settled on its next timer without waiting in real time:
    /// `sleeper(where:)` returns the deadline of a task asleep until one it accepts, at once
    /// when one already is, else as soon as one falls asleep; sleepers it does not accept
    /// leave it waiting.
    @Test func aTestWaitsForTheSleeperItLooksFor() async throws {
        let clock = ManualClock()
        let sleepers = [Task { try await clock.sleep(until: .seconds(1)) }]
        #expect(try await clock.sleeper { $0 == .seconds(1) } == .seconds(1))
        let watching = Task { try await clock.sleeper { $0 > .seconds(5) } }
        let more = [Task { try await clock.sleep(until: .seconds(3)) }]
        #expect(try await clock.sleeper { $0 == .seconds(3) } == .seconds(3))
        let late = Task { try await clock.sleep(until: .seconds(9)) }
        #expect(try await watching.value == .seconds(9), "not the sleepers at 1 s and 3 s")
        #expect(clock.sleeperCount == 3, "watching wakes nobody")
        clock.advance(by: .seconds(9))
        for task in sleepers + more + [late] { try await task.value }
    }

    @Test func cancellingAWaitForASleeperEndsItWithCancellationError() async {
        let clock = ManualClock()
        let watching = Task { try await clock.sleeper { _ in true } }
        watching.cancel()
        await #expect(throws: CancellationError.self) { try await watching.value }
    }

    @Test func aDeadlineAlreadyPassedReturnsAtOnce() async throws {
        let clock = ManualClock(uptime: .seconds(5))
        try await clock.sleep(until: .seconds(1))
        #expect(clock.sleeperCount == 0)
    }
}
