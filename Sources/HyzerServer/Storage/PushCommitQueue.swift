import Foundation
import GRDB
import HyzerSyncProtocol
import Synchronization

/// A push waiting for SQLite's writer: its records, and how to name its device inside the
/// transaction.
struct PendingPush: Sendable {
    var records: [SyncRecord]
    var access: @Sendable (Database) throws -> (principal: Principal, deviceID: String)
}

/// What a committed push answers: who pushed, each record's result, and the group's head.
typealias PushOutcome = (principal: Principal, results: [PushResult], head: Int64)

/// The queue in front of a store's writes (group commit): a push that arrives while a
/// transaction is in flight waits for the next one, which takes every push waiting then
/// (at most `batchLimit`). A lone push goes straight in: nothing waits for company.
///
/// SQLite has one writer and each commit is an fsync; PostgreSQL pays its round trips, its
/// commit and its NOTIFY once a transaction. `Push` is what a backend needs to commit one
/// (`PendingPush` on SQLite, `PostgresPendingPush` on PostgreSQL).
final class PushCommitQueue<Push: Sendable>: Sendable {
    static var batchLimit: Int { 64 }

    private struct Waiting: Sendable {
        var push: Push
        var reply: CheckedContinuation<PushOutcome, any Error>
    }

    typealias Commit = @Sendable ([Push]) async throws -> [Result<PushOutcome, any Error>]

    private let state = Mutex<(waiting: [Waiting], draining: Bool)>(([], false))
    private let transactions = Atomic<Int>(0)

    init() {}

    /// Pushes waiting for a transaction (not the ones in the transaction under way).
    var waiting: Int { state.withLock { $0.waiting.count } }
    /// Transactions run so far.
    var batches: Int { transactions.load(ordering: .relaxed) }

    /// Waits for the transaction that commits `push`. `commit` runs a batch; the push that
    /// finds the queue idle starts draining it with its own (they are all the storage's).
    func submit(_ push: Push, via commit: @escaping Commit) async throws -> PushOutcome {
        try await withCheckedThrowingContinuation { reply in
            let starts = state.withLock { state -> Bool in
                state.waiting.append(Waiting(push: push, reply: reply))
                guard !state.draining else { return false }
                state.draining = true
                return true
            }
            if starts { Task { await self.drain(commit) } }
        }
    }

    /// Commits batches until nobody is waiting; only one drain runs at a time.
    private func drain(_ commit: Commit) async {
        while true {
            let batch = state.withLock { state -> [Waiting] in
                let taken = Array(state.waiting.prefix(Self.batchLimit))
                state.waiting.removeFirst(taken.count)
                if taken.isEmpty { state.draining = false }
                return taken
            }
            if batch.isEmpty { return }
            transactions.add(1, ordering: .relaxed)
            do {
                let outcomes = try await commit(batch.map(\.push))
                for (waiting, outcome) in zip(batch, outcomes) { waiting.reply.resume(with: outcome) }
            } catch {
                for waiting in batch { waiting.reply.resume(throwing: error) }
            }
        }
    }
}
