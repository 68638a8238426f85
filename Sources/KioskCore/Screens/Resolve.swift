import Foundation
import HyzerKit

extension Screen {
    /// Walks the round's open discrepancies one cell at a time (issue 9, FR51–FR52): every
    /// conflicting value with who said it, from which device and when; turning picks the
    /// value that stands, a press resolves the cell and moves to the next open one.
    public struct Resolve: Sendable, Equatable {
        /// Where a long press (or the last resolution) returns to.
        public enum Origin: Sendable, Equatable {
            case board, menu
            case holeCard(hole: Int, cursor: Int)
        }

        /// The cell being checked. Kept by cell, not by index: another device may resolve
        /// an earlier one while this screen is up, and the list shifts under it.
        public var cell: ScoreCell
        /// The value that will stand when pressed.
        public var value: Int
        public var origin: Origin

        public init(cell: ScoreCell, value: Int, origin: Origin) {
            self.cell = cell
            self.value = value
            self.origin = origin
        }

        /// The values offered for a discrepancy: crown-style, every stroke count from one
        /// below the lowest disputed value to one above the highest (both devices may have
        /// it wrong), within the allowed strokes. Disputed values are rarely more than a
        /// stroke or two apart, so the right one is a detent or two away.
        public static func choices(for discrepancy: Discrepancy) -> [Int] {
            guard let low = discrepancy.values.first, let high = discrepancy.values.last else { return [] }
            let allowed = ScoreEvent.allowedStrokes
            return Array(max(low - 1, allowed.lowerBound)...min(high + 1, allowed.upperBound))
        }

        /// The screen for `discrepancy`, starting on the value that counts now (what the
        /// board shows), so a press with no turn confirms what everyone already sees.
        static func showing(_ discrepancy: Discrepancy, in snapshot: RoundSnapshot, origin: Origin) -> Screen {
            let counting = snapshot.scorecard.value(participant: discrepancy.cell.participantID, hole: discrepancy.cell.hole)
            let value = counting ?? discrepancy.values.first ?? Course.defaultPar
            return .resolve(Resolve(cell: discrepancy.cell, value: value, origin: origin))
        }

        /// Opens the round's first open discrepancy, or stays where it is when there is none.
        static func begin(in state: inout KioskState, origin: Origin) {
            guard let snapshot = state.data.round, let first = snapshot.scorecard.discrepancies.first else { return }
            state.screen = showing(first, in: snapshot, origin: origin)
        }

        /// The next open discrepancy after `cell` in the board's order (hole, then the
        /// round's participant order), wrapping round to the first; never `cell` itself.
        static func following(_ cell: ScoreCell, in snapshot: RoundSnapshot) -> Discrepancy? {
            let ids = snapshot.round.participants.map(\.id)
            let key = { (c: ScoreCell) in (c.hole, ids.firstIndex(of: c.participantID) ?? ids.count) }
            let open = snapshot.scorecard.discrepancies.filter { $0.cell != cell }
            return open.first { key($0.cell) > key(cell) } ?? open.first
        }

        /// The screen to return to.
        func originScreen(in state: KioskState) -> Screen {
            switch origin {
            case .board: .board
            case .menu: .menu(cursor: 0)
            case .holeCard(let hole, let cursor): state.data.round == nil ? .board : .holeCard(hole: hole, cursor: cursor)
            }
        }
    }
}

extension RoundSnapshot {
    /// The open discrepancy on `cell`, if any.
    public func discrepancy(at cell: ScoreCell) -> Discrepancy? {
        scorecard.resolution(participant: cell.participantID, hole: cell.hole).discrepancy
    }
}

extension Screen.Resolve: ScreenBehavior {
    var name: String { "resolve" }

    /// Steps through the offered values; past either end the clamp is felt.
    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        guard let snapshot = state.data.round, let discrepancy = snapshot.discrepancy(at: cell) else { return [] }
        let choices = Self.choices(for: discrepancy)
        // A value not on offer (the counting one was outside it) starts from the nearest.
        let at = choices.firstIndex(of: value) ?? choices.firstIndex { $0 >= value } ?? choices.count - 1
        let wanted = at + steps
        let clamped = min(max(wanted, 0), choices.count - 1)
        var screen = self
        screen.value = choices[clamped]
        state.screen = .resolve(screen)
        return wanted == clamped ? [] : [.buzz(.limit)]
    }

    /// Resolves this cell with the value shown, then shows the next open cell (in the
    /// board's order, after this one), or goes back when this was the last.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round, snapshot.discrepancy(at: cell) != nil else {
            state.screen = originScreen(in: state)
            return []
        }
        if let next = Self.following(cell, in: snapshot) {
            state.screen = Self.showing(next, in: snapshot, origin: origin)
        } else {
            // All checked: from the menu, its job is done and the board shows the result.
            state.screen = origin == .menu ? .board : originScreen(in: state)
        }
        return [
            .buzz(.confirm),
            .resolveScore(roundID: snapshot.round.id, participantID: cell.participantID, hole: cell.hole, strokes: value),
        ]
    }

    func back(in state: inout KioskState) { state.screen = originScreen(in: state) }

    /// The cell was resolved elsewhere (another device, synced in): move on to the next
    /// open one, or back when none is left. Otherwise stay, on the same value.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return
        }
        guard snapshot.discrepancy(at: cell) == nil else { return }
        if let next = Self.following(cell, in: snapshot) {
            state.screen = Self.showing(next, in: snapshot, origin: origin)
        } else {
            state.screen = originScreen(in: state)
        }
    }
}

/// One conflicting statement as the resolve screen lists it.
public struct ResolveStatement: Sendable, Equatable {
    public var strokes: Int
    /// Who recorded it (the reporter's name).
    public var reporter: String
    /// "this kiosk", the device's name from the group server ("Nate's phone"), or its short id.
    public var device: String
    public var recordedAt: Date
    /// False for a score another device's correction replaced (a cross-device override).
    public var isCurrent: Bool
}

extension Screen.Resolve {
    /// The statements in dispute on this cell, oldest first: the story of how it came to be.
    public func statements(in state: KioskState) -> [ResolveStatement] {
        let data = state.data
        guard let snapshot = data.round, let discrepancy = snapshot.discrepancy(at: cell) else { return [] }
        let byID = Dictionary(snapshot.events.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
        let leaves = Set(snapshot.scorecard.resolution(participant: cell.participantID, hole: cell.hole).leaves.map(\.id))
        return discrepancy.eventIDs.compactMap { byID[$0] }
            .sorted { $0.createdAt != $1.createdAt ? $0.createdAt < $1.createdAt : $0.id.precedes($1.id) }
            .map { event in
                ResolveStatement(
                    strokes: event.strokes, reporter: state.reporter(of: event) ?? state.deviceLabel(of: event).capitalizedFirst,
                    device: state.deviceLabel(of: event),
                    recordedAt: event.createdAt, isCurrent: leaves.contains(event.id))
            }
    }

    /// Where this cell sits in the round's open list, and how many there are ("2 of 3").
    public func position(in data: KioskData) -> (index: Int, count: Int)? {
        guard let open = data.round?.scorecard.discrepancies, let at = open.firstIndex(where: { $0.cell == cell }) else {
            return nil
        }
        return (at + 1, open.count)
    }

    /// The values offered for this cell (empty once it is resolved).
    public func choices(in data: KioskData) -> [Int] {
        data.round?.discrepancy(at: cell).map(Self.choices(for:)) ?? []
    }
}

extension String {
    /// "this kiosk" → "This kiosk", at the start of a sentence.
    fileprivate var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
}
