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
        // The expectation is the test's own: one made on the other thread has no test to
        // belong to, and Swift Testing then reports it against every test running.
        let (reads, waits) = try await offThePool { try Self.idleWait() }
        #expect(reads <= 10 + 2 * (waits - 1), "\(reads) input reads in 2.5 s over \(waits) waits")
    }

    /// Input reads during 2.5 s of waiting, and how many waits it took.
    static func idleWait() throws -> (reads: Int, waits: Int) {
        let display = try Display(mode: .headless, size: Viewport(width: 320, height: 240), fontsDirectory: try Self.fonts)
        let polls = display.inputPolls
        let end = ContinuousClock.now + .milliseconds(2_500)
        // SDL's event queue is the process's: another suite's display may post to it, which
        // ends a wait early; wait again for what is left. Each such end costs the read that
        // found the event and the read the next wait starts with: allowed for, since how many
        // come depends on what else the process draws (under load, one in a run of the whole
        // suite came to 11 reads against a bound of 10 that allowed none).
        var waits = 0
        while case let left = ContinuousClock.now.duration(to: end), left > .zero {
            waits += 1
            _ = display.waitEvent(timeoutMs: Int(left / .milliseconds(1)) + 1)
        }
        return (display.inputPolls - polls, waits)
    }

    /// A wake-up from another thread (the knob, a score from sync) ends the sleep at once.
    @Test func theWakerEndsTheSleepAtOnce() async throws {
        let (event, waited) = try await offThePool { try Self.wakeDuringWait() }
        #expect(event == .wake)
        // Not the 10 s asked for, nor the end of a 1 s slice.
        #expect(waited < .milliseconds(900), "\(waited)")
    }

    static func wakeDuringWait() throws -> (DisplayEvent?, Duration) {
        let display = try Display(mode: .headless, size: Viewport(width: 320, height: 240), fontsDirectory: try Self.fonts)
        let waker = display.waker
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(100)) { waker() }
        let started = ContinuousClock.now
        let event = display.waitEvent(timeoutMs: 10_000)
        return (event, started.duration(to: .now))
    }
}
