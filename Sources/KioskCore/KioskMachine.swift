import Foundation
import HyzerKit

/// The kiosk's presentation state machine: events in, new state and effects out.
///
/// Pure: no SDL, no SQL, no clock reads. The shell passes `now` with every event, carries
/// out the returned effects, and asks `nextWakeUp` how long it may sleep. Tests drive it
/// with events and assert whole states.
public struct KioskState: Sendable, Equatable {
    public private(set) var screen: Screen = .board
    public private(set) var data = KioskData()
    public private(set) var leaderboard = Leaderboard()
    public private(set) var settings: KioskSettings
    public private(set) var sync = SyncIndicator()
    public private(set) var notice: Notice?
    /// When the hole card moves on by itself (FR20), if scheduled.
    public private(set) var autoAdvanceAt: Millis?
    public private(set) var lastInputAt: Millis = 0
    /// Logical screen size, for touch hit-testing.
    public private(set) var viewport = Viewport(width: 1280, height: 720)

    public init(settings: KioskSettings = KioskSettings(), viewport: Viewport = Viewport(width: 1280, height: 720)) {
        self.settings = settings
        self.viewport = viewport
    }

    // MARK: Derived

    public var round: RoundSnapshot? { data.round }

    /// Menu entries, which depend on whether a round is being played.
    public var menuItems: [MenuItem] {
        var items: [MenuItem] = []
        if data.round != nil { items += [.enterScores, .finishRound] }
        items += [.startRound, .reduceMotion(settings.reduceMotion), .close]
        return items
    }

    /// The snapshot a summary screen shows.
    public func summarySnapshot(_ id: UUID) -> RoundSnapshot? {
        [data.round, data.lastCompleted].compactMap { $0 }.first { $0.round.id == id }
    }

    public func isAnimating(at now: Millis) -> Bool {
        leaderboard.isAnimating(at: now, reduceMotion: settings.reduceMotion)
    }

    /// LVGL-style single timer: the next instant the machine needs a `.tick`, or nil
    /// when it can sleep until input arrives.
    public func nextWakeUp(after now: Millis) -> Millis? {
        var candidates: [Millis] = []
        if isAnimating(at: now) { candidates.append(now + MotionTokens.frameInterval) }
        if let next = leaderboard.nextChange(after: now) { candidates.append(next) }
        if let autoAdvanceAt { candidates.append(autoAdvanceAt) }
        if let notice { candidates.append(notice.shownAt + MotionTokens.noticeLifetime) }
        if screen.isTransient { candidates.append(lastInputAt + MotionTokens.idleTimeout) }
        return candidates.min().map { max($0, now) }
    }

    // MARK: Events

    @discardableResult
    public mutating func handle(_ event: KioskEvent, now: Millis) -> [KioskEffect] {
        var effects: [KioskEffect] = []
        switch event {
        case .turned(let steps):
            input(now)
            effects += turn(steps)
        case .pressed:
            input(now)
            effects += press(now: now)
        case .longPressed:
            input(now)
            back()
        case .touch(let x, let y):
            input(now)
            effects += touch(x: x, y: y, now: now)
        case .tick:
            effects += tick(now: now)
        case .dataChanged(let newData, let trigger):
            effects += dataChanged(newData, trigger: trigger, now: now)
        case .syncChanged(let indicator):
            sync = indicator
        case .effectFailed(let message):
            notice = Notice(text: message, kind: .error, shownAt: now)
            effects.append(.buzz(.error))
        case .settingsChanged(let new):
            settings = new
        case .resized(let viewport):
            self.viewport = viewport
        }
        return effects
    }

    private mutating func input(_ now: Millis) {
        lastInputAt = now
        // Any touch of the knob means someone is here: don't move the card under them.
        autoAdvanceAt = nil
    }

    // MARK: Turning

    private mutating func turn(_ steps: Int) -> [KioskEffect] {
        guard steps != 0 else { return [] }
        switch screen {
        case .board, .summary:
            return []
        case .menu(let cursor):
            return moveCursor(cursor, by: steps, count: menuItems.count) { .menu(cursor: $0) }
        case .finalizePrompt(let cursor):
            return moveCursor(cursor, by: steps, count: 2) { .finalizePrompt(cursor: $0) }
        case .setupCourse(let cursor):
            return moveCursor(cursor, by: steps, count: data.courses.count) { .setupCourse(cursor: $0) }
        case .setupPlayers(let course, let selected, let cursor):
            return moveCursor(cursor, by: steps, count: data.players.count + 1) {
                .setupPlayers(courseID: course, selected: selected, cursor: $0)
            }
        case .holeCard(let hole, let cursor):
            return turnHoleCard(hole: hole, cursor: cursor, steps: steps)
        case .entry(var entry):
            let wanted = entry.value + steps
            entry.value = min(max(wanted, ScoreEvent.allowedStrokes.lowerBound), ScoreEvent.allowedStrokes.upperBound)
            screen = .entry(entry)
            // The clamp is felt, not only seen: a double pulse.
            return wanted == entry.value ? [] : [.buzz(.limit)]
        }
    }

    private mutating func moveCursor(_ cursor: Int, by steps: Int, count: Int, _ make: (Int) -> Screen) -> [KioskEffect] {
        guard count > 0 else { return [.buzz(.limit)] }
        let wanted = cursor + steps
        let clamped = min(max(wanted, 0), count - 1)
        screen = make(clamped)
        return wanted == clamped ? [] : [.buzz(.limit)]
    }

    /// Past the last row the card moves to the next hole; before the first, to the
    /// previous one (free navigation, FR38).
    private mutating func turnHoleCard(hole: Int, cursor: Int, steps: Int) -> [KioskEffect] {
        guard let snapshot = data.round else { return [] }
        let rows = snapshot.round.participants.count
        var (hole, cursor) = (hole, cursor + steps)
        var hitEnd = false
        while cursor >= rows {
            if hole < snapshot.course.holeCount { cursor -= rows; hole += 1 } else { cursor = rows - 1; hitEnd = true }
        }
        while cursor < 0 {
            if hole > 1 { cursor += rows; hole -= 1 } else { cursor = 0; hitEnd = true }
        }
        screen = .holeCard(hole: hole, cursor: cursor)
        return hitEnd ? [.buzz(.limit)] : []
    }

    // MARK: Pressing

    private mutating func press(now: Millis) -> [KioskEffect] {
        switch screen {
        case .board:
            if let snapshot = data.round {
                screen = snapshot.round.status == .awaitingFinalization
                    ? .finalizePrompt(cursor: 0) : holeCard(for: snapshot)
            } else {
                return beginSetup(now: now)
            }
        case .menu(let cursor):
            return choose(menuItems[min(cursor, menuItems.count - 1)], now: now)
        case .holeCard(let hole, let cursor):
            guard let snapshot = data.round, snapshot.round.participants.indices.contains(cursor) else { return [] }
            let participant = snapshot.round.participants[cursor]
            let previous = snapshot.scorecard.value(participant: participant.id, hole: hole)
            let par = snapshot.course.par(of: hole) ?? Course.defaultPar
            screen = .entry(.init(hole: hole, participantID: participant.id, cursor: cursor,
                                  value: previous ?? par, previous: previous))
        case .entry(let entry):
            guard let snapshot = data.round else { screen = .board; return [] }
            // Next: the first participant after this one still without a score here.
            let participants = snapshot.round.participants
            let next = (1..<max(participants.count, 1)).lazy
                .map { (entry.cursor + $0) % participants.count }
                .first { snapshot.scorecard.value(participant: participants[$0].id, hole: entry.hole) == nil }
            screen = .holeCard(hole: entry.hole, cursor: next ?? entry.cursor)
            return [.buzz(.confirm), .saveScore(roundID: snapshot.round.id, participantID: entry.participantID,
                                                hole: entry.hole, strokes: entry.value)]
        case .finalizePrompt(let cursor):
            guard let snapshot = data.round else { screen = .board; return [] }
            if cursor == 0 {
                screen = .summary(roundID: snapshot.round.id)
                return [.buzz(.confirm), .finishRound(snapshot.round.id)]
            }
            screen = .holeCard(hole: snapshot.course.holeCount, cursor: 0)
        case .summary:
            screen = .board
        case .setupCourse(let cursor):
            guard data.courses.indices.contains(cursor) else { return [.buzz(.error)] }
            screen = .setupPlayers(courseID: data.courses[cursor].id, selected: [], cursor: 0)
        case .setupPlayers(let course, var selected, let cursor):
            if data.players.indices.contains(cursor) {
                let id = data.players[cursor].id
                if let index = selected.firstIndex(of: id) { selected.remove(at: index) } else { selected.append(id) }
                screen = .setupPlayers(courseID: course, selected: selected, cursor: cursor)
            } else {
                guard !selected.isEmpty else {
                    notice = Notice(text: "Pick at least one player", kind: .error, shownAt: now)
                    return [.buzz(.error)]
                }
                // The round appears with the next data change; the card waits on hole 1.
                screen = .holeCard(hole: 1, cursor: 0)
                return [.buzz(.confirm), .startRound(courseID: course, playerIDs: selected)]
            }
        }
        return []
    }

    private mutating func choose(_ item: MenuItem, now: Millis) -> [KioskEffect] {
        switch item {
        case .enterScores:
            if let snapshot = data.round { screen = holeCard(for: snapshot) }
        case .finishRound:
            guard let snapshot = data.round else { return [] }
            screen = .summary(roundID: snapshot.round.id)
            return [.buzz(.confirm), .finishRound(snapshot.round.id)]
        case .startRound:
            return beginSetup(now: now)
        case .reduceMotion(let on):
            settings.reduceMotion = !on
            return [.saveSettings(settings)]
        case .close:
            screen = .board
        }
        return []
    }

    private mutating func beginSetup(now: Millis) -> [KioskEffect] {
        guard !data.courses.isEmpty else {
            notice = Notice(text: "No courses yet: run `hyzer init`", kind: .error, shownAt: now)
            return [.buzz(.error)]
        }
        screen = .setupCourse(cursor: 0)
        return []
    }

    /// The card of the hole being played, on its first participant without a score.
    private func holeCard(for snapshot: RoundSnapshot) -> Screen {
        let hole = snapshot.currentHole
        let cursor = snapshot.round.participants.firstIndex {
            snapshot.scorecard.value(participant: $0.id, hole: hole) == nil
        } ?? 0
        return .holeCard(hole: hole, cursor: cursor)
    }

    // MARK: Back

    private mutating func back() {
        switch screen {
        case .board: screen = .menu(cursor: 0)
        case .menu, .holeCard, .summary, .setupCourse: screen = .board
        case .entry(let entry): screen = .holeCard(hole: entry.hole, cursor: entry.cursor)  // cancelled, nothing saved
        case .finalizePrompt:
            if let snapshot = data.round { screen = .holeCard(hole: snapshot.course.holeCount, cursor: 0) } else { screen = .board }
        case .setupPlayers(let course, _, _):
            screen = .setupCourse(cursor: data.courses.firstIndex { $0.id == course } ?? 0)
        }
    }

    // MARK: Touch

    private mutating func touch(x: Double, y: Double, now: Millis) -> [KioskEffect] {
        let layout = Layout(viewport: viewport)
        switch screen {
        case .entry(let entry):
            switch layout.entryZone(x: x, y: y) {
            case .minus: return turn(-1)
            case .plus: return turn(1)
            case .save: return press(now: now)
            case .cancel: screen = .holeCard(hole: entry.hole, cursor: entry.cursor); return []
            }
        case .holeCard(let hole, _):
            guard let rows = data.round?.round.participants.count,
                  let row = layout.listRow(at: y, rows: rows, cursor: 0, style: .holeCard) else { return [] }
            screen = .holeCard(hole: hole, cursor: row)
            return press(now: now)
        case .menu:
            return touchList(layout, y: y, rows: menuItems.count, now: now) { .menu(cursor: $0) }
        case .finalizePrompt:
            return touchList(layout, y: y, rows: 2, now: now) { .finalizePrompt(cursor: $0) }
        case .setupCourse(let cursor):
            return touchList(layout, y: y, rows: data.courses.count, cursor: cursor, now: now) { .setupCourse(cursor: $0) }
        case .setupPlayers(let course, let selected, let cursor):
            return touchList(layout, y: y, rows: data.players.count + 1, cursor: cursor, now: now) {
                .setupPlayers(courseID: course, selected: selected, cursor: $0)
            }
        case .board, .summary:
            return press(now: now)
        }
    }

    private mutating func touchList(
        _ layout: Layout, y: Double, rows: Int, cursor: Int = 0, now: Millis, _ make: (Int) -> Screen
    ) -> [KioskEffect] {
        guard let row = layout.listRow(at: y, rows: rows, cursor: cursor, style: .list) else { return [] }
        screen = make(row)
        return press(now: now)
    }

    // MARK: Time

    private mutating func tick(now: Millis) -> [KioskEffect] {
        leaderboard.prune(now: now)
        if let shown = notice?.shownAt, now - shown >= MotionTokens.noticeLifetime { notice = nil }
        if screen.isTransient, now - lastInputAt >= MotionTokens.idleTimeout {
            // Someone walked away mid-entry: back to the board, nothing saved.
            screen = .board
            autoAdvanceAt = nil
        }
        if let due = autoAdvanceAt, now >= due {
            autoAdvanceAt = nil
            advance()
        }
        return []
    }

    /// FR20: the hole is complete; move on, or ask to finalize after the last scores.
    private mutating func advance() {
        guard let snapshot = data.round, case .holeCard(let hole, _) = screen else { return }
        if snapshot.round.status == .awaitingFinalization {
            screen = .finalizePrompt(cursor: 0)
        } else if hole < snapshot.course.holeCount {
            let next = hole + 1
            let cursor = snapshot.round.participants.firstIndex {
                snapshot.scorecard.value(participant: $0.id, hole: next) == nil
            } ?? 0
            screen = .holeCard(hole: next, cursor: cursor)
        }
    }

    // MARK: Data

    private mutating func dataChanged(_ new: KioskData, trigger: StandingsTrigger, now: Millis) -> [KioskEffect] {
        let old = data
        data = new
        leaderboard.update(with: new.round, trigger: trigger, now: now, reduceMotion: settings.reduceMotion)

        let sameRound = old.round?.round.id == new.round?.round.id
        switch screen {
        case .holeCard(let hole, let cursor):
            guard let snapshot = new.round else { screen = .board; break }
            let justCompleted = snapshot.scorecard.isHoleComplete(hole)
                && !(sameRound && old.round?.scorecard.isHoleComplete(hole) == true)
            let rows = snapshot.round.participants.count
            if cursor >= rows || hole > snapshot.course.holeCount { screen = holeCard(for: snapshot) }
            if justCompleted || (snapshot.round.status == .awaitingFinalization && old.round?.round.status == .active) {
                autoAdvanceAt = now + MotionTokens.autoAdvanceDelay
            }
        case .entry:
            if new.round == nil { screen = .board }
        case .finalizePrompt:
            if new.round == nil { screen = .board }
        case .menu(let cursor):
            screen = .menu(cursor: min(cursor, menuItems.count - 1))
        case .setupCourse(let cursor):
            screen = new.courses.isEmpty ? .board : .setupCourse(cursor: min(cursor, new.courses.count - 1))
        case .setupPlayers(let course, let selected, let cursor):
            let known = Set(new.players.map(\.id))
            screen = .setupPlayers(courseID: course, selected: selected.filter(known.contains),
                                   cursor: min(cursor, new.players.count))
        case .board, .summary:
            break
        }
        return []
    }
}

public enum MenuItem: Sendable, Equatable {
    case enterScores, finishRound, startRound, reduceMotion(Bool), close

    public var title: String {
        switch self {
        case .enterScores: "Enter scores"
        case .finishRound: "Finish round now"
        case .startRound: "Start a new round"
        case .reduceMotion(let on): "Reduce motion: \(on ? "on" : "off")"
        case .close: "Back to the board"
        }
    }
}

extension Screen {
    /// Screens someone is in the middle of; they time out back to the board.
    var isTransient: Bool {
        switch self {
        case .board, .summary: false
        default: true
        }
    }
}
