import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

/// Issue 12: the kiosk's text cache is bounded by pixel bytes as well as by count, so weeks
/// of new strings (rounds, names, courses) cannot grow it without end.
@Suite struct TextCacheTests {
    /// A headless display with the bundled fonts.
    static func display(_ width: Int, _ height: Int) throws -> Display {
        let assets = try #require(HyzerPaths.assetsDirectory(), "cannot find assets/")
        return try Display(
            mode: .headless, size: Viewport(width: width, height: height), fontsDirectory: assets.appendingPathComponent("fonts"))
    }

    /// Boards of rounds on courses with long, all different names: each header is a large
    /// texture (about 0.5 MB). Negative control: with the byte bound taken out of `Canvas`
    /// (count bound only), this fails from the 50th board on, the cache passing 24 MB and
    /// growing 0.5 MB a board, while its entries stay far under the count bound.
    @Test func newStringsWithoutEndKeepTheCacheWithinItsBytes() throws {
        let display = try Self.display(1920, 1080)
        let limits = Display.textCacheLimits
        var state = KioskState(viewport: display.viewport)
        let players = try (0..<4).map { try Player(displayName: "Player \($0)") }
        var peak = 0
        for n in 0..<150 {
            let course = try Course(name: "Long Meadow Championship, Loop \(n) Fall", holeCount: 9)
            var round = Round(
                courseID: course.id, organizerID: players[0].id, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            for p in players { try round.add(.registered(p)) }
            try round.start(at: Date(timeIntervalSince1970: 1_800_000_060))
            state.handle(
                .dataChanged(
                    KioskData(round: RoundSnapshot(round: round, course: course, events: []), courses: [course]), .localScore),
                now: Millis(n) * 10_000)
            display.draw(state, now: Millis(n) * 10_000, wallClock: Date(timeIntervalSince1970: 0))
            let cache = display.textCache
            peak = max(peak, cache.bytes)
            #expect(cache.bytes <= limits.bytes)
            #expect(cache.texts <= limits.texts)
            #expect(cache.fonts <= limits.fonts)
        }
        #expect(display.rasterizations >= 150, "every board brought a new header")
        #expect(peak > limits.bytes / 2, "the run reached the byte bound, so the bound was exercised")
    }

    /// A history page of long captions: ellipsizing measures a handful of candidates for each
    /// but draws one text, and a measured width is the width that text then draws at.
    /// Negative control: with `Canvas.measure` drawing every text it measures (as before),
    /// the rasterization count is about eight a caption and the first expectation fails.
    @Test func ellipsizingMeasuresWithoutDrawingEveryCandidate() throws {
        let display = try Self.display(1280, 720)
        let captions = (0..<12).map { n in
            "Won by Priya \(n) · 7 players: Priya, Nate, Sarah, Jake, Mike, Ada, a player with a long name \(n)"
        }
        let before = display.rasterizations
        var shown: [String] = []
        for caption in captions {
            for role in [FontRole.title, .body] {
                let fitted = display.ellipsized(caption, role: role, size: 24, width: 600)
                #expect(fitted.hasSuffix("…") && caption.hasPrefix(fitted.dropLast()), "\(fitted)")
                shown.append(fitted)
            }
        }
        #expect(display.rasterizations - before == 0, "measuring drew nothing")
        for (index, text) in shown.enumerated() {
            let role: FontRole = index % 2 == 0 ? .title : .body
            let measured = display.textWidth(text, role: role, size: 24)
            #expect(measured <= 600)
            // Drawn now (textWidth of a drawn text answers from the texture): the same width.
            #expect(display.drawnWidth(text, role: role, size: 24) == measured, "\(text)")
        }
        #expect(display.rasterizations - before == shown.count, "one drawing a shown text")
        // Again: the ellipsized forms are remembered, nothing is measured or drawn anew.
        for caption in captions { _ = display.ellipsized(caption, role: .title, size: 24, width: 600) }
        #expect(display.rasterizations - before == shown.count)
    }
}
