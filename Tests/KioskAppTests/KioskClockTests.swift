import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import KioskCore
import ServiceLifecycle
import Testing

@testable import KioskApp

/// Issue 33 item 2, one clock: a kiosk keeps time on its configuration's clock in everything
/// it builds that reads time, its store (what a score or a round stores) and its sync engine
/// (the backoff between failed attempts) among them. Driven on a `ManualClock` with no real
/// sleeps: the test advances the clock, and sees the next attempt and the stored times.
@Suite(.timeLimit(.minutes(1))) struct KioskClockTests {
    /// What a kiosk's sync does next after a failed attempt.
    enum Next: Equatable, Sendable {
        /// It waits on the kiosk's clock until this deadline.
        case asleep(until: Duration)
        /// It tried again before that clock moved: it is timed by another clock.
        case retried
    }

    static let isPush: @Sendable (NameRequestStub.Request) -> Bool = { $0.method == "POST" && $0.path == "/v1/push" }

    /// The deadlines a backoff's `attempt` may wait until, after a failure at `failedAt`:
    /// [½, 1] × its ceiling.
    static func range(_ backoff: Backoff, attempt: Int, after failedAt: Duration) -> ClosedRange<Duration> {
        let ceiling = backoff.ceiling(attempt: attempt)
        return (failedAt + .seconds(ceiling / 2))...(failedAt + .seconds(ceiling))
    }

    /// Whichever comes first: a sleeper on `clock` until a deadline in `deadlines` that is
    /// not one of `known`, or the server's `pushes + 1`-th push.
    static func next(
        _ deadlines: ClosedRange<Duration>, besides known: Set<Duration> = [], pushes: Int, clock: ManualClock,
        server: NameRequestStub
    ) async throws -> Next {
        try await withThrowingTaskGroup(of: Next.self) { group in
            group.addTask { .asleep(until: try await clock.sleeper { deadlines.contains($0) && !known.contains($0) }) }
            group.addTask {
                _ = await server.requests(pushes + 1, where: isPush)
                return .retried
            }
            let first = try await group.next() ?? .retried
            group.cancelAll()
            return first
        }
    }

    /// A kiosk in a group whose server is up but fails every sync (503), built by
    /// `buildKiosk` on a manual clock. The demo round and a score saved at the knob carry the
    /// clock's date. After the failed push the engine sleeps on the kiosk's clock for the
    /// first backoff (¼ to ½ s), beside the poke socket waiting out its refused connection
    /// there too, and pushes again when the clock gets there, not before; the second wait is
    /// the backoff's next step (½ to 1 s); a score saved once the clock moved carries the
    /// moved date. Negative control: with the store opened and the engine made without the
    /// configuration's clock (as before), the round's time is the machine's, and the push is
    /// retried in real time while the kiosk's clock stands still (`.retried`).
    @Test func theStoreAndTheSyncBackoffKeepTheKiosksTime() async throws {
        let server = try NameRequestStub(token: "kiosk-token", failingSync: true)
        defer { server.stop() }
        var configuration = KioskConfiguration.headlessTest("one-clock")
        let dir = configuration.dataDirectory
        defer { try? FileManager.default.removeItem(at: dir) }
        let clock = ManualClock()
        let start = clock.date
        configuration.clock = clock
        configuration.demo = true
        try ServerLink(
            serverURL: server.baseURL, groupID: "g", groupName: "League", deviceID: "kiosk",
            deviceName: "Clubhouse kiosk", deviceToken: server.token, enrolledAt: start
        ).save(to: dir)
        let kiosk = try buildKiosk(configuration)
        let session = kiosk.session

        // The store's times: the demo round's, and a score's saved at the knob.
        let round = try #require(session.state.round?.round)
        #expect(round.createdAt == start && round.startedAt == start)
        for event in [KioskEvent.pressed, .pressed, .pressed] { session.send(event, now: clock.uptimeMilliseconds) }
        #expect(try await session.store.read(.events(round: round.id)).last?.createdAt == start)

        // The sync the kiosk built: its first push fails, and it waits out the backoff on the
        // kiosk's clock; nothing is retried until that clock moves.
        let sync = try #require(kiosk.services.first { $0.serviceName == "sync" }?.service as? SyncService)
        let running = Task { try await sync.run() }
        defer { running.cancel() }
        let policy = SyncPolicy()
        _ = await server.requests(1, where: Self.isPush)
        let first = try await Self.next(
            Self.range(policy.retry, attempt: 1, after: .zero), pushes: 1, clock: clock, server: server)
        guard case .asleep(let retryAt) = first else {
            Issue.record("the push was retried while the kiosk's clock stood still: \(first)")
            return
        }
        // The poke socket, refused (404), waits for its reconnect on the same clock, later.
        let reconnect = Self.range(policy.reconnect, attempt: 1, after: .zero)
        let socket = try await clock.sleeper { reconnect.contains($0) }
        #expect(server.requests.filter(Self.isPush).count == 1)

        // The clock reaches the retry: the push goes out again, fails again, and the next
        // wait is the backoff's second step.
        clock.advance(to: retryAt)
        #expect(await server.requests(2, where: Self.isPush).count == 2)
        let second = try await Self.next(
            Self.range(policy.retry, attempt: 2, after: retryAt), besides: [socket], pushes: 2, clock: clock,
            server: server)
        guard case .asleep(let nextRetry) = second else {
            Issue.record("the second retry did not wait for the kiosk's clock: \(second)")
            return
        }
        #expect(server.requests.filter(Self.isPush).count == 2)
        clock.advance(to: nextRetry)
        #expect(await server.requests(3, where: Self.isPush).count == 3)

        // A score saved now carries the moved clock's date.
        let saved = try await session.store.read(.events(round: round.id)).count
        session.send(.longPressed, now: clock.uptimeMilliseconds)
        for event in [KioskEvent.pressed, .pressed, .pressed] { session.send(event, now: clock.uptimeMilliseconds) }
        let events = try await session.store.read(.events(round: round.id))
        #expect(events.count == saved + 1)
        let newest = try #require(events.map(\.createdAt).max())
        #expect(clock.date > start && abs(newest.timeIntervalSince(clock.date)) < 1e-6)
        running.cancel()
        _ = await running.result
    }
}
