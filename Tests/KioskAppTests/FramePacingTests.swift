import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

@testable import KioskApp

/// Issue 12 item 7: the display loop draws a frame only for news a person can see. A burst
/// of remote scores pulls ten times a second, and each pull stamps a new sync time and turns
/// the indicator "syncing" and back; the badge mostly reads the same before and after.
@Suite struct FramePacingTests {
    let synced = Date(timeIntervalSince1970: 1_800_000_000)

    func state(_ sync: SyncIndicator, reduceMotion: Bool = false) -> KioskState {
        var state = KioskState(settings: KioskSettings(reduceMotion: reduceMotion))
        state.handle(.syncChanged(sync), now: 0)
        return state
    }

    /// Negative control: with `showsNews` reduced to `state != drawn` (what the loop compared
    /// before) the first expectation fails.
    @Test func aSyncIndicatorThatDrawsTheSameBadgeIsNoNews() {
        let drawn = state(SyncIndicator(state: .idle, lastSynced: synced))
        let wall = synced.addingTimeInterval(0.1)
        let badge = SyncBadge(drawn.sync, wallClock: wall)
        #expect(badge?.text == "Synced just now")

        let pulledAgain = state(SyncIndicator(state: .idle, lastSynced: synced.addingTimeInterval(0.5)))
        #expect(pulledAgain != drawn, "the indicator did change")
        #expect(
            !DisplayLoop.showsNews(pulledAgain, since: drawn, badge: badge, wallClock: wall, now: 10),
            "the same words in the same colour: no frame")

        let syncing = state(SyncIndicator(state: .syncing, lastSynced: synced))
        #expect(
            DisplayLoop.showsNews(syncing, since: drawn, badge: badge, wallClock: wall, now: 10),
            "the badge turns to the accent colour")
        let refused = state(SyncIndicator(state: .idle, lastSynced: synced, refused: 2))
        #expect(DisplayLoop.showsNews(refused, since: drawn, badge: badge, wallClock: wall, now: 10))
        let minutesLater = synced.addingTimeInterval(180)
        #expect(
            DisplayLoop.showsNews(pulledAgain, since: drawn, badge: badge, wallClock: minutesLater, now: 10),
            "a badge last drawn as \"just now\" that would read \"3 min ago\" is news")
    }

    @Test func anythingElseThatChangedWithTheIndicatorIsNews() {
        let drawn = state(SyncIndicator(state: .idle, lastSynced: synced))
        let badge = SyncBadge(drawn.sync, wallClock: synced)
        var changed = state(SyncIndicator(state: .idle, lastSynced: synced.addingTimeInterval(0.5)))
        changed.handle(.storageChanged("Storage is full"), now: 10)
        #expect(DisplayLoop.showsNews(changed, since: drawn, badge: badge, wallClock: synced, now: 10))
        #expect(DisplayLoop.showsNews(drawn, since: nil, badge: nil, wallClock: synced, now: 0), "the first frame")
        #expect(!DisplayLoop.showsNews(drawn, since: drawn, badge: badge, wallClock: synced, now: 10))
    }

    @Test func offTheBoardEveryChangeOfTheIndicatorIsNews() {
        // Another screen may show more of the indicator than the badge (a status screen).
        var drawn = state(SyncIndicator(state: .idle, lastSynced: synced))
        drawn.handle(.longPressed, now: 5)
        #expect(drawn.screen == .menu(cursor: 0))
        var pulledAgain = drawn
        pulledAgain.handle(.syncChanged(SyncIndicator(state: .idle, lastSynced: synced.addingTimeInterval(0.5))), now: 10)
        let badge = SyncBadge(drawn.sync, wallClock: synced)
        #expect(DisplayLoop.showsNews(pulledAgain, since: drawn, badge: badge, wallClock: synced, now: 10))
    }
}
