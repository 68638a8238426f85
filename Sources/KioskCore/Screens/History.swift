import Foundation
import HyzerKit

extension Screen {
    /// Round history from the menu (issue 9): the list of completed rounds, newest first;
    /// one round's final standings; one player's hole-by-hole card. A press opens a level, a
    /// long press goes back one.
    ///
    /// The list is read a page at a time (`.loadHistory(after:)`), by key, never all at once:
    /// five years of rounds stay on the SD card until the knob gets near them. A round is read
    /// whole when opened (`.loadHistoryRound`); the player's card comes from that same read.
    public struct History: Sendable, Equatable {
        public enum Level: Sendable, Equatable {
            case list
            /// A round's final standings; `cursor` selects a standings row.
            case round(Opened, cursor: Int)
            /// One participant's holes in the opened round; `row` is the standings row it came from.
            case player(Opened, participant: UUID, row: Int, cursor: Int)
        }

        /// A round as read for history, ranked once when it arrives.
        public struct Opened: Sendable, Equatable {
            public var snapshot: RoundSnapshot
            public var standings: Standings
            /// What may be undone in it here and now (issue 35), as the shell found it.
            public var undo: HistoryUndo
            public init(_ snapshot: RoundSnapshot, undo: HistoryUndo = .none) {
                self.snapshot = snapshot
                standings = snapshot.standings
                self.undo = undo
            }

            /// The rows of the round's level after its standings: "Reopen this round" when it
            /// can be, then who finished it early or reopened it, oldest first.
            public var extraRows: [ExtraRow] {
                (undo.canReopen ? [.reopen] : []) + snapshot.round.actions.indices.map(ExtraRow.action)
            }
        }

        public enum ExtraRow: Sendable, Equatable {
            case reopen
            case action(Int)
        }

        /// The lines read so far, newest first.
        public var lines: [HistoryLine] = []
        /// Where the next page starts; nil once the oldest round is in (or before the first page).
        public var next: HistoryCursor?
        /// The page asked for and not yet arrived (its start; `.some(nil)` for the first page).
        public var loading: HistoryCursor??
        /// The list's cursor (kept while a round or player is open, for the way back).
        public var cursor = 0
        /// The round asked for and not yet arrived.
        public var opening: UUID?
        public var level: Level = .list

        public init() {}

        /// How close to the end of what is loaded the cursor may come before the next page is
        /// asked for: more than a screenful (at most 7 rows at any size), so a steady turn
        /// never waits at the bottom.
        public static let prefetchMargin = 8
        /// Lines per page: two screenfuls. Each line ranks its round from its events (the
        /// winner), about half a millisecond a round on the 5-year store; 25 a page took the
        /// list's first frame past 16 ms (21 ms p50, `hyzer-bench history`).
        public static let pageSize = 12
    }
}

/// What may be undone in a round opened from history (issue 35), as the shell found it
/// when it read the round: the group's window and whether the group server takes undo.
public struct HistoryUndo: Sendable, Equatable {
    /// Its scores may be corrected here.
    public var canCorrect: Bool
    /// It may be reopened (within the group's window after its finish).
    public var canReopen: Bool
    /// Why not, when neither may be ("the group server is older than undo…").
    public var refusal: String?

    public init(canCorrect: Bool, canReopen: Bool, refusal: String? = nil) {
        self.canCorrect = canCorrect
        self.canReopen = canReopen
        self.refusal = refusal
    }

    /// Nothing offered (a round read without asking).
    public static let none = HistoryUndo(canCorrect: false, canReopen: false)
}

extension Screen.History: ScreenBehavior {
    var name: String {
        switch level {
        case .list: "history"
        case .round: "history-round"
        case .player: "history-player"
        }
    }

    /// The menu opens the list and asks for its first page.
    static func open(in state: inout KioskState) -> [KioskEffect] {
        var history = Screen.History()
        history.loading = .some(nil)
        state.screen = .history(history)
        state.resetHistoryScroll()
        return [.loadHistory(after: nil)]
    }

    /// How many rows the current level shows.
    var rowCount: Int {
        switch level {
        case .list: lines.count
        case .round(let opened, _): opened.standings.rows.count + opened.extraRows.count
        case .player(let opened, _, _, _): opened.snapshot.course.holeCount
        }
    }

    /// The selected row of the level on show.
    public var cursorOnLevel: Int { levelCursor }

    var levelCursor: Int {
        switch level {
        case .list: cursor
        case .round(_, let cursor), .player(_, _, _, let cursor): cursor
        }
    }

    func moved(to row: Int) -> Screen.History {
        var copy = self
        switch level {
        case .list: copy.cursor = row
        case .round(let opened, _): copy.level = .round(opened, cursor: row)
        case .player(let opened, let participant, let from, _):
            copy.level = .player(opened, participant: participant, row: from, cursor: row)
        }
        return copy
    }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        let effects = state.moveCursor(levelCursor, by: steps, count: rowCount) { .history(moved(to: $0)) }
        guard case .history(var moved) = state.screen else { return effects }
        state.followHistoryCursor(moved.levelCursor, rows: rowCount, animated: true)
        return effects + moved.prefetch(in: &state)
    }

    /// Asks for the next page when the cursor nears the end of what is loaded.
    mutating func prefetch(in state: inout KioskState) -> [KioskEffect] {
        guard case .list = level, let next, loading == nil, cursor >= lines.count - Self.prefetchMargin else { return [] }
        loading = .some(next)
        state.screen = .history(self)
        return [.loadHistory(after: next)]
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch level {
        case .list:
            guard lines.indices.contains(cursor), opening == nil else { return [] }
            var copy = self
            copy.opening = lines[cursor].roundID
            state.screen = .history(copy)
            return [.loadHistoryRound(lines[cursor].roundID)]
        case .round(let opened, let row):
            guard opened.standings.rows.indices.contains(row) else {
                let extra = row - opened.standings.rows.count
                guard opened.extraRows.indices.contains(extra), opened.extraRows[extra] == .reopen else { return [.buzz(.limit)] }
                return state.guarded(.reopenRound(self), now: now)
            }
            var copy = self
            copy.level = .player(opened, participant: opened.standings.rows[row].participantID, row: row, cursor: 0)
            state.screen = .history(copy)
            state.resetHistoryScroll()
            return []
        case .player(let opened, _, _, let hole):
            // A hole of a finished round: corrected with the code (issue 35), where it may be.
            guard opened.undo.canCorrect else {
                if let refusal = opened.undo.refusal { state.notice = Notice(text: refusal, kind: .error, shownAt: now) }
                return [.buzz(.limit)]
            }
            return state.guarded(.correctScore(self, hole: hole + 1), now: now)
        }
    }

    /// One level up; from the list, back to the menu on its History entry.
    func back(in state: inout KioskState) {
        var copy = self
        switch level {
        case .list:
            state.screen = .menu(cursor: state.menuItems.firstIndex(of: .history) ?? 0)
            return
        case .round:
            copy.level = .list
        case .player(let opened, _, let row, _):
            copy.level = .round(opened, cursor: row)
        }
        state.screen = .history(copy)
        state.resetHistoryScroll()
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let geometry = layout.historyList(rows: rowCount)
        let top = state.historyTop(geometry, cursor: levelCursor, now: now)
        guard let row = geometry.row(at: y, top: top) else { return [] }
        state.screen = .history(moved(to: row))
        return state.press(now: now)
    }

    /// A page arrived: added to the list if it is the one asked for (a page for a list
    /// already left, or asked twice, is dropped).
    static func loaded(_ page: HistoryPage, after: HistoryCursor?, in state: inout KioskState) -> [KioskEffect] {
        guard case .history(var history) = state.screen, history.loading == .some(after) else { return [] }
        history.lines += page.lines
        history.next = page.next
        history.loading = nil
        state.screen = .history(history)
        // A fast turn may already be near the end of the new lines too.
        return history.prefetch(in: &state)
    }

    /// The opened round arrived: its standings show. Read again after a correction, it
    /// replaces the one on show and the player's card stays where it was.
    static func roundLoaded(_ snapshot: RoundSnapshot, undo: HistoryUndo, in state: inout KioskState) {
        guard case .history(var history) = state.screen, history.opening == snapshot.round.id else { return }
        history.opening = nil
        if case .player(let old, let participant, let row, let cursor) = history.level, old.snapshot.round.id == snapshot.round.id
        {
            history.level = .player(Opened(snapshot, undo: undo), participant: participant, row: row, cursor: cursor)
            state.screen = .history(history)
            return
        }
        history.level = .round(Opened(snapshot, undo: undo), cursor: 0)
        state.screen = .history(history)
        state.resetHistoryScroll()
    }
}

extension Tween {
    /// A list's scroll following its cursor: a slide to `target` (bending a slide under way
    /// toward it), or, not animated, a jump there.
    mutating func follow(_ target: Double, at now: Millis, duration: Millis, animated: Bool) {
        if animated {
            retarget(to: target, at: now, duration: duration, minimumRemaining: MotionTokens.retargetMinimum)
        } else {
            self = Tween(from: target, to: target, start: now, duration: 1)
        }
    }
}

extension MotionTokens {
    /// History scrolls as the hole card does: one row per detent, quick enough to follow the knob.
    public static let historyScroll: Millis = holeCardScroll
}

extension KioskState {
    /// Scrolls the history level so `cursor` shows whole, sliding as the hole card does.
    mutating func followHistoryCursor(_ cursor: Int, rows: Int, animated: Bool) {
        let geometry = Layout(viewport: viewport).historyList(rows: rows)
        let target = geometry.top(cursor: cursor, near: historyScroll.to)
        historyScroll.follow(
            target, at: lastInputAt, duration: MotionTokens.historyScroll, animated: animated && !settings.reduceMotion)
    }

    /// A new level shows from its top, where its cursor starts.
    mutating func resetHistoryScroll() {
        historyScroll = Tween(from: 0, to: 0, start: lastInputAt, duration: 1)
    }

    /// The first row shown at `now` (fractional while sliding).
    public func historyTop(_ geometry: Layout.HoleCardGeometry, cursor: Int, now: Millis) -> Double {
        historyScroll.isRunning(at: now)
            ? historyScroll.value(at: now) : geometry.top(cursor: cursor, near: historyScroll.to)
    }
}

extension Layout {
    /// The history levels' rows: a title band, then two-line rows of one fixed height (the
    /// list is long, so rows do not grow to fill the screen), scrolling as the hole card does.
    public func historyList(rows: Int) -> HoleCardGeometry {
        twoLineRows(
            rows: rows, pitch: max(holeCardMinimumRowHeight, (height * 0.13).rounded(.down)),
            in: Rect(x: margin, y: listTitle.maxY, w: width - 2 * margin, h: footer.y - listTitle.maxY - margin / 2),
            nameShare: 0.36, scoreShare: 0.5)
    }
}

/// What one history row says: a title over a caption, and a value at the right.
public struct HistoryRowText: Sendable, Equatable {
    public var title: String
    public var caption: String
    public var value: String?
    public var valueColor: RGB
    public var captionColor: RGB
}

extension KioskState {
    /// The history screen's rows on show at `now`, as boxes; the texts are decided here so
    /// tests read what the screen says.
    public struct HistoryBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var index: Int
            public var boxes: RowBoxes
        }
        public var geometry: Layout.HoleCardGeometry
        public var rows: [Row]
        public var thumb: Rect?
    }

    public func historyBoxes(_ history: Screen.History, layout: Layout, now: Millis, minus: String) -> HistoryBoxes {
        let geometry = layout.historyList(rows: history.rowCount)
        let top = historyTop(geometry, cursor: history.levelCursor, now: now)
        var rows: [HistoryBoxes.Row] = []
        let first = max(0, Int(top.rounded(.down)))
        for index in first..<min(history.rowCount, first + geometry.visible + 1) {
            let rect = geometry.row(index, top: top)
            guard rect.maxY > geometry.area.y, rect.y < geometry.area.maxY else { continue }
            let text = history.rowText(index, minus: minus, here: data.deviceID, names: deviceNames)
            rows.append(.init(index: index, boxes: RowBoxes(frame: rect, texts: Self.historyTexts(text, in: rect, geometry))))
        }
        return HistoryBoxes(geometry: geometry, rows: rows, thumb: geometry.thumb(top: top))
    }

    /// Title over caption at the left, both ellipsized; the value whole at the right.
    static func historyTexts(_ text: HistoryRowText, in rect: Rect, _ geometry: Layout.HoleCardGeometry) -> [TextBox] {
        let (titleSize, captionSize) = (geometry.nameSize, geometry.captionSize)
        let pad = min(rect.h * 0.3, Double(titleSize) * 0.8)
        let lines = Double(titleSize + captionSize) * Layout.lineHeight
        let titleMid = rect.y + (rect.h - lines) / 2 + Double(titleSize) * Layout.lineHeight / 2
        let captionMid = titleMid + lines / 2
        var end = rect.maxX - pad
        var texts: [TextBox] = []
        if let value = text.value {
            // The column holds "+12" (or "DNF") whichever value this row has, so values line up.
            let w = Layout.textWidth(value.count > 3 ? value : "+12", size: geometry.scoreSize)
            texts.append(
                TextBox(
                    value, .score, size: geometry.scoreSize, text.valueColor, span: Layout.Span(x: end - w, w: w),
                    midY: rect.midY, align: .right))
            end -= w + Double(captionSize) * 0.5
        }
        let span = Layout.Span(x: rect.x + pad, w: max(1, end - rect.x - pad))
        texts.insert(
            TextBox(text.title, .title, size: titleSize, Palette.textPrimary, span: span, midY: titleMid, ellipsized: true),
            at: 0)
        texts.insert(
            TextBox(text.caption, .body, size: captionSize, text.captionColor, span: span, midY: captionMid, ellipsized: true),
            at: 1)
        return texts
    }
}

extension Screen.History {
    /// The title and subtitle above the rows.
    public var heading: (title: String, subtitle: String) {
        switch level {
        case .list:
            let count = lines.count
            let loaded = next == nil ? "\(count) round\(count == 1 ? "" : "s")" : "\(count)+ rounds"
            return ("History", lines.isEmpty && loading != nil ? "Reading the history…" : "\(loaded) · newest first")
        case .round(let opened, _):
            return (opened.snapshot.course.name, "Final standings · " + Self.date(Self.completed(opened.snapshot)))
        case .player(let opened, let participant, _, _):
            let standing = opened.standings.row(for: participant)
            let name = standing?.name ?? opened.snapshot.round.participant(participant)?.name ?? "Player"
            let total = standing.map {
                "\($0.strokes) strokes · " + ($0.status == .dnf ? "DNF" : ScoreFormat.toPar($0.toPar, minus: "\u{2212}"))
                    + " · "
            }
            return (name, (total ?? "") + opened.snapshot.course.name)
        }
    }

    /// What row `index` of the current level says; `here` (this kiosk's device id) and
    /// `names` word who did what.
    public func rowText(
        _ index: Int, minus: String, here: String? = nil, names: DeviceNames = DeviceNames()
    ) -> HistoryRowText {
        switch level {
        case .list:
            let line = lines[index]
            let players = line.players.count
            return HistoryRowText(
                title: "\(Self.date(line.completedAt)) · \(line.courseName)",
                caption: "Won by \(line.winnerText) · \(players) player\(players == 1 ? "" : "s"): "
                    + line.players.joined(separator: ", "),
                value: nil, valueColor: Palette.textPrimary, captionColor: Palette.textSecondary)
        case .round(let opened, _) where index >= opened.standings.rows.count:
            switch opened.extraRows[index - opened.standings.rows.count] {
            case .reopen:
                return HistoryRowText(
                    title: "Reopen this round", caption: "To fix a score, then finish it again",
                    value: nil, valueColor: Palette.textPrimary, captionColor: Palette.textSecondary)
            case .action(let n):
                let action = opened.snapshot.round.actions[n]
                return HistoryRowText(
                    title: "\(action.kind) · \(Self.date(action.at)) \(Self.time(action.at))",
                    caption: Self.attribution(of: action, here: here, names: names),
                    value: nil, valueColor: Palette.textPrimary, captionColor: Palette.textSecondary)
            }
        case .round(let opened, _):
            let standing = opened.standings.rows[index]
            let dnf = standing.status == .dnf
            return HistoryRowText(
                title: "\(standing.positionLabel)  \(standing.name)",
                caption: dnf
                    ? "DNF · \(standing.strokes) strokes through \(standing.thru) holes"
                    : "\(standing.strokes) strokes",
                value: dnf ? "DNF" : ScoreFormat.toPar(standing.toPar, minus: minus),
                valueColor: dnf ? Palette.textSecondary : Palette.toPar(standing.toPar),
                captionColor: dnf ? Palette.overPar : Palette.textSecondary)
        case .player(let opened, let participant, _, _):
            let hole = index + 1
            let card = opened.snapshot.scorecard
            let par = opened.snapshot.course.par(of: hole) ?? Course.defaultPar
            let running = Self.runningToPar(card, course: opened.snapshot.course, participant: participant, through: hole)
            guard let strokes = card.value(participant: participant, hole: hole) else {
                return HistoryRowText(
                    title: "Hole \(hole) · par \(par)", caption: "No score · DNF", value: "–",
                    valueColor: Palette.textSecondary, captionColor: Palette.overPar)
            }
            let corrected = card.resolution(participant: participant, hole: hole).isCorrected
            return HistoryRowText(
                title: "Hole \(hole) · par \(par)",
                caption: (corrected ? "Corrected · " : "") + "Running " + ScoreFormat.toPar(running, minus: minus),
                value: "\(strokes)", valueColor: Palette.strokes(strokes, par: par), captionColor: Palette.toPar(running))
        }
    }

    /// Σ(strokes − par) over the holes up to `through` that have a value (as the standings count).
    static func runningToPar(_ card: Scorecard, course: Course, participant: UUID, through: Int) -> Int {
        (1...through).reduce(0) { sum, hole in
            guard let strokes = card.value(participant: participant, hole: hole) else { return sum }
            return sum + strokes - (course.par(of: hole) ?? Course.defaultPar)
        }
    }

    /// "at the kiosk with the organizer code", "from Nate's phone from the command line".
    static func attribution(of action: RecordedAction, here: String?, names: DeviceNames) -> String {
        let place =
            action.deviceID == here
            ? "at the kiosk" : "from " + (action.deviceName ?? names[action.deviceID] ?? "another device")
        return "\(place) \(action.authority)"
    }

    /// "14:02", in the kiosk's time zone.
    static func time(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents([.hour, .minute], from: date)
        return String(format: "%02d:%02d", parts.hour ?? 0, parts.minute ?? 0)
    }

    static func completed(_ snapshot: RoundSnapshot) -> Date {
        snapshot.round.completedAt ?? snapshot.round.startedAt ?? snapshot.round.createdAt
    }

    /// "Sat 14 Nov 2026", in the kiosk's time zone, the same in every locale.
    static func date(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents([.weekday, .year], from: date)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        return "\(days[(parts.weekday ?? 1) - 1]) \(dayAndMonth(date)) \(parts.year ?? 0)"
    }

    /// "14 Nov", in the kiosk's time zone, the same in every locale (the course list's
    /// deleted courses say it too).
    public static func dayAndMonth(_ date: Date) -> String {
        let parts = Calendar(identifier: .gregorian).dateComponents([.day, .month], from: date)
        return "\(parts.day ?? 1) \(monthNames[(parts.month ?? 1) - 1])"
    }

    /// The months as every screen writes them (the history's dates, a season's range).
    public static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
