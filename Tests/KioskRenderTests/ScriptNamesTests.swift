import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

/// Issue 14 item 7: names in any script. Players named "김민준" or "😀 Smiley" showed as boxes
/// because the bundled faces have Latin only; fontconfig now finds installed faces for the
/// rest (Debian's Noto fonts, installed by `make deps`) and HarfBuzz shapes each run.
@Suite(.serialized) struct ScriptNamesTests {
    /// One name per script the issue lists, plus Latin with every diacritic it named.
    static let names: [(script: String, name: String)] = [
        ("Latin", "Łukasz Zoë"), ("Latin", "José Nguyễn Văn An"), ("Greek", "Γιώργος Παππάς"),
        ("Cyrillic", "Дмитрий Иванов"), ("Arabic", "محمد علي"), ("Hebrew", "נועה כהן"),
        ("Devanagari", "अनन्या शर्मा"), ("Hangul", "김민준"), ("Han", "王小明"),
        ("Emoji", "😀 Smiley"),
    ]

    static func display(_ size: Viewport) throws -> Display {
        guard let assets = HyzerPaths.assetsDirectory() else { throw CocoaError(.fileNoSuchFile) }
        return try Display(mode: .headless, size: size, fontsDirectory: assets.appendingPathComponent("fonts"))
    }

    /// Every glyph of every name comes from a face that has it (TTF_GlyphIsProvided32 on the
    /// face chosen for its run), so nothing is drawn as the box. Right-to-left names come
    /// out as right-to-left runs. Negative control, in the same test: with fallback off the
    /// very same check finds missing glyphs in each non-Latin name, so it can fail.
    @Test func everyScriptIsDrawnWithAFaceThatHasItsGlyphs() throws {
        let display = try Self.display(Viewport(width: 1280, height: 720))
        // 🥏 (Unicode 11) is only in Noto Color Emoji: one large colour bitmap strike, scaled to the line.
        for (script, name) in Self.names + [("Emoji", "🥏 Disc")] {
            let runs = display.textCoverage(name, role: .title, size: 40)
            let missing = runs.flatMap(\.missing)
            #expect(missing.isEmpty, "\(script) \(name): no glyph for \(missing) in \(runs.map(\.face))")
            #expect(runs.map(\.text).joined().count == name.count, "\(script): every character drawn once")
            if ["Arabic", "Hebrew"].contains(script) {
                #expect(runs.contains { $0.rightToLeft && $0.text.count > 1 }, "\(script) is shaped right to left")
            }
            // A name drawn with real glyphs is not the width of as many boxes.
            let boxes = String(repeating: "\u{FFFF}", count: name.count)
            #expect(display.textWidth(name, role: .title, size: 40) != display.textWidth(boxes, role: .title, size: 40))
        }
        let control = try Self.display(Viewport(width: 1280, height: 720))
        control.fontFallback = false
        for (script, name) in Self.names where !["Latin"].contains(script) {
            let missing = control.textCoverage(name, role: .title, size: 40).flatMap(\.missing)
            #expect(!missing.isEmpty, "without fallback \(script) has no glyphs in the bundled face")
        }
    }

    /// The board with a player in each script (portrait 1080×1920, where all ten fit on one
    /// page), and at the Pi panel's 800×480 a board of names too long for the column in
    /// several scripts. Each frame is written as PNG (`HYZER_SNAPSHOT_DIR=docs/screens` keeps
    /// them as board-scripts.png and board-scripts-800x480.png, which were looked at: every
    /// script reads right, Arabic and Hebrew right to left, long names end in "…").
    /// Drawing either with fallback off gives different pixels.
    @Test(arguments: [
        (1080, 1920, "board-scripts", ScriptNamesTests.names.map(\.name)),
        (
            800, 480, "board-scripts-800x480",
            [
                "Nguyễn Văn An Łukasz Zoë José María", "محمد بن عبد الله بن عبد العزيز آل سعود",
                "김민준 王小明 😀🥏 Smiley Smiley Smiley", "अनन्या शर्मा राजकुमारी देवी",
            ]
        ),
    ])
    func boardOfNamesInEveryScript(width: Int, height: Int, file: String, names: [String]) throws {
        let players = try names.map { try Player(displayName: $0) }
        let course = try Course(name: "Riverside", holeCount: 9)
        var round = Round(courseID: course.id, organizerID: players[0].id, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
        for p in players { try round.add(.registered(p)) }
        try round.start(at: Date(timeIntervalSince1970: 1_800_000_060))
        let data = KioskData(round: RoundSnapshot(round: round, course: course, events: []), courses: [course])
        let out = ProcessInfo.processInfo.environment["HYZER_SNAPSHOT_DIR"].map { URL(fileURLWithPath: $0) }
        var frames: [[UInt8]] = []
        for fallback in [true, false] {
            let display = try Self.display(Viewport(width: width, height: height))
            display.fontFallback = fallback
            var state = KioskState(viewport: display.viewport)
            state.handle(.dataChanged(data, .localScore), now: 0)
            #expect(state.screen == .board)
            display.draw(state, now: 0, wallClock: Date(timeIntervalSince1970: 1_800_000_100))
            frames.append(try display.capture().rgb)
            if fallback, let out {
                try display.writePNG(to: out.appendingPathComponent("\(file).png"))
            }
        }
        #expect(frames[0] != frames[1], "fallback faces change what the board shows")
    }

    /// A name too long for its column is shortened to whole Characters plus "…", measured as
    /// drawn (runs of several faces), in every script; a grapheme cluster is never cut.
    @Test func longNamesInAnyScriptAreEllipsizedByTheirDrawnWidth() throws {
        let display = try Self.display(Viewport(width: 800, height: 480))
        let long = [
            "김민준 김민준 김민준 김민준", "محمد علي محمد علي محمد علي", "अनन्या शर्मा अनन्या शर्मा",
            "😀👩‍👩‍👧‍👦 Smiley 👍🏽👍🏽👍🏽👍🏽", "Łukasz Zoë José Nguyễn Văn An",
        ]
        for name in long {
            let width = display.textWidth(name, role: .title, size: 28) * 0.6
            let shown = display.ellipsized(name, role: .title, size: 28, width: width)
            #expect(shown.hasSuffix("…"), "\(name) is shortened")
            #expect(display.textWidth(shown, role: .title, size: 28) <= width, "\(shown) fits its \(width) px")
            let kept = shown.dropLast()
            #expect(name.hasPrefix(kept), "\(shown): a prefix of whole Characters")
            #expect(display.textCoverage(shown, role: .title, size: 28).flatMap(\.missing).isEmpty)
        }
    }

    /// The font cache holds fallback faces too, and stays within its bound when names in many
    /// scripts are drawn at many sizes (a window dragged through every size): each (face,
    /// size) is a new font. Negative control: with the eviction in `Canvas.font(_:size:)` taken
    /// out, this fails at the 41st font (about the 4th size).
    @Test func fontCacheStaysBoundedWithFallbackFaces() throws {
        let display = try Self.display(Viewport(width: 800, height: 480))
        let limits = Display.textCacheLimits
        var peak = 0
        for size in stride(from: 12, to: 60, by: 2) {
            for (_, name) in Self.names {
                _ = display.textWidth(name, role: .title, size: size)
                peak = max(peak, display.textCache.fonts)
                #expect(display.textCache.fonts <= limits.fonts)
                #expect(display.textCache.texts <= limits.texts)
                #expect(display.textCache.bytes <= limits.bytes)
            }
        }
        #expect(peak == limits.fonts, "the run reached the font bound, so the bound was exercised")
        // Evicted faces reopen: a name drawn earlier still gets its glyphs.
        #expect(display.textCoverage("김민준", role: .title, size: 12).flatMap(\.missing).isEmpty)
    }
}
