import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The live board, or the last round's summary (or a welcome) when none is being played.
    func paint(_ board: Screen.Board) {
        guard let snapshot = state.round else {
            if let night = state.data.leagueNight, !night.inPlay {
                paintNightResult(night)
            } else if case .season(let page)? = state.idlePage(at: now), let table = state.idleSeason {
                paintSeason(table, page: page, hint: idlePot + "Press to start a round · Hold for menu")
            } else if let last = state.data.lastCompleted {
                paintSummary(last, hint: idlePot + "Press to start a round · Hold for menu", heading: "Last round")
            } else {
                paintCentered("Hyzer", detail: "Press the knob to start a round")
                paintFooter(idlePot + "Turn and press the knob · Hold for menu")
            }
            return
        }
        let header = layout.header
        let course = snapshot.course
        let allIn = snapshot.round.status == .awaitingFinalization
        if let panel = state.courseNowBoxes(layout: layout) {
            // Several cards on the course: each one's course and how far it is, the one below lit.
            for cell in panel.cells {
                if cell.lit {
                    canvas.strokeRounded(
                        cell.boxes.frame, radius: cell.boxes.frame.h * 0.3, width: max(2, 3 * layout.scale), Palette.accent,
                        inner: Palette.elevated)
                }
                for text in cell.boxes.texts { draw(text) }
            }
            if let net = panel.net { draw(net) }
        } else {
            paintHeader(course: course, snapshot: snapshot, allIn: allIn)
        }
        paintSync(midY: header.midY)
        paintSideGamesPanel()
        paintBoardRows(snapshot, allIn: allIn)
    }

    /// The group's ace pot between nights, at the front of the idle board's foot (issue 36).
    private var idlePot: String { state.data.idleAcePot.map { "Ace pot \($0) · " } ?? "" }

    /// A league night after its last card (issue 36): its name and winner over every
    /// card's players ranked together, the side games in their panel.
    private func paintNightResult(_ night: LeagueNightSnapshot) {
        let header = layout.header
        let winners = night.results.standings.standings.rows.filter { $0.position == 1 }.map(\.name)
        let title =
            "\(night.event.name) · \(night.results.finished ? "final" : "so far")" + (night.event.net ? " · net" : "")
        canvas.text(
            title, .title, size: layout.headerFont, Palette.textPrimary, x: layout.margin, midY: header.midY,
            maxWidth: layout.width * 0.5)
        let titleWidth = min(canvas.measure(title, .title, size: layout.headerFont), layout.width * 0.5)
        if !winners.isEmpty {
            canvas.text(
                (winners.count == 1 ? "won by " : "tied: ") + winners.joined(separator: ", "), .body,
                size: Layout.fontSize(Double(layout.headerFont) * 0.7), Palette.accent,
                x: layout.margin + titleWidth + layout.margin, midY: header.midY,
                maxWidth: layout.width * 0.64 - titleWidth - 2 * layout.margin)
        }
        paintSync(midY: header.midY)
        paintSideGamesPanel()
        paintBoardRows(nil, allIn: false, hint: "Press to start a round · Hold for menu")
    }

    /// One round: its course and the hole being played.
    private func paintHeader(course: Course, snapshot: RoundSnapshot, allIn: Bool) {
        let header = layout.header
        canvas.text(
            course.name, .title, size: layout.headerFont, Palette.textPrimary, x: layout.margin,
            midY: header.midY, maxWidth: layout.width * 0.45)
        // A night ranked by net says so (issue 37), where the eye reads how far it is.
        let progress =
            (allIn ? "All \(course.holeCount) holes scored" : "Hole \(snapshot.currentHole) of \(course.holeCount)")
            + (state.data.leagueNight?.event.net == true ? " · net" : "")
        let nameWidth = min(canvas.measure(course.name, .title, size: layout.headerFont), layout.width * 0.45)
        canvas.text(
            progress, .body, size: Layout.fontSize(Double(layout.headerFont) * 0.7), Palette.accent,
            x: layout.margin + nameWidth + layout.margin, midY: header.midY)
    }

    private func paintBoardRows(_ snapshot: RoundSnapshot?, allIn: Bool, hint: String? = nil) {

        let board = state.leaderboard
        let boxes = state.boardBoxes(layout: layout, now: now, minus: Self.minus)
        let unit = boxes.geometry.unit
        let reduce = state.settings.reduceMotion
        // Draw moving rows last so they pass over the ones at rest.
        let order = boxes.rows.sorted { a, b in
            let am = board.slots[a.standing.participantID]?.isRunning(at: now) == true
            let bm = board.slots[b.standing.participantID]?.isRunning(at: now) == true
            return !am && bm
        }
        for row in order {
            let id = row.standing.participantID
            var rect = row.boxes.frame
            let pulse = board.pulse(of: id, at: now)
            if !reduce && pulse > 0 {
                let grow = rect.h * 0.03 * pulse
                rect = rect.inset(-grow, -grow / 2)
            }
            // The cards stay opaque (blending whole rows costs the software renderer a frame's
            // budget at 1080p); a new page's texts come in on them row by row, each whole.
            canvas.fillRounded(rect, radius: rect.h * 0.22, Palette.elevated)
            guard row.revealed else { continue }
            if pulse > 0 {
                // The pulse is an accent bar at the row's edge: it reads as "changed" from
                // across the room and costs a sliver of blending, not the whole row.
                let bar = max(4, rect.h * 0.08)
                canvas.fillRounded(
                    Rect(x: rect.x, y: rect.y + rect.h * 0.2, w: bar, h: rect.h * 0.6), radius: bar / 2,
                    Palette.accent, alpha: pulse)
            }
            let arrowAlpha = board.arrowOpacity(of: id, at: now, reduceMotion: reduce)
            if arrowAlpha > 0, let delta = board.arrows[id]?.delta {
                let arrow = boxes.geometry.columns.arrow
                let s = min(unit * 0.26, arrow.w)
                canvas.triangle(
                    in: Rect(x: arrow.x, y: rect.midY - s / 2, w: s, h: s), up: delta > 0,
                    delta > 0 ? Palette.underPar : Palette.overPar, alpha: arrowAlpha)
            }
            for text in row.boxes.texts { draw(text) }
        }
        if let more = boxes.more {
            for text in more.texts { draw(text) }
        }
        let hint = hint ?? (allIn ? "All scores recorded · Press to finalize" : "Press to enter scores · Hold for menu")
        // The open count as a badge at the footer's right, the hints centred in what is left.
        guard let snapshot else { return paintFooter(hint) }
        let badge = paintCheckBadge(snapshot, maxX: layout.width - layout.margin, midY: footerMid, size: layout.captionFont)
        guard badge > 0 else { return paintFooter(hint) }
        let room = layout.width - 3 * layout.margin - badge
        canvas.text(
            hint + " · Check scores in the menu", .body, size: layout.captionFont, Palette.textSecondary,
            x: layout.margin + room / 2, midY: footerMid, align: .center, maxWidth: room)
    }
}
