import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The live board, or the last round's summary (or a welcome) when none is being played.
    func paint(_ board: Screen.Board) {
        guard let snapshot = state.round else {
            if let last = state.data.lastCompleted {
                paintSummary(last, hint: "Press to start a round · Hold for menu", heading: "Last round")
            } else {
                paintCentered("Hyzer", detail: "Press the knob to start a round")
                paintFooter("Turn and press the knob · Hold for menu")
            }
            return
        }
        let header = layout.header
        let course = snapshot.course
        canvas.text(
            course.name, .title, size: layout.headerFont, Palette.textPrimary, x: layout.margin,
            midY: header.midY, maxWidth: layout.width * 0.45)
        let allIn = snapshot.round.status == .awaitingFinalization
        let progress = allIn ? "All \(course.holeCount) holes scored" : "Hole \(snapshot.currentHole) of \(course.holeCount)"
        let nameWidth = min(canvas.measure(course.name, .title, size: layout.headerFont), layout.width * 0.45)
        canvas.text(
            progress, .body, size: Layout.fontSize(Double(layout.headerFont) * 0.7), Palette.accent,
            x: layout.margin + nameWidth + layout.margin, midY: header.midY)
        paintSync(midY: header.midY)

        let board = state.leaderboard
        let rows = board.rows.count
        let rowH = layout.boardUnit(rows: rows)
        let columns = layout.boardColumns(unit: rowH)
        let nameSize = Layout.fontSize(rowH * 0.5)
        let scoreSize = Layout.fontSize(rowH * 0.56)
        let captionSize = Layout.fontSize(rowH * 0.3)
        let reduce = state.settings.reduceMotion
        // Draw moving rows last so they pass over the ones at rest.
        let order = board.rows.sorted { a, b in
            let am = board.slots[a.participantID]?.isRunning(at: now) == true
            let bm = board.slots[b.participantID]?.isRunning(at: now) == true
            return !am && bm
        }
        for row in order {
            let id = row.participantID
            var rect = layout.boardRow(slot: board.slot(of: id, at: now), rows: rows)
            let pulse = board.pulse(of: id, at: now)
            if !reduce && pulse > 0 {
                let grow = rect.h * 0.03 * pulse
                rect = rect.inset(-grow, -grow / 2)
            }
            canvas.fillRounded(rect, radius: rect.h * 0.22, Palette.elevated)
            if pulse > 0 {
                // The pulse is an accent bar at the row's edge: it reads as "changed" from
                // across the room and costs a sliver of blending, not the whole row.
                let bar = max(4, rect.h * 0.08)
                canvas.fillRounded(
                    Rect(x: rect.x, y: rect.y + rect.h * 0.2, w: bar, h: rect.h * 0.6), radius: bar / 2,
                    Palette.accent, alpha: pulse)
            }
            let first = row.position == 1
            canvas.text(
                row.positionLabel, .title, size: nameSize, first ? Palette.accent : Palette.textPrimary,
                x: columns.position, midY: rect.midY, maxWidth: columns.arrow - columns.position - 4)
            let arrowAlpha = board.arrowOpacity(of: id, at: now, reduceMotion: reduce)
            if arrowAlpha > 0, let delta = board.arrows[id]?.delta {
                let s = rowH * 0.26
                canvas.triangle(
                    in: Rect(x: columns.arrow, y: rect.midY - s / 2, w: s * 1.1, h: s), up: delta > 0,
                    delta > 0 ? Palette.underPar : Palette.overPar, alpha: arrowAlpha)
            }
            canvas.text(
                row.name, .title, size: nameSize, Palette.textPrimary, x: columns.name, midY: rect.midY,
                maxWidth: columns.thru - columns.name - rowH * 0.8)
            let progress = ScoreFormat.progress(row)
            canvas.text(
                progress, .body, size: captionSize, Palette.textSecondary, x: columns.thru + rowH * 0.9,
                midY: rect.midY, align: .center)
            canvas.text(
                toPar(row.toPar), .score, size: scoreSize, Palette.toPar(row.toPar), x: columns.toPar,
                midY: rect.midY, align: .right)
        }
        let hint = allIn ? "All scores recorded · Press to finalize" : "Press to enter scores · Hold for menu"
        // The open count as a badge at the footer's right, the hints centred in what is left.
        let badge = paintCheckBadge(snapshot, maxX: layout.width - layout.margin, midY: footerMid, size: layout.captionFont)
        guard badge > 0 else { return paintFooter(hint) }
        let room = layout.width - 3 * layout.margin - badge
        canvas.text(
            hint + " · Check scores in the menu", .body, size: layout.captionFont, Palette.textSecondary,
            x: layout.margin + room / 2, midY: footerMid, align: .center, maxWidth: room)
    }
}
