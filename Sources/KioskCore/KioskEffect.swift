import Foundation
import HyzerKit

/// Buzzer patterns the UI asks for. (The per-detent tick is played by the knob driver
/// itself on its input thread, within NFR4's 50 ms, never by the UI.)
public enum BuzzPattern: String, Sendable, Equatable { case confirm, limit, error }

/// What the shell must do after an event.
public enum KioskEffect: Sendable, Equatable {
    case buzz(BuzzPattern)
    case saveScore(roundID: UUID, participantID: UUID, hole: Int, strokes: Int)
    case finishRound(UUID)
    /// One resolution event that supersedes every conflicting leaf of the cell (FR52).
    case resolveScore(roundID: UUID, participantID: UUID, hole: Int, strokes: Int)
    /// Drop a round that has no scores (it syncs as a completed round with no events).
    case discardRound(UUID)
    /// Create and start a round; the first participant organizes; its card starts on
    /// `startHole` (issue 36: a shotgun start).
    case startRound(courseID: UUID, participants: [Participant], startHole: Int = 1)
    /// Register a new player (entered on the name wheel); their id is already picked for the round.
    case addPlayer(Player)
    /// Create or change a course (the course editor); it syncs like any edit.
    case saveCourse(Course)
    /// Delete a course: a tombstone on every device; played rounds keep it.
    case deleteCourse(UUID)
    /// Issue 35, each with the code passed: reopen a finished round, correct one of its
    /// scores, restore a deleted course.
    case reopenRound(UUID)
    case correctScore(roundID: UUID, participantID: UUID, hole: Int, strokes: Int)
    case restoreCourse(UUID)
    /// Take a player off the roster; merge one into another who is the same person.
    case removePlayer(UUID)
    case mergePlayer(UUID, into: UUID)
    /// The undo toast (issue 35): withdraw the score this kiosk just saved in the cell
    /// (`strokes`, as saved), or take a player just made in setup off the roster.
    case undoScore(roundID: UUID, participantID: UUID, hole: Int, strokes: Int)
    case undoNewPlayer(UUID)
    case saveSettings(KioskSettings)
    /// Check an organizer code against the kept hash and answer `.organizerCodeChecked`.
    case checkOrganizerCode(String)
    /// Keep a code chosen at the kiosk, hashed (none was configured).
    case setOrganizerCode(String)
    /// Gather the status screen's facts and send them back as `.statusChanged`.
    case refreshStatus
    /// Ask the group server for a code to join it with, show it, and poll until the admin
    /// approves it (reported back as `.joinChanged`). A new one replaces any code still waiting.
    case startJoin
    /// Ask the group server for a phone's invite and show it as a QR code, reported back as
    /// `.inviteChanged` (and again when it expires).
    case requestInvite
    /// Ask the group server for a code a phone types a name with (issue 32), for the name
    /// entry now open; `label` is what the name is for ("Guest's name"). Reported back as
    /// `.phoneNameChanged` (ready, expired, failed) and `.phoneNameArrived`. A new request
    /// replaces one still waiting.
    case requestPhoneName(label: String)
    /// The name entry that asked is gone: stop waiting for its name (a late one is dropped).
    case cancelPhoneName
    /// Ask the group server for a link to the round's summary page, reported back as
    /// `.summaryLinkChanged` (retried a while when the server cannot be reached).
    case requestSummaryLink(UUID)
    /// Ask the group server for its devices' names (a score from a device this kiosk cannot
    /// name arrived), reported back as `.deviceNamesChanged`.
    case requestDeviceNames
    /// League night (issue 36): read the recent form of these registered players (their
    /// average to par) and send it back as `.formRead`, for a balanced draw.
    case readForm([UUID])
    /// Make the night: one round per card with its start hole, and the night's record;
    /// then start the cards.
    case startLeagueNight(LeagueNightPlan)
    /// Enter who won a closest-to-the-pin hole of the night (nil: nobody).
    case setClosestToPin(eventID: UUID, hole: Int, winner: UUID?)
    /// Read one page of history after the key (nil: from the newest) and send it back as `.historyLoaded`.
    case loadHistory(after: HistoryCursor?)
    /// Read a completed round and send it back as `.historyRoundLoaded`.
    case loadHistoryRound(UUID)
    /// Read a player's or a course's numbers and send them back as `.statsLoaded` (issue 37).
    case loadStats(Screen.Stats.Subject)
}
