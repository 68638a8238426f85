import Foundation
import HyzerKit

extension Screen {
    /// One hole's card; `cursor` selects a participant row.
    public struct HoleCard: Sendable, Equatable {
        public var hole: Int
        public var cursor: Int
        public init(hole: Int, cursor: Int) {
            self.hole = hole
            self.cursor = cursor
        }

        /// The card of the hole being played, on its first participant without a score.
        static func resuming(_ snapshot: RoundSnapshot) -> Screen {
            let hole = snapshot.currentHole
            return .holeCard(hole: hole, cursor: firstUnscored(snapshot, hole: hole) ?? 0)
        }

        static func firstUnscored(_ snapshot: RoundSnapshot, hole: Int) -> Int? {
            snapshot.round.participants.firstIndex { snapshot.scorecard.value(participant: $0.id, hole: hole) == nil }
        }
    }

    public static func holeCard(hole: Int, cursor: Int) -> Screen { .holeCard(HoleCard(hole: hole, cursor: cursor)) }
}

extension Screen.HoleCard: ScreenBehavior {
    var name: String { "hole-\(hole)" }

    /// Past the last row the card moves to the next hole; before the first, to the
    /// previous one (free navigation, FR38), in the card's order: a card that started on
    /// hole 7 goes from 9 to 1, and ends on 6 (issue 36).
    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        guard let snapshot = state.data.round else { return [] }
        let rows = snapshot.round.participants.count
        let order = snapshot.holeOrder
        var (hole, cursor) = (hole, cursor + steps)
        var hitEnd = false
        while cursor >= rows {
            if let next = order.after(hole) {
                cursor -= rows
                hole = next
            } else {
                cursor = rows - 1
                hitEnd = true
            }
        }
        while cursor < 0 {
            if let previous = order.before(hole) {
                cursor += rows
                hole = previous
            } else {
                cursor = 0
                hitEnd = true
            }
        }
        state.followHoleCardCursor(cursor, rows: rows, animated: hole == self.hole)
        state.screen = .holeCard(hole: hole, cursor: cursor)
        return hitEnd ? [.buzz(.limit)] : []
    }

    /// Opens crown entry for the selected participant, at their score or at par.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let snapshot = state.data.round, snapshot.round.participants.indices.contains(cursor) else { return [] }
        let participant = snapshot.round.participants[cursor]
        // A score in dispute is settled, not overwritten: a correction would only add one
        // more statement to the dispute.
        if let discrepancy = snapshot.discrepancy(at: ScoreCell(participantID: participant.id, hole: hole)) {
            state.screen = Screen.Resolve.showing(discrepancy, in: snapshot, origin: .holeCard(hole: hole, cursor: cursor))
            return []
        }
        let previous = snapshot.scorecard.value(participant: participant.id, hole: hole)
        let par = snapshot.course.par(of: hole) ?? Course.defaultPar
        state.screen = .entry(
            .init(
                hole: hole, participantID: participant.id, cursor: cursor,
                value: previous ?? par, previous: previous))
        return []
    }

    /// A tap on a row scores that participant.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let rows = state.data.round?.round.participants.count else { return [] }
        let geometry = layout.holeCard(rows: rows)
        guard let row = geometry.row(at: y, top: state.holeCardTop(geometry, cursor: cursor, now: now)) else { return [] }
        state.screen = .holeCard(hole: hole, cursor: row)
        return state.press(now: now)
    }

    /// FR20: when this hole has just been completed (or the last scores are in), the card
    /// moves on by itself after a moment.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        guard let snapshot = state.data.round else {
            state.screen = .board
            return
        }
        let sameRound = old.round?.round.id == snapshot.round.id
        let justCompleted =
            snapshot.scorecard.isHoleComplete(hole)
            && !(sameRound && old.round?.scorecard.isHoleComplete(hole) == true)
        let rows = snapshot.round.participants.count
        if cursor >= rows || hole > snapshot.course.holeCount { state.screen = Self.resuming(snapshot) }
        if justCompleted || (snapshot.round.status == .awaitingFinalization && old.round?.round.status == .active) {
            state.autoAdvanceAt = now + MotionTokens.autoAdvanceDelay
        }
    }

    /// FR20: the hole is complete; move on in the card's order, or ask to finalize after
    /// the last scores.
    func advance(in state: inout KioskState) {
        guard let snapshot = state.data.round else { return }
        if snapshot.round.status == .awaitingFinalization {
            state.screen = .finalizePrompt(cursor: 0)
        } else if let next = snapshot.holeOrder.after(hole) {
            state.screen = .holeCard(hole: next, cursor: Self.firstUnscored(snapshot, hole: next) ?? 0)
        }
    }
}

extension MotionTokens {
    /// The hole card scrolling one row into view: quick enough to keep up with a turning knob.
    public static let holeCardScroll: Millis = 220
}

extension KioskState {
    /// Scrolls the hole card so `cursor` shows whole: a slide on the same card, a jump to a
    /// new hole's card or with reduce motion.
    mutating func followHoleCardCursor(_ cursor: Int, rows: Int, animated: Bool) {
        let geometry = Layout(viewport: viewport).holeCard(rows: rows)
        let now = lastInputAt
        let target = geometry.top(cursor: cursor, near: animated ? holeCardScroll.to : 0)
        holeCardScroll.follow(
            target, at: now, duration: MotionTokens.holeCardScroll, animated: animated && !settings.reduceMotion)
    }

    /// The hole card's first row shown at `now`: the slide while it runs, else the resting
    /// place nearest the last one that shows the cursor whole (entry and auto-advance move
    /// the cursor without turning).
    public func holeCardTop(_ geometry: Layout.HoleCardGeometry, cursor: Int, now: Millis) -> Double {
        holeCardScroll.isRunning(at: now)
            ? holeCardScroll.value(at: now) : geometry.top(cursor: cursor, near: holeCardScroll.to)
    }

    /// The hole card's participant rows as boxes at `now`.
    public struct HoleCardBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var index: Int
            public var boxes: RowBoxes
        }
        public var geometry: Layout.HoleCardGeometry
        public var top: Double
        /// The rows that show (whole or, while scrolling, in part), in order.
        public var rows: [Row]
        public var thumb: Rect?
        /// On the scroll track, where the next participant without a score is: the eye
        /// finds them even when their row is out of view.
        public var nextUnscored: Rect?
    }

    public func holeCardBoxes(_ card: Screen.HoleCard, layout: Layout, now: Millis, minus: String) -> HoleCardBoxes? {
        guard let snapshot = round else { return nil }
        let participants = snapshot.round.participants
        let geometry = layout.holeCard(rows: participants.count)
        let top = holeCardTop(geometry, cursor: card.cursor, now: now)
        let par = snapshot.course.par(of: card.hole) ?? Course.defaultPar
        let standings = snapshot.standings
        var rows: [HoleCardBoxes.Row] = []
        for (index, participant) in participants.enumerated() {
            let rect = geometry.row(index, top: top)
            guard rect.maxY > geometry.area.y, rect.y < geometry.area.maxY else { continue }
            let cell = snapshot.scorecard.resolution(participant: participant.id, hole: card.hole)
            let total = standings.row(for: participant.id).map {
                (ScoreFormat.toPar($0.toPar, minus: minus) + " total", Palette.toPar($0.toPar))
            }
            // Where the score came from: "at the kiosk", "from Nate's phone".
            let scoredBy = cell.leaves.first.flatMap { attribution(of: $0, for: participant.id) }.map { "· " + $0 }
            let check = cell.discrepancy.map { "check: " + $0.values.map(String.init).joined(separator: " or ") }
            let score = cell.value.map { ("\($0)", Palette.strokes($0, par: par)) } ?? ("–", Palette.textSecondary)
            let texts = Self.holeCardTexts(
                in: rect, geometry: geometry, name: participant.name, total: total, scoredBy: scoredBy, check: check,
                score: score)
            rows.append(.init(index: index, boxes: RowBoxes(frame: rect, texts: texts)))
        }
        var mark: Rect?
        if let track = geometry.track, let next = Screen.HoleCard.firstUnscored(snapshot, hole: card.hole) {
            let h = max(track.w * 2, track.h / Double(participants.count))
            let y = track.y + (track.h - h) * Double(next) / Double(max(1, participants.count - 1))
            mark = Rect(x: track.x, y: y, w: track.w, h: h)
        }
        return HoleCardBoxes(geometry: geometry, top: top, rows: rows, thumb: geometry.thumb(top: top), nextUnscored: mark)
    }

    /// Name over total (and who scored it); the score at the right; a disagreement to check
    /// on the second line, left of the score. Fixed texts get the width they need by the
    /// conservative advance, names what is left.
    static func holeCardTexts(
        in rect: Rect, geometry: Layout.HoleCardGeometry, name: String, total: (String, RGB)?, scoredBy: String?,
        check: String?, score: (String, RGB)
    ) -> [TextBox] {
        let (nameSize, captionSize) = (geometry.nameSize, geometry.captionSize)
        let pad = min(rect.h * 0.3, Double(nameSize) * 0.8)
        let gap = Double(captionSize) * 0.5
        let scoreW = Layout.textWidth("10", size: geometry.scoreSize)
        let scoreSpan = Layout.Span(x: rect.maxX - pad - scoreW, w: scoreW)
        let lines = Double(nameSize + captionSize) * Layout.lineHeight
        let nameMid = rect.y + (rect.h - lines) / 2 + Double(nameSize) * Layout.lineHeight / 2
        let captionMid = nameMid + lines / 2
        let left = rect.x + pad
        var texts = [
            TextBox(
                name, .title, size: nameSize, Palette.textPrimary,
                span: Layout.Span(x: left, w: scoreSpan.x - gap - left), midY: nameMid, ellipsized: true),
            TextBox(
                score.0, .score, size: geometry.scoreSize, score.1, span: scoreSpan, midY: rect.midY, align: .right),
        ]
        var captionEnd = scoreSpan.x - gap
        if let check {
            let w = min(Layout.textWidth(check, size: captionSize), captionEnd - left)
            texts.append(
                TextBox(
                    check, .body, size: captionSize, Palette.overPar, span: Layout.Span(x: captionEnd - w, w: w),
                    midY: captionMid, align: .right, ellipsized: true))
            captionEnd -= w + gap
        }
        var x = left
        if let total {
            let w = min(Layout.textWidth("+12 total", size: captionSize), max(0, captionEnd - x))
            texts.append(
                TextBox(total.0, .body, size: captionSize, total.1, span: Layout.Span(x: x, w: w), midY: captionMid))
            x += w + gap
        }
        // Who scored it is a courtesy: it shows only where it has room for a few letters.
        if let scoredBy, captionEnd - x >= Layout.textWidth("· scored by A", size: captionSize) {
            texts.append(
                TextBox(
                    scoredBy, .body, size: captionSize, Palette.textSecondary,
                    span: Layout.Span(x: x, w: captionEnd - x), midY: captionMid, ellipsized: true))
        }
        return texts
    }
}

// MARK: Layout

/// The hole card's geometry: the ticker, the header and the rows' height (the rows scroll as
/// `HoleCardGeometry`, in Layout.swift: the history screens' rows do too).
extension Layout {
    /// The condensed standings ticker (the seeds' floating pill).
    public var ticker: Rect {
        Rect(x: margin, y: margin / 2, w: width - 2 * margin, h: (height * 0.075).rounded())
    }

    public var holeHeader: Rect {
        Rect(x: margin, y: ticker.maxY + margin / 2, w: width - 2 * margin, h: (height * 0.12).rounded())
    }

    /// The hole card's header as boxes: "Hole 4" large, "Par 3" beside it, and the course
    /// name right-aligned in what is left, ellipsized. Sized by the header's height but capped
    /// by the panel's width: on a portrait panel the height alone ran the three into each
    /// other (the layout check catches it).
    public func holeHeaderBoxes(hole: String, par: String, course: String) -> RowBoxes {
        let header = holeHeader
        let scale = min(1, width * 0.09 / (header.h * 0.62))
        let size = { (fraction: Double) in max(self.minimumTextSize, Layout.fontSize(header.h * fraction * scale)) }
        let (holeSize, parSize, courseSize) = (size(0.62), size(0.36), size(0.3))
        let holeSpan = Span(x: header.x, w: Layout.textWidth(hole, size: holeSize))
        let parSpan = Span(x: holeSpan.maxX + margin, w: Layout.textWidth(par, size: parSize))
        let courseW = max(0, min(width * 0.35, header.maxX - parSpan.maxX - margin))
        return RowBoxes(
            frame: header,
            texts: [
                TextBox(hole, .title, size: holeSize, Palette.textPrimary, span: holeSpan, midY: header.midY),
                TextBox(par, .body, size: parSize, Palette.accent, span: parSpan, midY: header.midY),
                TextBox(
                    course, .body, size: courseSize, Palette.textSecondary,
                    span: Span(x: header.maxX - courseW, w: courseW), midY: header.midY, align: .right, ellipsized: true),
            ])
    }

    public var holeRowsArea: Rect {
        Rect(
            x: margin, y: holeHeader.maxY + margin / 2, w: width - 2 * margin,
            h: footer.y - holeHeader.maxY - margin)
    }

    /// A hole card row holds two lines (name, then total) at the minimum size, and is tappable.
    public var holeCardMinimumRowHeight: Double {
        let lines = Double(minimumTextSize) * 2 * Layout.lineHeight + 4
        return max(Layout.touchTarget, (lines / 0.92).rounded(.up))
    }

    /// Slot to slot: the rows share the area, at most 14% of the height, never under the minimum.
    public func holeRowHeight(rows: Int) -> Double {
        max(holeCardMinimumRowHeight, min(holeRowsArea.h / Double(max(rows, 1)), height * 0.14).rounded(.down))
    }

    public func holeCard(rows: Int) -> HoleCardGeometry {
        twoLineRows(rows: rows, pitch: holeRowHeight(rows: rows), in: holeRowsArea, nameShare: 0.4, scoreShare: 0.56)
    }
}
