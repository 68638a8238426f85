import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 5: joining a group from the kiosk's screen. The shell's requests and polls
/// are `JoinServiceTests` (KioskAppTests) against a real server; here, the screen's
/// transitions on what the shell reports.
@Suite struct JoinScreenTests {
    static let waiting = JoinProgress.waiting(code: "BCDF-GHJK", server: "http://10.0.0.2:8630", expiresIn: 600)

    /// Hold on the board, turn to "Join a group", press.
    static func openJoin(_ h: inout Harness) -> [KioskEffect] {
        h.send(.longPressed)
        guard let index = h.state.menuItems.firstIndex(of: .joinGroup) else { return [] }
        h.send(.turned(index))
        return h.send(.pressed)
    }

    @Test func theMenuOffersJoiningOnlyToAKioskInNoGroup() throws {
        var h = try Harness()
        #expect(h.state.menuItems.contains(.joinGroup))
        #expect(h.state.menuItems.suffix(5) == [.status, .courses, .players, .leagueNight, .close])
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        #expect(!h.state.menuItems.contains(.joinGroup))
    }

    @Test func joiningAsksTheShellForACodeAndShowsIt() throws {
        var h = try Harness()
        #expect(Self.openJoin(&h) == [.startJoin])
        #expect(h.state.screen == .join(Screen.Join(progress: .requesting)))
        #expect(h.state.screen.name == "join")

        h.send(.joinChanged(Self.waiting))
        guard case .join(let join) = h.state.screen else {
            Issue.record("not on the join screen")
            return
        }
        let text = join.text
        #expect(text.code == "BCDF-GHJK")
        #expect(text.lines.contains("hyzer-server device approve BCDF-GHJK --group GROUP"))
        #expect(text.lines.contains { $0.contains("http://10.0.0.2:8630") && $0.contains("10 minutes") })
        // Pressing while waiting does nothing: the admin approves on the server.
        #expect(h.send(.pressed).isEmpty)
        #expect(h.state.screen == .join(Screen.Join(progress: Self.waiting)))
    }

    /// The admin may be a walk away: the code stays on screen past the idle time-out.
    @Test func aWaitingCodeStaysOnScreenPastTheIdleTimeout() throws {
        var h = try Harness()
        _ = Self.openJoin(&h)
        h.send(.joinChanged(Self.waiting))
        h.advance(MotionTokens.idleTimeout * 3)
        #expect(h.state.screen == .join(Screen.Join(progress: Self.waiting)))
    }

    @Test func approvalShowsTheGroupThenAPressGoesToTheBoard() throws {
        var h = try Harness()
        _ = Self.openJoin(&h)
        h.send(.joinChanged(Self.waiting))
        #expect(h.send(.joinChanged(.joined(group: "Tuesday league"))) == [.buzz(.confirm)])
        #expect(h.state.screen == .join(Screen.Join(progress: .joined(group: "Tuesday league"))))
        #expect(h.state.notice?.text == "Joined Tuesday league: scores now sync")
        h.send(.pressed)
        #expect(h.state.screen == .board)
    }

    @Test func anExpiredCodeSaysSoAndAPressAsksForANewOne() throws {
        var h = try Harness()
        _ = Self.openJoin(&h)
        h.send(.joinChanged(Self.waiting))
        #expect(h.send(.joinChanged(.expired)) == [.buzz(.error)])
        guard case .join(let join) = h.state.screen else {
            Issue.record("not on the join screen")
            return
        }
        #expect(join.text.headline == "The code expired")
        #expect(join.text.footer.contains("Press for a new code"))
        #expect(h.send(.pressed) == [.startJoin])
        #expect(h.state.screen == .join(Screen.Join(progress: .requesting)))
    }

    @Test func aFailureSaysWhyAndCanBeRetriedOrLeft() throws {
        var h = try Harness()
        _ = Self.openJoin(&h)
        h.send(.joinChanged(.failed("No group server address: start the kiosk with --server URL")))
        guard case .join(let join) = h.state.screen else {
            Issue.record("not on the join screen")
            return
        }
        #expect(join.text.lines == ["No group server address: start the kiosk with --server URL"])
        #expect(h.send(.pressed) == [.startJoin])
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: h.state.menuItems.firstIndex(of: .joinGroup)!))
    }

    /// A report that arrives while another screen is up does not take the screen over; a
    /// join still says so, wherever the kiosk is.
    @Test func reportsOffTheJoinScreenOnlyAnnounceAJoin() throws {
        var h = try Harness()
        h.send(.joinChanged(Self.waiting))
        #expect(h.state.screen == .board)
        h.send(.joinChanged(.joined(group: "Tuesday league")))
        #expect(h.state.screen == .board)
        #expect(h.state.notice?.text == "Joined Tuesday league: scores now sync")
    }
}
