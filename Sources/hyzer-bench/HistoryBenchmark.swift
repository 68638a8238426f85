import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore
import KioskRender

/// Issue 9: each history screen opens within one frame (16 ms) on the 5-year store. Timed
/// from the press to the screen's first frame drawn headless, through the kiosk's real shell
/// (`KioskSession` reading the store for the machine's effect) and renderer: the list (its
/// first page), a round's standings, a player's holes. Also the turn that asks for the next
/// page as the cursor nears the end of what is loaded, with its frame.
enum HistoryBenchmark {
    static func run(in workspace: Workspace) async throws -> Figures {
        guard let assets = HyzerPaths.assetsDirectory() else { throw BenchError("cannot find assets/ (run from the checkout)") }
        let store = try HyzerDatabase(directory: workspace.url)
        let (roundIDs, _) = try StoreBenchmark.populate(store)
        log("history: \(roundIDs.count) completed rounds written")
        var figures: [String: Double] = [:]
        // The store's part of opening the list alone: the first page read and ranked.
        var reads: [Double] = []
        for _ in 0..<50 {
            let start = nowNs()
            let page = try await store.read(.historyPage(limit: Screen.History.pageSize))
            reads.append(Double(nowNs() - start) / 1e6)
            guard page.lines.count == Screen.History.pageSize else { throw BenchError("short page") }
        }
        figures["first_page_read_p50_ms"] = round3(percentile(reads, 50))
        for (w, h) in [(1280, 720), (1920, 1080)] {
            let display = try Display(
                mode: .headless, size: Viewport(width: w, height: h),
                fontsDirectory: assets.appendingPathComponent("fonts"))
            let session = try KioskSession(store: store, viewport: display.viewport, now: 0)
            var now: Millis = 1_000
            var rng = SeededGenerator(seed: 9)
            /// One input and the frame that shows it, in ms. Then, untimed, what the display
            /// loop does before it sleeps until the next input 200 ms later: warm the screen a
            /// press would open (`KioskSession.likelyNext`), unless `prepare` is false.
            func timed(_ event: KioskEvent, prepare: Bool = true) -> Double {
                now += 200
                let start = nowNs()
                session.send(event, now: now)
                display.draw(session.state, now: now, wallClock: Date())
                display.present()
                let ms = Double(nowNs() - start) / 1e6
                if prepare, let next = session.likelyNext(now: now) { display.warm(next, now: now, wallClock: Date()) }
                return ms
            }
            func expect(_ name: String) throws {
                guard session.state.screen.name == name else {
                    throw BenchError("expected \(name), on \(session.state.screen.name)")
                }
            }
            var samples: [String: [Double]] = ["list": [], "list_unprepared": [], "round": [], "player": [], "page": []]
            // The first iterations warm the text cache, as a kiosk's first minute would.
            for iteration in 0..<60 {
                // Every other open is unprepared: the press comes with nothing read or warmed
                // before it (a commit elsewhere just made the kiosk forget its reads, and the
                // turn onto History was not followed by a rest).
                let prepared = iteration % 2 == 0
                _ = timed(.longPressed, prepare: prepared)
                try expect("menu")
                if !prepared { session.reload(.external, now: now) }
                let index = session.state.menuItems.firstIndex(of: .history) ?? 0
                if case .menu(let menu) = session.state.screen, menu.cursor != index {
                    _ = timed(.turned(index - menu.cursor), prepare: prepared)
                }
                let list = timed(.pressed)
                try expect("history")
                // Down the list to a random round, one detent at a time; the turn that asks
                // for a page is timed (a page read and ranked, then drawn).
                let target = Int.random(in: 0..<roundIDs.count, using: &rng)
                for _ in 0..<target {
                    guard case .history(let before) = session.state.screen else { break }
                    let pages = before.lines.count
                    let ms = timed(.turned(1))
                    if case .history(let after) = session.state.screen, after.lines.count > pages, iteration >= 10 {
                        samples["page"]!.append(ms)
                    }
                }
                let round = timed(.pressed)
                try expect("history-round")
                _ = timed(.turned(Int.random(in: 0..<7, using: &rng)))
                let player = timed(.pressed)
                try expect("history-player")
                if iteration >= 10 {
                    samples[prepared ? "list" : "list_unprepared"]!.append(list)
                    samples["round"]!.append(round)
                    samples["player"]!.append(player)
                }
                // Back to the board without a rest on the menu: whether the next open is
                // prepared is up to the next iteration.
                for _ in 0..<3 { _ = timed(.longPressed, prepare: false) }
                try expect("menu")
                _ = timed(.longPressed, prepare: false)
            }
            for (screen, values) in samples {
                figures["\(screen)_p50_ms_\(w)x\(h)"] = round3(percentile(values, 50))
                figures["\(screen)_p99_ms_\(w)x\(h)"] = round3(percentile(values, 99))
            }
            log("history \(w)x\(h): \(samples["list"]!.count) opens per screen, \(samples["page"]!.count) page loads")
        }
        return Figures(figures)
    }
}
