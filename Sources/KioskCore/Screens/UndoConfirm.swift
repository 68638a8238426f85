import Foundation
import HyzerKit

extension Screen {
    /// "Reopen this round?", "Restore Maple Hill?", "Remove Nate?", "Merge Nathan into
    /// Nate?" (issue 35): what the change does, then do it or keep things as they are. The cursor starts on keeping them, so a stray press
    /// changes nothing. The organizer code was asked before this screen.
    public struct UndoConfirm: Sendable, Equatable {
        public enum Question: Sendable, Equatable {
            /// The round open in this history screen.
            case reopenRound(History)
            case restoreCourse(DeletedCourse)
            case removePlayer(Player)
            case mergePlayer(Player, into: Player)
        }

        public var question: Question
        /// 0 = do it, 1 = keep.
        public var cursor: Int

        public init(_ question: Question, cursor: Int = 1) {
            self.question = question
            self.cursor = cursor
        }

        public var choices: [String] {
            switch question {
            case .reopenRound: ["Reopen round", "Keep it finished"]
            case .restoreCourse: ["Restore course", "Keep it deleted"]
            case .removePlayer: ["Remove", "Keep them"]
            case .mergePlayer: ["Merge", "Keep both"]
            }
        }

        /// What the question says.
        public var lines: (title: String, detail: String, lines: [String]) {
            switch question {
            case .reopenRound(let history):
                guard case .round(let opened, _) = history.level else { return ("Reopen this round?", "", []) }
                let snapshot = opened.snapshot
                return (
                    "Reopen this round?",
                    "\(snapshot.course.name) · finished \(Screen.History.date(Screen.History.completed(snapshot)))",
                    [
                        "It can be scored again on every device, then finished again.",
                        "Its players and pars stay as they were.",
                        "Who reopened it is kept with the round.",
                    ]
                )
            case .restoreCourse(let course):
                return (
                    "Restore \(course.name)?", "Deleted \(Screen.History.date(course.deletedAt))",
                    ["It comes back to the course list on every device, with the holes and pars it had."]
                )
            case .removePlayer(let player):
                return (
                    "Remove \(player.displayName)?", "From the roster, on every device",
                    ["The rounds \(player.displayName) played keep them, in history too."]
                )
            case .mergePlayer(let player, let into):
                return (
                    "Merge \(player.displayName) into \(into.displayName)?", "The same person, entered twice",
                    [
                        "\(player.displayName) leaves the roster; history counts their rounds as \(into.displayName)'s.",
                        "Two players who played a round together stay two people.",
                    ]
                )
            }
        }
    }
}

extension Screen.UndoConfirm: ScreenBehavior {
    var name: String {
        switch question {
        case .reopenRound: "reopen-round"
        case .restoreCourse: "restore-course"
        case .removePlayer: "remove-player"
        case .mergePlayer: "merge-player"
        }
    }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .undoConfirm(Screen.UndoConfirm(question, cursor: $0)) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard cursor == 0 else {
            back(in: &state)
            return []
        }
        switch question {
        case .reopenRound(let history):
            guard case .round(let opened, _) = history.level else { return [] }
            // The reopened round is in play again: the board shows it (a round this kiosk
            // writes comes to the front).
            state.screen = .board
            return [.buzz(.confirm), .reopenRound(opened.snapshot.round.id)]
        case .restoreCourse(let course):
            state.screen = .courseList(Screen.CourseList(cursor: 0, focus: course.id))
            return [.buzz(.confirm), .restoreCourse(course.id)]
        case .removePlayer(let player):
            state.screen = .players(Screen.Players())
            return [.buzz(.confirm), .removePlayer(player.id)]
        case .mergePlayer(let player, let into):
            state.screen = .players(Screen.Players(cursor: state.data.players.firstIndex(of: into) ?? 0))
            return [.buzz(.confirm), .mergePlayer(player.id, into: into.id)]
        }
    }

    /// Back where it was asked, nothing changed.
    func back(in state: inout KioskState) {
        switch question {
        case .reopenRound(let history): state.screen = .history(history)
        case .restoreCourse(let course): state.screen = .courseList(cursor: state.courseListRow(of: course.id))
        case .removePlayer(let player): state.screen = .players(Screen.Players(level: .choose(player)))
        case .mergePlayer(let player, let into): state.screen = .players(.mergingInto(player, at: into, in: state.data))
        }
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 2, now: now) { .undoConfirm(Screen.UndoConfirm(question, cursor: $0)) }
    }

    /// Done on another device meanwhile: nothing left to ask.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        switch question {
        case .restoreCourse(let course) where !state.data.deletedCourses.contains(where: { $0.id == course.id }):
            state.screen = .courseList(Screen.CourseList(cursor: 0, focus: course.id))
        case .removePlayer(let player) where !state.data.players.contains(where: { $0.id == player.id }),
            .mergePlayer(let player, _) where !state.data.players.contains(where: { $0.id == player.id }):
            state.screen = .players(Screen.Players())
        default: break
        }
    }
}
