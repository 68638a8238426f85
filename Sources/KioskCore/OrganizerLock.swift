import Foundation
import HyzerKit

/// The organizer code (issue 35 item 1): the kiosk stands at a tee in public, so what
/// destroys or changes the kiosk asks for a short code entered with the knob. Scoring,
/// resolving a discrepancy, browsing and finishing a round whose every hole is scored
/// never ask.
///
/// The machine never sees the code's hash: it asks the shell to check a code
/// (`.checkOrganizerCode`) and to keep a new one (`.setOrganizerCode`), and hears back
/// `.organizerCodeChecked`. What it keeps is whether there is a code, how long it is, how
/// many wrong tries came in a row, and whether the person at the knob has unlocked it.
public struct OrganizerLock: Sendable, Equatable {
    /// How the kiosk is configured (kiosk.conf's `lock.enabled` and `lock.code_hash`, or a
    /// code chosen at the kiosk).
    public enum Setting: Sendable, Equatable {
        /// A private garage kiosk: nothing asks.
        case off
        /// On, with no code yet: the first locked action asks for a new one, twice.
        case unset
        /// On, with a code of `length` digits.
        case set(length: Int)
    }

    /// Wrong codes in a row before the lock holds for `lockout`.
    public static let maxTries = 5
    public static let lockout: Millis = 60_000
    /// The length of a code chosen at the kiosk (kiosk.conf's may be 4 to 8 digits).
    public static let chosenLength = 4
    public static let lengths = 4...8

    /// Wrong codes since the last right one or the last lock-out.
    public internal(set) var failures = 0
    /// Until when no code is taken (after `maxTries` wrong ones).
    public internal(set) var lockedUntil: Millis?
    /// A right code was entered: locked actions go through until the kiosk is back on its
    /// board (an organizer tidying up asks once, not at every step).
    public internal(set) var unlocked = false

    public init() {}

    /// Seconds left of the lock-out at `now`, rounded up; nil when codes are taken.
    public func lockedSeconds(at now: Millis) -> Int? {
        guard let lockedUntil, now < lockedUntil else { return nil }
        return Int((lockedUntil - now + 999) / 1_000)
    }
}

/// What the code guards. Each is asked for where it is offered, and goes on as it would
/// have without the lock once the code is right.
public enum LockedAction: Sendable, Equatable {
    /// "Finish round now" while someone is missing holes (they would be DNF).
    case finishEarly
    case discardRound
    /// The kiosk's own settings (the menu's reduce motion), to this value.
    case reduceMotion(Bool)
    /// "Delete course" in the course editor.
    case deleteCourse(Screen.CourseEditor)
    /// Undo (issue 35): "Reopen this round" on a round open in history; a hole of a
    /// finished round's player card; a deleted course on the course list.
    case reopenRound(Screen.History)
    case correctScore(Screen.History, hole: Int)
    case restoreCourse(DeletedCourse)
    /// The menu's Players: off the roster, or merged into another player.
    case removePlayer(Player)
    case mergePlayer(Player, into: Player)

    /// What the code is for, as the screen says it: "to finish the round early".
    public var purpose: String {
        switch self {
        case .finishEarly: "to finish the round early"
        case .discardRound: "to discard this round"
        case .reduceMotion: "to change the kiosk's settings"
        case .deleteCourse(let editor): "to delete \(editor.draft.name)"
        case .reopenRound: "to reopen this round"
        case .correctScore(_, let hole): "to correct hole \(hole)"
        case .restoreCourse(let course): "to restore \(course.name)"
        case .removePlayer(let player): "to remove \(player.displayName)"
        case .mergePlayer(let player, _): "to merge \(player.displayName)"
        }
    }
}

extension KioskState {
    /// The screen for `action`: at once when nothing is locked (or this person unlocked it),
    /// else the code entry (a new code's, when none was set).
    mutating func guarded(_ action: LockedAction, now: Millis) -> [KioskEffect] {
        switch settings.organizerLock {
        case .off: return perform(action, now: now)
        case _ where lock.unlocked: return perform(action, now: now)
        case .unset: screen = .codeEntry(Screen.CodeEntry(action: action, step: .choose))
        case .set: screen = .codeEntry(Screen.CodeEntry(action: action, step: .unlock, in: self, now: now))
        }
        return []
    }

    /// Goes on with `action`, the lock passed.
    mutating func perform(_ action: LockedAction, now: Millis) -> [KioskEffect] {
        switch action {
        case .finishEarly:
            screen = .finishRound(kind: .finish)
        case .discardRound:
            screen = .finishRound(kind: .discard)
        case .deleteCourse(let editor):
            screen = .deleteCourse(Screen.DeleteCourse(editor: editor))
        case .reopenRound(let history):
            screen = .undoConfirm(Screen.UndoConfirm(.reopenRound(history)))
        case .correctScore(let history, let hole):
            screen = Screen.CorrectScore(history: history, hole: hole).map(Screen.correctScore) ?? .history(history)
        case .restoreCourse(let course):
            screen = .undoConfirm(Screen.UndoConfirm(.restoreCourse(course)))
        case .removePlayer(let player):
            screen = .undoConfirm(Screen.UndoConfirm(.removePlayer(player)))
        case .mergePlayer(let player, let into):
            screen = .undoConfirm(Screen.UndoConfirm(.mergePlayer(player, into: into)))
        case .reduceMotion(let on):
            settings.reduceMotion = on
            screen = .menu(cursor: menuItems.firstIndex(of: .reduceMotion(on)) ?? 0)
            return [.saveSettings(settings)]
        }
        return []
    }

    /// Back where `action` was asked for, nothing done.
    mutating func cancel(_ action: LockedAction) {
        switch action {
        case .finishEarly:
            screen = .menu(cursor: menuItems.firstIndex(of: .finishRound) ?? 0)
        case .discardRound:
            screen = .menu(cursor: menuItems.firstIndex(of: .discardRound) ?? 0)
        case .reduceMotion(let on):
            screen = .menu(cursor: menuItems.firstIndex(of: .reduceMotion(!on)) ?? 0)
        case .deleteCourse(let editor):
            screen = .courseEditor(editor)
        case .reopenRound(let history), .correctScore(let history, _):
            screen = .history(history)
        case .restoreCourse(let course):
            screen = .courseList(cursor: courseListRow(of: course.id))
        case .removePlayer(let player):
            screen = .players(Screen.Players(level: .choose(player)))
        case .mergePlayer(let player, let into):
            screen = .players(Screen.Players.mergingInto(player, at: into, in: data))
        }
    }

    /// The shell's answer to `.checkOrganizerCode`.
    mutating func organizerCodeChecked(_ right: Bool, now: Millis) -> [KioskEffect] {
        guard case .codeEntry(var entry) = screen, entry.checking else { return [] }
        if right {
            lock.failures = 0
            lock.unlocked = true
            return [.buzz(.confirm)] + perform(entry.action, now: now)
        }
        lock.failures += 1
        if lock.failures >= OrganizerLock.maxTries {
            lock.failures = 0
            lock.lockedUntil = now + OrganizerLock.lockout
        }
        entry = Screen.CodeEntry(action: entry.action, step: .unlock, in: self, now: now)
        entry.message = lock.lockedUntil == nil ? .wrong(triesLeft: OrganizerLock.maxTries - lock.failures) : nil
        screen = .codeEntry(entry)
        return [.buzz(.error)]
    }

    /// A code chosen at the kiosk, entered the same twice: kept, and this person may go on.
    mutating func organizerCodeChosen(_ digits: [Int], for action: LockedAction, now: Millis) -> [KioskEffect] {
        settings.organizerLock = .set(length: digits.count)
        lock.unlocked = true
        let code = digits.map(String.init).joined()
        return [.buzz(.confirm), .setOrganizerCode(code)] + perform(action, now: now)
    }
}
