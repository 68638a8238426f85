import Foundation
import HyzerKit

extension Screen {
    /// The menu a long press on the board opens.
    public struct Menu: Sendable, Equatable {
        public var cursor: Int
        public init(cursor: Int) { self.cursor = cursor }
    }

    public static func menu(cursor: Int) -> Screen { .menu(Menu(cursor: cursor)) }
}

public enum MenuItem: Sendable, Equatable {
    case enterScores, checkScores(Int), finishRound, discardRound, startRound, reduceMotion(Bool), history, status, close
    /// Only while the kiosk is in no group.
    case joinGroup
    /// Only while the kiosk is in a group: a QR code for a phone to join it.
    case addPhone
    /// Make, change and delete courses (issue 14).
    case courses
    /// Type in a card scored on paper, player by player (issue 35).
    case paperCard
    /// The roster: remove a player, merge two who are the same person (issue 35).
    case players
    /// Check in, draw the cards, start every card (issue 36).
    case leagueNight
    /// Tonight's side games, while a league night is on or just over (issue 36).
    case sideGames
    /// A player's or a course's numbers (issue 37).
    case stats

    public var title: String {
        switch self {
        case .enterScores: "Enter scores"
        case .checkScores(let n): "Check \(n) score\(n == 1 ? "" : "s")"
        case .finishRound: "Finish round now"
        case .discardRound: "Discard this round"
        case .startRound: "Start a new round"
        case .reduceMotion(let on): "Reduce motion: \(on ? "on" : "off")"
        case .history: "History"
        case .status: "Status"
        case .close: "Back to the board"
        case .joinGroup: "Join a group"
        case .addPhone: "Add a phone"
        case .courses: "Courses"
        case .paperCard: "Enter a paper card"
        case .players: "Players"
        case .leagueNight: "League night"
        case .sideGames: "Tonight's side games"
        case .stats: "Stats"
        }
    }
}

extension KioskState {
    /// Menu entries, which depend on whether a round is being played.
    public var menuItems: [MenuItem] {
        var items: [MenuItem] = []
        if let round = data.round {
            items.append(.enterScores)
            // Only while there is something to check: the entry names the count, like the badge.
            let open = round.scorecard.discrepancies.count
            if open > 0 { items.append(.checkScores(open)) }
            // With no scores, finishing would only make everyone DNF: a round started by
            // mistake is discarded instead.
            items.append(round.hasScores ? .finishRound : .discardRound)
            // After finishing, so the entries before it keep their places.
            items.append(.paperCard)
        }
        // Stats beside History: the group's numbers come from the same finished rounds.
        items += [.startRound, .reduceMotion(settings.reduceMotion), .history, .stats]
        if isInNoGroup { items.append(.joinGroup) }
        items.append(.status)
        // After Status, so the entries before it keep their places for everyone who knows them.
        if !isInNoGroup { items.append(.addPhone) }
        // League night last but Back, so the entries before it keep their places.
        items += [.courses, .players, .leagueNight]
        if data.leagueNight != nil { items.append(.sideGames) }
        items.append(.close)
        return items
    }
}

extension Screen.Menu: ScreenBehavior {
    var name: String { "menu" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: state.menuItems.count) { .menu(cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let items = state.menuItems
        switch items[min(cursor, items.count - 1)] {
        case .enterScores:
            if let snapshot = state.data.round { state.screen = Screen.HoleCard.resuming(snapshot) }
            // Several cards on the course: which one first.
            if state.data.rounds.count > 1 { Screen.ChooseRound.enterScores(in: &state) }
        case .checkScores:
            Screen.Resolve.begin(in: &state, origin: .menu)
        case .finishRound:
            // Asks first, naming who is missing which holes. Finishing early (someone would
            // be DNF) takes the organizer code; a round with every hole scored does not.
            guard let round = state.data.round else { break }
            if Screen.FinishRound.missing(in: round).isEmpty {
                state.screen = .finishRound(kind: .finish)
            } else {
                return state.guarded(.finishEarly, now: now)
            }
        case .discardRound:
            if state.data.round != nil { return state.guarded(.discardRound, now: now) }
        case .startRound:
            return Screen.SetupCourse.begin(in: &state, now: now)
        case .reduceMotion(let on):
            return state.guarded(.reduceMotion(!on), now: now)
        case .history:
            return Screen.History.open(in: &state)
        case .stats:
            Screen.Stats.open(in: &state)
        case .status:
            state.screen = .status(now: now)
            return [.refreshStatus]
        case .close:
            state.screen = .board
        case .joinGroup:
            state.screen = .join(Screen.Join(progress: .requesting))
            return [.startJoin]
        case .addPhone:
            state.screen = .addPhone(Screen.AddPhone(progress: .requesting))
            return [.requestInvite]
        case .courses:
            state.screen = .courseList(cursor: 0)
        case .players:
            state.screen = .players(Screen.Players())
        case .leagueNight:
            return Screen.CheckIn.begin(in: &state, now: now)
        case .sideGames:
            state.screen = .sideGames(Screen.SideGames())
        case .paperCard:
            // No code: typing in scores is scoring.
            if let round = state.data.round { state.screen = Screen.PaperCard.at(round, player: 0, hole: 1) }
        }
        return []
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.menuItems.count, now: now) { .menu(cursor: $0) }
    }

    /// A round that starts or ends changes the entries: keep the cursor on one.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        state.screen = .menu(cursor: min(cursor, state.menuItems.count - 1))
    }
}
