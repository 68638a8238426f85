import Foundation
import HyzerKit

/// Where joining a group stands, as the shell reports it (`KioskEvent.joinChanged`). The
/// shell asks the server for a code, polls for the token and saves the link; the machine
/// only shows what it is told (RFC 8628 device authorization, docs/sync-protocol.md).
public enum JoinProgress: Sendable, Equatable {
    /// Asking the server for a code.
    case requesting
    /// The code to show, the server it is for, and how long it lasts (seconds).
    case waiting(code: String, server: String, expiresIn: Int)
    /// Approved: the kiosk is in `group` and syncs from now on.
    case joined(group: String)
    /// Ten minutes passed without an approval (or the code was spent): a new one is a press away.
    case expired
    /// No code can be had or the admin refused it: the sentence says why and what to do.
    case failed(String)
}

extension Screen {
    /// "Join a group": the code big enough to read from where the admin stands, the server,
    /// and the command that approves it.
    public struct Join: Sendable, Equatable {
        public var progress: JoinProgress
        public init(progress: JoinProgress) { self.progress = progress }

        /// The command the admin types on the server.
        public static func approveCommand(_ code: String) -> String {
            "hyzer-server device approve \(code) --group GROUP"
        }

        /// What the screen says, decided here so tests read it and the painter only lays
        /// it out: a headline, the code (while there is one), lines under it, the footer.
        public var text: (headline: String, code: String?, lines: [String], footer: String) {
            switch progress {
            case .requesting:
                return ("Join a group", nil, ["Asking the group server for a code…"], "Hold to go back")
            case .waiting(let code, let server, let expiresIn):
                return (
                    "Join a group", code,
                    [
                        "Ask the group's admin to approve this code on the server:",
                        Self.approveCommand(code),
                        "Server \(server) · the code works once, for \(max(1, expiresIn / 60)) minutes",
                    ], "Waiting for the approval · Hold to go back"
                )
            case .joined(let group):
                return ("Joined \(group)", nil, ["Scores now sync with the group."], "Press for the board")
            case .expired:
                return (
                    "The code expired", nil, ["It was not approved within its time."], "Press for a new code · Hold to go back"
                )
            case .failed(let why):
                return ("Cannot join", nil, [why], "Press to try again · Hold to go back")
            }
        }
    }
}

extension Screen.Join: ScreenBehavior {
    var name: String { "join" }

    /// While a code is on screen the kiosk waits for the admin (who may be a walk away);
    /// an outcome times out to the board as any screen does.
    var isTransient: Bool {
        switch progress {
        case .requesting, .waiting: false
        case .joined, .expired, .failed: true
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch progress {
        case .requesting, .waiting:
            return []
        case .expired, .failed:
            // A new code: the old one is dead.
            state.screen = .join(Screen.Join(progress: .requesting))
            return [.startJoin]
        case .joined:
            state.screen = .board
            return []
        }
    }

    /// Back to the menu. A code still waiting stays valid: if the admin approves it
    /// anyway, the kiosk joins (that is what the admin asked for).
    func back(in state: inout KioskState) {
        state.screen = .menu(cursor: state.menuItems.firstIndex(of: .joinGroup) ?? 0)
    }
}

extension KioskState {
    /// The shell's report on the join. Shown on the join screen while it is up; a kiosk that
    /// joined says so wherever it is.
    mutating func joinChanged(_ progress: JoinProgress, now: Millis) -> [KioskEffect] {
        if case .join = screen { screen = .join(Screen.Join(progress: progress)) }
        switch progress {
        case .joined(let group):
            notice = Notice(text: "Joined \(group): scores now sync", kind: .info, shownAt: now)
            return [.buzz(.confirm)]
        case .expired, .failed:
            return [.buzz(.error)]
        case .requesting, .waiting:
            return []
        }
    }

    /// Whether the kiosk is in no group: sync never reported a state.
    var isInNoGroup: Bool { sync.state == .disabled }
}
