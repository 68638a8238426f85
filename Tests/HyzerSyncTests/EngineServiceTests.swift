import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerTestSupport
import Logging
import ServiceLifecycle
import Testing

/// The engine as a service on an injected clock, against a server that is not there.
@Suite struct EngineServiceTests {
    func offlineEngine(clock: ManualClock) throws -> (SyncEngine, URL) {
        let dir = temporaryDirectory("engine-service")
        let db = try HyzerDatabase.open(
            dataDirectory: dir, assets: repositoryRoot.appendingPathComponent("assets"),
            clock: clock)
        let link = ServerLink(
            serverURL: "http://127.0.0.1:\(refusingPort)", groupID: "g", groupName: "G",
            deviceID: db.deviceID, deviceName: "A", deviceToken: "t", enrolledAt: clock.date)
        var options = SyncEngine.Options()
        options.liveUpdates = false
        options.requestTimeout = 0.3
        return (SyncEngine(database: db, link: link, options: options), dir)
    }

    /// The retry backoff runs on the engine's clock: nothing goes out again until that
    /// clock passes the retry time, however long the test waits in real time.
    @Test func retriesWaitForTheInjectedClock() async throws {
        let clock = ManualClock()
        let (engine, dir) = try offlineEngine(clock: clock)
        defer { try? FileManager.default.removeItem(at: dir) }
        let states = engine.stateUpdates()
        let run = Task { try await engine.run() }
        var iterator = states.makeAsyncIterator()
        var seen: [SyncStatus] = []
        while let state = await iterator.next() {
            seen.append(state.status)
            if state.status == .offline { break }
        }
        #expect(seen.contains(.syncing) && seen.last == .offline)
        #expect(engine.state.pending > 0, "the seeded courses wait locally")

        // Let the loop settle on its retry wait; real time passes, the clock does not.
        while clock.sleeperCount == 0 { try await Task.sleep(nanoseconds: 10_000_000) }
        try await Task.sleep(nanoseconds: 700_000_000)
        #expect(engine.state.status == .offline, "no retry before the clock moves")

        // The first retry comes at most `retry.base` seconds later on that clock.
        clock.advance(by: .seconds(SyncPolicy().retry.base))
        let retried = await firstValue(states, within: 10) { $0.status == .syncing }
        #expect(retried != nil)
        run.cancel()
        try await run.value
    }

    /// A clock advanced exactly to the deadline the engine sleeps until brings the retry.
    /// Negative control: with that deadline rounded down to whole nanoseconds (as it was), it
    /// came a hair before the scheduler's retry time, so the loop woken there was told to
    /// wait again, found its deadline passed and asked again, spinning (a core's worth, with a
    /// read each turn) until the clock moved on: on this clock, for ever (no `.syncing`).
    @Test func aClockAdvancedExactlyToTheRetryBringsIt() async throws {
        let clock = ManualClock()
        let (engine, dir) = try offlineEngine(clock: clock)
        defer { try? FileManager.default.removeItem(at: dir) }
        let states = engine.stateUpdates()
        let run = Task { try await engine.run() }
        #expect(await firstValue(states, within: 60) { $0.status == .offline } != nil)
        // Without the poke socket the retry's timer is the one sleeper.
        let retry = try await clock.sleeper { _ in true }
        #expect(retry > clock.uptime)
        clock.advance(to: retry)
        #expect(await firstValue(states, within: 60) { $0.status == .syncing } != nil)
        run.cancel()
        try await run.value
    }

    /// In a ServiceGroup a graceful shutdown ends the engine's run, which ends its streams.
    @Test func aGracefulShutdownEndsTheRun() async throws {
        let clock = ManualClock()
        let (engine, dir) = try offlineEngine(clock: clock)
        defer { try? FileManager.default.removeItem(at: dir) }
        let states = engine.stateUpdates()
        let group = ServiceGroup(services: [engine], logger: Logger(label: "test"))
        let running = Task { try await group.run() }
        // Alone this takes well under a second (a refused connection, a 0.3 s request
        // timeout). In the whole parallel suite the engine's tasks share the cooperative pool
        // (two threads here) with every suite's blocking work (SQLite, drawing, processes), and
        // it once took over 10 s: the bound is for a run that never gets there, not a timing.
        #expect(await firstValue(states, within: 60) { $0.status == .offline } != nil)
        await group.triggerGracefulShutdown()
        try await running.value
        // The state stream finishes once run() returned (bounded, so a regression fails).
        let finished = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in states {}
                return true
            }
            group.addTask {
                try? await Task.sleep(nanoseconds: 5_000_000_000)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(finished)
    }
}
