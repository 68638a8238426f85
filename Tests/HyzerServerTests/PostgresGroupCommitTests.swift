import Foundation
import HyzerHarness
import HyzerSyncProtocol
import Synchronization
import Testing

@testable import HyzerServer

/// PostgreSQL's group commit (the twin of `GroupCommitTests` for SQLite): the pushes that
/// arrive while an instance's push transaction is in flight are committed together in the
/// next one, whatever their groups; each is decided alone, and a statement that fails the
/// shared transaction is retried a push at a time. Every test runs on the tests' own
/// throwaway PostgreSQL server.
@Suite struct PostgresGroupCommitTests {
    /// A push transaction held open just before its commit (`PushSeams.beforeCommit`) while
    /// its records contain `marker`, until `release`.
    final class CommitHold: Sendable {
        private let entered: AsyncStream<Void>
        private let released: AsyncStream<Void>.Continuation

        init(_ storage: PostgresStorage, holding marker: UUID) {
            let (entered, enter) = AsyncStream<Void>.makeStream()
            let (release, released) = AsyncStream<Void>.makeStream()
            self.entered = entered
            self.released = released
            storage.pushSeams.withLock {
                $0.beforeCommit = { records in
                    guard records.contains(where: { $0.id == marker }) else { return }
                    enter.yield()
                    for await _ in release { break }
                }
            }
        }

        /// Returns once the marked transaction is held (its seqs drawn, not yet committed).
        func held() async { for await _ in entered { break } }

        func release() {
            released.yield()
            released.finish()
        }
    }

    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<500 where !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(condition())
    }

    /// What every test here starts from: PostgreSQL storage with `groups` groups, each with
    /// one device and its course and round pushed.
    static func started(
        groups count: Int = 1
    ) async throws -> (
        h: Harness, storage: PostgresStorage, groups: [(device: String, token: String, groupID: String)], f: Fixture
    ) {
        let h = try await Harness.make(.postgres)
        let storage = try #require(h.storage as? PostgresStorage)
        let f = try Fixture()
        var groups: [(device: String, token: String, groupID: String)] = []
        for index in 0..<count {
            let g = try await h.group("League \(index)")
            _ = try await storage.push(groupID: g.groupID, deviceID: g.device, records: f.setupRecords)
            groups.append((g.device, g.token, g.groupID))
        }
        return (h, storage, groups, f)
    }

    /// Runs SQL in the storage's database; its output, one line a row.
    static func sql(_ storage: PostgresStorage, _ statement: String) async throws -> [String] {
        let result = try await ThrowawayPostgres.shared.execute(statement, in: storage.location)
        #expect(result.status == 0, "\(statement): \(result.stderr)")
        return result.stdout.split(separator: "\n").map(String.init)
    }

    static func holes(_ records: [PulledRecord]) -> [Int] {
        records.compactMap { pulled -> Int? in
            if case .scoreEvent(let e) = pulled.record { return e.hole }
            return nil
        }
    }

    /// Eight pushes to three groups that wait behind a transaction in flight are committed
    /// by the next one, in one PostgreSQL transaction (their rows share one `xmin`), each
    /// group's in the order they arrived, each answered with its own seq and its group's head.
    @Test func pushesThatWaitForATransactionCommitInOneTransaction() async throws {
        let (h, storage, groups, f) = try await Self.started(groups: 3)
        defer { withExtendedLifetime(h) {} }
        let before = storage.commits.batches
        let setupHead = try await Self.sql(storage, "SELECT max(seq) FROM changes").first.flatMap { Int64($0) } ?? 0

        let first = f.event(hole: 1)
        let hold = CommitHold(storage, holding: first.id)
        let held = Task {
            try await storage.push(
                as: DeviceClaim(token: groups[0].token, device: groups[0].device), records: [.scoreEvent(first)])
        }
        await hold.held()
        // Holes 2…9 round-robin over the groups, each a push of its own, as devices send them.
        let rest = Task {
            try await withThrowingTaskGroup(of: (Int, PushResponse).self) { tasks in
                for hole in 2...9 {
                    let g = groups[hole % groups.count]
                    tasks.addTask {
                        // One at a time into the queue, so that each group's pushes arrive in hole order.
                        let response = try await storage.push(
                            as: DeviceClaim(token: g.token, device: g.device), records: [.scoreEvent(f.event(hole: hole))]
                        ).response
                        return (hole, response)
                    }
                    try await Self.until { storage.commits.waiting == hole - 1 }
                }
                return try await tasks.reduce(into: [Int: PushResponse]()) { $0[$1.0] = $1.1 }
            }
        }
        try await Self.until { storage.commits.waiting == 8 }
        hold.release()
        _ = try await held.value
        let responses = try await rest.value

        #expect(storage.commits.batches - before == 2)
        #expect(responses.values.allSatisfy { $0.results.map(\.status) == [.created] })
        let transactions = try await Self.sql(
            storage, "SELECT count(DISTINCT xmin::text) FROM changes WHERE seq > \(setupHead + 1)")
        #expect(transactions == ["1"], "the eight pushes were committed in \(transactions) transactions")
        for (index, g) in groups.enumerated() {
            let pulled = try await storage.pull(groupID: g.groupID, after: 0, limit: 100)
            let mine = (2...9).filter { $0 % groups.count == index }
            #expect(Self.holes(Array(pulled.records.dropFirst(2))) == (index == 0 ? [1] : []) + mine)
            for hole in mine {
                let response = try #require(responses[hole])
                #expect(response.head == pulled.head, "hole \(hole): head \(response.head), group's \(pulled.head)")
                #expect(pulled.records.first { $0.record.id == response.results.first?.id }?.seq == response.results.first?.seq)
            }
        }
        storage.pushSeams.withLock { $0 = PostgresStorage.PushSeams() }
    }

    /// The same statement pushed twice in one transaction (a device's retry arriving while
    /// its first try waits) is stored once: the second is answered `duplicate` with the
    /// seq the first got.
    @Test func aRetryInTheSameTransactionIsADuplicateOfItsFirstTry() async throws {
        let (h, storage, groups, f) = try await Self.started()
        defer { withExtendedLifetime(h) {} }
        let g = groups[0]
        let event = f.event(hole: 2)
        let principal = Principal(groupID: g.groupID, role: .device, deviceID: g.device)
        let push = PostgresPendingPush(records: [.scoreEvent(event)], sender: .device(groupID: g.groupID, deviceID: g.device))
        let outcomes = try await storage.commitPushes([push, push])
        let results = try outcomes.map { try $0.get() }
        #expect(results.map { $0.principal } == [principal, principal])
        #expect(results[0].results.map(\.status) == [.created])
        #expect(results[1].results.map(\.status) == [.duplicate])
        #expect(results[1].results[0].seq == results[0].results[0].seq)
        let pulled = try await storage.pull(groupID: g.groupID, after: 0, limit: 100)
        #expect(Self.holes(pulled.records) == [2])
    }

    /// A push refused inside the shared transaction (its token revoked, or another
    /// device's) is answered with its refusal alone: the pushes around it are committed.
    @Test func aRefusedPushDoesNotTakeTheOthersInItsTransactionWithIt() async throws {
        let (h, storage, groups, f) = try await Self.started()
        defer { withExtendedLifetime(h) {} }
        let g = groups[0]
        let revoked = try await storage.enroll(groupID: g.groupID, deviceID: "lost-phone", name: "Lost")
        try await storage.revoke(groupID: g.groupID, deviceID: "lost-phone")
        func push(_ token: String, _ device: String, hole: Int) -> PostgresPendingPush {
            PostgresPendingPush(
                records: [.scoreEvent(f.event(hole: hole))], sender: .claim(DeviceClaim(token: token, device: device)))
        }
        let outcomes = try await storage.commitPushes([
            push(g.token, g.device, hole: 1), push(revoked, "lost-phone", hole: 2), push(g.token, "someone-else", hole: 3),
            push("hzd_never-issued", g.device, hole: 4), push(g.token, g.device, hole: 5),
        ])
        #expect((try? outcomes[0].get())?.results.map(\.status) == [.created])
        #expect(throws: AccessRefusal.unauthenticated) { try outcomes[1].get() }
        #expect(throws: AccessRefusal.otherDevice(claimed: "someone-else")) { try outcomes[2].get() }
        #expect(throws: AccessRefusal.unauthenticated) { try outcomes[3].get() }
        #expect((try? outcomes[4].get())?.results.map(\.status) == [.created])
        #expect(storage.pushesRetriedAlone.load(ordering: .relaxed) == 0, "a refusal is no failed statement")
        let pulled = try await storage.pull(groupID: g.groupID, after: 0, limit: 100)
        #expect(Self.holes(pulled.records) == [1, 5])
    }

    /// A statement that fails ends PostgreSQL's whole transaction: the batch is committed
    /// again one push a transaction, so only the push that made it fail fails (here a
    /// trigger the test installs refuses one record), and the others are committed.
    ///
    /// Negative control: without the retry, the same batch loses every push with the one
    /// that failed (so the trigger did fail the shared transaction).
    @Test func aPushWhoseStatementFailsFailsAloneAndTheOthersCommit() async throws {
        #expect(try await poisonedBatch(retriesAlone: true) == [.created, nil, .created, .created])
        #expect(try await poisonedBatch(retriesAlone: false) == [nil, nil, nil, nil], "the control lost nothing")
    }

    /// Commits four pushes of two groups in one batch, the second refused by the database;
    /// returns each one's status, nil for a push that failed.
    private func poisonedBatch(retriesAlone: Bool) async throws -> [PushStatus?] {
        let (h, storage, groups, f) = try await Self.started(groups: 2)
        defer { withExtendedLifetime(h) {} }
        let poison = f.event(hole: 2)
        _ = try await Self.sql(
            storage,
            """
            CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF NEW.record_id = '\(poison.id.uuidString.lowercased())' THEN RAISE EXCEPTION 'poisoned record'; END IF;
                RETURN NEW;
            END $$;
            CREATE TRIGGER refuse_poison BEFORE INSERT ON changes FOR EACH ROW EXECUTE FUNCTION refuse_poison();
            """)
        storage.pushSeams.withLock { $0.retriesAlone = retriesAlone }
        defer { storage.pushSeams.withLock { $0 = PostgresStorage.PushSeams() } }
        let events = [f.event(hole: 1), poison, f.event(hole: 3), f.event(hole: 4)]
        let pushes = events.enumerated().map { index, event in
            let g = groups[index % 2]
            return PostgresPendingPush(records: [.scoreEvent(event)], sender: .device(groupID: g.groupID, deviceID: g.device))
        }
        // Without the retry the error fails the whole batch, as the queue then answers each push.
        let outcomes: [Result<PushOutcome, any Error>]
        do { outcomes = try await storage.commitPushes(pushes) } catch { outcomes = pushes.map { _ in .failure(error) } }
        let statuses = outcomes.map { (try? $0.get())?.results.first?.status }
        if case .failure(let error) = outcomes[1] {
            #expect(PostgresStorage.describe(error).contains("poisoned record"), "\(error)")
        }
        let stored = try await Self.sql(storage, "SELECT count(*) FROM changes WHERE kind = 'scoreEvent'")
        #expect(stored == ["\(statuses.compactMap { $0 }.count)"], "what was answered is what is stored")
        #expect(storage.pushesRetriedAlone.load(ordering: .relaxed) == (retriesAlone ? 4 : 0))
        return statuses
    }
}

/// The pull cursor under group commit, over two instances of one database: a transaction
/// holding a lower seq always commits before one holding a higher seq of the same group.
extension PostgresGroupCommitTests {
    /// Instance A holds a transaction of two groups' pushes open just before its commit
    /// (its seqs drawn); a push to the second group through instance B waits for A's group
    /// lock, so a pull in between sees neither, and after both every record is pulled.
    ///
    /// Negative control: without the per-group serialisation, B's push commits first with
    /// the higher seq, the pull in between moves the cursor past A's record, and that record
    /// is never pulled.
    @Test func thePullCursorNeverSkipsARecordThatCommitsLateInABatch() async throws {
        #expect(try await skippedRecords(serialised: true).isEmpty)
        #expect(try await skippedRecords(serialised: false).count == 1, "the control did not reproduce the skip")
    }

    /// Returns the events of the second group never pulled.
    private func skippedRecords(serialised: Bool) async throws -> Set<UUID> {
        let (h, a, groups, f) = try await Self.started(groups: 2)
        defer { withExtendedLifetime(h) {} }
        let b = try await PostgresStorage.open(a.location)
        defer { Task { await b.close() } }
        var cursor = try await a.pull(groupID: groups[1].groupID, after: 0, limit: 100).next
        let slow = f.event(0, hole: 1)
        let fast = f.event(1, hole: 1)
        for storage in [a, b] { storage.pushSeams.withLock { $0.serialisesPushes = serialised } }
        let hold = CommitHold(a, holding: slow.id)
        let batch = Task {
            try await a.commitPushes(
                [f.event(0, hole: 2), slow].enumerated().map { index, event in
                    PostgresPendingPush(
                        records: [.scoreEvent(event)],
                        sender: .device(groupID: groups[index].groupID, deviceID: groups[index].device))
                })
        }
        await hold.held()
        let fastPush = Task {
            try await b.push(groupID: groups[1].groupID, deviceID: groups[1].device, records: [.scoreEvent(fast)])
        }
        if serialised {
            try await Task.sleep(for: .seconds(1))  // it waits for the lock: nothing to await
        } else {
            _ = try await fastPush.value
        }
        var pulled: Set<UUID> = []
        let during = try await a.pull(groupID: groups[1].groupID, after: cursor, limit: 100)
        pulled.formUnion(during.records.map(\.record.id))
        cursor = during.next
        hold.release()
        #expect(try await batch.value.allSatisfy { (try? $0.get()) != nil })
        _ = try await fastPush.value
        let after = try await a.pull(groupID: groups[1].groupID, after: cursor, limit: 100)
        pulled.formUnion(after.records.map(\.record.id))
        for storage in [a, b] { storage.pushSeams.withLock { $0 = PostgresStorage.PushSeams() } }
        return Set([slow.id, fast.id]).subtracting(pulled)
    }

    /// Two instances commit batches of the same groups in opposite orders, many times at
    /// once: each transaction takes its groups' locks in one order (the locks' keys), so
    /// none waits for another in a cycle; PostgreSQL never has to break a deadlock (which
    /// would fail a transaction and send its pushes round again one by one).
    @Test func batchesOfTheSameGroupsInOppositeOrdersNeverDeadlock() async throws {
        let (h, a, groups, f) = try await Self.started(groups: 6)
        defer { withExtendedLifetime(h) {} }
        let b = try await PostgresStorage.open(a.location)
        defer { Task { await b.close() } }
        let rounds = 40
        let outcomes = try await withThrowingTaskGroup(of: [Result<PushOutcome, any Error>].self) { tasks in
            for round in 0..<rounds {
                for (storage, order) in [(a, Array(groups.indices)), (b, Array(groups.indices.reversed()))] {
                    let pushes = order.map { index in
                        PostgresPendingPush(
                            records: [.scoreEvent(f.event(round % 2, hole: round % 9 + 1))],
                            sender: .device(groupID: groups[index].groupID, deviceID: groups[index].device))
                    }
                    tasks.addTask { try await storage.commitPushes(pushes) }
                }
            }
            return try await tasks.reduce(into: [Result<PushOutcome, any Error>]()) { $0 += $1 }
        }
        #expect(outcomes.count == rounds * 2 * groups.count)
        #expect(outcomes.allSatisfy { (try? $0.get())?.results.first?.status == .created })
        #expect(a.pushesRetriedAlone.load(ordering: .relaxed) + b.pushesRetriedAlone.load(ordering: .relaxed) == 0)
        for g in groups {
            let pulled = try await a.pull(groupID: g.groupID, after: 0, limit: 1000)
            #expect(pulled.records.count == 2 + rounds * 2)
        }
    }
}
