import Foundation
import HyzerKit

extension Screen {
    /// Crown-style entry for one participant on one hole: turn to change, press to save.
    public struct Entry: Sendable, Equatable {
        public var hole: Int
        public var participantID: UUID
        /// The row to return to on the hole card.
        public var cursor: Int
        public var value: Int
        /// Non-nil when the participant already had a score: saving is a correction.
        public var previous: Int?
    }
}

extension Screen.Entry: ScreenBehavior {
    var name: String { "entry-hole-\(hole)" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var entry = self
        let effects: [KioskEffect]
        (entry.value, effects) = Self.strokes(value, turned: steps)
        state.screen = .entry(entry)
        return effects
    }

    /// Strokes `steps` detents on from `value`, kept to what a score may be; the clamp is
    /// felt, not only seen: a double pulse. (The paper card turns its strokes the same way.)
    static func strokes(_ value: Int, turned steps: Int) -> (Int, [KioskEffect]) {
        let wanted = value + steps
        let kept = min(max(wanted, ScoreEvent.allowedStrokes.lowerBound), ScoreEvent.allowedStrokes.upperBound)
        return (kept, wanted == kept ? [] : [.buzz(.limit)])
    }

    /// Saves, and puts the card's cursor on the next participant still without a score here.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return []
        }
        let participants = snapshot.round.participants
        let next = (1..<max(participants.count, 1)).lazy
            .map { (cursor + $0) % participants.count }
            .first { snapshot.scorecard.value(participant: participants[$0].id, hole: hole) == nil }
        state.screen = .holeCard(hole: hole, cursor: next ?? cursor)
        if undoable(in: snapshot) {
            let name = participants.first { $0.id == participantID }?.name ?? "?"
            state.offerUndo(
                .score(roundID: snapshot.round.id, participantID: participantID, hole: hole, strokes: value),
                "\(name) \(value) on hole \(hole)", now: now)
        }
        return [
            .buzz(.confirm),
            .saveScore(
                roundID: snapshot.round.id, participantID: participantID,
                hole: hole, strokes: value),
        ]
    }

    /// Whether saving offers the undo toast (issue 35): when it changes the cell, unless it
    /// fills the round's last empty cell. That moves the round to "all scores recorded",
    /// which does not go back; a wrong last score is changed on the card instead.
    func undoable(in snapshot: RoundSnapshot) -> Bool {
        guard let previous else {
            let scorecard = snapshot.scorecard
            let filled = snapshot.round.participants.reduce(0) { $0 + scorecard.holesScored(by: $1.id) }
            return filled + 1 < snapshot.round.participants.count * snapshot.course.holeCount
        }
        return previous != value
    }

    /// Cancelled: back to the card, nothing saved.
    func back(in state: inout KioskState) { state.screen = .holeCard(hole: hole, cursor: cursor) }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        touchedStrokes(x: x, y: y, layout: layout, in: &state, now: now)
    }

    /// The round went away (finished elsewhere): nothing to score.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        if state.data.round == nil { state.screen = .board }
    }
}

extension ScreenBehavior {
    /// Touch on a screen that sets strokes (crown entry, the paper card): the left and right
    /// halves step, the bottom band keeps, the top band goes back.
    func touchedStrokes(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch layout.entryZone(x: x, y: y) {
        case .minus: return turned(-1, in: &state)
        case .plus: return turned(1, in: &state)
        case .save: return pressed(in: &state, now: now)
        case .cancel:
            back(in: &state)
            return []
        }
    }
}

// MARK: Layout

/// Crown entry's geometry: its bands from the name to the to-par label, and its touch zones.
extension Layout {
    public enum EntryZone: Sendable, Equatable { case minus, plus, save, cancel }

    /// Touch: the top band cancels, the bottom band saves, left and right halves step.
    public func entryZone(x: Double, y: Double) -> EntryZone {
        if y < header.maxY { return .cancel }
        if y >= footer.y - footer.h { return .save }
        return x < width / 2 ? .minus : .plus
    }

    public var entryNumberFont: Int { Layout.fontSize(min(height * 0.42, width * 0.3)) }

    /// Crown entry as boxes, one band each from the top to the footer: the participant's name
    /// (ellipsized: 32 characters do not fit a Pi panel at the header's size), the hole line,
    /// the number between its − and + marks, and the to-par label. The number takes the room
    /// the others leave, so it shrinks before anything overlaps; nothing goes under the minimum.
    public func entryBoxes(
        name: String, hole: String, value: Int, label: String, minus: String, color: RGB
    ) -> [RowBoxes] {
        let minimum = minimumTextSize
        let nameSize = max(minimum, Layout.fontSize(header.h * 0.5))
        // The paper card's hole line carries the running total: fitted to the width (portrait).
        let holeFits = Int((width - 2 * margin) / (Double(max(1, hole.count)) * Layout.glyphAdvance) / 2) * 2
        let holeSize = max(minimum, min(captionFont + 4, holeFits))
        // Portrait: the width, not the height, bounds "+3 · Triple bogey" (the layout check found it cut).
        let labelSize = max(minimum, Layout.fontSize(min(height * 0.055, width * 0.045)))
        let line = { (size: Int) in (Double(size) * Layout.lineHeight).rounded(.up) }
        let inner = Span(x: margin, w: width - 2 * margin)
        let nameRow = Rect(x: inner.x, y: (margin / 2).rounded(), w: inner.w, h: line(nameSize))
        let holeRow = Rect(x: inner.x, y: nameRow.maxY, w: inner.w, h: line(holeSize))
        // The number and its label read as one block, centred in what is left above the footer.
        let room = max(0, footer.y - margin / 2 - holeRow.maxY)
        let numberSize = max(minimum, min(entryNumberFont, Layout.fontSize((room - line(labelSize)) / Layout.lineHeight)))
        let blockTop = holeRow.maxY + max(0, (room - line(numberSize) - line(labelSize)) / 2).rounded()
        let numberRow = Rect(x: inner.x, y: blockTop, w: inner.w, h: line(numberSize))
        let labelRow = Rect(x: inner.x, y: numberRow.maxY, w: inner.w, h: line(labelSize))
        let sideSize = max(minimum, Layout.fontSize(Double(numberSize) * 0.35))
        let numberW = Layout.textWidth("10", size: numberSize)
        let sideW = Layout.textWidth("+", size: sideSize)
        let mark = { (x: Double) in Span(x: x - sideW / 2, w: sideW) }
        return [
            RowBoxes(
                frame: nameRow,
                texts: [
                    TextBox(
                        name, .title, size: nameSize, Palette.textPrimary, span: inner, midY: nameRow.midY,
                        align: .center, ellipsized: true)
                ]),
            RowBoxes(
                frame: holeRow,
                texts: [TextBox(hole, .body, size: holeSize, Palette.accent, span: inner, midY: holeRow.midY, align: .center)]
            ),
            RowBoxes(
                frame: numberRow,
                texts: [
                    TextBox(
                        minus, .score, size: sideSize, Palette.textSecondary, span: mark(width * 0.18),
                        midY: numberRow.midY, align: .center),
                    TextBox(
                        "\(value)", .score, size: numberSize, color, span: Span(x: (width - numberW) / 2, w: numberW),
                        midY: numberRow.midY, align: .center),
                    TextBox(
                        "+", .score, size: sideSize, Palette.textSecondary, span: mark(width * 0.82),
                        midY: numberRow.midY, align: .center),
                ]),
            RowBoxes(
                frame: labelRow,
                texts: [TextBox(label, .title, size: labelSize, color, span: inner, midY: labelRow.midY, align: .center)]),
        ]
    }
}
