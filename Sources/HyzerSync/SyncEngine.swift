import Foundation
import HyzerKit
import HyzerStore
import HyzerSyncProtocol
import Logging

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
/// ```swift
/// let engine = SyncEngine(database: db, link: link)
/// await engine.start()
/// for await change in engine.changes() { … recompute(trigger: change.trigger) … }
/// db.recordScore(…); engine.localDataChanged()
/// ```
public actor SyncEngine {
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

    public nonisolated let database: HyzerDatabase
    public nonisolated let link: ServerLink
    public nonisolated let options: Options
    private let client: SyncClient
    private let logger: Logger

    private var scheduler: SyncScheduler
    private var rng = SystemRandomNumberGenerator()
    private var loopTask: Task<Void, Never>?
    private var socket: LiveSocket?
    private var needsReconcile = true
    private var currentState = SyncState()

    private let wakeup = Wakeup()
    private let inbox = Locked(Inbox())
    private let stateBroadcast = Broadcaster<SyncState>()
    private let changeBroadcast = Broadcaster<SyncChange>()
    private let clockStart = ContinuousClock.now

    /// Events from nonisolated callers and the socket, drained by the loop.
    struct Inbox {
        var localWrite = false
        var pokedHead: Int64?
        var socket: Bool?
    }

    public init(database: HyzerDatabase, link: ServerLink, options: Options = Options(),
                logger: Logger = Logger(label: "hyzer.sync")) {
        self.database = database
        self.link = link
        self.options = options
        self.client = SyncClient(link: link, timeout: .milliseconds(Int64(options.requestTimeout * 1000)))
        self.logger = logger
        self.scheduler = SyncScheduler(policy: options.policy)
    }

    // MARK: Observation

    public var state: SyncState { currentState }

    /// The current state first, then every change.
    public nonisolated func stateUpdates() -> AsyncStream<SyncState> {
        stateBroadcast.subscribe(policy: .bufferingNewest(8))
    }

    public nonisolated func changes() -> AsyncStream<SyncChange> {
        changeBroadcast.subscribe()
    }

    // MARK: Lifecycle

    /// Recovers from a crash (inFlight rows are pending again, A1), then runs the loop and
    /// the poke socket until `stop()`.
    public func start() {
        guard loopTask == nil else { return }
        do {
            let reset = try database.resetInFlightOutbox()
            if reset > 0 { logger.notice("outbox: \(reset) inFlight rows from before a restart are pending again") }
        } catch {
            logger.error("outbox reset failed: \(error)")
        }
        needsReconcile = true
        loopTask = Task { await self.runLoop() }
        if options.liveUpdates {
            let socket = LiveSocket(link: link, reconnect: options.policy.reconnect, logger: logger) { [weak self] event in
                self?.socketEvent(event)
            }
            socket.start()
            self.socket = socket
        }
        publish()
    }

    public func stop() async {
        socket?.stop()
        socket = nil
        loopTask?.cancel()
        wakeup.signal()
        await loopTask?.value
        loopTask = nil
        stateBroadcast.finish()
        changeBroadcast.finish()
    }

    /// Call after every local write (score, round, course, player): it returns at once and
    /// the loop pushes within milliseconds. Writes from other processes are found too
    /// (the kiosk calls this when its ChangeMonitor fires).
    public nonisolated func localDataChanged() {
        inbox.withLock { $0.localWrite = true }
        wakeup.signal()
    }

    nonisolated func socketEvent(_ event: LiveSocket.Event) {
        inbox.withLock { inbox in
            switch event {
            case .connected: inbox.socket = true
            case .disconnected: inbox.socket = false
            case .poke(let poke): inbox.pokedHead = max(inbox.pokedHead ?? 0, poke.head)
            }
        }
        wakeup.signal()
    }

    private func now() -> Double {
        let d = ContinuousClock.now - clockStart
        return Double(d.components.seconds) + Double(d.components.attoseconds) / 1e18
    }

    // MARK: The loop

    private func runLoop() async {
        while !Task.isCancelled {
            drainInbox()
            scheduler.activeRoundChanged((try? database.activeRounds().isEmpty == false) ?? false)
            switch scheduler.next(now: now()) {
            case .push:
                setStatus(.syncing)
                do {
                    let outcome = try await pushOnce()
                    scheduler.pushSucceeded(more: outcome.more)
                    if !outcome.more { markSynced() }
                } catch {
                    handleFailure(error)
                }
            case .pull:
                setStatus(.syncing)
                needsReconcile = true  // a poll also finds writes nobody announced
                do {
                    let page = try await pullOnce()
                    scheduler.pullSucceeded(more: page.more, now: now())
                    if !page.more { markSynced() }
                } catch {
                    handleFailure(error)
                }
            case .wait(let until):
                if currentState.status == .syncing { setStatus(.idle) }
                await wakeup.wait(seconds: until - now())
            }
        }
    }

    private func drainInbox() {
        let events = inbox.withLock { inbox -> Inbox in
            defer { inbox = Inbox() }
            return inbox
        }
        if events.localWrite {
            needsReconcile = true
            scheduler.localWrite()
        }
        if let up = events.socket {
            if up { scheduler.socketUp() } else { scheduler.socketDown() }
            currentState.live = up
            publish()
        }
        if let head = events.pokedHead {
            let cursor = (try? database.syncCursor().cursor) ?? 0
            scheduler.poked(head: head, cursor: cursor)
        }
    }

    private func handleFailure(_ error: any Error) {
        scheduler.failed(now: now(), using: &rng)
        if let error = error as? SyncClientError {
            switch error {
            case .unreachable:
                setStatus(.offline)
            case .http(let status, let message) where status == 401 || status == 403:
                setStatus(.error("the server refuses this device: \(message)"))
            default:
                setStatus(.error(error.description))
            }
        } else {
            setStatus(.error("\(error)"))
        }
        logger.debug("sync attempt failed", metadata: ["error": "\(error)", "failures": "\(scheduler.failures)"])
    }

    private func markSynced() {
        currentState.lastSyncedAt = Date()
        currentState.status = .idle
        refreshCounts()
        publish()
    }

    private func setStatus(_ status: SyncStatus) {
        guard currentState.status != status else { return }
        currentState.status = status
        refreshCounts()
        publish()
    }

    private func refreshCounts() {
        currentState.pending = (try? database.pendingSyncCount()) ?? currentState.pending
        currentState.failed = (try? database.outboxCounts()[.failed]) ?? 0
    }

    private func publish() { stateBroadcast.send(currentState) }

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
        if needsReconcile {
            needsReconcile = false
            let pending = try database.pendingSyncRecords()
            let (reconciled, claimed) = try database.reconcileAndClaimOutbox(with: pending, limit: batch)
            try database.acknowledgeSynced(reconciled.alreadySynced)
            items = claimed
        } else {
            items = try database.claimOutbox(limit: batch)
        }
        guard !items.isEmpty else { return PushOutcome(more: false) }
        let response: PushResponse
        do {
            response = try await client.push(items.map(\.record))
        } catch {
            try? database.releaseInFlight(items.map(\.key), error: error.description)
            throw error
        }
        let synced = try database.completeOutbox(response.results)
        try database.acknowledgeSynced(synced)
        var outcome = PushOutcome(more: items.count == batch)
        for r in response.results {
            switch r.status {
            case .created: outcome.created += 1
            case .duplicate: outcome.duplicates += 1
            case .rejected:
                outcome.rejected.append("\(r.kind.rawValue) \(r.id): \(r.reason ?? "rejected")")
                logger.warning("server rejected a record", metadata: ["kind": "\(r.kind.rawValue)", "id": "\(r.id)", "reason": "\(r.reason ?? "")"])
            }
        }
        // A server that lost its database answers under a new epoch; the next pull
        // notices and starts over (re-pull from zero, re-push everything).
        if let epoch = try database.syncCursor().epoch, epoch != response.epoch {
            scheduler.poked(head: 1, cursor: 0)
        } else {
            // Nothing but our own records since the cursor: no need to pull them back.
            try database.advanceCursorPastOwnPush(stream: link.stream, epoch: response.epoch,
                                                  createdSeqs: response.results.compactMap { $0.status == .created ? $0.seq : nil },
                                                  head: response.head)
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

    /// One page, applied.
    private func pullOnce() async throws -> PullOutcome {
        var outcome = PullOutcome()
        let cursor = try database.syncCursor()
        let sameStream = cursor.stream == link.stream
        var after = sameStream ? cursor.cursor : 0
        var page = try await client.pull(after: after, limit: options.policy.pullLimit)

        let epochChanged = !sameStream || cursor.epoch != page.epoch
        // Same epoch but the server is behind this device: it was restored without a new
        // epoch. Treat it like one rather than skip whatever it numbers anew.
        let serverBehind = sameStream && !epochChanged && page.head < after
        if epochChanged || serverBehind {
            if cursor.stream != nil || cursor.epoch != nil {
                logger.notice("server epoch changed: re-pulling from zero and re-pushing everything",
                              metadata: ["old": "\(cursor.epoch ?? "-")", "new": "\(page.epoch)"])
                try database.resetOutboxForNewEpoch()
                outcome.epochChanged = true
            }
            try database.adoptSyncStream(link.stream, epoch: page.epoch, force: serverBehind)
            needsReconcile = true
            scheduler.localWrite()
            if after != 0 {
                after = 0
                page = try await client.pull(after: 0, limit: options.policy.pullLimit)
            }
        }
        let result = try database.applyPulled(page.records, next: page.next, stream: link.stream, epoch: page.epoch)
        if !result.rejected.isEmpty {
            logger.warning("pulled records this device cannot store", metadata: ["count": "\(result.rejected.count)",
                                                                              "first": "\(result.rejected.values.first ?? "")"])
        }
        outcome.more = page.hasMore
        outcome.pulled = page.records.count
        outcome.result = result
        outcome.next = page.next
        outcome.head = page.head
        if !result.roundsChanged.isEmpty || result.referenceDataChanged {
            var discrepancies: [UUID: [Discrepancy]] = [:]
            for id in result.roundsChanged {
                discrepancies[id] = (try? database.snapshot(round: id).scorecard.discrepancies) ?? []
            }
            changeBroadcast.send(SyncChange(rounds: result.roundsChanged, eventsInserted: result.eventsInserted,
                                            referenceDataChanged: result.referenceDataChanged, discrepancies: discrepancies))
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
        // inFlight are pending again. With the loop running, start() already did that.
        if loopTask == nil { try database.resetInFlightOutbox() }
        needsReconcile = true
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
            handleFailure(error)
            throw error
        }
        report.pending = try database.pendingSyncCount()
        markSynced()
        return report
    }
}
