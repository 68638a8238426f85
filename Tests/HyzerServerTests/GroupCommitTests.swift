import Foundation
import GRDB
import HyzerSyncProtocol
import SQLiteFaults
import Synchronization
import Testing

@testable import HyzerServer

/// SQLite's group commit: pushes that arrive while the writer is busy are committed in the
/// next transaction together, each in a savepoint of its own.
@Suite struct GroupCommitTests {
    /// Holds SQLite's writer (as a long transaction would) until `release`.
    final class WriterHold: Sendable {
        private final class Flags: Sendable {
            let held = Atomic<Bool>(false)
            let released = Atomic<Bool>(false)
        }
        private let flags = Flags()
        private let task: Task<Void, any Error>

        init(_ storage: SQLiteStorage) async throws {
            let flags = self.flags
            // The writer is GRDB's own thread, not the cooperative pool's: it may poll.
            task = Task.detached {
                try await storage.pool.writeWithoutTransaction { _ in
                    flags.held.store(true, ordering: .relaxed)
                    while !flags.released.load(ordering: .relaxed) { usleep(1000) }
                }
            }
            try await until { flags.held.load(ordering: .relaxed) }
        }

        func release() async throws {
            flags.released.store(true, ordering: .relaxed)
            try await task.value
        }
    }

    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    /// What every test here starts from: SQLite storage (`h.sqlite`) with one group whose course
    /// and round are pushed.
    static func started() async throws -> (
        h: Harness, g: (admin: String, device: String, token: String, groupID: String), f: Fixture
    ) {
        let h = try Harness()
        let g = try await h.group()
        let f = try Fixture()
        _ = try await h.sqlite.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords)
        return (h, g, f)
    }

    @Test func pushesThatWaitForTheWriterCommitInOneTransaction() async throws {
        let (h, g, f) = try await Self.started()
        let storage = h.sqlite
        let before = storage.commits.batches

        let hold = try await WriterHold(storage)
        func push(_ hole: Int) async throws -> PushResponse {
            try await storage.push(groupID: g.groupID, deviceID: g.device, records: [.scoreEvent(f.event(hole: hole))])
        }
        // The first push's transaction waits for the writer; the other eight wait for it.
        let first = Task { try await push(1) }
        try await Self.until { storage.commits.batches - before == 1 }
        let rest = Task {
            try await withThrowingTaskGroup(of: PushResponse.self) { group in
                for hole in 2...9 { group.addTask { try await push(hole) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
        }
        try await Self.until { storage.commits.waiting == 8 }
        try await hold.release()
        let responses = try await [first.value] + rest.value

        #expect(responses.count == 9)
        #expect(responses.allSatisfy { $0.results.map(\.status) == [.created] })
        #expect(Set(responses.compactMap { $0.results.first?.seq }).count == 9)
        #expect(storage.commits.batches - before == 2)
        let pulled = try await storage.pull(groupID: g.groupID, after: 0, limit: 100)
        #expect(pulled.records.count == 2 + 9)
    }

    /// A push refused inside the shared transaction (its token revoked) is rolled back
    /// alone: the pushes around it in the same transaction are committed.
    @Test func aRefusedPushDoesNotTakeTheOthersInItsTransactionWithIt() async throws {
        let (h, g, f) = try await Self.started()
        let storage = h.sqlite
        let revoked = try await storage.enroll(groupID: g.groupID, deviceID: "lost-phone", name: "Lost")
        try await storage.revoke(groupID: g.groupID, deviceID: "lost-phone")
        let before = storage.commits.batches

        let hold = try await WriterHold(storage)
        let first = Task {
            try await storage.push(as: DeviceClaim(token: g.token, device: g.device), records: [.scoreEvent(f.event(hole: 1))])
        }
        try await Self.until { storage.commits.batches - before == 1 }
        let lost = Task {
            try await storage.push(
                as: DeviceClaim(token: revoked, device: "lost-phone"), records: [.scoreEvent(f.event(hole: 2))])
        }
        let last = Task {
            try await storage.push(as: DeviceClaim(token: g.token, device: g.device), records: [.scoreEvent(f.event(hole: 3))])
        }
        try await Self.until { storage.commits.waiting == 2 }
        try await hold.release()

        #expect(try await first.value.response.results.map(\.status) == [.created])
        await #expect(throws: AccessRefusal.self) { try await lost.value }
        #expect(try await last.value.response.results.map(\.status) == [.created])
        #expect(storage.commits.batches - before == 2)
        let holes = try await storage.pull(groupID: g.groupID, after: 0, limit: 100).records.compactMap { pulled -> Int? in
            if case .scoreEvent(let e) = pulled.record { return e.hole }
            return nil
        }
        #expect(holes.sorted() == [1, 3])
    }

    /// A decoded statement is remembered only once its seq is committed: a seq a
    /// rolled-back transaction drew can name another statement later.
    @Test func theMemoRemembersOnlyCommittedSeqs() throws {
        let memo = RecordMemo()
        let f = try Fixture()
        memo.committed(through: 10)
        memo.remember(.course(f.course), seq: 10)
        memo.remember(.round(f.round), seq: 11)
        #expect(memo.record(seq: 10) == .course(f.course))
        #expect(memo.record(seq: 11) == nil)
        memo.committed(through: 11)
        memo.remember(.round(f.round), seq: 11)
        #expect(memo.record(seq: 11) == .round(f.round))
    }
}

extension GroupCommitTests {
    /// A push that fills the disk inside a shared transaction: SQLite ends the whole
    /// transaction on SQLITE_FULL, so every push in it fails as the named full-storage fault
    /// (a 503 with its line over HTTP, not a bare 500) and none is committed or
    /// acknowledged; once there is room, the same pushes go in. (Negative control: without
    /// the commit's `isInsideTransaction` check, the push that fitted is answered as
    /// accepted although SQLite rolled it back.)
    @Test func aPushThatFillsTheDiskFailsItsWholeTransactionAsNamedFull() async throws {
        let (h, g, f) = try await Self.started()
        let storage = h.sqlite
        let head = try await storage.head(groupID: g.groupID)
        let principal = Principal(groupID: g.groupID, role: .device, deviceID: g.device)
        let fits = PendingPush(records: [.scoreEvent(f.event(hole: 1))]) { _ in (principal, g.device) }
        // Caps the file at its size now, inside the transaction: a batch this big needs pages.
        let big = (0..<400).map { i in SyncRecord.scoreEvent(f.event(hole: i % 9 + 1, strokes: i % 6 + 1)) }
        let cap = PendingPush(records: big) { db in
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            // PRAGMA takes no bound parameter; the value is a number read just above.
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
            return (principal, g.device)
        }
        let fills = PendingPush(records: big) { _ in (principal, g.device) }
        do {
            _ = try await storage.commitPushes([fits, cap])
            Issue.record("the batch past the cap was accepted")
        } catch {
            guard case .full? = error as? StorageFault else {
                Issue.record("expected the named full-storage fault, got \(error)")
                return
            }
        }
        #expect(try await storage.head(groupID: g.groupID) == head, "nothing of the failed transaction was committed")

        try await storage.pool.writeWithoutTransaction { db in _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = 1000000") }
        let outcomes = try await storage.commitPushes([fits, fills])
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        let pulled = try await storage.pull(groupID: g.groupID, after: head, limit: 10_000).records
        let grown = try await storage.head(groupID: g.groupID) - head
        #expect(pulled.count == 1 + big.count, "pulled \(pulled.count), head grew \(grown)")
    }
}
