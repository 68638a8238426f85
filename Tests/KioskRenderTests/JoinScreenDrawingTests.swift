import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

/// The join screen as drawn: the code big enough to read from 3 m, inside the screen, at
/// the desk's 1920×1080 and the Pi panel's 800×480. The PNGs are left in the temporary
/// directory (and copied to `HYZER_SNAPSHOT_DIR` when set, as docs/screens gets them).
@Suite(.serialized) struct JoinScreenDrawingTests {
    @Test(arguments: [Viewport(width: 1920, height: 1080), Viewport(width: 800, height: 480)])
    func theCodeIsDrawnLargeAndWhole(viewport: Viewport) throws {
        let assets = try #require(HyzerPaths.assetsDirectory())
        let display = try Display(mode: .headless, size: viewport, fontsDirectory: assets.appendingPathComponent("fonts"))
        var state = KioskState(viewport: display.viewport)
        state.handle(.longPressed, now: 0)
        state.handle(.turned(try #require(state.menuItems.firstIndex(of: .joinGroup))), now: 0)
        state.handle(.pressed, now: 0)
        state.handle(
            .joinChanged(.waiting(code: "BCDF-GHJK", server: "http://clubhouse.local:8630", expiresIn: 600)), now: 0)
        #expect(state.screen.name == "join")
        display.draw(state, now: 0, wallClock: Date(timeIntervalSince1970: 1_800_000_000))
        let name = "join-\(viewport.width)x\(viewport.height).png"
        let png = FileManager.default.temporaryDirectory.appendingPathComponent(name)
        try display.writePNG(to: png)
        if let out = ProcessInfo.processInfo.environment["HYZER_SNAPSHOT_DIR"], viewport.width == 1920 {
            let target = URL(fileURLWithPath: out).appendingPathComponent("join.png")
            try? FileManager.default.removeItem(at: target)
            try FileManager.default.copyItem(at: png, to: target)
        }

        // The code is the accent colour: its inked pixels span most of the width (readable
        // from 3 m) and stop short of both edges (nothing cut off).
        let frame = try display.capture()
        var minX = frame.width
        var maxX = 0
        var minY = frame.height
        var maxY = 0
        for y in 0..<frame.height {
            for x in 0..<frame.width {
                let i = (y * frame.width + x) * 3
                let rgb = RGB(UInt32(frame.rgb[i]) << 16 | UInt32(frame.rgb[i + 1]) << 8 | UInt32(frame.rgb[i + 2]))
                guard rgb == Palette.accent else { continue }
                (minX, maxX, minY, maxY) = (min(minX, x), max(maxX, x), min(minY, y), max(maxY, y))
            }
        }
        #expect(maxX > minX, "no code drawn")
        #expect(Double(maxX - minX) >= 0.5 * Double(frame.width), "the code spans \(maxX - minX) of \(frame.width) px")
        #expect(minX > 0 && maxX < frame.width - 1)
        // Glyphs at least 1/8 of the screen's height: about 13 cm on a 55-inch panel.
        #expect(Double(maxY - minY) >= Double(frame.height) / 8, "the code is \(maxY - minY) px tall")
    }
}
