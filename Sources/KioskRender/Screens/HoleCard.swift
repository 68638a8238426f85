import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ card: Screen.HoleCard) {
        let (hole, cursor) = (card.hole, card.cursor)
        guard let snapshot = state.round else { return paintCentered("Starting the round…", detail: nil) }
        paintTicker(snapshot)
        let course = snapshot.course
        let par = course.par(of: hole) ?? Course.defaultPar
        let header = layout.holeHeaderBoxes(hole: "Hole \(hole)", par: "Par \(par)", course: course.name)
        // "Par 3" follows the hole's real glyphs rather than its box (sized for the widest
        // digits): it can only move left, away from the course name.
        let holeWidth = canvas.measure(header.texts[0].text, header.texts[0].role, size: header.texts[0].size)
        var parBox = header.texts[1]
        parBox.frame.x = min(parBox.frame.x, header.texts[0].frame.x + holeWidth + layout.margin)
        for text in [header.texts[0], parBox, header.texts[2]] { draw(text) }
        // The round's open count, left of the course name (pressing a disputed row settles it).
        let courseBox = header.texts[2]
        let nameWidth = min(canvas.measure(course.name, .body, size: courseBox.size), courseBox.frame.w)
        paintCheckBadge(
            snapshot, maxX: courseBox.frame.maxX - nameWidth - layout.margin, midY: header.frame.midY, size: courseBox.size)

        guard let boxes = state.holeCardBoxes(card, layout: layout, now: now, minus: Self.minus) else { return }
        paintScrollingRows(
            boxes.rows.map { ($0.index, $0.boxes) }, cursor: cursor, geometry: boxes.geometry, thumb: boxes.thumb)
        if boxes.thumb != nil, let mark = boxes.nextUnscored {
            canvas.fillRounded(mark, radius: mark.w / 2, Palette.accent)
        }
        paintHoleDots(snapshot, current: hole)
        let hint =
            state.undoToast(at: now) != nil
            ? "Hold to undo · Turn to choose · Press to score"
            : state.autoAdvanceAt != nil ? "Hole complete · moving on…" : "Turn to choose · Press to score · Hold for the board"
        canvas.text(
            hint, .body, size: layout.captionFont, Palette.textSecondary, x: layout.margin, midY: footerMid,
            maxWidth: layout.width * 0.5)
    }

    /// One dot per hole: teal for this hole, white when everyone has scored it.
    func paintHoleDots(_ snapshot: RoundSnapshot, current: Int) {
        let count = snapshot.course.holeCount
        let d = max(6, layout.footer.h * 0.22)
        let gap = d * 0.9
        let total = Double(count) * d + Double(count - 1) * gap
        var x = layout.width - layout.margin - total
        for hole in 1...count {
            let color: RGB =
                hole == current
                ? Palette.accent
                : snapshot.scorecard.isHoleComplete(hole) ? Palette.textPrimary : Palette.tertiary
            let size = hole == current ? d * 1.4 : d
            canvas.fillRounded(Rect(x: x - (size - d) / 2, y: footerMid - size / 2, w: size, h: size), radius: size / 2, color)
            x += d + gap
        }
    }

    /// The condensed standings ticker (the seeds' floating pill): position, name, score.
    func paintTicker(_ snapshot: RoundSnapshot) {
        let pill = layout.ticker
        canvas.fillRounded(pill, radius: pill.h / 2, Palette.elevated)
        let size = Layout.fontSize(pill.h * 0.46)
        var x = pill.x + pill.h * 0.6
        let limit = pill.maxX - pill.h * 0.6
        let pulseAny = state.leaderboard.rows.contains { state.leaderboard.pulse(of: $0.participantID, at: now) > 0 }
        if pulseAny { canvas.fillRounded(pill, radius: pill.h / 2, Palette.accent, alpha: 0.12) }
        for row in state.leaderboard.rows {
            let score = toPar(row.toPar)
            let width =
                canvas.measure(row.positionLabel + " ", .body, size: size) + canvas.measure(row.name, .title, size: size)
                + canvas.measure(" " + score, .score, size: size)
            guard x + width <= limit else {
                canvas.text("…", .title, size: size, Palette.textSecondary, x: limit, midY: pill.midY, align: .right)
                break
            }
            x += canvas.text(
                row.positionLabel + " ", .body, size: size, row.position == 1 ? Palette.accent : Palette.textSecondary,
                x: x, midY: pill.midY)
            x += canvas.text(row.name, .title, size: size, Palette.textPrimary, x: x, midY: pill.midY)
            x += canvas.text(" " + score, .score, size: size, Palette.toPar(row.toPar), x: x, midY: pill.midY)
            x += Double(size) * 1.2
        }
    }
}
