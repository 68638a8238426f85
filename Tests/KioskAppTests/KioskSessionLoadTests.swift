import Foundation
import GRDB
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Synchronization
import Testing

@testable import KioskApp

/// Issue 33 item 3, a consistent screen: `KioskSession.load` reads everything the screens
/// show in one read transaction, so a sync that commits while it reads is on the screen
/// entirely or not at all.
@Suite struct KioskSessionLoadTests {
    /// Runs an action once, when the store's reader starts the `at`-th SELECT after `arm`:
    /// a commit landing at a fixed point of a read, with no timing involved. Hooked into
    /// the reader connection's statement trace, so the code under test is unchanged.
    final class MidRead: Sendable {
        private struct State {
            var action: (@Sendable () throws -> any Sendable)?
            var at = 2
            var selects = 0
            var outcome: Result<any Sendable, any Error>?
        }
        private let state = Mutex(State())

        func arm(at select: Int, _ action: @escaping @Sendable () throws -> any Sendable) {
            state.withLock { $0 = State(action: action, at: select) }
        }

        /// Called by the trace for every SELECT a reader runs.
        func selected() {
            let action = state.withLock { state -> (@Sendable () throws -> any Sendable)? in
                guard state.action != nil else { return nil }
                state.selects += 1
                guard state.selects == state.at else { return nil }
                defer { state.action = nil }
                return state.action
            }
            guard let action else { return }
            let outcome = Result { try action() }
            state.withLock { $0.outcome = outcome }
        }

        /// What the action returned or threw; nil while it has not run.
        var outcome: Result<any Sendable, any Error>? { state.withLock { $0.outcome } }
    }

    /// A round in play on a file store with one reader connection, traced by `hook`.
    static func store(_ dir: URL, hook: MidRead) throws -> (HyzerDatabase, Round) {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        configuration.prepareDatabase { db in
            guard db.configuration.readonly else { return }  // the pool's readers, not its writer
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event, statement.sql.hasPrefix("SELECT") { hook.selected() }
            }
        }
        let pool = try DatabasePool(path: dir.appendingPathComponent("hyzer.sqlite").path, configuration: configuration)
        let store = try HyzerDatabase(domain: pool, operational: DatabaseQueue(), clock: ManualClock())
        let course = try Course(name: "Load Nine", holeCount: 9)
        try store.write(.saveCourse(course))
        let players = try ["Ana", "Ben"].map { try Player(displayName: $0) }
        for p in players { try store.write(.savePlayer(p)) }
        let round = try store.write(
            .startRound(
                try store.write(
                    .createRound(
                        courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered))
                ).id))
        try store.write(
            .recordScore(
                ScoreEntry(roundID: round.id, participantID: players[0].id, hole: 1, strokes: 3, reportedBy: players[0].id)))
        return (store, round)
    }

    /// A page of the group's feed lands (what the sync engine writes for a pull: Ben's score
    /// from a phone and the round finished there) just as the screens' data is being read,
    /// after the read's second SELECT. What `load` returns is the store before the page or
    /// after it, never part of each. Negative control: `load` as it was, five reads
    /// (rounds in play, each one's snapshot, the history's newest, courses, players), read
    /// the round as still in play but with the phone's score and the finish, and the same
    /// round again as the last one finished: `during` equals neither, and the last
    /// expectation fails.
    @Test func aSyncLandingWhileTheScreenIsReadIsShownWholeOrNotYet() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-load-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let hook = MidRead()
        let (store, round) = try Self.store(dir, hook: hook)
        let (stream, epoch) = ("http://group.example|g", "epoch-1")
        try store.write(.adoptSyncStream(stream, epoch: epoch))
        let later = store.clock.date + 60
        var finished = round
        try finished.finish(at: later)
        let ben = round.participants[1].id
        let page = [
            PulledRecord(
                seq: 1,
                record: .scoreEvent(
                    ScoreEventRecord(
                        ScoreEvent(
                            roundID: round.id, participantID: ben, hole: 1, strokes: 4, reportedBy: ben,
                            deviceID: "phone", createdAt: later)))),
            PulledRecord(
                seq: 2, record: .round(RoundRecord(finished, version: UUID(), updatedAt: later.timeIntervalSince1970))),
        ]

        let before = try KioskSession.load(store)  // also opens the one reader, so only the load's own SELECTs are traced
        hook.arm(at: 2) { try store.write(.applyPulled(page, next: 2, stream: stream, epoch: epoch)) }
        let during = try KioskSession.load(store)
        let outcome = try #require(hook.outcome, "the page landed while the screen was read")
        let applied = try #require(try outcome.get() as? PullApplyResult)
        #expect(applied.applied == 2 && applied.rejected.isEmpty)
        let after = try KioskSession.load(store)

        #expect(before.round?.round.status == .active && before.lastCompleted == nil)
        #expect(after.round == nil && after.lastCompleted?.round.status == .completed)
        #expect(after.lastCompleted?.events.count == 2)
        #expect(during == before || during == after, "a torn screen: \(Self.describe(during))")
    }

    static func describe(_ data: KioskData) -> String {
        let inPlay = data.rounds.map { "\($0.round.status.rawValue) with \($0.events.count) scores" }
        let last = data.lastCompleted.map { "\($0.round.status.rawValue) with \($0.events.count) scores" } ?? "none"
        return "in play: \(inPlay), last finished: \(last)"
    }
}
