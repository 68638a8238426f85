import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 11: the kiosk's two QR codes. "Add a phone" (menu) asks the shell for an invite and
/// shows what it reports; a finished round's summary card asks for its summary page's link
/// and draws it when it comes. The shell's requests are `ShareQRTests` (KioskAppTests)
/// against a real server; here, the screens' transitions on what the shell reports.
@Suite struct ShareScreenTests {
    static let ready = InviteProgress.ready(url: "http://10.0.0.2:8630/join/BCDFGHJK", expiresIn: 600)

    static func inAGroup() throws -> Harness {
        var h = try Harness()
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        return h
    }

    static func openAddPhone(_ h: inout Harness) -> [KioskEffect] {
        h.send(.longPressed)
        guard let index = h.state.menuItems.firstIndex(of: .addPhone) else { return [] }
        h.send(.turned(index))
        return h.send(.pressed)
    }

    @Test func theMenuOffersAPhoneOnlyToAKioskInAGroup() throws {
        var h = try Harness()
        #expect(!h.state.menuItems.contains(.addPhone), "a kiosk in no group has nobody to invite to")
        h.send(.syncChanged(SyncIndicator(state: .idle)))
        // After Status, so the entries people know keep their places.
        #expect(h.state.menuItems.suffix(6) == [.status, .addPhone, .courses, .players, .leagueNight, .close])
    }

    @Test func addingAPhoneAsksForAnInviteAndShowsItsLink() throws {
        var h = try Self.inAGroup()
        #expect(Self.openAddPhone(&h) == [.requestInvite])
        #expect(h.state.screen == .addPhone(Screen.AddPhone(progress: .requesting)))
        #expect(h.state.screen.name == "add-phone")
        h.send(.inviteChanged(Self.ready))
        guard case .addPhone(let screen) = h.state.screen else {
            Issue.record("not on the add-phone screen")
            return
        }
        #expect(screen.text.url == "http://10.0.0.2:8630/join/BCDFGHJK")
        #expect(screen.text.footer.contains("10 minutes"))
        // The code stays up while someone fetches their phone, past the idle time-out.
        #expect(h.send(.pressed).isEmpty)
        h.advance(MotionTokens.idleTimeout * 3)
        #expect(h.state.screen == .addPhone(screen))
    }

    @Test func anExpiredInviteLosesItsCodeAndAPressAsksAgain() throws {
        var h = try Self.inAGroup()
        _ = Self.openAddPhone(&h)
        h.send(.inviteChanged(Self.ready))
        h.send(.inviteChanged(.expired))
        guard case .addPhone(let screen) = h.state.screen else {
            Issue.record("not on the add-phone screen")
            return
        }
        #expect(screen.text.url == nil, "an expired code is not drawn: it would not work")
        #expect(h.send(.pressed) == [.requestInvite])
        #expect(h.state.screen == .addPhone(Screen.AddPhone(progress: .requesting)))
    }

    @Test func aFailureBuzzesSaysWhyAndHoldGoesBackToTheMenu() throws {
        var h = try Self.inAGroup()
        _ = Self.openAddPhone(&h)
        #expect(h.send(.inviteChanged(.failed("Cannot get an invite from http://x: offline"))) == [.buzz(.error)])
        guard case .addPhone(let screen) = h.state.screen else {
            Issue.record("not on the add-phone screen")
            return
        }
        #expect(screen.text.lines == ["Cannot get an invite from http://x: offline"])
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: h.state.menuItems.firstIndex(of: .addPhone)!))
        // A late report does not take another screen over.
        h.send(.inviteChanged(Self.ready))
        #expect(h.state.screen == .menu(cursor: h.state.menuItems.firstIndex(of: .addPhone)!))
    }

    @Test func finishingInAGroupAsksForTheSummaryLinkAndTheCardKeepsIt() throws {
        var h = try Self.inAGroup()
        let id = h.round!.id
        FinishScreenTests.scoreAll(&h, player: 0, holes: 1...h.course.holeCount)
        FinishScreenTests.scoreAll(&h, player: 1, holes: 1...h.course.holeCount)
        FinishScreenTests.choose(.finishRound, &h)
        let effects = h.send(.pressed)
        #expect(effects.contains(.finishRound(id)))
        #expect(effects.last == .requestSummaryLink(id), "asked after the finish, whose push goes first")
        #expect(h.state.summaryLinkOnShow == nil)
        // A link for another round (an old request answered late) is not this card's.
        h.send(.summaryLinkChanged(roundID: UUID(), url: "http://x/s/hzs_other"))
        #expect(h.state.summaryLinkOnShow == nil)
        h.send(.summaryLinkChanged(roundID: id, url: "http://x/s/hzs_this"))
        #expect(h.state.summaryLinkOnShow == "http://x/s/hzs_this")
        #expect(h.state.screen == .summary(Screen.Summary(roundID: id, link: "http://x/s/hzs_this")))
        h.send(.pressed)
        #expect(h.state.summaryLinkOnShow == nil, "the board's last round is for glancing, not scanning")
    }

    @Test func aKioskInNoGroupAsksForNoSummaryLink() throws {
        var h = try Harness()
        FinishScreenTests.scoreAll(&h, player: 0, holes: 1...h.course.holeCount)
        FinishScreenTests.choose(.finishRound, &h)
        #expect(!h.send(.pressed).contains { if case .requestSummaryLink = $0 { true } else { false } })
    }
}
