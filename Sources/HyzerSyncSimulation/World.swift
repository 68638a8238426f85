import Foundation
import HyzerKit
import HyzerServer
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import Logging

/// One device of a run: its files, and while it is alive its store and engine.
struct SimulatedDevice {
    let index: Int
    let directory: URL
    let deviceID: String
    let token: String
    var database: HyzerDatabase?
    var engine: SyncEngine?
    /// Bumped at every restart, so a transport of a dead incarnation is recognisable.
    var incarnation = 0
    var revokedAtStep: Int?
    /// The score events it recorded, in order (their labels in failures: "d1 score 3").
    var recorded: [UUID] = []
    /// Events its outbox marked synced at some point: the server acknowledged them.
    var acked: Set<UUID> = []
    /// Its outbox's synced count when last looked at.
    var syncedCount = 0

    var name: String { "d\(index)" }
}

/// A push the network holds back: the device gave up on it (timed out), and it reaches
/// the server later, after whatever the device did since, possibly more than once.
struct HeldPush {
    var device: Int
    var token: String
    var deviceID: String
    var records: [SyncRecord]
    var sentAt: Int
}

/// The simulated network's verdict on one push.
enum PushFate {
    case deliver, loseRequest, loseReply, duplicate, holdBack, killDevice
}

/// Everything one seed runs: the server's storage, the devices, the network between them,
/// the clock. An actor, driven by one task (`run()`): each step awaits the engine, whose
/// transport calls back in here (actors are reentrant), so every call happens in an order
/// the seed alone decides.
actor World {
    let seed: UInt64
    let options: SyncSimulation.Options
    let root: URL
    var rng: SeededGenerator
    /// Everyone's clock (stored times, the engine's): moves 1 s a step, nothing else moves it.
    let clock = ManualClock()
    let logger = Logger(label: "hyzer.sim") { _ in SwiftLogNoOpLogHandler() }

    var report: SimulationReport
    var step = 0
    /// Setup and the final heal run on a perfect network.
    var healing = true
    var server: (any ServerStorage)?
    /// The run's own PostgreSQL database, when the server runs on PostgreSQL.
    var postgresDatabase: PostgresLocation?
    var groupID = ""
    var devices: [SimulatedDevice] = []
    var held: [HeldPush] = []
    var backups: [(url: URL, takenAt: Int)] = []
    /// Epochs by the order they were first seen: the trace names them `#1`, `#2`, …
    var epochs: [String] = []
    var lastRestoreStep: Int?
    /// What `serverEvents()` has read of the feed, and under which epoch.
    var eventCache: (epoch: String, next: Int64, events: [UUID: Int]) = ("", 0, [:])
    /// Devices known to hold the round (they keep it once they have it): a score needs it.
    var hasRound: Set<Int> = [0]
    /// Rows the push a device died in had claimed: its restart must find them inFlight.
    var killedPush: [Int: Int] = [:]
    var roundID: UUID?
    var participants: [UUID] = []

    /// Migrated empty databases that each server and device starts as a copy of.
    let templates: Templates

    init(seed: UInt64, options: SyncSimulation.Options, root: URL, templates: Templates) {
        self.templates = templates
        self.seed = seed
        self.options = options
        self.root = root
        // SplitMix64 from the seed alone; the multiplier keeps seeds 0, 1, 2… apart.
        self.rng = SeededGenerator(seed: seed &* 0x2545_F491_4F6C_DD1D)
        self.report = SimulationReport(seed: seed, options: options)
    }

    var serverDirectory: URL { root.appendingPathComponent("server", isDirectory: true) }

    func run() async -> SimulationReport {
        do {
            try await setUp()
            healing = false
            let steps = rng.int(in: options.steps)
            while step < steps {
                step += 1
                clock.advance(by: .seconds(1))
                try await takeStep()
            }
            step += 1
            healing = true
            await heal()
            try await check()
        } catch {
            fail("the run stopped: \(error)")
        }
        await shutDown()
        return report
    }

    // MARK: Trace

    func note(_ line: String, fault: Bool = false) {
        let entry = "\(step): \(line)"
        report.trace.append(entry)
        if fault { report.schedule.append(entry) }
    }

    func fail(_ message: String) {
        report.failures.append(message)
        note("CHECK FAILED: \(message)")
    }

    func epochName(_ epoch: String) -> String {
        if let index = epochs.firstIndex(of: epoch) { return "#\(index + 1)" }
        epochs.append(epoch)
        return "#\(epochs.count)"
    }

    /// A UUID from the seed: the ids this world chooses itself (the course, the players),
    /// so the outbox, which orders ties by id, batches them the same way on every run.
    func seededUUID() -> UUID {
        var bytes = [UInt8](repeating: 0, count: 16)
        for i in bytes.indices { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
        bytes[6] = (bytes[6] & 0x0F) | 0x40
        bytes[8] = (bytes[8] & 0x3F) | 0x80
        return UUID(
            uuid: (
                bytes[0], bytes[1], bytes[2], bytes[3], bytes[4], bytes[5], bytes[6], bytes[7],
                bytes[8], bytes[9], bytes[10], bytes[11], bytes[12], bytes[13], bytes[14], bytes[15]
            ))
    }

    func chance(_ percent: Int) -> Bool { rng.int(in: 0...99) < percent }

    func pick<T>(_ weighted: [(T, Int)]) -> T {
        var roll = rng.int(in: 0...(weighted.reduce(0) { $0 + $1.1 } - 1))
        for (value, weight) in weighted {
            if roll < weight { return value }
            roll -= weight
        }
        return weighted[weighted.count - 1].0
    }

    // MARK: Setup

    func setUp() async throws {
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        if let postgres = options.postgres {
            postgresDatabase = try await postgres.make()
        } else {
            try templates.copy(templates.server, to: serverDirectory)
        }
        let server = try await openServer()
        self.server = server
        let (group, _) = try await server.createGroup(name: "Sim League")
        groupID = group.id
        let count = rng.int(in: options.devices)
        for index in 0..<count {
            let directory = root.appendingPathComponent("d\(index)", isDirectory: true)
            try templates.copy(templates.device, to: directory)
            let database = try HyzerDatabase(directory: directory, clock: clock, logger: logger)
            let token = try await server.enroll(groupID: groupID, deviceID: database.deviceID, name: "d\(index)")
            devices.append(
                SimulatedDevice(index: index, directory: directory, deviceID: database.deviceID, token: token, database: database)
            )
            devices[index].engine = makeEngine(index, database)
        }
        note("server opens (epoch \(epochName(server.epoch))), \(count) devices enrolled")

        // The organizer's device sets up the round; the others get it by pulling.
        let organizer = try require(devices[0].database)
        let course = try Course(id: seededUUID(), name: "Sim Park", pars: [3, 3, 4, 3, 3, 4, 3, 5, 3])
        try await organizer.write(.saveCourse(course))
        let players = try ["Ann", "Bo", "Cy"].map { try Player(id: seededUUID(), displayName: $0) }
        for player in players { try await organizer.write(.savePlayer(player)) }
        let round = try await organizer.write(
            .createRound(
                courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered), at: clock.date
            ))
        let started = try await organizer.write(.startRound(round.id, at: clock.date))
        roundID = started.id
        participants = started.participants.map(\.id)
        note("d0 starts a round for 3 players on a 9-hole course")
        // Only the organizer syncs before the faults start; the others find the round by
        // pulling through them.
        await engineStep(0, .sync)
    }

    func require<T>(_ value: T?) throws -> T {
        guard let value else { throw SimulationError.missing }
        return value
    }

    enum SimulationError: Error { case missing }

    /// The server's storage as a starting process opens it: the run's SQLite files, or its
    /// PostgreSQL database.
    func openServer() async throws -> any ServerStorage {
        if let postgresDatabase { return try await PostgresStorage.open(postgresDatabase, clock: clock, logger: logger) }
        return try SQLiteStorage(directory: serverDirectory, clock: clock, logger: logger)
    }

    func makeEngine(_ index: Int, _ database: HyzerDatabase) -> SyncEngine {
        var engineOptions = SyncEngine.Options()
        engineOptions.liveUpdates = false
        // Small batches and pages: more requests per run, so more of them meet a fault.
        engineOptions.policy.pushBatch = 3
        engineOptions.policy.pullLimit = 6
        let device = devices[index]
        let link = ServerLink(
            serverURL: "sim://server", groupID: groupID, groupName: "Sim League", deviceID: device.deviceID,
            deviceName: device.name, deviceToken: device.token, enrolledAt: clock.date)
        return SyncEngine(
            database: database, link: link,
            transport: SimulatedTransport(world: self, device: index, incarnation: device.incarnation),
            options: engineOptions, clock: clock, logger: logger)
    }

    // MARK: Steps

    enum Action { case score, push, pull, sync, deliverHeld, restartServer, backup, restore, revoke, killDevice }
    enum EngineStep: String { case push, pull, sync }

    func takeStep() async throws {
        var actions: [(Action, Int)] = [
            (.score, 30), (.push, 22), (.pull, 18), (.sync, 6), (.restartServer, 2), (.backup, 3), (.killDevice, 2),
        ]
        if !held.isEmpty { actions.append((.deliverHeld, 10)) }
        if !backups.isEmpty { actions.append((.restore, 2)) }
        if devices.count > 1, !devices.contains(where: { $0.revokedAtStep != nil }) { actions.append((.revoke, 2)) }
        let device = rng.int(in: 0...(devices.count - 1))
        switch pick(actions) {
        case .score: try score(device)
        case .push: await engineStep(device, .push)
        case .pull: await engineStep(device, .pull)
        case .sync: await engineStep(device, .sync)
        case .deliverHeld: await deliverHeld()
        case .restartServer: try await restartServer()
        case .backup: try await backup()
        case .restore: try await restore()
        case .revoke: try await revoke()
        case .killDevice: try await killIdle(device)
        }
    }

    func score(_ index: Int) throws {
        guard let database = devices[index].database, let roundID else { return }
        if !hasRound.contains(index) {
            guard (try? database.read(.snapshot(round: roundID))) != nil else {
                note("d\(index) has no round to score yet")
                return
            }
            hasRound.insert(index)
        }
        let participant = rng.int(in: 0...(participants.count - 1))
        let hole = rng.int(in: 1...9)
        let strokes = rng.int(in: 2...6)
        let entry = ScoreEntry(
            roundID: roundID, participantID: participants[participant], hole: hole, strokes: strokes,
            reportedBy: participants[participant])
        let recorded = try database.write(.recordScore(entry, at: clock.date))
        devices[index].recorded.append(recorded.event.id)
        note("d\(index) records score \(devices[index].recorded.count): \(strokes) for p\(participant) on hole \(hole)")
        // Every fifth score a device saves is undone at once, as the kiosk's toast does (issue
        // 35): a retraction every device must read alike. Decided by the count, not the
        // generator, so each seed's other choices stay what they were.
        if devices[index].recorded.count % 5 == 4, recorded.roundStatus == .active {
            let undone = try database.write(.retractScore(entry, at: clock.date))
            devices[index].recorded.append(undone.event.id)
            note("d\(index) undoes it: score \(devices[index].recorded.count) withdraws it")
        }
        devices[index].engine?.localDataChanged()
    }

    /// One of the engine's own steps; a device killed during it restarts right after.
    /// True when the engine said there is more to push or pull.
    @discardableResult
    func engineStep(_ index: Int, _ kind: EngineStep) async -> Bool {
        guard let engine = devices[index].engine else { return false }
        var more = false
        let incarnation = devices[index].incarnation
        do {
            switch kind {
            case .push:
                more = try await engine.pushStep()
                note("d\(index) push step done\(more ? ", more to push" : "")")
            case .pull:
                more = try await engine.pullStep()
                note("d\(index) pull step done\(more ? ", more to pull" : "")")
            case .sync:
                let report = try await engine.syncNow()
                note(
                    "d\(index) syncNow: created \(report.created), duplicate \(report.duplicates), "
                        + "rejected \(report.rejected.count), pulled \(report.pulled), cursor \(report.cursor), "
                        + "pending \(report.pending)\(report.epochChanged ? ", new epoch" : "")")
            }
        } catch {
            note("d\(index) \(kind.rawValue) failed: \(error)")
        }
        if devices[index].database == nil || devices[index].incarnation != incarnation {
            do { try await restartDevice(index) } catch { fail("d\(index) cannot restart: \(error)") }
        } else {
            if kind != .pull { await noteAcknowledgements(index) }
        }
        return more
    }

    /// Reads which of the device's events its outbox marks synced, and checks at once that
    /// the server holds every newly acknowledged one (it answered for it this very step,
    /// so no restore can have come in between).
    func noteAcknowledgements(_ index: Int) async {
        guard let database = devices[index].database else { return }
        // One read first: the per-event reads only when the outbox's synced count moved
        // (they are most of the simulation's own cost otherwise).
        let synced = await (try? database.read(.outboxCounts)[.synced]) ?? 0
        guard synced != devices[index].syncedCount else { return }
        devices[index].syncedCount = synced
        var fresh: [Int] = []
        for (k, id) in devices[index].recorded.enumerated() where !devices[index].acked.contains(id) {
            if await (try? database.read(.outboxStatus(of: id))) == .synced {
                devices[index].acked.insert(id)
                fresh.append(k)
            }
        }
        guard !fresh.isEmpty, let events = try? await serverEvents() else { return }
        for k in fresh where events[devices[index].recorded[k]] == nil {
            fail("d\(index) score \(k + 1) was acknowledged but the server does not have it")
        }
    }

    /// The server's score events, read on from where the last call stopped (from the
    /// start under a new epoch: a restore is the only way the feed loses anything, and it
    /// always brings a new epoch, or the very same records).
    func serverEvents() async throws -> [UUID: Int] {
        guard let server else { throw SimulationError.missing }
        if eventCache.epoch != server.epoch { eventCache = (server.epoch, 0, [:]) }
        while true {
            let page = try await server.pull(groupID: groupID, after: eventCache.next, limit: 1000)
            for pulled in page.records {
                if case .scoreEvent = pulled.record { eventCache.events[pulled.record.id, default: 0] += 1 }
            }
            eventCache.next = page.next
            if !page.hasMore { return eventCache.events }
        }
    }

    func deliverHeld() async {
        let k = rng.int(in: 0...(held.count - 1))
        let push = held[k]
        // Sometimes the network keeps a copy and delivers it once more later.
        let again = chance(25)
        if !again { held.remove(at: k) }
        let answer = await deliver(push)
        note(
            "the push d\(push.device) sent at step \(push.sentAt) (\(push.records.count) records) arrives late: "
                + "\(describe(answer)); nobody waits for its reply\(again ? "; a copy stays in the network" : "")", fault: true)
    }

    // MARK: The server side

    /// The server's handling of a push as the route does it: the storage checks the token,
    /// its device and revocation in the push's own transaction, then the commit is noted.
    func deliver(_ push: HeldPush) async -> Result<PushResponse, SyncClientError> {
        guard let server else { return .failure(.unreachable("server down")) }
        do {
            let response: PushResponse
            if options.variant == .unenforcedRevocation {
                response = try await server.push(groupID: groupID, deviceID: push.deviceID, records: push.records)
            } else {
                response = try await server.push(
                    as: DeviceClaim(token: push.token, device: push.deviceID), records: push.records
                ).response
                server.noteCommitted(head: response.head)
            }
            if let revoked = devices[push.device].revokedAtStep {
                fail("the server accepted a push from d\(push.device) at step \(step), after its revocation at step \(revoked)")
            }
            return .success(response)
        } catch {
            return .failure(Self.refusal(error))
        }
    }

    /// What the route would answer for a storage error.
    static func refusal(_ error: any Error) -> SyncClientError {
        if let refusal = error as? AccessRefusal {
            return .http(status: refusal == .unauthenticated ? 401 : 403, message: "\(refusal)")
        }
        return .http(status: 500, message: "\(error)")
    }

    func describe(_ answer: Result<PushResponse, SyncClientError>) -> String {
        switch answer {
        case .success(let response):
            var created = 0
            var duplicate = 0
            var rejected = 0
            for result in response.results {
                switch result.status {
                case .created: created += 1
                case .duplicate: duplicate += 1
                case .rejected: rejected += 1
                }
            }
            return "created \(created), duplicate \(duplicate), rejected \(rejected), head \(response.head), "
                + "epoch \(epochName(response.epoch))"
        case .failure(let error):
            return "\(error)"
        }
    }

    /// A push from a device's engine, through the simulated network.
    func push(_ records: [SyncRecord], from index: Int, incarnation: Int) async throws(SyncClientError) -> PushResponse {
        guard devices[index].incarnation == incarnation, devices[index].database != nil else {
            throw .unreachable("this process is dead")
        }
        let device = devices[index]
        let request = HeldPush(
            device: index, token: device.token, deviceID: device.deviceID, records: records, sentAt: step)
        let fate: PushFate =
            healing
            ? .deliver
            : pick([
                (.deliver, 55), (.loseRequest, 10), (.loseReply, 10), (.duplicate, 8), (.holdBack, 10), (.killDevice, 7),
            ])
        let what = "d\(index) pushes \(records.count)"
        let answer: Result<PushResponse, SyncClientError>
        switch fate {
        case .deliver:
            answer = await deliver(request)
            note("\(what): \(describe(answer))")
        case .loseRequest:
            answer = .failure(.unreachable("request lost"))
            note("\(what): the request is lost", fault: true)
        case .loseReply:
            let committed = await deliver(request)
            answer = .failure(.unreachable("reply lost"))
            note("\(what): the server answers \(describe(committed)), but the reply is lost", fault: true)
        case .duplicate:
            let first = await deliver(request)
            answer = await deliver(request)
            note("\(what): delivered twice: \(describe(first)); then \(describe(answer))", fault: true)
        case .holdBack:
            held.append(request)
            answer = .failure(.unreachable("timed out"))
            note("\(what): the network holds it back; the device times out", fault: true)
        case .killDevice:
            let delivered = chance(50)
            var committed = "never got it"
            if delivered { committed = describe(await deliver(request)) }
            try? devices[index].database?.close()
            devices[index].database = nil
            devices[index].engine = nil
            killedPush[index] = records.count
            note("\(what): the device is killed while it waits (the server \(committed))", fault: true)
            throw .unreachable("the device was killed")
        }
        if options.variant == .ackBeforeCommit {
            // The broken engine: every record "created" whatever became of the request.
            return PushResponse(
                epoch: server?.epoch ?? "", head: 0,
                results: records.map { PushResult(kind: $0.kind, id: $0.id, version: $0.version, status: .created) })
        }
        switch answer {
        case .success(let response): return response
        case .failure(let error): throw error
        }
    }

    /// A pull from a device's engine. A lost request and a lost reply are the same to a
    /// read; a duplicated one changes nothing.
    func pull(after: Int64, limit: Int, from index: Int, incarnation: Int) async throws(SyncClientError) -> PullResponse {
        guard devices[index].incarnation == incarnation, devices[index].database != nil else {
            throw .unreachable("this process is dead")
        }
        guard let server else { throw .unreachable("server down") }
        let device = devices[index]
        if !healing, chance(15) {
            note("d\(index) pulls after \(after): lost", fault: true)
            throw .unreachable("lost")
        }
        do {
            let page =
                options.variant == .unenforcedRevocation
                ? try await server.pull(groupID: groupID, after: after, limit: limit)
                : try await server.pull(as: DeviceClaim(token: device.token, device: device.deviceID), after: after, limit: limit)
            note(
                "d\(index) pulls after \(after): \(page.records.count) records, next \(page.next), head \(page.head), "
                    + "epoch \(epochName(page.epoch))")
            return page
        } catch {
            let refusal = Self.refusal(error)
            note("d\(index) pulls after \(after): \(refusal)")
            throw refusal
        }
    }

    func restartServer() async throws {
        try await server?.close()
        server = nil
        let reopened = try await openServer()
        server = reopened
        note("the server restarts (epoch \(epochName(reopened.epoch)))", fault: true)
    }

    func backup() async throws {
        guard let server else { return }
        let directory = root.appendingPathComponent("backups", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("b\(backups.count).backup")
        try await server.backup(to: url)
        backups.append((url, step))
        let head = try await server.head(groupID: groupID)
        note("the server is backed up (b\(backups.count - 1), head \(head))")
    }

    /// Puts an older backup in place, with the restore command or by hand (a file copied
    /// over the database, which the state file must catch at start-up; SQLite only), then
    /// repeats the revocations the backup predates, as the admin must (the backup's device
    /// list is the one restored).
    func restore() async throws {
        let k = rng.int(in: 0...(backups.count - 1))
        let byHand = chance(40) && postgresDatabase == nil
        try await server?.close()
        server = nil
        if let postgresDatabase {
            _ = try await PostgresStorage.restore(backup: backups[k].url, into: postgresDatabase, logger: logger)
        } else if byHand {
            let path = serverDirectory.appendingPathComponent(SQLiteStorage.fileName).path
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            try FileManager.default.copyItem(atPath: backups[k].url.path, toPath: path)
        } else {
            _ = try SQLiteStorage.restore(backup: backups[k].url, into: serverDirectory, clock: clock, logger: logger)
        }
        let reopened = try await openServer()
        server = reopened
        lastRestoreStep = step
        let head = try await reopened.head(groupID: groupID)
        note(
            "the server is restored from b\(k) (taken at step \(backups[k].takenAt)) \(byHand ? "by hand" : "by the restore command"): "
                + "epoch \(epochName(reopened.epoch)), head \(head)", fault: true)
        for device in devices where device.revokedAtStep != nil {
            if (try? await reopened.revoke(groupID: groupID, deviceID: device.deviceID)) != nil {
                note("the admin revokes d\(device.index) again: the backup predates its revocation", fault: true)
            }
        }
    }

    /// The admin revokes a device other than the organizer's, in the middle of the round.
    func revoke() async throws {
        guard let server else { return }
        let index = rng.int(in: 1...(devices.count - 1))
        try await server.revoke(groupID: groupID, deviceID: devices[index].deviceID)
        devices[index].revokedAtStep = step
        note("the admin revokes d\(index)", fault: true)
    }

    /// A device killed between requests (power cut, crash): its process state is gone.
    func killIdle(_ index: Int) async throws {
        try? devices[index].database?.close()
        devices[index].database = nil
        devices[index].engine = nil
        note("d\(index) is killed between requests", fault: true)
        try await restartDevice(index)
    }

    /// Reopens a killed device from its files, as the kiosk starts: the rows its last push
    /// had claimed must be inFlight on disk, and pending again once the engine recovers.
    func restartDevice(_ index: Int) async throws {
        let database = try HyzerDatabase(directory: devices[index].directory, clock: clock, logger: logger)
        let inFlight = try await database.read(.outboxCounts)[.inFlight] ?? 0
        let claimed = killedPush.removeValue(forKey: index) ?? 0
        devices[index].database = database
        devices[index].incarnation += 1
        let engine = makeEngine(index, database)
        devices[index].engine = engine
        let reset = try await engine.recoverOutbox()
        let left = try await database.read(.outboxCounts)[.inFlight] ?? 0
        if inFlight != claimed || reset != claimed || left != 0 {
            fail(
                "d\(index) restarted with \(inFlight) rows inFlight (its last push claimed \(claimed)); "
                    + "\(reset) made pending, \(left) still inFlight")
        }
        note("d\(index) restarts from its files: \(reset) inFlight rows are pending again")
    }

    // MARK: Heal and check

    /// The network stops failing: whatever it still holds arrives, in an order the seed
    /// picks, then every device still in the group syncs (`syncNow`: after it, the server
    /// has everything the device holds), and then pulls what the devices after it pushed.
    func heal() async {
        note("the network heals")
        while !held.isEmpty {
            let push = held.remove(at: rng.int(in: 0...(held.count - 1)))
            let answer = await deliver(push)
            note("the push d\(push.device) sent at step \(push.sentAt) arrives late: \(describe(answer))")
        }
        let members = devices.indices.filter { devices[$0].revokedAtStep == nil }
        for index in members { await engineStep(index, .sync) }
        for index in members.dropLast() {
            var pages = 0
            while pages < 100, await engineStep(index, .pull) { pages += 1 }
        }
    }

    struct Feed {
        /// How many times each score event is in the feed.
        var events: [UUID: Int] = [:]
        var repeats: [String] = []
    }

    /// The group's whole feed, as the server stores it.
    func serverFeed() async throws -> Feed {
        guard let server else { throw SimulationError.missing }
        var feed = Feed()
        var seen: [String: Int64] = [:]
        var after: Int64 = 0
        while true {
            let page = try await server.pull(groupID: groupID, after: after, limit: 1000)
            for pulled in page.records {
                let record = pulled.record
                let key = "\(record.kind.rawValue) \(record.id) \(record.version)"
                if let first = seen[key] {
                    feed.repeats.append("seq \(pulled.seq) repeats the \(record.kind.rawValue) at seq \(first)")
                }
                seen[key] = seen[key] ?? pulled.seq
                if case .scoreEvent = record { feed.events[record.id, default: 0] += 1 }
            }
            after = page.next
            if !page.hasMore { return feed }
        }
    }

    func check() async throws {
        let feed = try await serverFeed()
        feed.repeats.forEach { fail("the feed holds a record twice: \($0)") }
        for device in devices {
            // A restore can lose what only a revoked device held: it can no longer push it
            // again, whether the restore came after its revocation or just before it, while
            // it had not yet seen the new epoch (seed 9079). Nothing else excuses a lost
            // acknowledgement.
            let excused = device.revokedAtStep != nil && lastRestoreStep != nil
            for (k, id) in device.recorded.enumerated() {
                let copies = feed.events[id] ?? 0
                if copies > 1 { fail("d\(device.index) score \(k + 1) is on the server \(copies) times") }
                if copies == 0, device.acked.contains(id), !excused {
                    fail("d\(device.index) score \(k + 1) was acknowledged but is not on the server")
                } else if copies == 0, device.revokedAtStep == nil {
                    fail("d\(device.index) score \(k + 1) never reached the server")
                }
            }
        }
        // Every device still in the group shows what the server holds, and the same standings.
        guard let roundID else { return }
        let serverEvents = Set(feed.events.keys)
        var reference: (name: String, standings: Standings)?
        for device in devices where device.revokedAtStep == nil {
            guard let database = device.database else { continue }
            let snapshot = try await database.read(.snapshot(round: roundID))
            let events = Set(snapshot.events.map(\.id))
            if events != serverEvents {
                fail(
                    "\(device.name) holds \(events.count) score events, the server \(serverEvents.count) "
                        + "(\(events.subtracting(serverEvents).count) only on the device, "
                        + "\(serverEvents.subtracting(events).count) only on the server)")
            }
            if let reference, reference.standings != snapshot.standings {
                fail("\(device.name)'s standings differ from \(reference.name)'s")
            }
            if reference == nil { reference = (device.name, snapshot.standings) }
            let pending = try await database.read(.pendingSyncCount)
            let refused = try await database.read(.outboxCounts)[.failed] ?? 0
            if pending != 0 || refused != 0 {
                fail("\(device.name) still has \(pending) records to push and \(refused) refused")
            }
        }
        note("checked: \(serverEvents.count) score events on the server, \(report.failures.count) failures")
    }

    func shutDown() async {
        for index in devices.indices { try? devices[index].database?.close() }
        try? await server?.close()
        if let postgresDatabase { try? await options.postgres?.drop(postgresDatabase) }
    }
}

/// A device's engine's way to the simulated server.
struct SimulatedTransport: SyncTransport {
    let world: World
    let device: Int
    let incarnation: Int

    func push(_ records: [SyncRecord]) async throws(SyncClientError) -> PushResponse {
        try await world.push(records, from: device, incarnation: incarnation)
    }

    func pull(after: Int64, limit: Int) async throws(SyncClientError) -> PullResponse {
        try await world.pull(after: after, limit: limit, from: device, incarnation: incarnation)
    }
}
