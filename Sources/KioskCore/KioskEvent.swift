import Foundation
import HyzerKit

/// Inputs to the machine. The shell turns SDL events, knob events, store reads and the
/// clock into these.
public enum KioskEvent: Sendable, Equatable {
    /// ±n detents (clockwise positive).
    case turned(Int)
    /// A click (the knob's release after a short press, Enter).
    case pressed
    /// A long press: back / cancel (Escape).
    case longPressed
    /// A tap at a point in the screen's logical coordinates.
    case touch(x: Double, y: Double)
    /// Time passed (a wake-up the machine asked for, or a frame).
    case tick
    /// Fresh data from the store, and what caused the change.
    case dataChanged(KioskData, StandingsTrigger)
    case syncChanged(SyncIndicator)
    /// An effect the shell carried out failed; shown to the people at the tee.
    case effectFailed(String)
    /// What keeps scores from being saved (a read-only or full card), or nil once they
    /// can be again: shown over every screen for as long as it lasts (issue 12).
    case storageChanged(String?)
    case settingsChanged(KioskSettings)
    /// Fresh facts for the status screen, gathered by the shell when asked (`.refreshStatus`).
    case statusChanged(KioskStatus)
    /// The drawable area changed (window resize, rotation).
    case resized(Viewport)
    /// How joining a group goes (after `.startJoin`).
    case joinChanged(JoinProgress)
    /// How inviting a phone goes (after `.requestInvite`).
    case inviteChanged(InviteProgress)
    /// A round's summary page link (after `.requestSummaryLink`).
    case summaryLinkChanged(roundID: UUID, url: String)
    /// How the code for typing a name on a phone goes (after `.requestPhoneName`).
    case phoneNameChanged(PhoneNameProgress)
    /// The name a phone typed for the name entry that asked (after `.requestPhoneName`).
    case phoneNameArrived(String)
    /// The group's device names by id, as the server lists them (after `.requestDeviceNames`).
    case deviceNamesChanged([String: String])
    /// A page of history read for `.loadHistory(after:)`; `after` is the request's start.
    case historyLoaded(HistoryPage, after: HistoryCursor?)
    /// The recent form `readForm` asked for (issue 36): a player's average to par.
    case formRead([UUID: Double])
    /// A round read for `.loadHistoryRound`, with what may be undone in it (issue 35).
    case historyRoundLoaded(RoundSnapshot, undo: HistoryUndo = .none)
    /// A page read for `.loadStats` (issue 37).
    case statsLoaded(Screen.Stats.Subject, Screen.Stats.Page)
    /// A keyboard typed on a screen that takes typing (`Screen.takesTyping`).
    case typed(TypedKey)
    /// The bundled first names behind the name wheel, read and indexed off the main thread
    /// after the first frame (building the index before it doubled the kiosk's launch time).
    case nameListLoaded(NameLexicon)
    /// The answer to `.checkOrganizerCode`: whether the code was the organizer's.
    case organizerCodeChecked(Bool)
}

/// What a keyboard does on a screen that takes typing.
public enum TypedKey: Sendable, Equatable {
    case text(String)
    case delete
    case done
}

extension KioskEvent {
    /// A person at the kiosk: the knob, a tap or a key (not the clock, the store or sync).
    public var isInput: Bool {
        switch self {
        case .turned, .pressed, .longPressed, .touch, .typed: true
        default: false
        }
    }
}
