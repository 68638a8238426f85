import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import KioskCore
import Logging
import SQLiteFaults

/// The kiosk's state machine bound to its database: loads what the screens need, carries
/// out the machine's store effects, and reads the store again when it changed elsewhere.
///
/// Used by the display loop, the headless script runner and the benchmarks, so all three
/// exercise the same path from knob to SQLite to board. It lives on the loop's thread:
/// services reach it only through the `KioskInbox`.
public final class KioskSession {
    public let store: HyzerDatabase
    public private(set) var state: KioskState
    /// Called for buzzer effects (the knob driver's buzzer on a Pi; nothing on a laptop).
    public var buzz: (BuzzPattern) -> Void = { _ in }
    /// Called after each local write (sync pushes it at once).
    public var onLocalWrite: () -> Void = {}
    /// Starts joining a group (`JoinService.requestCode`); nil when the kiosk has no
    /// server address, which the join screen then says.
    public var onJoin: (() -> Void)?
    /// Asks for the name wheel's index (`NameListService`) when a screen other than the
    /// board opens and the kiosk holds none; nil for a headless script, which loads it up
    /// front and keeps it.
    ///
    /// A running kiosk lets the index go when it is back on its board (`send`): the wheel
    /// is for setting up rounds, players and courses, and a kiosk spends its days on the
    /// board, where the index's 6 to 7 MB of names (a sixth of its memory on the emulated
    /// appliance) would only sit. Reading it again takes about 140 ms off the display's
    /// thread (`hyzer-bench name-entry`), several presses before the wheel can open.
    public var onNameListNeeded: (() -> Void)?
    private var askedForNameList = false
    /// Set when the index was let go; the display loop gives its memory back to the
    /// kernel once the frame that held it is gone (`takeNameListRelease`).
    private var nameListReleased = false
    /// Asks the group server for invites, summary links and names typed on phones (set by
    /// `buildKiosk`).
    public var share: ShareService?
    /// The monitor that tells the loop about commits; told about the session's own ones,
    /// which are loaded right after they are made and need no second reading.
    public var changeMonitor: ChangeMonitor?
    /// nil for an in-memory store: settings then live for the session only.
    private let settingsURL: URL?
    /// The organizer code's lock: whether it is on, kiosk.conf's code and one chosen at the
    /// kiosk (kiosk-settings.json). Only their hashes are ever kept.
    private let lockEnabled: Bool
    private let configuredCode: OrganizerCode?
    private var chosenCode: OrganizerCode?
    /// The code in force: kiosk.conf's over one chosen here.
    private var organizerCode: OrganizerCode? { configuredCode ?? chosenCode }
    private let logger = Logger(label: "hyzer.kiosk")
    /// What is wrong with the storage (read-only, full or nearly full), for the status
    /// screen; nil when all is well. Each change is also shown as a notice and logged.
    public private(set) var storageStatus: String?
    private var lastStorageCheck: Millis = 0
    /// What the ace pot held before a league night, by night (`loadData`).
    private var acePotsCarriedIn: [UUID: Int] = [:]
    /// A night ranked by net: its players' handicaps, read once a night (only earlier days'
    /// rounds make them, and those do not change while it is played).
    private var nightHandicaps: (night: UUID, handicaps: [UUID: Double])?
    /// The idle board's pot, read after the last completed round `after` (`loadData`).
    private var idleAcePot: (after: UUID?, pot: Int?)?
    /// The season's events as last read (issue 37): a reload between rounds reads again only
    /// the rounds something changed since, so the table is recomputed in milliseconds.
    private let seasonMemo = SeasonEventMemo()
    /// The season table the idle board last had, kept while rounds are played (`loadData`).
    private var seasonTable: SeasonTable?
    /// What the last finished round set ("PB!"), with the standings it was worked out for.
    /// The round is the key with its events' count: events are append-only, so a correction
    /// (or a late score) moves the count, and a reopening moves the round.
    private var newBests: (round: Round, events: Int, bests: NewBests)?
    static let storageCheckInterval: Millis = 5_000
    /// Gathers the status screen's facts when it asks; `buildKiosk` tells it the knob and display.
    public var statusGatherer: KioskStatusGatherer
    /// The display loop's recent drawing times, for the status screen.
    public var frameTimes = FrameTimes()
    /// The newest page of the history, read once and kept while nothing is written: the
    /// page changes only with a commit, and every commit (this kiosk's, or one the change
    /// monitor reports) forgets it.
    private var historyHead: HistoryPage?
    /// The page after `after`, read while the list's cursor neared what is loaded (see
    /// `likelyNext`); forgotten with `historyHead`.
    private var historyAhead: (after: HistoryCursor, page: HistoryPage)?
    /// Knob and touch inputs so far, and the count `likelyNext` last prepared at: it
    /// prepares once per input, not on every pass of the loop.
    private var inputs = 0
    private var preparedAt: Int?
    /// The board page whose texts were last warmed while it came in (see `likelyNext`).
    private var warmedPage: Screen.Board.Paging?
    /// History pages read from the store so far (the tests' view of what was read when).
    private(set) var historyReads = 0
    /// The name this kiosk enrolled in its group with, carried by every score it saves
    /// (issue 14: "at the kiosk" here, the same name on every other device); nil while it
    /// is in no group. Read from the link at the start and again when a join completes.
    public private(set) var deviceName: String?

    /// `paging` comes from the kiosk's flags (`--board-page-seconds`, `--board-rows-per-page`);
    /// nil keeps the defaults.
    public init(
        store: HyzerDatabase, viewport: Viewport, now: Millis, reduceMotion: Bool? = nil,
        paging: (interval: Millis?, rowsPerPage: Int?) = (nil, nil),
        dimming: (after: Millis?, level: Double) = (nil, KioskSettings.defaultDimLevel),
        lock: KioskConfiguration.Lock = .init(enabled: false)
    ) throws {
        self.store = store
        statusGatherer = KioskStatusGatherer(store: store)
        settingsURL = store.directory?.appendingPathComponent("kiosk-settings.json")
        let saved = settingsURL.flatMap(Self.readSettingsFile)
        var settings = KioskSettings(reduceMotion: saved?.reduceMotion ?? false)
        if let reduceMotion { settings.reduceMotion = reduceMotion }
        // kiosk.conf's code first; else one chosen here before (a saved one that cannot be
        // read counts as none: the next locked action asks for a new one).
        lockEnabled = lock.enabled
        configuredCode = lock.code
        chosenCode = saved?.organizerCode.flatMap { try? OrganizerCode(encoded: $0) }
        let inForce = configuredCode ?? chosenCode
        // Through the initializer, which keeps each setting in its bounds.
        settings = KioskSettings(
            reduceMotion: settings.reduceMotion, boardPageInterval: paging.interval ?? settings.boardPageInterval,
            boardRowsPerPage: paging.rowsPerPage ?? settings.boardRowsPerPage, dimAfter: dimming.after,
            dimLevel: dimming.level,
            organizerLock: !lock.enabled ? .off : inForce.map { .set(length: $0.digits) } ?? .unset)
        state = KioskState(settings: settings, viewport: viewport)
        state.handle(.dataChanged(try loadData(), .localScore), now: now)
        checkStorage(now: now)
        readDeviceName()
    }

    private func readDeviceName() {
        deviceName = ServerLink.enrolledName(in: store.directory)
    }

    /// Reads the bundled first names behind the name wheel now, on the calling thread: for a
    /// headless script, which must be repeatable. A running kiosk reads them after its first
    /// frame instead (`NameListService`).
    public func loadNameList(_ file: URL, logger: Logger) {
        if let lexicon = NameLexicon.read(file, logger: logger) { state.nameList = lexicon }
    }

    /// Asks the store how its storage is (a statvfs, and a writable-again check when it
    /// was opened read-only) and shows a change. Cheap enough for every reload.
    public func checkStorage(now: Millis) {
        lastStorageCheck = now
        let status = store.storageStatus()
        guard status != storageStatus else { return }
        storageStatus = status
        if let status {
            logger.warning("storage: \(status)")
        } else {
            logger.notice("storage is writable and has room again")
        }
        state.handle(.storageChanged(status), now: now)
    }

    /// Everything the screens show, in one read transaction (`StoreRead.overview`): a sync
    /// that commits while it is read is on the screen entirely or not yet, never in part.
    public static func load(_ store: HyzerDatabase) throws -> KioskData {
        let overview = try store.read(.overview)
        // Every round being played (issue 9); the newest in front until one is picked.
        let rounds = overview.roundsInPlay
        return KioskData(
            round: rounds.first, lastCompleted: overview.lastCompleted, courses: overview.courses,
            players: overview.players, deviceID: store.deviceID, otherRounds: Array(rounds.dropFirst()),
            deletedCourses: overview.deletedCourses, leagueNight: overview.leagueNight,
            lastNightPlayers: overview.lastNightPlayers)
    }

    /// `load`, with what the ace pot held before tonight's league night: read once a night
    /// (the nights before it do not change while it is played), not on every score. With no
    /// night on the board, the group's pot for the idle board's foot: read once for each
    /// last completed round, since between nights only a night's own records move the pot,
    /// and a night in play or just finished is on the board instead.
    private func loadData() throws -> KioskData {
        var data = try Self.load(store)
        if let snapshot = data.leagueNight, snapshot.event.net {
            if nightHandicaps?.night != snapshot.event.id {
                nightHandicaps = (snapshot.event.id, try store.read(.nightHandicaps(snapshot, memo: seasonMemo)))
            }
            data.leagueNight = snapshot.handicapped(nightHandicaps?.handicaps ?? [:])
        }
        if let night = data.leagueNight?.event {
            idleAcePot = nil
            if night.acePot != nil {
                if acePotsCarriedIn[night.id] == nil {
                    acePotsCarriedIn = [night.id: try store.read(.acePotCarriedIn(before: night))]
                }
                data.acePotCarriedIn = acePotsCarriedIn[night.id] ?? 0
            }
        } else {
            let key = data.lastCompleted?.round.id
            if idleAcePot?.after != key {
                // An empty pot (none yet, or just won) says nothing worth a place on the board.
                let total = try store.read(.acePot).total
                idleAcePot = (key, total > 0 ? total : nil)
            }
            data.idleAcePot = idleAcePot?.pot
        }
        // The season's table shows only on the idle board: it is worked out again between
        // rounds (a finish, a correction synced in, a season set up elsewhere), not on
        // every score of a round in play.
        if data.round == nil, data.leagueNight == nil {
            let today = SeasonEvent.day(of: store.clock.date)
            seasonTable = try Season.current(store.read(.seasons), on: today).map {
                try store.read(.seasonTable($0, memo: seasonMemo))
            }
        }
        data.season = seasonTable
        // The last round's personal bests: worked out once for it (again only if a
        // correction or a reopening changes it), against every other finished round. Not
        // ranked again on every reload: a score during a round reloads too.
        if let last = data.lastCompleted {
            if newBests?.round != last.round || newBests?.events != last.events.count {
                newBests = (last.round, last.events.count, try store.read(.newBests(of: last, memo: seasonMemo)))
            }
            data.newBests = newBests?.bests
        }
        return data
    }

    /// Feeds one event through the machine and performs what it asks for.
    public func send(_ event: KioskEvent, now: Millis) {
        // A card that fills up or goes read-only while the kiosk is in use shows before
        // the next save fails; a statvfs every few seconds costs microseconds.
        if now - lastStorageCheck >= Self.storageCheckInterval { checkStorage(now: now) }
        switch event {
        case .turned, .pressed, .longPressed, .touch: inputs += 1
        default: break
        }
        if case .joinChanged(.joined) = event { readDeviceName() }
        let effects = state.handle(event, now: now)
        perform(effects, now: now)
        if onNameListNeeded != nil, state.screen == .board {
            releaseNameList()
        }
    }

    /// Back on the board: the index goes (see `onNameListNeeded`), and the next screen away
    /// from the board asks for it again. An index that arrives while the board shows goes too.
    private func releaseNameList() {
        askedForNameList = false
        guard state.nameList !== NameLexicon.empty else { return }
        state.nameList = NameLexicon.empty
        nameListReleased = true
    }

    /// True once after the index was let go: the caller hands the freed memory back once
    /// no frame it keeps holds the index any more.
    public func takeNameListRelease() -> Bool {
        defer { nameListReleased = false }
        return nameListReleased
    }

    /// Reads the store again after a commit made elsewhere (sync, `hyzer demo`, or this
    /// kiosk's own write seen by the change monitor). True when the screens' data differed:
    /// the kiosk's own commits were already loaded right after they were made, so they
    /// come back equal and are not mistaken for news.
    @discardableResult
    public func reload(_ change: KioskInbox.StoreChange, now: Millis) -> Bool {
        // Any commit may have finished a round or changed one in the history (a late score).
        forgetReads()
        checkStorage(now: now)
        do {
            let loaded = try loadData()
            // With several rounds, the one in front stays there (as the machine keeps it).
            let data = loaded.keepingInFront(of: state.data, trigger: .remoteSync)
            guard data != state.data else { return false }
            state.handle(.dataChanged(data, .remoteSync), now: now)
            return true
        } catch {
            logger.error("reading the database after a \(change) change failed: \(error)")
            return false
        }
    }

    private func perform(_ effects: [KioskEffect], now: Millis) {
        var wrote = false
        for effect in effects {
            do {
                switch effect {
                case .buzz(let pattern):
                    buzz(pattern)
                case .startJoin:
                    if let onJoin {
                        onJoin()
                    } else {
                        perform(state.handle(.joinChanged(.failed(JoinService.noServer)), now: now), now: now)
                    }
                case .requestInvite:
                    if let share {
                        share.requestInvite()
                    } else {
                        perform(state.handle(.inviteChanged(.failed(ShareService.notInAGroup)), now: now), now: now)
                    }
                case .requestPhoneName(let label):
                    if let share {
                        share.requestPhoneName(label: label)
                    } else {
                        perform(
                            state.handle(.phoneNameChanged(.failed(ShareService.notInAGroup)), now: now), now: now)
                    }
                case .cancelPhoneName:
                    share?.cancelPhoneName()
                case .requestSummaryLink(let roundID):
                    share?.requestSummaryLink(roundID)
                case .requestDeviceNames:
                    share?.requestDeviceNames()
                case .refreshStatus:
                    state.handle(.statusChanged(statusGatherer.gather(viewport: state.viewport, frames: frameTimes)), now: now)
                case .loadHistory(let after):
                    // A page is read and handed back at once; the machine may ask for the next
                    // one (a fast turn already near the end), which is carried out the same way.
                    perform(state.handle(.historyLoaded(try historyPage(after: after), after: after), now: now), now: now)
                case .readForm(let players):
                    perform(state.handle(.formRead(try store.read(.recentForm(of: players))), now: now), now: now)
                case .startLeagueNight(let plan):
                    // Offline-first: made here whatever the server is. A server older than
                    // protocol 3 gets the cards now and the night once it is updated
                    // (held back, `ChangeLedger.holding`).
                    let night = try store.write(
                        .createLeagueNight(
                            name: "League night", courseID: plan.courseID,
                            organizerID: plan.cards[0].participants[0].id,
                            cards: plan.cards.map { LeagueNightCard(participants: $0.participants, startHole: $0.startHole) },
                            skins: plan.skins, closestToPin: plan.closestToPin, acePot: plan.acePot, net: plan.net))
                    _ = try store.write(.startLeagueNight(night.id))
                    wrote = true
                case .setClosestToPin(let eventID, let hole, let winner):
                    _ = try store.write(.setClosestToPin(eventID, hole: hole, winner: winner))
                    wrote = true
                case .loadHistoryRound(let id):
                    let snapshot = try store.read(.snapshot(round: id))
                    state.handle(.historyRoundLoaded(snapshot, undo: try undoOffer(for: snapshot.round)), now: now)
                case .loadStats(let subject):
                    let page: Screen.Stats.Page =
                        switch subject {
                        case .player(let id): .player(try store.read(.playerStats(id)))
                        case .course(let id): .course(try store.read(.courseStats(id)))
                        }
                    state.handle(.statsLoaded(subject, page), now: now)
                case .saveScore(let roundID, let participantID, let hole, let strokes):
                    try store.write(.recordScore(entry(roundID, participantID, hole, strokes)))
                    wrote = true
                case .resolveScore(let roundID, let participantID, let hole, let strokes):
                    // One event superseding every conflicting leaf, pushed like any score.
                    try store.write(.resolveDiscrepancy(entry(roundID, participantID, hole, strokes)))
                    wrote = true
                case .finishRound(let id):
                    _ = try store.write(.finishRound(id, by: who))
                    wrote = true
                case .discardRound(let id):
                    _ = try store.write(.discardRound(id, by: who))
                    wrote = true
                case .reopenRound(let id):
                    let permission = try undoPermission()
                    _ = try store.write(.reopenRound(id, by: who, window: permission.reopenWindow))
                    wrote = true
                case .correctScore(let roundID, let participantID, let hole, let strokes):
                    _ = try store.write(
                        .correctFinishedScore(entry(roundID, participantID, hole, strokes), authority: who.authority))
                    wrote = true
                case .restoreCourse(let id):
                    _ = try undoPermission()
                    try store.write(.restoreCourse(id: id, by: who))
                    wrote = true
                case .removePlayer(let id):
                    _ = try undoPermission()
                    try store.write(.removePlayer(id: id, by: who))
                    wrote = true
                case .mergePlayer(let id, let into):
                    _ = try undoPermission()
                    try store.write(.mergePlayer(id: id, into: into, by: who))
                    wrote = true
                case .undoScore(let roundID, let participantID, let hole, let strokes):
                    // A retraction is a protocol 2 record: in a group, only once the server said so.
                    _ = try undoPermission()
                    _ = try store.write(.retractScore(entry(roundID, participantID, hole, strokes)))
                    wrote = true
                case .undoNewPlayer(let id):
                    _ = try undoPermission()
                    try store.write(
                        .removePlayer(id: id, by: ActionContext(authority: .undoToast, deviceName: deviceName)))
                    wrote = true
                case .startRound(let courseID, let participants, let startHole):
                    let round = try store.write(
                        .createRound(
                            courseID: courseID, organizerID: participants[0].id, participants: participants,
                            startHole: startHole))
                    _ = try store.write(.startRound(round.id))
                    wrote = true
                case .addPlayer(let player):
                    try store.write(.savePlayer(player))
                    wrote = true
                case .saveCourse(let course):
                    try store.write(.saveCourse(course))
                    wrote = true
                case .deleteCourse(let id):
                    try store.write(.deleteCourse(id: id, by: who))
                    wrote = true
                case .saveSettings(let settings):
                    try saveSettingsFile(reduceMotion: settings.reduceMotion)
                case .checkOrganizerCode(let code):
                    let right = lockEnabled && organizerCode?.matches(code) == true
                    if !right { logger.notice("a wrong organizer code was entered") }
                    perform(state.handle(.organizerCodeChecked(right), now: now), now: now)
                case .setOrganizerCode(let code):
                    // Never over kiosk.conf's: the machine asks for a new code only when there is none.
                    guard organizerCode == nil else { break }
                    chosenCode = try OrganizerCode.hashing(code)
                    try saveSettingsFile(reduceMotion: state.settings.reduceMotion)
                    logger.notice("an organizer code was chosen at the kiosk")
                }
            } catch {
                logger.error("\(effect) failed: \(error)")
                state.handle(.effectFailed(Self.sentence(for: error)), now: now)
                buzz(.error)
                if error is StorageFault {
                    // The notice just shown stays until the storage check finds it gone.
                    storageStatus = Self.sentence(for: error)
                    state.handle(.storageChanged(storageStatus), now: now)
                }
            }
        }
        guard wrote else { return }
        forgetReads()
        onLocalWrite()
        do {
            // Before loading: a commit from elsewhere that lands after this is still news.
            _ = try changeMonitor?.poll()
            state.handle(.dataChanged(try loadData(), .localScore), now: now)
        } catch {
            logger.error("reloading after a write failed: \(error)")
        }
    }

    /// Who is acting at this kiosk, as the store records it (issue 35 item 4): a locked
    /// action went through the organizer code, unless the lock is off.
    private var who: ActionContext {
        ActionContext(authority: lockEnabled ? .organizerCode : .lockOff, deviceName: deviceName)
    }

    /// Whether this kiosk may undo now; refuses (the error becomes the screen's notice)
    /// while its group server is older than undo.
    private func undoPermission() throws -> UndoPermission {
        let permission = try readUndoPermission()
        if let refusal = permission.refusal { throw UndoRefused(message: refusal) }
        return permission
    }

    private func readUndoPermission() throws -> UndoPermission {
        try store.read(.undoPermission(inGroup: deviceName != nil))
    }

    /// What may be undone in a finished round opened from history, now.
    private func undoOffer(for round: Round) throws -> HistoryUndo {
        let permission = try readUndoPermission()
        guard permission.allowed, round.status == .completed else {
            return HistoryUndo(canCorrect: false, canReopen: false, refusal: permission.refusal)
        }
        return HistoryUndo(
            canCorrect: true, canReopen: round.canReopen(at: store.clock.date, window: permission.reopenWindow))
    }

    /// A page of the history: the newest from `historyHead` once it was read, the next one
    /// from `historyAhead` when it was read ahead.
    private func historyPage(after: HistoryCursor?) throws -> HistoryPage {
        if after == nil, let historyHead { return historyHead }
        if let after, let ahead = historyAhead, ahead.after == after { return ahead.page }
        let page = try readHistoryPage(after: after)
        if after == nil { historyHead = page }
        return page
    }

    private func readHistoryPage(after: HistoryCursor?) throws -> HistoryPage {
        historyReads += 1
        return try store.read(.historyPage(after: after, limit: Screen.History.pageSize))
    }

    private func forgetReads() {
        historyHead = nil
        historyAhead = nil
        preparedAt = nil
    }

    /// Does now, while the kiosk waits for the next input, the reads that input is likely to
    /// need, and returns the screen it is likely to open for the display loop to warm
    /// (`Display.warm`). Once per input; nil when there is nothing to warm.
    ///
    /// - A board page whose rows are coming in one after another (a page flip, a reshuffle
    ///   that moved someone to another page): the page fully revealed, once a page, so each
    ///   row's texts are rasterized before the frame that shows it.
    /// - The menu's cursor on History: the press would read the first page and rasterize a
    ///   page of new text, two to three frames' work on a slow board (issue 9: each history
    ///   screen opens within one frame). The page is read now and the history warmed.
    /// - Any screen but the board, when the kiosk holds no index: the name wheel's index is
    ///   asked for (`onNameListNeeded`), built off this thread, several presses before it can
    ///   be needed.
    /// - The history list near the end of what is loaded: the next turn would read the next
    ///   page in its frame. It is read now (nothing to warm: rows come into view one a turn).
    ///
    /// The pages read here are the ones the inputs then use. Nothing is written and nothing
    /// buzzes: the input's effects are the real input's.
    public func likelyNext(now: Millis) -> KioskState? {
        // A board page coming in row by row: its rows' texts, once a page (no input needed).
        if let revealed = state.boardPageRevealed(at: now), warmedPage != state.boardPaging {
            warmedPage = state.boardPaging
            return revealed
        }
        guard preparedAt != inputs else { return nil }
        preparedAt = inputs
        if !askedForNameList, state.screen != .board, let onNameListNeeded {
            askedForNameList = true
            onNameListNeeded()
        }
        switch state.screen {
        case .menu(let menu):
            guard state.menuItems.indices.contains(menu.cursor), state.menuItems[menu.cursor] == .history else { return nil }
            var next = state
            for case .loadHistory(nil) in next.handle(.pressed, now: now) {
                guard let page = try? historyPage(after: nil) else { return nil }
                next.handle(.historyLoaded(page, after: nil), now: now)
            }
            return next
        case .history:
            var next = state
            for case .loadHistory(let after?) in next.handle(.turned(1), now: now) where historyAhead?.after != after {
                guard let page = try? readHistoryPage(after: after) else { return nil }
                historyAhead = (after, page)
            }
            return nil
        default:
            return nil
        }
    }

    /// The kiosk is the group's shared device: nobody in particular typed the score, so it
    /// is credited to the kiosk (issue 14), by its device id (added by the store) and name.
    private func entry(_ roundID: UUID, _ participantID: UUID, _ hole: Int, _ strokes: Int) -> ScoreEntry {
        ScoreEntry(
            roundID: roundID, participantID: participantID, hole: hole, strokes: strokes, reportedBy: ScoreEvent.nobody,
            deviceName: deviceName)
    }

    static func sentence(for error: any Error) -> String {
        // A storage fault has its own short line ("Storage full (0 MB free): not saved").
        if let fault = error as? StorageFault { return fault.short }
        let text = StorageFault.oneLine(for: error)
        return "Not saved: " + (text.count > 80 ? String(text.prefix(77)) + "…" : text)
    }

    /// kiosk-settings.json: what is set at the kiosk itself (the menu's reduce motion, an
    /// organizer code chosen there, hashed).
    struct SettingsFile: Codable {
        var reduceMotion: Bool
        var organizerCode: String?
    }

    static func readSettingsFile(_ url: URL) -> SettingsFile? {
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONDecoder().decode(SettingsFile.self, from: data)
    }

    /// Writes kiosk-settings.json whole: the reduce-motion setting and the code chosen here.
    private func saveSettingsFile(reduceMotion: Bool) throws {
        guard let settingsURL else { return }
        // Under kiosk.conf's code none chosen here is kept: taken out of kiosk.conf, it is gone.
        let chosen = configuredCode == nil ? chosenCode?.encoded : nil
        try JSONEncoder().encode(SettingsFile(reduceMotion: reduceMotion, organizerCode: chosen)).write(
            to: settingsURL, options: .atomic)
    }
}

/// Undo refused here while the group server cannot take it (`UndoPermission`).
struct UndoRefused: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
