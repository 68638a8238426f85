import Foundation
import HyzerKit
import HyzerTestSupport
import KioskCore
import KioskRender
import Testing

/// Issue 13: an idle board must sleep. SDL's KMSDRM backend (the Pi's console) cannot block
/// until input, and SDL then pumps and sleeps a millisecond at a time: the appliance test
/// measured 16% of an emulated CPU on an idle board. Drivers without a blocking wait sleep on
/// the waker's semaphore instead, reading input at a bounded interval; the headless display
/// (which has no blocking wait either) shows the same path.
@Suite(.serialized) struct DisplayWaitTests {
    static var fonts: URL {
        get throws { try #require(HyzerPaths.assetsDirectory(), "cannot find assets/").appendingPathComponent("fonts") }
    }

    @Test func onlyDriversThatBlockLeaveTheWaitToSDL() {
        #expect(Display.ownWaitPollMs(forDriver: "kmsdrm", headless: false) == 20)
        #expect(Display.ownWaitPollMs(forDriver: "x11", headless: false) == nil)
        #expect(Display.ownWaitPollMs(forDriver: "wayland", headless: false) == nil)
        #expect(Display.ownWaitPollMs(forDriver: "dummy", headless: true) == 1_000)
    }

    @Test func inputIsReadOftenOnlyWhileSomeoneIsTyping() {
        #expect(Display.inputPollMs(base: 20, sinceInputMs: 0) == 20)
        #expect(Display.inputPollMs(base: 20, sinceInputMs: 4_999) == 20)
        #expect(Display.inputPollMs(base: 20, sinceInputMs: 5_000) == 100)
        // Headless reads once a second whatever happens.
        #expect(Display.inputPollMs(base: 1_000, sinceInputMs: 0) == 1_000)
        #expect(Display.inputPollMs(base: 1_000, sinceInputMs: 60_000) == 1_000)
    }

    /// Idle, the wait reads input once a slice, not once a millisecond. Negative control: with
    /// a 1 ms slice (what SDL's own wait does on these drivers) it reads about 2,500 times.
    @Test func anIdleWaitWakesOncePerSliceNotPerMillisecond() async throws {
        // A blocking wait: on the cooperative pool (two threads on these machines) it would
        // hold up every other suite's tasks for seconds.
        try await offThePool { try Self.idleWait() }
    }

    static func idleWait() throws {
        let display = try Display(mode: .headless, size: Viewport(width: 320, height: 240), fontsDirectory: try Self.fonts)
        let polls = display.inputPolls
        let end = ContinuousClock.now + .milliseconds(2_500)
        // SDL's event queue is the process's: another suite's display may post to it, which
        // ends a wait early; wait again for what is left.
        while case let left = ContinuousClock.now.duration(to: end), left > .zero {
            _ = display.waitEvent(timeoutMs: Int(left / .milliseconds(1)) + 1)
        }
        #expect(display.inputPolls - polls <= 10, "\(display.inputPolls - polls) input reads in 2.5 s")
    }

    /// A wake-up from another thread (the knob, a score from sync) ends the sleep at once.
    @Test func theWakerEndsTheSleepAtOnce() async throws {
        try await offThePool { try Self.wakeDuringWait() }
    }

    static func wakeDuringWait() throws {
        let display = try Display(mode: .headless, size: Viewport(width: 320, height: 240), fontsDirectory: try Self.fonts)
        let waker = display.waker
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { waker() }
        let started = ContinuousClock.now
        #expect(display.waitEvent(timeoutMs: 10_000) == .wake)
        // Not the 10 s asked for, nor the end of a 1 s slice.
        #expect(started.duration(to: .now) < .milliseconds(900), "\(started.duration(to: .now))")
    }
}
