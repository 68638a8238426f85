import Foundation
import HyzerKit

extension Screen {
    /// Which round, when several cards are on the course at once (issue 9): asked before
    /// entering scores. The round picked stays the one the kiosk acts on (its board, and
    /// finishing, discarding and checking scores from the menu) until another is picked or
    /// it ends.
    public struct ChooseRound: Sendable, Equatable {
        public var cursor: Int
        public init(cursor: Int) { self.cursor = cursor }

        /// Into entering scores: straight to the card with one round, through the chooser
        /// (on the round shown now) with several.
        static func enterScores(in state: inout KioskState) {
            let rounds = state.data.rounds
            guard rounds.count > 1 else {
                if let snapshot = state.data.round { state.screen = Screen.HoleCard.into(snapshot) }
                return
            }
            state.screen = .chooseRound(cursor: rounds.firstIndex { $0.round.id == state.data.round?.round.id } ?? 0)
        }
    }

    public static func chooseRound(cursor: Int) -> Screen { .chooseRound(ChooseRound(cursor: cursor)) }
}

extension Screen {
    /// The screens that act on the round in front.
    var isRoundScreen: Bool {
        switch self {
        case .holeCard, .entry, .resolve, .finishRound, .finalizePrompt, .paperCard: true
        default: false
        }
    }
}

extension Screen.HoleCard {
    /// A round's card where scoring resumes, or its finalize prompt once every score is in.
    static func into(_ snapshot: RoundSnapshot) -> Screen {
        snapshot.round.status == .awaitingFinalization ? .finalizePrompt(cursor: 0) : resuming(snapshot)
    }
}

extension KioskData {
    /// One chooser row: the course (on a league night, the card's letter too), and who is
    /// playing it, so two cards on one course differ.
    public func chooserTitle(_ snapshot: RoundSnapshot) -> String {
        guard let letter = leagueNight?.event.letter(of: snapshot.round.id) else { return snapshot.course.name }
        return "Card \(letter) · \(snapshot.course.name)"
    }

    public static func chooserDetail(_ snapshot: RoundSnapshot) -> String {
        let names = snapshot.round.participants.map(\.name)
        let who = names.prefix(2).joined(separator: ", ") + (names.count > 2 ? " +\(names.count - 2)" : "")
        return "thru \(snapshot.thru) · \(who)"
    }
}

extension Screen.ChooseRound: ScreenBehavior {
    var name: String { "choose-round" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: state.data.rounds.count) { .chooseRound(cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let rounds = state.data.rounds
        guard rounds.indices.contains(cursor) else { return [.buzz(.error)] }
        state.focus(on: rounds[cursor].round.id, now: now)
        if let snapshot = state.data.round { state.screen = Screen.HoleCard.into(snapshot) }
        return []
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchList(layout, y: y, rows: state.data.rounds.count, cursor: cursor, now: now) { .chooseRound(cursor: $0) }
    }

    /// A round that ends (here or on another device) leaves the list; with one left there
    /// is nothing to choose, with none nothing to enter.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let rounds = state.data.rounds
        switch rounds.count {
        case 0: state.screen = .board
        case 1: state.screen = Screen.HoleCard.into(rounds[0])
        default:
            let was = old.rounds.indices.contains(cursor) ? old.rounds[cursor].round.id : nil
            state.screen = .chooseRound(
                cursor: rounds.firstIndex { $0.round.id == was } ?? min(cursor, rounds.count - 1))
        }
    }
}
