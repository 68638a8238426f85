import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 13 item 2: idle dimming (kiosk.conf's display.dim_after_minutes and dim_level). The
/// machine decides when the screen dims and what brightens it; the clock is injected.
@Suite struct IdleDimmingTests {
    static let minute: Millis = 60_000

    func harness(dimAfter: Millis? = 10 * minute) throws -> Harness {
        var h = try Harness()
        h.send(.settingsChanged(KioskSettings(dimAfter: dimAfter, dimLevel: 0.3)))
        return h
    }

    @Test func anIdleBoardDimsWhenItsTimeComesAndNotBefore() throws {
        var h = try harness()
        let dimAt = h.state.lastActivityAt + 10 * Self.minute
        // The single timer asks to be woken then: the loop sleeps until it.
        #expect(h.state.nextWakeUp(after: h.now) == dimAt)
        h.advance(dimAt - h.now - 1)
        #expect(!h.state.dimmed)
        h.advance(1)
        #expect(h.state.dimmed)
        #expect(h.state.screen == .board)
        // Dimmed, nothing more to wait for.
        #expect(h.state.nextWakeUp(after: h.now) == nil)
    }

    @Test func theInputThatWakesTheScreenDoesNothingElse() throws {
        var h = try harness()
        h.advance(10 * Self.minute)
        #expect(h.state.dimmed)
        // A press in the dark would open the hole card; it only brightens the board.
        #expect(h.send(.pressed).isEmpty)
        #expect(!h.state.dimmed)
        #expect(h.state.screen == .board)
        h.send(.pressed)
        guard case .holeCard = h.state.screen else {
            Issue.record("the next press opens the hole card, got \(h.state.screen)")
            return
        }
        // A turn on the dimmed hole card leaves the cursor where it was.
        h.advance(10 * Self.minute)
        #expect(h.state.dimmed)
        let before = h.state.screen
        h.send(.turned(2))
        #expect(h.state.screen == before)
        #expect(!h.state.dimmed)
    }

    @Test func everyInputStartsTheWaitOver() throws {
        var h = try harness()
        h.advance(9 * Self.minute)
        h.send(.turned(0))  // a touch of the knob, even one that moves nothing
        h.send(.touch(x: 5, y: 5))
        h.advance(9 * Self.minute)
        #expect(!h.state.dimmed, "18 minutes after the start, 9 after the last touch")
        h.advance(1 * Self.minute)
        #expect(h.state.dimmed)
    }

    @Test func aNewScoreBrightensTheBoardAndTheSameDataDoesNot() throws {
        var h = try harness()
        h.advance(10 * Self.minute)
        #expect(h.state.dimmed)
        // A sync that brings nothing new (the same data again) leaves it dim.
        h.publish(.remoteSync)
        #expect(h.state.dimmed)
        // A score from another device: everyone wants to see the board move.
        h.record(h.id(1), hole: 1, strokes: 3, resolution: false, device: "nate-phone")
        h.publish(.remoteSync)
        #expect(!h.state.dimmed)
        #expect(h.state.lastActivityAt == h.now)
    }

    @Test func withoutDimmingTheBoardSleepsUntilInput() throws {
        var h = try harness(dimAfter: nil)
        #expect(h.state.nextWakeUp(after: h.now) == nil)
        h.advance(24 * 60 * Self.minute)
        #expect(!h.state.dimmed)
    }

    @Test func settingsKeepTheirBounds() {
        let settings = KioskSettings(dimAfter: 10, dimLevel: 0)
        #expect(settings.dimAfter == 1_000, "at least a second")
        #expect(settings.dimLevel == 0.05, "never fully black: the board must still say it is on")
        #expect(KioskSettings(dimLevel: 3).dimLevel == 1)
    }
}
