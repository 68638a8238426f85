import Foundation
import HyzerHarness
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol

/// Weeks of uptime, compressed (issue 12): a real `hyzer-server` and a real `hyzer-kiosk`
/// process (an X11 window under Xvfb, or headless), both enrolled in one group; a second
/// device (a store and a `SyncEngine` in this process) scores, corrects and plays rounds
/// through the server at a steady rate, and a third device pushes conflicting values for
/// cells the second one has scored (discrepancies). Every 10 s the kiosk's RSS, PSS,
/// descriptors, threads and CPU time are read from /proc.
///
/// Rounds turn over as on a real course: 20 players × 18 holes, every cell scored, one
/// correction in ten cells and one conflict in twenty (414 writes), then the round is
/// finished and the next one starts. A round's events are data the kiosk must hold, so a
/// single endless round would make the memory figure grow with the data, not with a leak.
///
/// `growth_mb_per_hour` is the least-squares slope of RSS over the samples taken after the
/// warm-up (`--warmup-minutes`; by default the first 5 minutes, or the first third of a run
/// shorter than 15 minutes): caches fill and the allocator settles in the first minutes;
/// what grows after that is what a kiosk left on for weeks would keep growing. `cpu_pct` is the kiosk's CPU time from the
/// first write to the last, over that wall time, in per cent of one core.
enum SoakBenchmark {
    struct Settings {
        var minutes: Double
        var rate: Double
        var headless: Bool
        /// One round that is never finished: once every cell has a value the writes go on
        /// correcting it, so the round's events (data the kiosk must hold) grow with the run.
        var singleRound = false
        /// Samples before this many minutes are left out of the growth figures; nil: the
        /// first 5 minutes, or the first third of a run shorter than 15 minutes.
        var warmupMinutes: Double? = nil
    }

    /// The last line `hyzer-bench soak` prints, keys in snake case ("rss_start_mb").
    struct Report: Codable {
        var writes: Int
        var rssStartMb: Double
        var rssEndMb: Double
        /// Nil (null) when the run was too short for two samples after the warm-up.
        var growthMbPerHour: Double?
        var cpuPct: Double
        var pssStartMb: Double
        var pssEndMb: Double
        var pssGrowthMbPerHour: Double?
        var privateStartMb: Double
        var privateEndMb: Double
        var privateGrowthMbPerHour: Double?
        var fdsMax: Int
        var threadsMax: Int
        /// Events the second and third devices wrote that the kiosk's store lacks at the end.
        var eventsMissing: Int
        var frames: Int?

        func json() throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            encoder.keyEncodingStrategy = .convertToSnakeCase
            return String(decoding: try encoder.encode(self), as: UTF8.self)
        }
    }

    static let sampleInterval: Double = 10
    static let players = 20
    static let holes = 18

    static func run(in workspace: Workspace, _ settings: Settings) async throws -> Report {
        let serverBinary = try siblingBinary("hyzer-server")
        let kioskBinary = try siblingBinary("hyzer-kiosk")
        let root = workspace.url
        let serverDir = root.appendingPathComponent("server")
        let kioskDir = root.appendingPathComponent("kiosk")
        try FileManager.default.createDirectory(at: serverDir, withIntermediateDirectories: true)

        // The group server, as `make run` starts it.
        let created = try await Binary.run(
            executable: serverBinary, ["group", "create", "Soak League", "--data", serverDir.path])
        guard created.status == 0, let admin = created.stdout.split(separator: "\n").last.map(String.init) else {
            throw BenchError("hyzer-server group create failed: \(created.stderr)")
        }
        let port = try freePort()
        let serverURL = "http://127.0.0.1:\(port)"
        let server = try await ChildProcess.start(
            // No rate limit: the soak measures the kiosk, and its writers (--rate up to 1000/s)
            // may go past a token's default 20/s.
            serverBinary,
            [
                "--data", serverDir.path, "--port", String(port), "--host", "127.0.0.1", "--log-level", "warning",
                "--rate-limit", "0",
            ],
            output: .file(serverDir.appendingPathComponent("server.log")))
        let teardown = Teardown()
        teardown.add {
            server.terminate()
            _ = try? await server.waitForExit(timeout: .seconds(15))
        }
        do {
            let report = try await drive(
                settings, serverURL: serverURL, admin: admin, root: root, kioskDir: kioskDir, kioskBinary: kioskBinary,
                teardown: teardown)
            await teardown.run()
            return report
        } catch {
            await teardown.run()
            throw error
        }
    }

    private static func drive(
        _ settings: Settings, serverURL: String, admin: String, root: URL, kioskDir: URL, kioskBinary: URL,
        teardown: Teardown
    ) async throws -> Report {
        // Enrol the kiosk the way `hyzer device enroll` does: its store, then its link file.
        let kioskStore = try HyzerDatabase.open(dataDirectory: kioskDir, assets: HyzerPaths.assetsDirectory())
        let kioskLink = try await enroll(serverURL, admin, deviceID: kioskStore.deviceID, name: "Soak kiosk")
        try kioskLink.save(to: kioskDir)
        try kioskStore.close()

        // The second device: a store and its sync engine, as on a phone or a second kiosk.
        let store = try HyzerDatabase.open(
            dataDirectory: root.appendingPathComponent("device"), assets: HyzerPaths.assetsDirectory())
        let engine = SyncEngine(
            database: store, link: try await enroll(serverURL, admin, deviceID: store.deviceID, name: "Soak device"))
        guard let course = try await store.read(.courses).first(where: { $0.holeCount == holes }) else {
            throw BenchError("no \(holes)-hole course among the seeded ones")
        }
        let people = try HyzerDatabase.demoNames.prefix(players).map { try Player(displayName: $0) }
        for person in people { try await store.write(.savePlayer(person)) }
        var round = try newRound(store, course: course, people: people)
        _ = try await engine.syncNow()
        let engineRun = engine.launch()
        teardown.add { await engineRun.stop() }

        // The third device pushes raw events: a value for a cell that does not supersede
        // what the second device wrote there is a discrepancy on every other device.
        let rivalID = "soak-rival"
        let rival = SyncClient(link: try await enroll(serverURL, admin, deviceID: rivalID, name: "Soak rival"))

        // The kiosk, in a window under Xvfb or headless.
        var environment = ProcessInfo.processInfo.environment
        var kioskArguments = ["--data", kioskDir.path, "--size", "1920x1080", "--knob", "keyboard"]
        if settings.headless {
            kioskArguments.append("--headless")
        } else {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
                throw BenchError("Xvfb is not installed (make deps), or run with --headless")
            }
            let display = ":\(700 + Int.random(in: 0..<200))"
            let xvfb = try await XvfbServer.start(display: display)
            teardown.add { await xvfb.stop() }
            environment["DISPLAY"] = display
            kioskArguments.append("--windowed")
        }
        // A safety net: the kiosk leaves by itself should this benchmark die.
        kioskArguments += ["--run-for", String(Int(settings.minutes * 60 + 120))]
        let kioskLog = root.appendingPathComponent("kiosk.log")
        let kiosk = try await ChildProcess.start(kioskBinary, kioskArguments, environment: environment, output: .file(kioskLog))
        teardown.add {
            kiosk.terminate()
            _ = try? await kiosk.waitForExit(timeout: .seconds(15))
        }
        let pid = kiosk.processIdentifier
        log("soak: kiosk \(pid) \(settings.headless ? "headless" : "in an X11 window"), server on \(serverURL)")
        try await waitForFirstFrame(kioskLog, kiosk: kiosk)

        // The writes, at a steady pace, with a sample every 10 s.
        let total = Int(settings.minutes * 60 * settings.rate)
        let interval = UInt64(1e9 / settings.rate)
        var plan = WritePlan(rotate: !settings.singleRound)
        var written: [UUID: Int] = [:]  // events per round, to check the kiosk has them all
        var samples: [Sample] = []
        let start = nowNs()
        guard let initial = Sample.read(pid: pid, at: 0) else { throw BenchError("the kiosk is gone") }
        samples.append(initial)
        var nextSample = start + UInt64(sampleInterval * 1e9)
        var writes = 0
        var failures = 0
        for i in 0..<total {
            let due = start + UInt64(i) * interval
            let now = nowNs()
            if due > now { try await Task.sleep(nanoseconds: due - now) }
            do {
                switch plan.next() {
                case .score(let cell, let strokes), .correct(let cell, let strokes):
                    let p = round.participants[cell.player]
                    _ = try await store.write(
                        .recordScore(
                            ScoreEntry(
                                roundID: round.id, participantID: p.id, hole: cell.hole, strokes: strokes, reportedBy: p.id)))
                    engine.localDataChanged()
                    written[round.id, default: 0] += 1
                    writes += 1
                case .conflict(let cell, let strokes):
                    let p = round.participants[cell.player]
                    let event = ScoreEvent(
                        roundID: round.id, participantID: p.id, hole: cell.hole, strokes: strokes, reportedBy: p.id,
                        deviceID: rivalID, createdAt: SystemClock().date)
                    let answer = try await rival.push([.scoreEvent(ScoreEventRecord(event))])
                    guard answer.results.allSatisfy({ $0.status == .created }) else { throw BenchError("conflict refused") }
                    written[round.id, default: 0] += 1
                    writes += 1
                case .nextRound:
                    _ = try await store.write(.finishRound(round.id))
                    round = try newRound(store, course: course, people: people)
                    engine.localDataChanged()
                }
            } catch {
                failures += 1
                log("soak: write \(i) failed: \(error)")
            }
            if nowNs() >= nextSample {
                let t = Double(nowNs() - start) / 1e9
                guard let sample = Sample.read(pid: pid, at: t) else { throw BenchError("the kiosk exited at \(Int(t)) s") }
                samples.append(sample)
                log("soak: \(sample.line) writes=\(writes)")
                nextSample += UInt64(sampleInterval * 1e9)
            }
        }
        let writeSeconds = Double(nowNs() - start) / 1e9
        guard let last = Sample.read(pid: pid, at: writeSeconds) else { throw BenchError("the kiosk exited at the end") }
        samples.append(last)
        let cpuPct = (last.cpuSeconds - initial.cpuSeconds) / writeSeconds * 100

        // The second device's last writes may still wait in its outbox: push them, let the
        // kiosk pull them (a pull per poke, a reload a second), then stop it as systemd would.
        _ = try? await engine.syncNow()
        try await Task.sleep(for: .seconds(10))
        kiosk.terminate()
        let ended = try await kiosk.waitForExit(timeout: .seconds(30))
        let frames = exitFrames(kioskLog)
        log("soak: kiosk \(ended.termination), \(frames.map(String.init) ?? "?") frames, \(failures) failed writes")

        let kioskAfter = try HyzerDatabase.open(dataDirectory: kioskDir, assets: HyzerPaths.assetsDirectory())
        var missing = 0
        for (roundID, count) in written {
            let mine = try await kioskAfter.read(.events(round: roundID)).count
            missing += max(0, count - mine)
        }
        try kioskAfter.close()

        let warmup = settings.warmupMinutes.map { $0 * 60 } ?? (settings.minutes >= 15 ? 300 : settings.minutes * 60 / 3)
        let settled = samples.filter { $0.t >= warmup }
        let first = samples[0]
        return Report(
            writes: writes, rssStartMb: round3(first.rssMB), rssEndMb: round3(last.rssMB),
            growthMbPerHour: slopePerHour(settled.map { ($0.t, $0.rssMB) }), cpuPct: round3(cpuPct),
            pssStartMb: round3(first.pssMB), pssEndMb: round3(last.pssMB),
            pssGrowthMbPerHour: slopePerHour(settled.map { ($0.t, $0.pssMB) }),
            privateStartMb: round3(first.privateMB), privateEndMb: round3(last.privateMB),
            privateGrowthMbPerHour: slopePerHour(settled.map { ($0.t, $0.privateMB) }),
            fdsMax: samples.map(\.fds).max() ?? 0, threadsMax: samples.map(\.threads).max() ?? 0,
            eventsMissing: missing, frames: frames)
    }

    static func enroll(_ server: String, _ admin: String, deviceID: String, name: String) async throws -> ServerLink {
        // The server may still be binding its port.
        var attempt = 0
        while true {
            do {
                let answer = try await SyncClient.enroll(server: server, groupToken: admin, deviceID: deviceID, name: name)
                return ServerLink(
                    serverURL: server, groupID: answer.groupID, groupName: answer.groupName, deviceID: deviceID,
                    deviceName: name, deviceToken: answer.deviceToken, enrolledAt: SystemClock().date)
            } catch {
                attempt += 1
                if attempt > 40 { throw BenchError("cannot enrol \(name) with \(server): \(error)") }
                try await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    static func newRound(_ store: HyzerDatabase, course: Course, people: [Player]) throws -> Round {
        let round = try store.write(
            .createRound(
                courseID: course.id, organizerID: people[0].id, participants: people.map(Participant.registered)))
        return try store.write(.startRound(round.id))
    }

    /// Waits for the kiosk's "first-frame" line in its log.
    static func waitForFirstFrame(_ log: URL, kiosk: ChildProcess) async throws {
        for _ in 0..<300 {
            if let text = try? String(contentsOf: log, encoding: .utf8), text.contains("first-frame") { return }
            guard kiosk.isRunning else {
                throw BenchError("the kiosk exited: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw BenchError("the kiosk drew no frame within 30 s")
    }

    static func exitFrames(_ log: URL) -> Int? {
        guard let text = try? String(contentsOf: log, encoding: .utf8),
            let line = text.split(separator: "\n").last(where: { $0.contains("\"exit\"") }),
            let report = try? JSONDecoder().decode(RenderBenchmark.ExitReport.self, from: Data(line.utf8))
        else { return nil }
        return report.frames
    }

    /// Least-squares slope of (seconds, MB) in MB per hour; nil with fewer than two points.
    static func slopePerHour(_ points: [(Double, Double)]) -> Double? {
        guard points.count >= 2 else { return nil }
        let n = Double(points.count)
        let mx = points.map(\.0).reduce(0, +) / n
        let my = points.map(\.1).reduce(0, +) / n
        let sxy = points.map { ($0.0 - mx) * ($0.1 - my) }.reduce(0, +)
        let sxx = points.map { ($0.0 - mx) * ($0.0 - mx) }.reduce(0, +)
        return sxx > 0 ? round3(sxy / sxx * 3600) : nil
    }

    /// A port nobody listens on now (the kernel's pick for a socket bound to port 0).
    static func freePort() throws -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError("socket() failed") }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(fd, raw, length) == 0 && getsockname(fd, raw, &length) == 0
            }
        }
        guard bound else { throw BenchError("cannot find a free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

/// What to undo at the end of a run, last first (the kiosk before Xvfb, the server last).
final class Teardown {
    private var steps: [() async -> Void] = []

    func add(_ step: @escaping () async -> Void) { steps.append(step) }

    func run() async {
        for step in steps.reversed() { await step() }
        steps = []
    }
}

/// The order of writes over rounds: every cell hole by hole, a correction after every tenth
/// cell, a conflicting value from the third device after every twentieth, then the next round.
struct WritePlan {
    struct Cell: Equatable {
        var player: Int
        var hole: Int
    }

    enum Step: Equatable {
        case score(Cell, strokes: Int)
        case correct(Cell, strokes: Int)
        case conflict(Cell, strokes: Int)
        case nextRound
    }

    /// False: after the last cell the plan corrects cells again instead of a new round.
    let rotate: Bool
    private var index = 0
    private var laps = 0

    init(rotate: Bool) { self.rotate = rotate }
    private var pending: [Step] = []
    /// A fixed sequence (xorshift), so two runs write the same values.
    private var seed: UInt64 = 0x9E37_79B9_7F4A_7C15

    private mutating func strokes() -> Int {
        seed ^= seed << 13
        seed ^= seed >> 7
        seed ^= seed << 17
        return 2 + Int(seed % 5)
    }

    mutating func next() -> Step {
        if !pending.isEmpty { return pending.removeFirst() }
        let cells = SoakBenchmark.players * SoakBenchmark.holes
        if index == cells {
            index = 0
            laps += 1
            if rotate { return .nextRound }
        }
        let cell = Cell(player: index % SoakBenchmark.players, hole: 1 + index / SoakBenchmark.players)
        index += 1
        let first = strokes()
        if index % 10 == 0 { pending.append(.correct(cell, strokes: first + 1)) }
        if index % 20 == 0 { pending.append(.conflict(cell, strokes: first + 2)) }
        return laps > 0 && !rotate ? .correct(cell, strokes: first) : .score(cell, strokes: first)
    }
}

/// One reading of the kiosk process from /proc.
struct Sample {
    var t: Double
    var rssMB: Double
    var pssMB: Double
    /// Pages only this process maps (Private_Clean + Private_Dirty). With a second kiosk of
    /// the same binary soaking beside it, the pages they share are left out rather than split
    /// as PSS splits them: steady while both run, though they turn private when the other
    /// exits (RSS is the figure no neighbour moves).
    var privateMB: Double
    var fds: Int
    var threads: Int
    var cpuSeconds: Double

    var line: String {
        String(
            format: "t=%4.0fs rss=%.1fMB pss=%.1fMB private=%.1fMB fds=%d threads=%d cpu=%.1fs", t, rssMB, pssMB, privateMB,
            fds, threads, cpuSeconds)
    }

    static func read(pid: pid_t, at t: Double) -> Sample? {
        let proc = "/proc/\(pid)"
        guard let status = try? String(contentsOfFile: "\(proc)/status", encoding: .utf8),
            let rollup = try? String(contentsOfFile: "\(proc)/smaps_rollup", encoding: .utf8),
            let stat = try? String(contentsOfFile: "\(proc)/stat", encoding: .utf8),
            let fds = try? FileManager.default.contentsOfDirectory(atPath: "\(proc)/fd")
        else { return nil }
        func field(_ text: String, _ name: String) -> Double? {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).dropFirst().first.flatMap { Double($0) }
        }
        // utime and stime are fields 14 and 15; the command name before them may hold spaces.
        let afterName = stat[stat.index(after: stat.lastIndex(of: ")") ?? stat.startIndex)...]
            .split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard afterName.count > 12, let user = Double(afterName[11]), let system = Double(afterName[12]),
            let rss = field(status, "VmRSS"), let threads = field(status, "Threads"), let pss = field(rollup, "Pss"),
            let clean = field(rollup, "Private_Clean"), let dirty = field(rollup, "Private_Dirty")
        else { return nil }
        return Sample(
            t: t, rssMB: rss / 1024, pssMB: pss / 1024, privateMB: (clean + dirty) / 1024, fds: fds.count, threads: Int(threads),
            cpuSeconds: (user + system) / ticks)
    }
}
