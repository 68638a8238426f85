import Foundation
import GRDB
import HyzerSyncProtocol
import Synchronization

/// A push waiting for the writer: its records, and how to name its device inside the
/// transaction.
struct PendingPush: Sendable {
    var records: [SyncRecord]
    var access: @Sendable (Database) throws -> (principal: Principal, deviceID: String)
}

typealias PushOutcome = (principal: Principal, results: [PushResult], head: Int64)

/// The queue in front of SQLite's one writer: a push that arrives while a transaction is
/// in flight waits for the next one, which takes every push waiting then (at most
/// `batchLimit`). A lone push goes straight in: nothing waits for company.
final class PushCommitQueue: Sendable {
    static let batchLimit = 64

    private struct Waiting {
        var push: PendingPush
        var reply: CheckedContinuation<PushOutcome, any Error>
    }

    typealias Commit = @Sendable ([PendingPush]) async throws -> [Result<PushOutcome, any Error>]

    private let state = Mutex<(waiting: [Waiting], draining: Bool)>(([], false))
    private let transactions = Atomic<Int>(0)

    /// Pushes waiting for a transaction (not the ones in the transaction under way).
    var waiting: Int { state.withLock { $0.waiting.count } }
    /// Transactions run so far.
    var batches: Int { transactions.load(ordering: .relaxed) }

    /// Waits for the transaction that commits `push`. `commit` runs a batch; the push that
    /// finds the queue idle starts draining it with its own (they are all the storage's).
    func submit(_ push: PendingPush, via commit: @escaping Commit) async throws -> PushOutcome {
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
