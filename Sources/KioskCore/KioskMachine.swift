import Foundation
import HyzerKit

/// The kiosk's presentation state machine: events in, new state and effects out.
///
/// Pure: no SDL, no SQL, no clock reads. The shell passes `now` with every event, carries
/// out the returned effects, and asks `nextWakeUp` how long it may sleep. Tests drive it
/// with events and assert whole states.
///
/// `handle(_:now:)` is the single entry point. What is common to every screen (data, sync,
/// notices, time-outs) is decided here; input is routed to the current screen's
/// `ScreenBehavior`, one file per screen in Screens/.
public struct KioskState: Sendable, Equatable {
    public internal(set) var screen: Screen = .board
    public private(set) var data = KioskData()
    public private(set) var leaderboard = Leaderboard()
    public internal(set) var settings: KioskSettings
    public private(set) var sync = SyncIndicator()
    /// The group's devices by id, as far as the server told (attribution: "from Nate's phone").
    public internal(set) var deviceNames = DeviceNames()
    /// On a screen that pages with the clock (a summary that does not fit, the status
    /// facts), the page interval the clock was in at the last tick: a flip changes the state,
    /// so the display loop, which draws only a changed state, draws the new page.
    public private(set) var clockPage: Millis = 0
    public internal(set) var notice: Notice?
    /// "Nate 4 on hole 3 · Undo" for a few seconds after a cheap mistake (issue 35);
    /// `undoToast(at:)` is the one showing.
    public internal(set) var undoToast: UndoToast?
    /// Why scores cannot be saved right now, kept on screen as a notice until it clears,
    /// and on the status screen.
    public private(set) var storageWarning: String?
    /// The status screen's facts, as last gathered by the shell.
    public private(set) var status: KioskStatus?
    /// The last failure shown as a notice, kept for the status screen after the notice goes.
    public private(set) var lastFailure: String?
    /// When the current screen moves on by itself (the hole card after a complete hole), if scheduled.
    public internal(set) var autoAdvanceAt: Millis?
    /// The hole card's scroll position (its first row shown), sliding when the cursor leaves the view.
    public internal(set) var holeCardScroll = Tween(from: 0, to: 0, start: 0, duration: 1)
    /// The history screen's scroll position, as the hole card's (issue 9).
    public internal(set) var historyScroll = Tween(from: 0, to: 0, start: 0, duration: 1)
    /// The board's page on show, when the group does not fit (issue 15).
    public internal(set) var boardPaging = Screen.Board.Paging()
    public private(set) var lastInputAt: Millis = 0
    /// Dimmed for want of anyone at the tee (`KioskSettings.dimAfter`); the next touch of
    /// the knob, tap or key only brightens it, and a new score does too.
    public private(set) var dimmed = false
    /// The organizer code's tries and whether it is unlocked (issue 35; the setting is in `settings`).
    public internal(set) var lock = OrganizerLock()
    /// The last input or new score: dimming counts from here.
    public private(set) var lastActivityAt: Millis = 0
    /// Logical screen size, for touch hit-testing.
    public private(set) var viewport = Viewport(width: 1280, height: 720)
    /// The bundled first names behind the name wheel, read once by the shell (empty: the wheel
    /// still works, from the players' names and its letter order).
    public var nameList = NameLexicon.empty

    public init(settings: KioskSettings = KioskSettings(), viewport: Viewport = Viewport(width: 1280, height: 720)) {
        self.settings = settings
        self.viewport = viewport
    }

    // MARK: Derived

    public var round: RoundSnapshot? { data.round }

    public func isAnimating(at now: Millis) -> Bool {
        leaderboard.isAnimating(at: now, reduceMotion: settings.reduceMotion)
    }

    /// How often to draw now (nil: nothing moves).
    public func frameInterval(at now: Millis) -> Millis? {
        let scrolling = holeCardScroll.isRunning(at: now) ? MotionTokens.frameInterval : nil
        return [
            leaderboard.frameInterval(
                at: now, reduceMotion: settings.reduceMotion,
                slotHeight: Layout(viewport: viewport).boardRowHeight(rows: leaderboard.rows.count)),
            scrolling,
            boardPageFrameInterval(at: now),
            historyScroll.isRunning(at: now) ? MotionTokens.frameInterval : nil,
        ].compactMap { $0 }.min()
    }

    /// LVGL-style single timer: the next instant the machine needs a `.tick`, or nil
    /// when it can sleep until input arrives.
    public func nextWakeUp(after now: Millis) -> Millis? {
        var candidates: [Millis] = []
        if let frame = frameInterval(at: now) { candidates.append(now + frame) }
        if let next = leaderboard.nextChange(after: now) { candidates.append(next) }
        if let autoAdvanceAt { candidates.append(autoAdvanceAt) }
        // The frame on the scroll's end lands the rows on their pixels.
        if holeCardScroll.isRunning(at: now) { candidates.append(holeCardScroll.end) }
        if historyScroll.isRunning(at: now) { candidates.append(historyScroll.end) }
        if boardPageFrameInterval(at: now) != nil { candidates.append(boardPaging.reveal.end) }
        if let flip = boardPageFlipAt { candidates.append(flip) }
        if let flip = summaryPageFlip(after: now) { candidates.append(flip) }
        if let flip = drawPageFlip(after: now) { candidates.append(flip) }
        if case .status = screen { candidates.append(clockPageFlip(after: now)) }
        if let notice { candidates.append(notice.shownAt + MotionTokens.noticeLifetime) }
        if let undoToast { candidates.append(undoToast.expiresAt) }
        if screen.isTransient { candidates.append(lastInputAt + MotionTokens.idleTimeout) }
        if let refresh = screen.behavior.refreshDue { candidates.append(refresh) }
        if let dimAt { candidates.append(dimAt) }
        return candidates.min().map { max($0, now) }
    }

    // MARK: Events

    @discardableResult
    public mutating func handle(_ event: KioskEvent, now: Millis) -> [KioskEffect] {
        // Only this bit of the screen before: a copy of the whole screen would make the
        // event's change to it copy its arrays.
        let asked = screen.phoneNameAsked
        let effects = route(event, now: now)
        // Whatever opened or closed the name entry (a press, a time-out, a round ending):
        // its phone code is asked for or given up here, once for every way in and out.
        return effects + followPhoneName(asked: asked)
    }

    private mutating func route(_ event: KioskEvent, now: Millis) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        let wasPaging = boardPageFlipAt != nil
        defer {
            // The board starts paging (back on it, or the group outgrew it): from the first
            // page, for a whole interval.
            if !wasPaging, boardPageFlipAt != nil { showBoardPage(0, now: now, reveal: false) }
            // Back on the board, however it got there: the next person is asked again.
            if screen == .board { lock.unlocked = false }
            // Whatever moved the screen on (or the clock), a toast for another screen goes.
            keepUndoToastCurrent(now: now)
        }
        if event.isInput, wake(now) { return [] }
        switch event {
        case .turned(let steps):
            input(now)
            effects += turn(steps)
        case .pressed:
            input(now)
            effects += press(now: now)
        case .longPressed:
            input(now)
            // While the undo toast shows, a long press is its answer, not "back".
            if undoToast(at: now) != nil { return undo(now: now) }
            let behavior = screen.behavior
            behavior.back(in: &self)
        case .touch(let x, let y):
            input(now)
            let layout = Layout(viewport: viewport)
            if let toast = undoToast(at: now), layout.undoToastBoxes(toast.text).frame.contains(x: x, y: y) {
                return undo(now: now)
            }
            let behavior = screen.behavior
            effects += behavior.touched(x: x, y: y, layout: layout, in: &self, now: now)
        case .tick:
            effects += tick(now: now)
            if let dimAt, now >= dimAt { dimmed = true }
        case .dataChanged(let newData, let trigger):
            // A score from anywhere: someone wants to see it.
            if newData != data { _ = wake(now) }
            dataChanged(newData, trigger: trigger, now: now)
            effects += askForDeviceNames()
        case .syncChanged(let indicator):
            let joined = isInNoGroup && indicator.state != .disabled
            sync = indicator
            if joined { effects += askForDeviceNames() }
        case .deviceNamesChanged(let names):
            deviceNames.update(names)
        case .effectFailed(let message):
            // What failed cannot be undone: it did not happen.
            undoToast = nil
            effects += refuse(message, now: now)
        case .storageChanged(let warning):
            let shown = notice?.text == storageWarning
            storageWarning = warning
            // No buzz: nobody pressed anything. A refused save buzzes on its own.
            if let warning {
                notice = Notice(text: warning, kind: .error, shownAt: now)
            } else if shown {
                notice = nil
            }
        case .settingsChanged(let new):
            settings = new
        case .statusChanged(let new):
            status = new
        case .resized(let viewport):
            self.viewport = viewport
        case .joinChanged(let progress):
            effects += joinChanged(progress, now: now)
        case .inviteChanged(let progress):
            effects += inviteChanged(progress)
        case .summaryLinkChanged(let roundID, let url):
            summaryLinkChanged(roundID: roundID, url: url)
        case .phoneNameChanged(let progress):
            effects += phoneNameChanged(progress)
        case .phoneNameArrived(let name):
            let taken = phoneNameArrived(name, now: now)
            // Someone typed it for the people at the kiosk: the screen wakes and stays up,
            // as for a turn of the knob. A name nobody waits for any more wakes nothing.
            if !taken.isEmpty {
                _ = wake(now)
                input(now)
            }
            effects += taken
        case .historyLoaded(let page, let after):
            effects += Screen.History.loaded(page, after: after, in: &self)
        case .historyRoundLoaded(let snapshot, let undo):
            Screen.History.roundLoaded(snapshot, undo: undo, in: &self)
        case .statsLoaded(let subject, let page):
            Screen.Stats.loaded(subject, page, in: &self)
        case .formRead(let form):
            formRead(form)
        case .typed(let key):
            input(now)
            let behavior = screen.behavior
            effects += behavior.typed(key, in: &self, now: now)
        case .organizerCodeChecked(let right):
            effects += organizerCodeChecked(right, now: now)
        case .nameListLoaded(let lexicon):
            nameList = lexicon
            // A wheel opened before the list arrived (within a moment of the first frame,
            // so rarely) takes it up while nothing has been entered yet; once letters are
            // in, its order stays put under the person's hand.
            if case .nameEntry(let entry) = screen, entry.wheel.text.isEmpty {
                var fresh = Screen.NameEntry(entry.purpose, in: self)
                fresh.keyboard = entry.keyboard
                fresh.keepPhone(of: entry)
                screen = .nameEntry(fresh)
            }
        }
        return effects
    }

    /// When the screen dims unless someone comes first; nil when it is dimmed or never dims.
    private var dimAt: Millis? {
        guard !dimmed, let after = settings.dimAfter else { return nil }
        return lastActivityAt + after
    }

    /// Someone is here: the dimming starts over. True when the screen was dimmed, so the
    /// input that woke it does nothing else (a turn in the dark must not change a score).
    private mutating func wake(_ now: Millis) -> Bool {
        lastActivityAt = now
        guard dimmed else { return false }
        dimmed = false
        lastInputAt = now
        return true
    }

    private mutating func input(_ now: Millis) {
        lastInputAt = now
        // Any touch of the knob means someone is here: don't move the card under them.
        autoAdvanceAt = nil
    }

    /// Routes a turn to the current screen.
    mutating func turn(_ steps: Int) -> [KioskEffect] {
        guard steps != 0 else { return [] }
        let behavior = screen.behavior
        return behavior.turned(steps, in: &self)
    }

    /// Routes a press to the current screen (also used by touches that select, then press).
    mutating func press(now: Millis) -> [KioskEffect] {
        let behavior = screen.behavior
        return behavior.pressed(in: &self, now: now)
    }

    /// Shows an error over the current screen, with the error buzz.
    mutating func refuse(_ message: String, now: Millis) -> [KioskEffect] {
        notice = Notice(text: message, kind: .error, shownAt: now)
        lastFailure = message
        return [.buzz(.error)]
    }

    // MARK: Time

    private mutating func tick(now: Millis) -> [KioskEffect] {
        leaderboard.prune(now: now)
        let pagesWithTheClock =
            if case .status = screen { true } else { summaryPageFlip(after: now) != nil || drawPageFlip(after: now) != nil }
        if pagesWithTheClock { clockPage = now / settings.boardPageInterval }
        flipBoardPageIfDue(now: now)
        if let shown = notice?.shownAt, now - shown >= MotionTokens.noticeLifetime {
            // A storage warning comes back when the notice over it goes: the board says
            // scores cannot be saved for as long as that is true.
            notice = storageWarning.map { Notice(text: $0, kind: .error, shownAt: now) }
        }
        if screen.isTransient, now - lastInputAt >= MotionTokens.idleTimeout {
            // Someone walked away mid-entry: back to the board, nothing saved.
            screen = .board
            autoAdvanceAt = nil
        }
        if let due = autoAdvanceAt, now >= due {
            autoAdvanceAt = nil
            let behavior = screen.behavior
            behavior.advance(in: &self)
        }
        if let due = screen.behavior.refreshDue, now >= due {
            let behavior = screen.behavior
            return behavior.refresh(in: &self, now: now)
        }
        return []
    }

    // MARK: Data

    private mutating func dataChanged(_ new: KioskData, trigger: StandingsTrigger, now: Millis) {
        let new = new.keepingInFront(of: data, trigger: trigger)
        let old = data
        // The round in front ended while someone was on one of its screens: back to the board
        // (the other round's card is one press away), not silently onto the other card.
        if let was = old.round?.round.id, let next = new.round?.round.id, was != next, screen.isRoundScreen {
            screen = .board
            autoAdvanceAt = nil
        }
        data = new
        updateLeaderboard(trigger: trigger, now: now)
        followBoardReshuffle(now: now)
        let behavior = screen.behavior
        behavior.dataChanged(from: old, in: &self, now: now)
    }

    /// Puts round `id` in front: the board shows it and the menu's finishing, discarding and
    /// checking act on it. Its board is shown as it is, without a reshuffle from the other.
    mutating func focus(on id: UUID, now: Millis) {
        guard data.round?.round.id != id, let focused = data.focused(on: id) else { return }
        data = focused
        updateLeaderboard(trigger: .localScore, now: now)
    }

    /// The board shows a league night's cards ranked together while one is being played
    /// (issue 36), and its final standings once its last card is finished and no other
    /// round is on; else the round in front.
    private mutating func updateLeaderboard(trigger: StandingsTrigger, now: Millis) {
        if let night = data.leagueNight, night.inPlay || data.round == nil {
            leaderboard.update(night: night, trigger: trigger, now: now, reduceMotion: settings.reduceMotion)
        } else {
            leaderboard.update(with: data.round, trigger: trigger, now: now, reduceMotion: settings.reduceMotion)
        }
    }
}
