import Foundation
import HyzerKit
import HyzerStore
import HyzerSyncProtocol
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// What the board shows about sync: a small offline indicator and "last synced".
public enum SyncStatus: Sendable, Equatable {
    case idle
    case syncing
    /// The server cannot be reached; scores keep saving locally.
    case offline
    /// The server refuses this device (revoked token, …): needs a person.
    case error(String)
}

public struct SyncState: Sendable, Equatable {
    public var status: SyncStatus = .idle
    public var lastSyncedAt: Date?
    /// Local records not yet acknowledged by the server.
    public var pending = 0
    /// Records the server refused for good (shown in the UI with their reasons).
    public var failed = 0
    /// The poke socket is up (updates arrive within a second instead of by polling).
    public var live = false

    public init() {}
}

/// Remote data landed: the kiosk recomputes standings with this trigger (`.remoteSync`),
/// so the board animates them like any other change.
public struct SyncChange: Sendable, Equatable {
    public var trigger: StandingsTrigger = .remoteSync
    public var rounds: Set<UUID>
    public var eventsInserted: Int
    public var referenceDataChanged: Bool
    /// Open discrepancies of each changed round after the change, from the same
    /// conflict detection local scores go through (`Scorecard`).
    public var discrepancies: [UUID: [Discrepancy]]
}

/// What one explicit `syncNow()` did.
public struct SyncReport: Sendable, Equatable {
    public var created = 0
    public var duplicates = 0
    public var rejected: [String] = []
    public var pulled = 0
    public var applied = 0
    public var eventsInserted = 0
    public var pullRejected: [String] = []
    public var epochChanged = false
    public var cursor: Int64 = 0
    public var head: Int64 = 0
    public var pending = 0

    public init() {}
}

/// The device side of sync (the kiosk is one more device): an outbox in sync.sqlite with
/// the A1 states, push on every local write, pull on a poke or a timer, cursor advanced
/// in the transaction that applies a page, exponential backoff with jitter, and a poll
/// fallback while the poke socket is down.
///
/// A `Service`: `run()` recovers from a crash (inFlight rows are pending again, A1), then
/// runs the loop and the poke socket until its task is cancelled or a graceful shutdown
/// starts. The `SyncScheduler` decides; this shell does the I/O, reads the time from its
/// `HyzerClock`, and runs every store call with `await`, so no commit's fsync blocks a
/// thread of the cooperative pool.
///
/// ```swift
/// let engine = SyncEngine(database: db, link: link)
/// // in a ServiceGroup, or: Task { try await engine.run() }
/// for await change in engine.changes() { … recompute(trigger: change.trigger) … }
/// try db.write(.recordScore(…)); engine.localDataChanged()
/// ```
public final class SyncEngine: Service, Sendable {
    public struct Options: Sendable {
        public var policy = SyncPolicy()
        /// false: never open the poke socket (polling only); for tests and benchmarks of
        /// the fallback path, or networks that block WebSockets.
        public var liveUpdates = true
        /// Deadline of one request. Refused connections are retried until it expires, so
        /// this is also how long an attempt takes to conclude "offline".
        public var requestTimeout: Double = 10
        public init() {}
    }

    public let database: HyzerDatabase
    public let link: ServerLink
    public let options: Options
    private let client: any SyncTransport
    private let clock: any HyzerClock
    private let logger: Logger
    /// Monotonic origin of the scheduler's seconds.
    private let origin: Duration

    private let loop: Mutex<LoopState>
    private let wakeup: Wakeup
    private let stateBroadcast = Broadcaster<SyncState>()
    private let changeBroadcast = Broadcaster<SyncChange>()

    /// The loop's state. Only short critical sections touch it, never across an await;
    /// `syncNow()` may run beside the loop, and a push is safe to enter twice (the second
    /// claims nothing the first holds).
    struct LoopState {
        var scheduler: SyncScheduler
        var rng = SystemRandomNumberGenerator()
        var needsReconcile = true
        var current = SyncState()
        var running = false
        /// Events from other tasks (writers, the socket), drained by the loop.
        var localWrite = false
        var pokedHead: Int64?
        var socket: Bool?
    }

    public init(
        database: HyzerDatabase, link: ServerLink, options: Options = Options(),
        clock: (any HyzerClock)? = nil, logger: Logger = Logger(label: "hyzer.sync")
    ) {
        let clock = clock ?? database.clock
        self.database = database
        self.link = link
        self.options = options
        self.client = SyncClient(link: link, timeout: .milliseconds(Int64(options.requestTimeout * 1000)))
        self.clock = clock
        self.logger = logger
        self.origin = clock.uptime
        self.loop = Mutex(LoopState(scheduler: SyncScheduler(policy: options.policy)))
        self.wakeup = Wakeup(clock: clock)
    }

    /// An engine whose requests go through `transport` instead of HTTP: the deterministic
    /// simulation drives the real push/pull/epoch/outbox code over a simulated network.
    /// A separate initializer (rather than a parameter of the one above) so that the HTTP
    /// path's construction stays exactly as it is.
    public init(
        database: HyzerDatabase, link: ServerLink, transport: any SyncTransport, options: Options = Options(),
        clock: (any HyzerClock)? = nil, logger: Logger = Logger(label: "hyzer.sync")
    ) {
        let clock = clock ?? database.clock
        self.database = database
        self.link = link
        self.options = options
        self.client = transport
        self.clock = clock
        self.logger = logger
        self.origin = clock.uptime
        self.loop = Mutex(LoopState(scheduler: SyncScheduler(policy: options.policy)))
        self.wakeup = Wakeup(clock: clock)
    }

    // MARK: Observation

    public var state: SyncState { loop.withLock { $0.current } }

    /// The current state first, then every change.
    public func stateUpdates() -> AsyncStream<SyncState> {
        stateBroadcast.subscribe(policy: .bufferingNewest(8))
    }

    /// Every batch of records applied. `bufferingNewest` bounds what waits for a slow
    /// reader (a kiosk that only needs "read again" keeps one); nil keeps every change.
    public func changes(bufferingNewest limit: Int? = nil) -> AsyncStream<SyncChange> {
        changeBroadcast.subscribe(policy: limit.map { .bufferingNewest($0) } ?? .unbounded)
    }

    // MARK: Lifecycle

    public func run() async throws {
        do {
            let reset = try await database.write(.resetInFlightOutbox)
            if reset > 0 { logger.notice("outbox: \(reset) inFlight rows from before a restart are pending again") }
        } catch {
            logger.error("outbox reset failed: \(error)")
        }
        loop.withLock {
            $0.needsReconcile = true
            $0.running = true
        }
        publish()
        defer {
            loop.withLock { $0.running = false }
            stateBroadcast.finish()
            changeBroadcast.finish()
        }
        await withGracefulShutdownHandler {
            await withDiscardingTaskGroup { group in
                if options.liveUpdates {
                    let socket = LiveSocket(
                        link: link, reconnect: options.policy.reconnect, clock: clock,
                        logger: logger
                    ) { [weak self] event in self?.socketEvent(event) }
                    group.addTask { try? await socket.run() }
                }
                await runLoop()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            self.wakeup.finish()
        }
    }

    /// Call after every local write (score, round, course, player): it returns at once and
    /// the loop pushes within milliseconds. Writes from other processes are found too
    /// (the kiosk calls this when its ChangeMonitor fires).
    public func localDataChanged() {
        loop.withLock { $0.localWrite = true }
        wakeup.signal()
    }

    func socketEvent(_ event: LiveSocket.Event) {
        loop.withLock { state in
            switch event {
            case .connected: state.socket = true
            case .disconnected: state.socket = false
            case .poke(let poke): state.pokedHead = max(state.pokedHead ?? 0, poke.head)
            }
        }
        wakeup.signal()
    }

    /// Seconds since this engine was made, on its clock: the scheduler's time.
    private func now() -> Double { Double((clock.uptime - origin).nanoseconds) / 1e9 }

    /// The first instant of the clock at which `now()` is not before `seconds`. Rounded up
    /// to whole nanoseconds: rounded down, the loop woken there would still be told to wait,
    /// find its deadline passed and ask again, spinning until the clock moves on (for ever
    /// on a `ManualClock` advanced to the deadline).
    private func instant(_ seconds: Double) -> Duration {
        var nanoseconds = Int64((seconds * 1e9).rounded(.up))
        while Double(nanoseconds) / 1e9 < seconds { nanoseconds += 1 }
        return origin + .nanoseconds(nanoseconds)
    }

    // MARK: The loop

    private func runLoop() async {
        while !Task.isCancelled {
            // One read per turn for everything the turn looks at: each async read is a
            // few trips through GRDB's queues, and they were on the path of every score
            // (a score from device A to device B crossed nine of them on B alone).
            let facts = try? await database.read(.loopFacts)
            drainInbox(cursor: facts?.cursor.cursor ?? 0)
            let decision = loop.withLock { state in
                state.scheduler.activeRoundChanged(facts?.activeRound ?? false)
                return state.scheduler.next(now: now())
            }
            switch decision {
            case .push:
                setSyncing(pending: facts?.pending)
                do {
                    let outcome = try await pushOnce()
                    loop.withLock { $0.scheduler.pushSucceeded(more: outcome.more) }
                    if !outcome.more { await markSynced() }
                } catch {
                    await handleFailure(error)
                }
            case .pull:
                setSyncing(pending: facts?.pending)
                loop.withLock { $0.needsReconcile = true }  // a poll also finds writes nobody announced
                do {
                    let page = try await pullOnce(from: facts?.cursor)
                    loop.withLock { $0.scheduler.pullSucceeded(more: page.more, now: now()) }
                    if !page.more { await markSynced() }
                } catch {
                    await handleFailure(error)
                }
            case .wait(let until):
                if state.status == .syncing { await setStatus(.idle) }
                guard await wakeup.wait(until: instant(min(until, now() + 3600))) else { return }
            }
        }
    }

    /// `cursor`: where the feed was read at the top of this turn, to weigh a poke against.
    private func drainInbox(cursor: Int64) {
        let (localWrite, socket, pokedHead) = loop.withLock { state in
            defer {
                state.localWrite = false
                state.socket = nil
                state.pokedHead = nil
            }
            return (state.localWrite, state.socket, state.pokedHead)
        }
        if localWrite {
            loop.withLock {
                $0.needsReconcile = true
                $0.scheduler.localWrite()
            }
        }
        if let up = socket {
            loop.withLock {
                if up { $0.scheduler.socketUp() } else { $0.scheduler.socketDown() }
                $0.current.live = up
            }
            publish()
        }
        if let head = pokedHead {
            loop.withLock { $0.scheduler.poked(head: head, cursor: cursor) }
        }
    }

    private func handleFailure(_ error: any Error) async {
        let failures = loop.withLock { state in
            state.scheduler.failed(now: now(), retryAfter: (error as? SyncClientError)?.retryAfter, using: &state.rng)
            return state.scheduler.failures
        }
        let status: SyncStatus
        if let error = error as? SyncClientError {
            switch error {
            case .unreachable:
                status = .offline
            case .http(let code, let message) where code == 401 || code == 403:
                status = .error("the server refuses this device: \(message)")
            case .rateLimited:
                // A pause the server asked for (the scheduler waits it out), not a fault to show.
                logger.notice("sync paused by the server", metadata: ["error": "\(error)"])
                return
            default:
                status = .error(error.description)
            }
        } else {
            status = .error("\(error)")
        }
        await setStatus(status)
        logger.debug("sync attempt failed", metadata: ["error": "\(error)", "failures": "\(failures)"])
    }

    private func markSynced() async {
        await refreshCounts()
        let date = clock.date
        loop.withLock {
            $0.current.lastSyncedAt = date
            $0.current.status = .idle
        }
        publish()
    }

    private func setStatus(_ status: SyncStatus) async {
        guard state.status != status else { return }
        await refreshCounts()
        loop.withLock { $0.current.status = status }
        publish()
    }

    /// `.syncing`, with the pending count the turn just read. The refused count is the
    /// last one read: only a push answer changes it, and `markSynced` reads it after each.
    private func setSyncing(pending: Int?) {
        guard state.status != .syncing else { return }
        loop.withLock { state in
            state.current.pending = pending ?? state.current.pending
            state.current.status = .syncing
        }
        publish()
    }

    private func refreshCounts() async {
        // Two databases, two reads: side by side rather than one after the other.
        async let pending = try? database.read(.pendingSyncCount)
        async let counts = try? database.read(.outboxCounts)
        let (pendingCount, failed) = await (pending, counts?[.failed] ?? 0)
        loop.withLock { state in
            state.current.pending = pendingCount ?? state.current.pending
            state.current.failed = failed
        }
    }

    private func publish() { stateBroadcast.send(state) }

    // MARK: Push

    struct PushOutcome {
        var more: Bool
        var created = 0
        var duplicates = 0
        var rejected: [String] = []
    }

    /// One batch: reconcile the outbox with the domain's pending set, claim (inFlight,
    /// before the await), send, record the answers. Safe to enter twice: the second
    /// call claims nothing the first holds.
    private func pushOnce() async throws -> PushOutcome {
        let batch = options.policy.pushBatch
        let items: [OutboxItem]
        let reconcile = loop.withLock { state in
            defer { state.needsReconcile = false }
            return state.needsReconcile
        }
        if reconcile {
            let pending = try await database.write(.pendingSyncRecords())
            let result = try await database.write(.reconcileAndClaim(pending, limit: batch))
            if !result.reconciled.alreadySynced.isEmpty {
                try await database.write(.acknowledgeSynced(result.reconciled.alreadySynced))
            }
            items = result.claimed
        } else {
            items = try await database.write(.claimOutbox(limit: batch))
        }
        guard !items.isEmpty else { return PushOutcome(more: false) }
        let response: PushResponse
        do {
            response = try await client.push(items.map(\.record))
        } catch {
            _ = try? await database.write(.releaseInFlight(items.map(\.key), error: error.description))
            throw error
        }
        let synced = try await database.write(.completeOutbox(response.results))
        var outcome = PushOutcome(more: items.count == batch)
        for r in response.results {
            switch r.status {
            case .created: outcome.created += 1
            case .duplicate: outcome.duplicates += 1
            case .rejected:
                outcome.rejected.append("\(r.kind.rawValue) \(r.id): \(r.reason ?? "rejected")")
                logger.warning(
                    "server rejected a record",
                    metadata: ["kind": "\(r.kind.rawValue)", "id": "\(r.id)", "reason": "\(r.reason ?? "")"])
            }
        }
        // The acknowledged versions stop being pending and, with nothing but our own
        // records since the cursor, the cursor moves past them (no need to pull them
        // back). A server that lost its database answers under a new epoch; the next
        // pull notices and starts over (re-pull from zero, re-push everything).
        let sameEpoch = try await database.write(
            .pushAnswered(
                acknowledging: synced, stream: link.stream, epoch: response.epoch,
                createdSeqs: response.results.compactMap { $0.status == .created ? $0.seq : nil },
                head: response.head))
        if !sameEpoch {
            loop.withLock { $0.scheduler.poked(head: 1, cursor: 0) }
        }
        return outcome
    }

    // MARK: Pull

    struct PullOutcome {
        var more = false
        var pulled = 0
        var result = PullApplyResult()
        var epochChanged = false
        var next: Int64 = 0
        var head: Int64 = 0
    }

    /// One page, applied. `known`: the cursor as the loop read it this turn (nil reads it).
    private func pullOnce(from known: SyncCursor? = nil) async throws -> PullOutcome {
        var outcome = PullOutcome()
        // Nothing is downloaded that cannot be stored (a read-only or full card): the
        // cursor stays where it is, and the next pull after recovery fetches it all.
        try database.requireWritable()
        let cursor: SyncCursor
        if let known { cursor = known } else { cursor = try await database.read(.syncCursor) }
        let sameStream = cursor.stream == link.stream
        var after = sameStream ? cursor.cursor : 0
        var page = try await client.pull(after: after, limit: options.policy.pullLimit)

        let epochChanged = !sameStream || cursor.epoch != page.epoch
        // Same epoch but the server is behind this device: it was restored without a new
        // epoch. Treat it like one rather than skip whatever it numbers anew.
        let serverBehind = sameStream && !epochChanged && page.head < after
        if epochChanged || serverBehind {
            if cursor.stream != nil || cursor.epoch != nil {
                logger.notice(
                    "server epoch changed: re-pulling from zero and re-pushing everything",
                    metadata: ["old": "\(cursor.epoch ?? "-")", "new": "\(page.epoch)"])
                try await database.write(.resetOutboxForNewEpoch)
                outcome.epochChanged = true
            }
            _ = try await database.write(.adoptSyncStream(link.stream, epoch: page.epoch, force: serverBehind))
            loop.withLock {
                $0.needsReconcile = true
                $0.scheduler.localWrite()
            }
            if after != 0 {
                after = 0
                page = try await client.pull(after: 0, limit: options.policy.pullLimit)
            }
        }
        // The open discrepancies of the changed rounds are read in the transaction that
        // applied the page: what it left, without another trip through GRDB's queues.
        let (result, discrepancies) = try await database.write(
            StoreWrite<PullApplyResult>.applyPulled(
                page.records, next: page.next,
                stream: link.stream, epoch: page.epoch, server: ServerCapabilities(page)
            ).then { result in
                StoreRead.each(Array(result.roundsChanged)) { id in
                    StoreRead<RoundSnapshot>.snapshot(round: id).map(\.scorecard.discrepancies)
                }
            })
        if !result.rejected.isEmpty {
            logger.warning(
                "pulled records this device cannot store",
                metadata: [
                    "count": "\(result.rejected.count)",
                    "first": "\(result.rejected.values.first ?? "")",
                ])
        }
        outcome.more = page.hasMore
        outcome.pulled = page.records.count
        outcome.result = result
        outcome.next = page.next
        outcome.head = page.head
        if !result.roundsChanged.isEmpty || result.referenceDataChanged {
            // A round whose snapshot could not be read shows no discrepancies.
            var open: [UUID: [Discrepancy]] = [:]
            for id in result.roundsChanged { open[id] = discrepancies[id] ?? [] }
            changeBroadcast.send(
                SyncChange(
                    rounds: result.roundsChanged, eventsInserted: result.eventsInserted,
                    referenceDataChanged: result.referenceDataChanged, discrepancies: open))
        }
        return outcome
    }

    // MARK: Explicit sync

    private func pushAll(into report: inout SyncReport) async throws {
        for _ in 0..<100_000 {
            let outcome = try await pushOnce()
            report.created += outcome.created
            report.duplicates += outcome.duplicates
            report.rejected += outcome.rejected
            if !outcome.more { break }
        }
    }

    /// Pushes everything pending and pulls until caught up, now; throws when the server
    /// cannot be reached or refuses the device. For `hyzer sync` and tests; the running
    /// loop (if any) keeps going alongside it safely.
    public func syncNow() async throws -> SyncReport {
        var report = SyncReport()
        // A one-shot run (the CLI) owns the outbox: rows a crashed earlier run left
        // inFlight are pending again. With the loop running, run() already did that.
        if !loop.withLock({ $0.running }) { try await database.write(.resetInFlightOutbox) }
        loop.withLock { $0.needsReconcile = true }
        do {
            try await pushAll(into: &report)
            for round in 0..<2 {
                for _ in 0..<100_000 {
                    let page = try await pullOnce()
                    report.pulled += page.pulled
                    report.applied += page.result.applied
                    report.eventsInserted += page.result.eventsInserted
                    report.pullRejected += page.result.rejected.sorted { $0.key < $1.key }.map { "seq \($0.key): \($0.value)" }
                    report.cursor = page.next
                    report.head = page.head
                    report.epochChanged = report.epochChanged || page.epochChanged
                    if !page.more { break }
                }
                // An epoch change during the pull made everything pending again: push it.
                guard round == 0, report.epochChanged else { break }
                try await pushAll(into: &report)
            }
        } catch {
            await handleFailure(error)
            throw error
        }
        report.pending = try await database.read(.pendingSyncCount)
        await markSynced()
        return report
    }

    // MARK: Steps

    // For a caller that schedules the engine itself instead of `run()`'s loop and timers:
    // the deterministic simulation, which picks which device takes which step from a seed.
    // Each step is what the loop does for that decision, so the simulation exercises the
    // loop's code paths (claim, release, complete, the epoch reset, the cursor) one by one.

    /// What `run()` does before its loop: rows a crashed earlier process left `inFlight`
    /// are pending again (A1). Returns how many.
    public func recoverOutbox() async throws -> Int {
        let reset = try await database.write(.resetInFlightOutbox)
        loop.withLock { $0.needsReconcile = true }
        return reset
    }

    /// One push batch, as the loop sends it after `localDataChanged()` (the outbox is
    /// reconciled with the domain first). True when more is pending.
    public func pushStep() async throws -> Bool {
        loop.withLock { state in
            if state.localWrite { state.needsReconcile = true }
            state.localWrite = false
        }
        return try await pushOnce().more
    }

    /// One pull page, as the loop pulls it (a poll also reconciles before the next push).
    /// True when the feed has more.
    public func pullStep() async throws -> Bool {
        loop.withLock { $0.needsReconcile = true }
        return try await pullOnce().more
    }
}
