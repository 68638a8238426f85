import Foundation
import HyzerKit

/// What the kiosk knows of the world, read from the store by the shell.
public struct KioskData: Sendable, Equatable {
    /// The round the screens act on, if any: the newest active one, or the one picked at the
    /// round chooser (`KioskState.focus(on:now:)`), which stays in front while it is played.
    public var round: RoundSnapshot?
    /// The other rounds being played, newest first (issue 9: two cards on the course). Empty
    /// in the common one-round case, so a reload compares and copies nothing more than before.
    public var otherRounds: [RoundSnapshot]
    /// The most recently completed round, for the summary card.
    public var lastCompleted: RoundSnapshot?
    public var courses: [Course]
    public var players: [Player]
    /// This kiosk's device id, so the resolve screen can say "this kiosk" for its own scores.
    public var deviceID: String?

    public init(
        round: RoundSnapshot? = nil, lastCompleted: RoundSnapshot? = nil, courses: [Course] = [], players: [Player] = [],
        deviceID: String? = nil, otherRounds: [RoundSnapshot] = []
    ) {
        self.round = round
        self.otherRounds = otherRounds
        self.lastCompleted = lastCompleted
        self.courses = courses
        self.players = players
        self.deviceID = deviceID
    }

    /// A display name for whoever reported a score.
    public func name(of id: UUID) -> String? {
        round?.round.participant(id)?.name ?? players.first { $0.id == id }?.displayName
            ?? otherRounds.lazy.compactMap { $0.round.participant(id)?.name }.first
    }

    /// Every round being played, newest first: the chooser's rows, the board's course panel.
    public var rounds: [RoundSnapshot] {
        guard let round else { return otherRounds }
        guard !otherRounds.isEmpty else { return [round] }
        return ([round] + otherRounds).sorted(by: Self.newestFirst)
    }

    /// The same rounds with round `id` as the one acted on; nil when none has that id.
    public func focused(on id: UUID) -> KioskData? {
        if round?.round.id == id { return self }
        guard let index = otherRounds.firstIndex(where: { $0.round.id == id }) else { return nil }
        var copy = self
        let chosen = copy.otherRounds.remove(at: index)
        if let round { copy.otherRounds = (copy.otherRounds + [round]).sorted(by: Self.newestFirst) }
        copy.round = chosen
        return copy
    }

    /// Fresh data from the store (newest round in front) with the round `old` had in front
    /// kept there, so a round another device starts never takes the board or the card from
    /// the group using this kiosk. A round this kiosk just started (its own write,
    /// `.localScore`, a round `old` did not have) comes to the front. With one round: `self`.
    public func keepingInFront(of old: KioskData, trigger: StandingsTrigger) -> KioskData {
        guard !otherRounds.isEmpty, let front = old.round?.round.id, round?.round.id != front else { return self }
        if trigger == .localScore, let newest = round, !old.rounds.contains(where: { $0.round.id == newest.round.id }) {
            return self
        }
        return focused(on: front) ?? self
    }

    /// The store's order (`activeRounds`), with the id to settle a tie the same way everywhere.
    static func newestFirst(_ a: RoundSnapshot, _ b: RoundSnapshot) -> Bool {
        (a.round.createdAt, a.round.id.uuidString) > (b.round.createdAt, b.round.id.uuidString)
    }
}

extension RoundSnapshot {
    /// How far the group is: holes from the first that everyone has a score on ("thru 4").
    public var thru: Int {
        let scorecard = scorecard
        return (course.holes.first { !scorecard.isHoleComplete($0) } ?? course.holeCount + 1) - 1
    }
}

/// Sync status for the small indicator on the board (the sync issue feeds it).
public struct SyncIndicator: Sendable, Equatable {
    public enum State: String, Sendable, Equatable { case disabled, idle, syncing, offline, error }
    public var state: State
    public var lastSynced: Date?
    public var detail: String?
    /// Local records the server refused for good (outbox `failed`): a person must look.
    public var refused: Int

    public init(state: State = .disabled, lastSynced: Date? = nil, detail: String? = nil, refused: Int = 0) {
        self.state = state
        self.lastSynced = lastSynced
        self.detail = detail
        self.refused = refused
    }
}

public struct KioskSettings: Sendable, Equatable {
    /// NFR15: replace motion with instant changes.
    public var reduceMotion: Bool
    /// How long each page of a board that does not fit stays (issue 15).
    public var boardPageInterval: Millis
    /// Rotating rows on a board page; nil: as many as fit at the minimum sizes (never more).
    public var boardRowsPerPage: Int?
    /// Idle dimming (kiosk.conf's display.dim_after_minutes and dim_level): after this long
    /// with nobody at the knob and no new score, the screen dims; nil never dims.
    public var dimAfter: Millis?
    /// The screen's brightness while dimmed, 0.05 to 1.
    public var dimLevel: Double
    /// kiosk.conf's default display.dim_level (30 %).
    public static let defaultDimLevel = 0.3
    public init(
        reduceMotion: Bool = false, boardPageInterval: Millis = MotionTokens.boardPageInterval,
        boardRowsPerPage: Int? = nil, dimAfter: Millis? = nil, dimLevel: Double = KioskSettings.defaultDimLevel
    ) {
        self.reduceMotion = reduceMotion
        self.boardPageInterval = max(1_000, boardPageInterval)
        self.boardRowsPerPage = boardRowsPerPage
        self.dimAfter = dimAfter.map { max(1_000, $0) }
        self.dimLevel = min(1, max(0.05, dimLevel))
    }
}

/// A short message over the current screen.
public struct Notice: Sendable, Equatable {
    public enum Kind: Sendable, Equatable { case info, error }
    public var text: String
    public var kind: Kind
    public var shownAt: Millis
}

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
    /// A round read for `.loadHistoryRound`.
    case historyRoundLoaded(RoundSnapshot)
    /// A keyboard typed on a screen that takes typing (`Screen.takesTyping`).
    case typed(TypedKey)
    /// The bundled first names behind the name wheel, read and indexed off the main thread
    /// after the first frame (building the index before it doubled the kiosk's launch time).
    case nameListLoaded(NameLexicon)
}

/// What a keyboard does on a screen that takes typing.
public enum TypedKey: Sendable, Equatable {
    case text(String)
    case delete
    case done
}

/// The logical drawing area in pixels (after any portrait rotation).
public struct Viewport: Sendable, Equatable {
    public var width: Int
    public var height: Int
    public init(width: Int, height: Int) {
        self.width = max(1, width)
        self.height = max(1, height)
    }
}

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
    /// Create and start a round; the first participant organizes.
    case startRound(courseID: UUID, participants: [Participant])
    /// Register a new player (entered on the name wheel); their id is already picked for the round.
    case addPlayer(Player)
    /// Create or change a course (the course editor); it syncs like any edit.
    case saveCourse(Course)
    /// Delete a course: a tombstone on every device; played rounds keep it.
    case deleteCourse(UUID)
    case saveSettings(KioskSettings)
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
    /// Read one page of history after the key (nil: from the newest) and send it back as `.historyLoaded`.
    case loadHistory(after: HistoryCursor?)
    /// Read a completed round and send it back as `.historyRoundLoaded`.
    case loadHistoryRound(UUID)
}

/// Store changes noticed faster than the board can show them, turned into at most one
/// reload per interval: the first change after a quiet spell is read at once, the rest of
/// a burst (ten remote scores a second) together when the interval is over. Each reload
/// re-reads the whole round and may start a reshuffle, so a reload per change kept the
/// board animating and the CPU busy without showing anything sooner than a person can read.
///
/// A burst that goes on (`burstAfter` reloads in a row that each waited out the interval)
/// is read every `burstInterval` instead: a board reshuffling every second for minutes is
/// hard to follow from 3 m, and each reshuffle is a second of frames. Both stay well inside
/// NFR2's 5 s; the first quiet spell longer than the interval ends the burst.
public struct ReloadCoalescer<Change: Hashable & Sendable>: Sendable, Equatable {
    public let interval: Millis
    public let burstInterval: Millis
    public let burstAfter: Int
    /// The kinds of change noticed since the last reload.
    public private(set) var pending: Set<Change> = []
    public private(set) var lastReload: Millis?
    /// Reloads in a row that had to wait for the interval (changes kept coming).
    public private(set) var waitedReloads = 0

    public init(
        interval: Millis = MotionTokens.reloadInterval, burstInterval: Millis = MotionTokens.burstReloadInterval,
        burstAfter: Int = MotionTokens.burstAfterReloads
    ) {
        self.interval = interval
        self.burstInterval = max(interval, burstInterval)
        self.burstAfter = burstAfter
    }

    /// The interval in force: longer once a burst has gone on.
    public var currentInterval: Millis { waitedReloads >= burstAfter ? burstInterval : interval }

    public mutating func noticed(_ change: Change) { pending.insert(change) }

    /// When the loop must wake to reload (nil: nothing pending).
    public var dueAt: Millis? {
        guard !pending.isEmpty else { return nil }
        return lastReload.map { $0 + currentInterval } ?? .min
    }

    /// The changes to read now, if the reload is due; the interval starts again.
    public mutating func take(now: Millis) -> Set<Change>? {
        guard let due = dueAt, now >= due else { return nil }
        defer { pending = [] }
        // A reload read within the interval it waited for (plus a frame's slack for the
        // loop's wake-up) continues a burst; one after a longer quiet spell starts afresh.
        if let last = lastReload, now - last <= currentInterval + MotionTokens.frameInterval {
            waitedReloads += 1
        } else {
            waitedReloads = 0
        }
        lastReload = now
        return pending
    }
}

/// When the loop draws. Input is drawn at once (the knob's feedback); motion at its frame
/// rate (`KioskState.frameInterval`), however often other news wakes the loop; a change
/// nobody is waiting to see (the sync badge turning "syncing" and back on every pull, ten
/// times a second in a burst) at most once per `quietInterval`, the latest state then.
public struct RedrawPacer: Sendable, Equatable {
    public let quietInterval: Millis
    public private(set) var lastDraw: Millis?
    /// Input arrived since the last frame.
    public private(set) var input = false
    /// The last frame was drawn while something moved. Once it stops, one more frame shows
    /// it at rest: the last moving frame can fall up to a 30 Hz frame short of the end (a
    /// row a pixel off its slot, a pulse's bar still faintly lit), and nothing else would
    /// draw over it until the next change.
    public private(set) var drewMotion = false
    /// The first frame was drawn and has not been drawn again yet. SDL2's KMSDRM backend
    /// (the Pi's console) puts a buffer on the panel only when the next one is swapped in,
    /// and an idle board draws nothing after its first frame: a booted kiosk stayed black
    /// until the first score (issue 13 item 5). One more frame at once shows the first; an
    /// idle board then sleeps as before (one extra frame per start, nothing more).
    public private(set) var repeatFirstFrame = false

    public init(quietInterval: Millis = MotionTokens.quietRedrawInterval) { self.quietInterval = quietInterval }

    public mutating func noteInput() { input = true }

    /// Whether to draw now, given that the state differs from the last frame (`changed`) and
    /// the frame rate of what moves (`frameInterval`, nil when nothing does).
    public func shouldDraw(changed: Bool, frameInterval: Millis?, now: Millis) -> Bool {
        if repeatFirstFrame { return true }
        if drewMotion, frameInterval == nil { return true }
        guard let due = due(changed: changed, frameInterval: frameInterval) else { return changed || frameInterval != nil }
        return now >= due
    }

    /// When the next frame is due: nil for at once (input, the first frame, the frame at
    /// rest after motion) or for never (nothing changed, nothing moves); `shouldDraw` tells
    /// them apart.
    public func due(changed: Bool, frameInterval: Millis?) -> Millis? {
        // Already due (the loop must not sleep first): nothing else would wake it.
        if repeatFirstFrame { return lastDraw }
        guard let lastDraw, !(input && changed), !(drewMotion && frameInterval == nil) else { return nil }
        if let frameInterval { return lastDraw + frameInterval }
        return changed ? lastDraw + quietInterval : nil
    }

    /// A frame was drawn at `now`; `moving`: with something in motion (a frame interval).
    public mutating func drew(at now: Millis, moving: Bool = false) {
        repeatFirstFrame = lastDraw == nil
        lastDraw = now
        input = false
        drewMotion = moving
    }
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
