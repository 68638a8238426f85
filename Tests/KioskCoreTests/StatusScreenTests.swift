import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 6 (and issue 12 items 2 and 5): the maintainer's status screen, from the menu.
@Suite struct StatusScreenTests {
    static let enrolled = KioskStatus(
        group: .init(
            server: "http://10.0.0.2:8630", group: "Tuesday league", deviceName: "Clubhouse kiosk", pending: 3, refused: 1,
            epoch: "e-42"),
        knob: .init(backend: "gpiod", lines: "encoder A GPIO17 (gpiochip0:17)"),
        display: .init(
            driver: "KMSDRM", renderer: "opengles2", width: 1920, height: 1080, drawP50: 2.5, drawP99: 9.75, frames: 120),
        storage: .init(directory: "/var/lib/hyzer", databaseBytes: 3_400_000, freeBytes: 2_000_000_000, warnBelow: 50_000_000),
        version: "0.9.0", addresses: ["192.168.1.20"])

    /// Opens the status screen from the board: hold, turn to "Status", press.
    static func openStatus(_ h: inout Harness) -> [KioskEffect] {
        h.send(.longPressed)
        let index = h.state.menuItems.firstIndex(of: .status)!
        h.send(.turned(index))
        return h.send(.pressed)
    }

    static func lines(_ h: Harness) -> [StatusSection.Line] {
        h.state.statusSections(wallClock: h.clock.date).flatMap(\.lines)
    }

    @Test func theMenuOpensTheStatusScreenWhichAsksForItsFacts() throws {
        var h = try Harness()
        #expect(
            h.state.menuItems.suffix(5) == [.status, .courses, .players, .leagueNight, .close],
            "Status comes just before Courses, Players, League night and \"Back to the board\"")
        #expect(Self.openStatus(&h) == [.refreshStatus])
        #expect(h.state.screen == .status(Screen.Status(cursor: 0, refreshAt: h.now + Screen.Status.refreshInterval)))
        #expect(h.state.screen.name == "status")
    }

    @Test func turningMovesOverTheEntriesAndClampsWithALimitBuzz() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        #expect(h.send(.turned(1)).isEmpty)
        guard case .status(let screen) = h.state.screen else {
            Issue.record("not on the status screen")
            return
        }
        #expect(screen.cursor == 1)
        #expect(h.send(.turned(1)) == [.buzz(.limit)], "two entries: the second is the last")
        #expect(h.send(.turned(-5)) == [.buzz(.limit)])
        guard case .status(let back) = h.state.screen else {
            Issue.record("left the status screen")
            return
        }
        #expect(back.cursor == 0)
    }

    @Test func pressingTestTheBuzzerBuzzesAndSaysSo() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        #expect(h.send(.pressed) == [.buzz(.confirm)])
        #expect(h.state.notice?.kind == .info)
        #expect(h.state.screen.name == "status", "the buzzer test stays on the screen")
    }

    @Test func aLongPressOrBackReturnsToTheMenuOnStatus() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        h.send(.longPressed)
        let index = try #require(h.state.menuItems.firstIndex(of: .status))
        #expect(h.state.screen == .menu(cursor: index))
        h.send(.pressed)
        h.send(.turned(1))
        #expect(h.send(.pressed).isEmpty)
        #expect(h.state.screen == .menu(cursor: index))
        h.send(.longPressed)
        #expect(h.state.screen == .board)
    }

    /// Facts are asked for every 2 s while the screen is up, and never by the board: an
    /// idle board's wake-ups stay what they were (issue 12's idle CPU).
    @Test func theScreenRefreshesWhileShownAndTheBoardNeverAsks() throws {
        var h = try Harness()
        #expect(h.state.nextWakeUp(after: h.now) == nil, "an idle board sleeps")
        _ = Self.openStatus(&h)
        let opened = h.now
        #expect(h.state.nextWakeUp(after: h.now) == opened + Screen.Status.refreshInterval)
        h.now += Screen.Status.refreshInterval
        #expect(h.send(.tick) == [.refreshStatus])
        #expect(h.state.nextWakeUp(after: h.now) == h.now + Screen.Status.refreshInterval)
        h.send(.turned(1))
        h.now += Screen.Status.refreshInterval
        #expect(h.send(.tick) == [.refreshStatus], "turning does not cancel the refresh")
        h.send(.longPressed)
        h.send(.longPressed)
        #expect(h.state.screen == .board)
        #expect(h.state.nextWakeUp(after: h.now) == nil, "back on the board nothing is refreshed")
        let before = h.effects.count
        for _ in 0..<10 { h.advance(Screen.Status.refreshInterval) }
        #expect(!h.effects[before...].contains(.refreshStatus))
    }

    @Test func theGatheredFactsAreShownInSections() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        h.send(.syncChanged(SyncIndicator(state: .idle, lastSynced: h.clock.date.addingTimeInterval(-180), refused: 1)))
        h.send(.statusChanged(Self.enrolled))
        let sections = h.state.statusSections(wallClock: h.clock.date)
        #expect(sections.map(\.title) == ["Sync", "Knob", "Display", "Storage", "This kiosk"])
        let lines = Self.lines(h)
        let values = Dictionary(lines.map { ($0.label, $0.value) }, uniquingKeysWith: { a, _ in a })
        #expect(values["Server"] == "http://10.0.0.2:8630")
        #expect(values["Group"] == "Tuesday league · device \"Clubhouse kiosk\"")
        #expect(values["Last sync"] == "3 min ago · idle")
        #expect(values["Records"] == "3 pending · 1 refused · epoch e-42")
        #expect(lines.first { $0.label == "Records" }?.tone == .warning, "a refused record needs a person")
        #expect(values["Backend"] == "gpiod")
        #expect(values["Lines"] == "encoder A GPIO17 (gpiochip0:17)")
        #expect(values["Driver"] == "KMSDRM · opengles2 · 1920×1080")
        #expect(values["Frames"] == "draw p50 2.5 ms · p99 9.8 ms (last 120 frames)")
        #expect(values["Database"] == "3.4 MB in /var/lib/hyzer")
        #expect(values["Free"] == "2000 MB")
        #expect(values["Version"] == "0.9.0")
        #expect(values["Address"] == "192.168.1.20")
        #expect(!lines.contains { $0.label == "Fault" || $0.label == "Error" })
    }

    @Test func anUnenrolledKioskShowsNotInAGroupAndHowToJoin() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        var status = Self.enrolled
        status.group = nil
        h.send(.statusChanged(status))
        let sync = try #require(h.state.statusSections(wallClock: h.clock.date).first)
        #expect(
            sync.lines.map(\.value) == [
                "Not in a group — Menu → Join a group", KioskStatus.joinHint + " --data /var/lib/hyzer",
            ])
        #expect(sync.lines.first?.tone == .warning)
    }

    @Test func theStorageFaultAndLowSpaceAreOnTheScreen() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        var status = Self.enrolled
        status.storage.freeBytes = 12_000_000
        h.send(.statusChanged(status))
        let free = try #require(Self.lines(h).first { $0.label == "Free" })
        #expect(free.value == "12 MB · low: below 50 MB")
        #expect(free.tone == .warning)
        #expect(!Self.lines(h).contains { $0.label == "Fault" })

        // The same line the board shows as a notice while the card is read-only or full.
        let warning = "Storage is read-only: scores cannot be saved"
        h.send(.storageChanged(warning))
        #expect(Self.lines(h).contains(StatusSection.Line("Fault", warning, tone: .warning)))
        h.send(.storageChanged(nil))
        #expect(!Self.lines(h).contains { $0.label == "Fault" })
    }

    /// Issue 12 item 5: the one line a failure was shown with stays on the status screen
    /// after its notice is gone.
    @Test func theLastFailureStaysOnTheStatusScreen() throws {
        var h = try Harness()
        h.send(.effectFailed("Not saved: the round is completed; its scores are final"))
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice == nil)
        _ = Self.openStatus(&h)
        h.send(.statusChanged(Self.enrolled))
        #expect(
            Self.lines(h).last
                == StatusSection.Line("Last error", "Not saved: the round is completed; its scores are final", tone: .warning))
    }

    @Test func aKnobFaultShowsItsFix() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        var status = Self.enrolled
        status.knob = .init(
            backend: "keyboard (GPIO failed)", lines: nil, error: "permission denied opening /dev/gpiochip0",
            fix: "add the user to the `gpio` group")
        h.send(.statusChanged(status))
        let lines = Self.lines(h)
        #expect(lines.contains(.init("Error", "permission denied opening /dev/gpiochip0", tone: .warning)))
        #expect(lines.contains(.init("Fix", "add the user to the `gpio` group", tone: .hint)))
    }

    @Test func aTapOnAButtonPressesIt() throws {
        var h = try Harness()
        _ = Self.openStatus(&h)
        let layout = Layout(viewport: h.state.viewport)
        let buttons = layout.statusButtons(count: StatusItem.allCases.count)
        #expect(h.send(.touch(x: buttons[0].midX, y: buttons[0].midY)) == [.buzz(.confirm)])
        #expect(h.send(.touch(x: layout.width / 2, y: layout.statusFacts.midY)).isEmpty, "the facts are not buttons")
        #expect(h.state.screen.name == "status")
        h.send(.touch(x: buttons[1].midX, y: buttons[1].midY))
        #expect(h.state.screen.name == "menu")
    }
}
