import Foundation
import HyzerKit

/// Where inviting a phone stands, as the shell reports it (`KioskEvent.inviteChanged`): the
/// shell asks the group server for an invite and says when it runs out; the machine only
/// shows what it is told.
public enum InviteProgress: Sendable, Equatable {
    /// Asking the server.
    case requesting
    /// The link a phone opens (shown as a QR code) and how long it lasts, in seconds.
    case ready(url: String, expiresIn: Int)
    /// Its ten minutes are over: a new one is a press away.
    case expired
    /// No invite can be had: the sentence says why and what to do.
    case failed(String)
}

extension Screen {
    /// "Add a phone": a QR code a phone's camera opens, which makes the phone one more
    /// scorer of the group (its page is served by the group server, docs/sync-protocol.md).
    public struct AddPhone: Sendable, Equatable {
        public var progress: InviteProgress
        public init(progress: InviteProgress) { self.progress = progress }

        /// What the screen says: a headline, the link to draw as a QR code (while there is
        /// one), lines under it, the footer.
        public var text: (headline: String, url: String?, lines: [String], footer: String) {
            switch progress {
            case .requesting:
                return ("Add a phone", nil, ["Asking the group server for an invite…"], "Hold to go back")
            case .ready(let url, let expiresIn):
                return (
                    "Add a phone", url,
                    ["Scan with the phone's camera, then enter your name.", url],
                    "Works once, for \(max(1, expiresIn / 60)) minutes · Hold to go back"
                )
            case .expired:
                return ("The invite expired", nil, ["Nobody used it within its time."], "Press for a new one · Hold to go back")
            case .failed(let why):
                return ("Cannot add a phone", nil, [why], "Press to try again · Hold to go back")
            }
        }
    }
}

extension Screen.AddPhone: ScreenBehavior {
    var name: String { "add-phone" }

    /// A code on screen stays up while someone fetches a phone; an outcome times out to
    /// the board as any screen does.
    var isTransient: Bool {
        switch progress {
        case .requesting, .ready: false
        case .expired, .failed: true
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch progress {
        case .requesting, .ready:
            return []
        case .expired, .failed:
            state.screen = .addPhone(Screen.AddPhone(progress: .requesting))
            return [.requestInvite]
        }
    }

    /// Back to the menu. An invite still valid stays valid: a phone that scans it later
    /// still joins (the kiosk showed it for that).
    func back(in state: inout KioskState) {
        state.screen = .menu(cursor: state.menuItems.firstIndex(of: .addPhone) ?? 0)
    }
}

extension KioskState {
    /// The shell's report on the invite, shown while the screen is up.
    mutating func inviteChanged(_ progress: InviteProgress) -> [KioskEffect] {
        guard case .addPhone = screen else { return [] }
        screen = .addPhone(Screen.AddPhone(progress: progress))
        if case .failed = progress { return [.buzz(.error)] }
        return []
    }
}
