import Foundation
import HyzerKit

extension Screen {
    /// "Finish round now" and "Discard this round" from the menu ask first (issue 9 item 2):
    /// finishing lists who is missing which holes (they will be DNF, FR15); discarding is
    /// offered only while the round has no scores. `cursor` 0 = do it, 1 = keep the round.
    public struct FinishRound: Sendable, Equatable {
        public enum Kind: Sendable, Equatable { case finish, discard }
        public var kind: Kind
        public var cursor: Int
        public init(kind: Kind, cursor: Int = 0) {
            self.kind = kind
            self.cursor = cursor
        }

        /// One participant's missing holes, as the screen says it.
        public struct Missing: Sendable, Equatable {
            public var name: String
            public var holes: [Int]
            /// "Priya: holes 16–18, will be DNF".
            public var line: String { "\(name): \(FinishRound.describe(holes)), will be DNF" }
        }

        /// Who has no value on which holes, in the round's order; empty when every score is in.
        public static func missing(in snapshot: RoundSnapshot) -> [Missing] {
            snapshot.round.participants.compactMap { participant in
                let holes = snapshot.course.holes.filter {
                    snapshot.scorecard.value(participant: participant.id, hole: $0) == nil
                }
                return holes.isEmpty ? nil : Missing(name: participant.name, holes: holes)
            }
        }

        /// "hole 7", "holes 16–18", "holes 1, 3–5 and 9": runs of holes as ranges.
        public static func describe(_ holes: [Int]) -> String {
            var runs: [ClosedRange<Int>] = []
            for hole in holes.sorted() {
                if let last = runs.last, last.upperBound + 1 == hole {
                    runs[runs.count - 1] = last.lowerBound...hole
                } else {
                    runs.append(hole...hole)
                }
            }
            let parts = runs.map { $0.count == 1 ? "\($0.lowerBound)" : "\($0.lowerBound)–\($0.upperBound)" }
            let list = parts.count > 1 ? parts.dropLast().joined(separator: ", ") + " and " + parts.last! : parts.first ?? ""
            return (holes.count == 1 ? "hole " : "holes ") + list
        }

        /// The two choices, as drawn.
        public var choices: [String] {
            switch kind {
            case .finish: ["Finish round", "Keep scoring"]
            case .discard: ["Discard round", "Keep the round"]
            }
        }
    }

    public static func finishRound(kind: FinishRound.Kind, cursor: Int = 0) -> Screen {
        .finishRound(FinishRound(kind: kind, cursor: cursor))
    }
}

extension Screen.FinishRound: ScreenBehavior {
    var name: String { kind == .finish ? "finish" : "discard" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        state.moveCursor(cursor, by: steps, count: 2) { .finishRound(kind: kind, cursor: $0) }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return []
        }
        guard cursor == 0 else {
            state.screen = Screen.HoleCard.resuming(snapshot)
            return []
        }
        // A round with no score (none saved, or all undone) is discarded, never finished:
        // it would have no summary to show.
        switch snapshot.hasScores ? kind : .discard {
        case .finish:
            return [.buzz(.confirm), .finishRound(snapshot.round.id)] + state.showSummary(snapshot.round.id)
        case .discard:
            // A score that arrived since the menu was opened makes this a finish, not a
            // discard: the store refuses, and the notice says so.
            state.screen = .board
            return [.buzz(.confirm), .discardRound(snapshot.round.id)]
        }
    }

    func back(in state: inout KioskState) { state.screen = .menu(cursor: 0) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.touchChoices(layout, x: x, y: y, count: 2, now: now) { .finishRound(kind: kind, cursor: $0) }
    }

    /// The round was finished elsewhere; or, asked to discard, a score came in (the
    /// round is no longer empty): ask again as a finish, with who is missing what.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        if state.data.round == nil {
            state.screen = .board
        } else if kind == .discard, state.data.round?.hasScores == true {
            state.screen = .finishRound(kind: .finish, cursor: 1)
        }
    }
}
