import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore
import KioskRender
import Subprocess

#if canImport(System)
import System
#else
import SystemPackage
#endif

/// The board's costs (issue 4): frame time during a 20-row reshuffle at 1920×1080 on
/// the software renderer, score saved → board redrawn, launch to first frame, idle CPU
/// and memory of a running kiosk.
enum RenderBenchmark {
    static func run(in workspace: Workspace, idleSeconds: Double) async throws -> Figures {
        guard let assets = HyzerPaths.assetsDirectory() else { throw BenchError("cannot find assets/ (run from the checkout)") }
        let fonts = assets.appendingPathComponent("fonts")
        let (p50, p99, frames) = try reshuffleFrames(fonts: fonts)
        log("render: \(frames) frames of 20-row reshuffles at 1920x1080, software renderer")
        let screens = try pagingAndHoleCardFrames(fonts: fonts)
        let commit = try commitToRedraw(fonts: fonts, in: workspace.subdirectory("commit"))
        log("render: of which the save (SQLite, reload, state) \(round3(commit.save)) ms, the frame \(round3(commit.draw)) ms")
        let night = try leagueNightRedraw(fonts: fonts, in: workspace.subdirectory("night"))
        let kiosk = try kioskBinary()
        let launch = try await launchToFirstFrame(kiosk, in: workspace.subdirectory("launch"))
        let (idleCPU, rss) = try await idle(kiosk, seconds: idleSeconds, in: workspace.subdirectory("idle"))
        return Figures(
            [
                "frame_p50_ms": round3(p50), "frame_p99_ms": round3(p99), "commit_to_redraw_ms": round3(commit.total),
                "commit_save_ms": round3(commit.save), "commit_draw_ms": round3(commit.draw),
                "launch_ms": round3(launch), "idle_cpu_pct": round3(idleCPU), "rss_mb": round3(rss),
            ].merging(screens) { a, _ in a }.merging(night) { a, _ in a })
    }

    /// Issue 36 item 7: a league night of 30 players in 8 cards (shotgun starts) on 18
    /// holes, the kiosk's board ranking them together at 1920×1080. A score saved on any
    /// card (written to the store as a phone's arrives, then the reload a commit causes)
    /// until the combined board is drawn: the median and p99 of the whole, and of the frame
    /// alone (the frame goal is one 60 Hz frame, 16.7 ms).
    static func leagueNightRedraw(fonts: URL, in dir: URL) throws -> [String: Double] {
        let store = try HyzerDatabase.open(dataDirectory: dir)
        let course = try Course(name: "Bench Park", holeCount: 18)
        try store.write(.saveCourse(course))
        let players = try (0..<30).map { try Player(displayName: "Player \($0 + 1)") }
        for p in players { try store.write(.savePlayer(p)) }
        let sizes = CardDraw.sizes(players: players.count)
        var rest = players[...]
        let cards = sizes.enumerated().map { index, size in
            defer { rest = rest.dropFirst(size) }
            return LeagueNightCard(
                participants: rest.prefix(size).map(Participant.registered),
                startHole: CardDraw.startHole(card: index, of: sizes.count, holes: course.holeCount))
        }
        let night = try store.write(
            .createLeagueNight(
                name: "Bench night", courseID: course.id, organizerID: players[0].id, cards: cards, skins: .field,
                closestToPin: [5], acePot: .init(buyIn: 1, players: players.map(\.id))))
        _ = try store.write(.startLeagueNight(night.id))
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        var now: Millis = 1_000
        let session = try KioskSession(store: store, viewport: display.viewport, now: now)
        var totals: [Double] = []
        var frames: [Double] = []
        // Warm the text cache: the first frame draws every name for the first time.
        display.draw(session.state, now: now, wallClock: SystemClock().date)
        for i in 0..<120 {
            let card = i % cards.count
            let who = cards[card].participants[(i / cards.count) % cards[card].participants.count]
            let hole = (cards[card].startHole - 1 + i / 24) % course.holeCount + 1
            let start = nowNs()
            _ = try store.write(
                .recordScore(
                    ScoreEntry(
                        roundID: night.rounds[card], participantID: who.id, hole: hole, strokes: 2 + i % 4,
                        reportedBy: who.id)))
            session.reload(.remote, now: now)
            let drawn = nowNs()
            display.draw(session.state, now: now, wallClock: SystemClock().date)
            display.present()
            let end = nowNs()
            totals.append(Double(end - start) / 1e6)
            frames.append(Double(end - drawn) / 1e6)
            now += 2_000
            session.send(.tick, now: now)
        }
        let rows = session.state.leaderboard.rows.count
        log(
            "render: a league night of \(rows) on \(cards.count) cards, \(totals.count) scores saved and the combined board redrawn"
        )
        return [
            "night_commit_to_redraw_p50_ms": round3(percentile(totals, 50)),
            "night_commit_to_redraw_p99_ms": round3(percentile(totals, 99)),
            "night_frame_p50_ms": round3(percentile(frames, 50)), "night_frame_p99_ms": round3(percentile(frames, 99)),
        ]
    }

    /// A started 20-player round on an 18-hole course, and hole 1's scores for it: in one
    /// order, or flipped (every row moves).
    struct BenchRound {
        let course: Course
        var round: Round
        let clock = SystemClock()

        init() throws {
            course = try Course(name: "Bench Park", holeCount: 18)
            round = Round(courseID: course.id, organizerID: UUID(), createdAt: clock.date)
            for i in 0..<20 { try round.add(Participant(id: UUID(), name: "Player \(i + 1)", kind: .registered)) }
            try round.start(at: clock.date)
        }

        func data(flipped: Bool) -> KioskData {
            let events = round.participants.enumerated().map { index, p in
                let strokes = 2 + (flipped ? 19 - index : index) % 8
                return ScoreEvent(
                    roundID: round.id, participantID: p.id, hole: 1, strokes: strokes, reportedBy: p.id, deviceID: "bench",
                    createdAt: clock.date)
            }
            return KioskData(round: RoundSnapshot(round: round, course: course, events: events), courses: [course])
        }
    }

    /// Issue 15's screens for a group that does not fit, at 800×480 and 1920×1080: the
    /// paging board over three rounds of its pages, drawn at every wake-up the machine asks
    /// for (each flip and its fade's frames; the first round warms the text cache), and the
    /// 20-player hole card with the knob turned through every row, drawn every frame of
    /// each scroll.
    static func pagingAndHoleCardFrames(fonts: URL) throws -> [String: Double] {
        var figures: [String: Double] = [:]
        let bench = try BenchRound()
        for (w, h) in [(800, 480), (1920, 1080)] {
            let display = try Display(mode: .headless, size: Viewport(width: w, height: h), fontsDirectory: fonts)
            func timed(_ state: KioskState, at now: Millis) -> Double {
                let start = nowNs()
                display.draw(state, now: now, wallClock: SystemClock().date)
                display.present()
                return Double(nowNs() - start) / 1e6
            }
            var state = KioskState(viewport: display.viewport)
            var now: Millis = 0
            state.handle(.dataChanged(bench.data(flipped: false), .localScore), now: now)
            let cycle = Millis(state.boardPages.pages) * state.settings.boardPageInterval
            var board: [Double] = []
            while let wake = state.nextWakeUp(after: now), wake <= 3 * cycle {
                now = max(wake, now + 1)
                state.handle(.tick, now: now)
                let ms = timed(state, at: now)
                if now > cycle { board.append(ms) }
            }
            state.handle(.pressed, now: now)
            if case .holeCard(let card) = state.screen, card.cursor > 0 { state.handle(.turned(-card.cursor), now: now) }
            var card: [Double] = []
            for lap in 0..<2 {
                for step in 0..<19 {
                    now += 1_000
                    state.handle(.turned(lap == 0 || step > 0 ? 1 : -19), now: now)
                    var t = now
                    while t <= now + MotionTokens.holeCardScroll + MotionTokens.frameInterval {
                        let ms = timed(state, at: t)
                        if lap > 0 { card.append(ms) }
                        t += MotionTokens.frameInterval
                    }
                }
            }
            log("render: \(board.count) paging-board frames and \(card.count) hole-card frames at \(w)x\(h)")
            let size = "\(w)x\(h)"
            figures["paging_board_\(size)_frame_p50_ms"] = round3(percentile(board, 50))
            figures["paging_board_\(size)_frame_p99_ms"] = round3(percentile(board, 99))
            figures["hole_card_20_\(size)_frame_p50_ms"] = round3(percentile(card, 50))
            figures["hole_card_20_\(size)_frame_p99_ms"] = round3(percentile(card, 99))
        }
        return figures
    }

    /// A 20-player round whose order flips back and forth: every row moves every time.
    static func reshuffleFrames(fonts: URL) throws -> (Double, Double, Int) {
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        var samples: [Double] = []
        try reshuffles(40, on: display) { cycle, drawAndPresent in
            let start = nowNs()
            drawAndPresent()
            if cycle > 0 { samples.append(Double(nowNs() - start) / 1e6) }  // the first cycle warms the text cache
        }
        return (percentile(samples, 50), percentile(samples, 99), samples.count)
    }

    /// The reshuffle the frame benchmarks draw (`render`, `render-instructions`): `cycles`
    /// times the 20 rows change order, each change drawn at every frame of its slide. At
    /// 1920×1080 the 20 rows do not fit: a reshuffle shows the page someone moved to, its rows
    /// coming in one after another, warmed between frames as the kiosk warms them.
    /// `frame` is handed each frame's draw and present to wrap (a timer, callgrind's count),
    /// with the cycle it belongs to: cycle 0 warms the text cache, as on a kiosk that has
    /// shown the board. The wall clock is the machine's unless `wallClock` fixes it.
    static func reshuffles(
        _ cycles: Int, on display: Display, wallClock: Date? = nil,
        frame: (_ cycle: Int, _ drawAndPresent: () -> Void) -> Void
    ) throws {
        let bench = try BenchRound()
        var state = KioskState(viewport: display.viewport)
        var now: Millis = 0
        var warmed: Screen.Board.Paging?
        for cycle in 0..<cycles {
            state.handle(.dataChanged(bench.data(flipped: cycle % 2 == 1), .remoteSync), now: now)
            let end = now + MotionTokens.reshuffleBudget
            while now <= end {
                let date = wallClock ?? SystemClock().date
                frame(cycle) {
                    display.draw(state, now: now, wallClock: date)
                    display.present()
                }
                // As the kiosk's display loop does between frames (`KioskSession.likelyNext`):
                // a page coming in row by row is drawn whole where nothing shows, once.
                if let revealed = state.boardPageRevealed(at: now), warmed != state.boardPaging {
                    warmed = state.boardPaging
                    display.warm(revealed, now: now, wallClock: date)
                }
                now += MotionTokens.frameInterval
            }
            now += 2_000
        }
    }

    /// Press to save in crown entry → SQLite commit → reload → state → frame drawn: the
    /// median of the whole, and of its two halves (the save, and the hole card's frame), so a
    /// change in one is not taken for the other.
    static func commitToRedraw(fonts: URL, in dir: URL) throws -> (total: Double, save: Double, draw: Double) {
        let store = try HyzerDatabase.open(dataDirectory: dir)
        try store.createDemoRound(players: 20, holesPlayed: 9)
        let display = try Display(mode: .headless, size: Viewport(width: 1920, height: 1080), fontsDirectory: fonts)
        var now: Millis = 1_000
        let session = try KioskSession(store: store, viewport: display.viewport, now: now)
        var samples: [Double] = []
        var saves: [Double] = []
        var draws: [Double] = []
        for i in 0..<60 {
            session.send(.pressed, now: now)  // board → hole card, or hole card → entry
            if case .holeCard = session.state.screen { session.send(.pressed, now: now) }
            session.send(.turned(i % 2 == 0 ? 1 : -1), now: now)
            let start = nowNs()
            session.send(.pressed, now: now)  // save
            let saved = nowNs()
            display.draw(session.state, now: now, wallClock: SystemClock().date)
            display.present()
            let end = nowNs()
            samples.append(Double(end - start) / 1e6)
            saves.append(Double(saved - start) / 1e6)
            draws.append(Double(end - saved) / 1e6)
            now += 3_000
            session.send(.tick, now: now)
            session.send(.longPressed, now: now)  // back to the board
        }
        log("render: \(samples.count) saves through the store, median \(round3(percentile(samples, 50))) ms")
        return (percentile(samples, 50), percentile(saves, 50), percentile(draws, 50))
    }

    static func kioskBinary() throws -> URL { try siblingBinary("hyzer-kiosk") }

    static func dataDirWithDemo(_ dir: URL) throws -> URL {
        let store = try HyzerDatabase.open(dataDirectory: dir)
        try store.createDemoRound(players: 6, holesPlayed: 7)
        return dir
    }

    /// Process start to the kiosk's "first-frame" line, median of five launches.
    static func launchToFirstFrame(_ kiosk: URL, in workspace: URL) async throws -> Double {
        let dir = try dataDirWithDemo(workspace)
        var samples: [Double] = []
        for _ in 0..<5 {
            let start = nowNs()
            let result = try await Subprocess.run(
                .path(FilePath(kiosk.path)), arguments: ["--data", dir.path, "--headless", "--run-for", "0.3"],
                input: .none, output: .sequence, error: .discarded
            ) { execution -> UInt64? in
                var firstFrameAt: UInt64?
                for try await line in execution.standardOutput.strings() {
                    if firstFrameAt == nil, line.contains("first-frame") { firstFrameAt = nowNs() }
                    // Read on to the end: a closed pipe would kill the kiosk on its exit report.
                }
                return firstFrameAt
            }
            guard let firstFrameAt = result.closureResult else { throw BenchError("the kiosk drew no frame") }
            samples.append(Double(firstFrameAt - start) / 1e6)
        }
        return percentile(samples, 50)
    }

    /// What the kiosk reports on exit with `--run-for`.
    struct ExitReport: Decodable {
        var event: String
        var cpu_after_first_frame: Double
        var rss_mb: Double
        var frames: Int?
    }

    /// A kiosk showing the board with nobody touching it: CPU after its first frame, and
    /// memory. In a real X11 window under Xvfb when there is one (the path that blocks in
    /// the display server like KMSDRM on the Pi), else headless.
    static func idle(_ kiosk: URL, seconds: Double, in workspace: URL) async throws -> (cpuPercent: Double, rssMB: Double) {
        let dir = try dataDirWithDemo(workspace)
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/Xvfb") else {
            log("render: idle kiosk headless (no Xvfb)")
            return try await idleRun(
                kiosk, ["--data", dir.path, "--headless", "--run-for", String(seconds)], .inherit, seconds: seconds)
        }
        let display = ":\(700 + Int.random(in: 0..<200))"
        let xvfb = try await XvfbServer.start(display: display)
        log("render: idle kiosk in an X11 window on Xvfb \(display)")
        let figures: (cpuPercent: Double, rssMB: Double)
        do {
            figures = try await idleRun(
                kiosk, ["--data", dir.path, "--windowed", "--size", "1920x1080", "--run-for", String(seconds)],
                .inherit.updating(["DISPLAY": display]), seconds: seconds)
        } catch {
            await xvfb.stop()
            throw error
        }
        await xvfb.stop()
        return figures
    }

    private static func idleRun(
        _ kiosk: URL, _ arguments: [String], _ environment: Environment, seconds: Double
    )
        async throws -> (cpuPercent: Double, rssMB: Double)
    {
        let result = try await Subprocess.run(
            .path(FilePath(kiosk.path)), arguments: Arguments(arguments), environment: environment,
            output: .string(limit: 1 << 20), error: .discarded)
        let text = result.standardOutput
        guard let line = text.split(separator: "\n").last(where: { $0.contains("\"exit\"") }),
            let report = try? JSONDecoder().decode(ExitReport.self, from: Data(line.utf8))
        else { throw BenchError("no exit report from the kiosk (\(result.terminationStatus)): \(text)") }
        log(
            "render: idle \(seconds) s: \(report.cpu_after_first_frame) s CPU after the first frame, "
                + "\(report.frames.map(String.init) ?? "?") frames, RSS \(report.rss_mb) MB")
        return (report.cpu_after_first_frame / seconds * 100, report.rss_mb)
    }
}
