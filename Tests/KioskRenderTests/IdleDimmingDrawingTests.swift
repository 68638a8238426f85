import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

/// Issue 13 item 2: a dimmed screen is the same frame under black, at the configured level,
/// on any panel (HDMI has no backlight to turn down).
@Suite struct IdleDimmingDrawingTests {
    func meanLevel(_ frame: (width: Int, height: Int, rgb: [UInt8])) -> Double {
        Double(frame.rgb.reduce(0) { $0 + Int($1) }) / Double(frame.rgb.count)
    }

    @Test func theDimmedBoardIsTheBoardAtItsLevel() throws {
        let fonts = try #require(HyzerPaths.assetsDirectory(), "cannot find assets/").appendingPathComponent("fonts")
        let display = try Display(mode: .headless, size: Viewport(width: 480, height: 320), fontsDirectory: fonts)
        var state = KioskState(
            settings: KioskSettings(dimAfter: 60_000, dimLevel: 0.3), viewport: Viewport(width: 480, height: 320))
        let wallClock = Date(timeIntervalSince1970: 1_790_000_000)
        display.draw(state, now: 0, wallClock: wallClock)
        let bright = try display.capture()
        state.handle(.tick, now: 60_000)
        #expect(state.dimmed)
        display.draw(state, now: 60_000, wallClock: wallClock)
        let dim = try display.capture()
        // Every pixel at 30 % (give or take rounding), so the ratio of the means is 0.3.
        let ratio = meanLevel(dim) / meanLevel(bright)
        #expect(abs(ratio - 0.3) < 0.02, "dimmed to \(ratio)")
        let brightest = zip(bright.rgb, dim.rgb).max { $0.0 < $1.0 }!
        #expect(abs(Double(brightest.1) - 0.3 * Double(brightest.0)) <= 2)
        // Awake again: the frame as it was.
        state.handle(.pressed, now: 61_000)
        display.draw(state, now: 61_000, wallClock: wallClock)
        #expect(try display.capture().rgb == bright.rgb)
    }
}
