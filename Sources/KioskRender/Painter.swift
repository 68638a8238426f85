import Foundation
import HyzerKit
import KioskCore

/// Draws one frame of a `KioskState`. All geometry comes from `Layout`, all colours from
/// `Palette`; nothing here decides anything about the round.
struct Painter {
    let canvas: Canvas
    let layout: Layout
    let state: KioskState
    let now: Millis
    let wallClock: Date

    static let minus = "\u{2212}"

    func paint() {
        canvas.clear(Palette.background)
        switch state.screen {
        case .board: paintBoard()
        case .menu(let cursor):
            paintList(title: "Menu", subtitle: state.round.map { "\($0.course.name) · round in progress" } ?? "No round in progress",
                      items: state.menuItems.map { ListItem(title: $0.title) }, cursor: cursor,
                      hints: "Turn to choose · Press to select · Hold to go back")
        case .holeCard(let hole, let cursor): paintHoleCard(hole: hole, cursor: cursor)
        case .entry(let entry): paintEntry(entry)
        case .finalizePrompt(let cursor):
            paintList(title: "All scores recorded.", subtitle: "Finalize round?",
                      items: [ListItem(title: "Finalize round", isAction: true), ListItem(title: "Keep scoring")],
                      cursor: cursor, hints: "Turn to choose · Press to confirm")
        case .summary(let id):
            if let snapshot = state.summarySnapshot(id) {
                paintSummary(snapshot, hint: "Press to return to the board")
            } else {
                paintCentered("Finishing the round…", detail: nil)
            }
        case .setupCourse(let cursor):
            paintList(title: "Start a round", subtitle: "Pick the course",
                      items: state.data.courses.map { ListItem(title: $0.name, detail: "\($0.holeCount) holes · par \($0.totalPar)") },
                      cursor: cursor, hints: "Turn to choose · Press to pick · Hold to go back")
        case .setupPlayers(let courseID, let selected, let cursor):
            let course = state.data.courses.first { $0.id == courseID }
            var items = state.data.players.map { player -> ListItem in
                let order = selected.firstIndex(of: player.id)
                return ListItem(title: player.displayName, detail: order.map { $0 == 0 ? "organizer" : "#\($0 + 1)" },
                                checked: order != nil)
            }
            items.append(ListItem(title: selected.isEmpty ? "Start round" : "Start round · \(selected.count) player\(selected.count == 1 ? "" : "s")",
                                  isAction: true))
            paintList(title: "Who is playing?", subtitle: course.map { "\($0.name) · \($0.holeCount) holes" } ?? "",
                      items: items, cursor: cursor, hints: "Press to add or remove · Start when ready · Hold to go back")
        }
        paintNotice()
    }

    // MARK: Shared pieces

    func toPar(_ value: Int) -> String { ScoreFormat.toPar(value, minus: Self.minus) }

    var footerMid: Double { layout.footer.midY }

    func paintFooter(_ hints: String) {
        canvas.text(hints, .body, size: layout.captionFont, Palette.textSecondary, x: layout.width / 2, midY: footerMid,
                    align: .center, maxWidth: layout.width - 2 * layout.margin)
    }

    /// Offline badge and "last synced" time, top right (hidden when sync is not set up).
    func paintSync(midY: Double) {
        let sync = state.sync
        let text: String
        let color: RGB
        switch sync.state {
        case .disabled: return
        case .idle, .syncing:
            color = sync.state == .syncing ? Palette.accent : Palette.textSecondary
            if let last = sync.lastSynced {
                let minutes = Int(wallClock.timeIntervalSince(last) / 60)
                text = minutes < 1 ? "Synced just now" : "Synced \(minutes) min ago"
            } else {
                text = sync.state == .syncing ? "Syncing…" : "Not synced yet"
            }
        case .offline: (text, color) = ("Offline · scores saved here", Palette.overPar)
        case .error: (text, color) = ("Sync error: \(sync.detail ?? "see the log")", Palette.wayOver)
        }
        var x = layout.width - layout.margin
        if sync.refused > 0 {
            // Permanent rejections (A1 `failed`) stay visible until someone deals with them.
            x -= canvas.text("\(sync.refused) not accepted by the server", .body, size: layout.captionFont, Palette.wayOver,
                             x: x, midY: midY, align: .right) + Double(layout.captionFont)
        }
        canvas.text(text, .body, size: layout.captionFont, color, x: x, midY: midY, align: .right,
                    maxWidth: layout.width * 0.35)
    }

    func paintNotice() {
        guard let notice = state.notice else { return }
        let size = layout.captionFont + 4
        let w = min(layout.width - 2 * layout.margin, canvas.measure(notice.text, .title, size: size) + 4 * layout.margin)
        let h = Double(size) * 2.2
        let rect = Rect(x: (layout.width - w) / 2, y: layout.footer.y - h - layout.margin / 2, w: w, h: h)
        let edge = notice.kind == .error ? Palette.wayOver : Palette.accent
        canvas.strokeRounded(rect, radius: h / 2, width: max(2, 3 * layout.scale), edge, inner: Palette.elevated)
        canvas.text(notice.text, .title, size: size, Palette.textPrimary, x: rect.midX, midY: rect.midY, align: .center,
                    maxWidth: w - 2 * layout.margin)
    }

    func paintCentered(_ title: String, detail: String?) {
        let big = Layout.fontSize(layout.height * 0.09)
        canvas.text(title, .title, size: big, Palette.textPrimary, x: layout.width / 2, midY: layout.height * 0.42,
                    align: .center, maxWidth: layout.width - 2 * layout.margin)
        if let detail {
            canvas.text(detail, .body, size: Layout.fontSize(layout.height * 0.045), Palette.textSecondary,
                        x: layout.width / 2, midY: layout.height * 0.55, align: .center,
                        maxWidth: layout.width - 2 * layout.margin)
        }
    }

    // MARK: Board

    func paintBoard() {
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
        canvas.text(course.name, .title, size: layout.headerFont, Palette.textPrimary, x: layout.margin,
                    midY: header.midY, maxWidth: layout.width * 0.45)
        let allIn = snapshot.round.status == .awaitingFinalization
        let progress = allIn ? "All \(course.holeCount) holes scored" : "Hole \(snapshot.currentHole) of \(course.holeCount)"
        let nameWidth = min(canvas.measure(course.name, .title, size: layout.headerFont), layout.width * 0.45)
        canvas.text(progress, .body, size: Layout.fontSize(Double(layout.headerFont) * 0.7), Palette.accent,
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
                canvas.fillRounded(Rect(x: rect.x, y: rect.y + rect.h * 0.2, w: bar, h: rect.h * 0.6), radius: bar / 2,
                                   Palette.accent, alpha: pulse)
            }
            let first = row.position == 1
            canvas.text(row.positionLabel, .title, size: nameSize, first ? Palette.accent : Palette.textPrimary,
                        x: columns.position, midY: rect.midY, maxWidth: columns.arrow - columns.position - 4)
            let arrowAlpha = board.arrowOpacity(of: id, at: now, reduceMotion: reduce)
            if arrowAlpha > 0, let delta = board.arrows[id]?.delta {
                let s = rowH * 0.26
                canvas.triangle(in: Rect(x: columns.arrow, y: rect.midY - s / 2, w: s * 1.1, h: s), up: delta > 0,
                                delta > 0 ? Palette.underPar : Palette.overPar, alpha: arrowAlpha)
            }
            canvas.text(row.name, .title, size: nameSize, Palette.textPrimary, x: columns.name, midY: rect.midY,
                        maxWidth: columns.thru - columns.name - rowH * 0.8)
            let progress = ScoreFormat.progress(row)
            canvas.text(progress, .body, size: captionSize, Palette.textSecondary, x: columns.thru + rowH * 0.9,
                        midY: rect.midY, align: .center)
            canvas.text(toPar(row.toPar), .score, size: scoreSize, Palette.toPar(row.toPar), x: columns.toPar,
                        midY: rect.midY, align: .right)
        }
        let discrepancies = snapshot.scorecard.discrepancies.count
        var hint = allIn ? "All scores recorded · Press to finalize" : "Press to enter scores · Hold for menu"
        if discrepancies > 0 { hint += " · \(discrepancies) score\(discrepancies == 1 ? "" : "s") to check" }
        paintFooter(hint)
    }

    // MARK: Hole card

    func paintHoleCard(hole: Int, cursor: Int) {
        guard let snapshot = state.round else { return paintCentered("Starting the round…", detail: nil) }
        paintTicker(snapshot)
        let course = snapshot.course
        let par = course.par(of: hole) ?? Course.defaultPar
        let header = layout.holeHeader
        let big = Layout.fontSize(header.h * 0.62)
        let holeWidth = canvas.text("Hole \(hole)", .title, size: big, Palette.textPrimary, x: header.x, midY: header.midY)
        canvas.text("Par \(par)", .body, size: Layout.fontSize(header.h * 0.36), Palette.accent,
                    x: header.x + holeWidth + layout.margin, midY: header.midY)
        canvas.text(course.name, .body, size: Layout.fontSize(header.h * 0.3), Palette.textSecondary,
                    x: header.maxX, midY: header.midY, align: .right, maxWidth: layout.width * 0.35)

        let participants = snapshot.round.participants
        let rowH = layout.holeRowHeight(rows: participants.count)
        let area = layout.holeRowsArea
        let standings = snapshot.standings
        let nameSize = Layout.fontSize(rowH * 0.38)
        let captionSize = Layout.fontSize(rowH * 0.22)
        let scoreSize = Layout.fontSize(rowH * 0.56)
        for (index, participant) in participants.enumerated() {
            let rect = Rect(x: area.x, y: area.y + Double(index) * rowH, w: area.w, h: rowH - max(2, rowH * 0.08))
            let radius = rect.h * 0.22
            if index == cursor {
                canvas.strokeRounded(rect, radius: radius, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: radius, Palette.elevated)
            }
            let cell = snapshot.scorecard.resolution(participant: participant.id, hole: hole)
            let pad = rect.h * 0.3
            canvas.text(participant.name, .title, size: nameSize, Palette.textPrimary, x: rect.x + pad,
                        midY: rect.y + rect.h * 0.36, maxWidth: rect.w * 0.6)
            var captionX = rect.x + pad
            if let standing = standings.row(for: participant.id) {
                captionX += canvas.text("\(toPar(standing.toPar)) total", .body, size: captionSize,
                                        Palette.toPar(standing.toPar), x: captionX, midY: rect.y + rect.h * 0.74)
            }
            if let leaf = cell.leaves.first, let who = state.data.name(of: leaf.reportedBy), leaf.reportedBy != participant.id {
                canvas.text("· scored by \(who)", .body, size: captionSize, Palette.textSecondary,
                            x: captionX + Double(captionSize) / 2, midY: rect.y + rect.h * 0.74, maxWidth: rect.w * 0.45)
            }
            if let discrepancy = cell.discrepancy {
                canvas.text("check: " + discrepancy.values.map(String.init).joined(separator: " or "), .body,
                            size: captionSize, Palette.overPar, x: rect.maxX - rect.h * 1.6, midY: rect.midY, align: .right)
            }
            if let value = cell.value {
                canvas.text("\(value)", .score, size: scoreSize, Palette.strokes(value, par: par), x: rect.maxX - pad,
                            midY: rect.midY, align: .right)
            } else {
                canvas.text("–", .score, size: scoreSize, Palette.textSecondary, x: rect.maxX - pad, midY: rect.midY, align: .right)
            }
        }
        paintHoleDots(snapshot, current: hole)
        let hint = state.autoAdvanceAt != nil ? "Hole complete · moving on…" : "Turn to choose · Press to score · Hold for the board"
        canvas.text(hint, .body, size: layout.captionFont, Palette.textSecondary, x: layout.margin, midY: footerMid,
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
            let color: RGB = hole == current ? Palette.accent
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
            let width = canvas.measure(row.positionLabel + " ", .body, size: size) + canvas.measure(row.name, .title, size: size)
                + canvas.measure(" " + score, .score, size: size)
            guard x + width <= limit else {
                canvas.text("…", .title, size: size, Palette.textSecondary, x: limit, midY: pill.midY, align: .right)
                break
            }
            x += canvas.text(row.positionLabel + " ", .body, size: size, row.position == 1 ? Palette.accent : Palette.textSecondary,
                             x: x, midY: pill.midY)
            x += canvas.text(row.name, .title, size: size, Palette.textPrimary, x: x, midY: pill.midY)
            x += canvas.text(" " + score, .score, size: size, Palette.toPar(row.toPar), x: x, midY: pill.midY)
            x += Double(size) * 1.2
        }
    }

    // MARK: Crown entry

    func paintEntry(_ entry: Screen.Entry) {
        guard let snapshot = state.round, let participant = snapshot.round.participant(entry.participantID) else { return }
        let par = snapshot.course.par(of: entry.hole) ?? Course.defaultPar
        let header = layout.header
        canvas.text(participant.name, .title, size: Layout.fontSize(header.h * 0.5), Palette.textPrimary,
                    x: layout.width / 2, midY: header.midY + layout.margin / 2, align: .center)
        canvas.text("Hole \(entry.hole) · Par \(par)", .body, size: layout.captionFont + 4, Palette.accent,
                    x: layout.width / 2, midY: header.maxY + Double(layout.captionFont), align: .center)
        let color = Palette.strokes(entry.value, par: par)
        let numberY = layout.height * 0.5
        canvas.text("\(entry.value)", .score, size: layout.entryNumberFont, color, x: layout.width / 2, midY: numberY, align: .center)
        // The side marks show which way is which, for the knob and for touch.
        let side = Layout.fontSize(Double(layout.entryNumberFont) * 0.35)
        canvas.text(Self.minus, .score, size: side, Palette.textSecondary, x: layout.width * 0.18, midY: numberY, align: .center)
        canvas.text("+", .score, size: side, Palette.textSecondary, x: layout.width * 0.82, midY: numberY, align: .center)
        let relation = entry.value - par
        let label = "\(toPar(relation)) · \(Self.scoreName(strokes: entry.value, par: par))"
        canvas.text(label, .title, size: Layout.fontSize(layout.height * 0.055), color, x: layout.width / 2,
                    midY: numberY + Double(layout.entryNumberFont) * 0.58, align: .center)
        var hint = "Turn to change · Press to save · Hold to cancel"
        if let previous = entry.previous { hint = "Correcting \(previous) · " + hint }
        paintFooter(hint)
    }

    static func scoreName(strokes: Int, par: Int) -> String {
        if strokes == 1 { return "Ace" }
        switch strokes - par {
        case ...(-3): return "Albatross"
        case -2: return "Eagle"
        case -1: return "Birdie"
        case 0: return "Par"
        case 1: return "Bogey"
        case 2: return "Double bogey"
        case 3: return "Triple bogey"
        default: return "\(strokes - par) over"
        }
    }

    // MARK: Lists

    struct ListItem {
        var title: String
        var detail: String? = nil
        var checked: Bool? = nil
        var isAction = false
    }

    func paintList(title: String, subtitle: String, items: [ListItem], cursor: Int, hints: String) {
        let head = layout.listTitle
        canvas.text(title, .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x, midY: head.y + head.h * 0.36,
                    maxWidth: layout.width - 2 * layout.margin)
        canvas.text(subtitle, .body, size: Layout.fontSize(head.h * 0.26), Palette.accent, x: head.x, midY: head.y + head.h * 0.84,
                    maxWidth: layout.width - 2 * layout.margin)
        let size = Layout.fontSize(layout.listRowHeight * 0.4)
        for (index, item) in items.enumerated() {
            guard let rect = layout.listRow(index, rows: items.count, cursor: cursor) else { continue }
            let radius = rect.h * 0.25
            let selected = index == cursor
            if item.isAction && selected {
                canvas.fillRounded(rect, radius: radius, Palette.accent)
            } else if selected {
                canvas.strokeRounded(rect, radius: radius, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: radius, Palette.elevated)
            }
            var x = rect.x + rect.h * 0.4
            if let checked = item.checked {
                let box = Rect(x: x, y: rect.midY - rect.h * 0.2, w: rect.h * 0.4, h: rect.h * 0.4)
                if checked {
                    canvas.fillRounded(box, radius: box.h * 0.25, Palette.accent)
                    canvas.text("✓", .score, size: Layout.fontSize(box.h * 0.8), Palette.background, x: box.midX, midY: box.midY,
                                align: .center)
                } else {
                    canvas.strokeRounded(box, radius: box.h * 0.25, width: max(2, 3 * layout.scale), Palette.textSecondary,
                                         inner: Palette.elevated)
                }
                x = box.maxX + rect.h * 0.35
            }
            let textColor = item.isAction ? (selected ? Palette.background : Palette.accent) : Palette.textPrimary
            canvas.text(item.title, .title, size: size, textColor, x: x, midY: rect.midY, maxWidth: rect.w * 0.65)
            if let detail = item.detail {
                canvas.text(detail, .body, size: Layout.fontSize(Double(size) * 0.7), Palette.textSecondary,
                            x: rect.maxX - rect.h * 0.4, midY: rect.midY, align: .right)
            }
        }
        if items.count > layout.visibleListRows {
            canvas.text("\(cursor + 1) / \(items.count)", .body, size: layout.captionFont, Palette.textSecondary,
                        x: layout.width - layout.margin, midY: footerMid, align: .right)
        }
        paintFooter(hints)
    }

    // MARK: Summary

    /// The round summary card (FR58): built to read well as a screenshot.
    func paintSummary(_ snapshot: RoundSnapshot, hint: String, heading: String? = nil) {
        let course = snapshot.course
        let date = snapshot.round.completedAt ?? snapshot.round.startedAt ?? snapshot.round.createdAt
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        let titleSize = Layout.fontSize(layout.height * 0.075)
        var y = layout.margin + Double(titleSize) * 0.7
        if let heading {
            canvas.text(heading.uppercased(), .body, size: layout.captionFont, Palette.accent, x: layout.width / 2, midY: y,
                        align: .center)
            y += Double(layout.captionFont) * 1.4
        }
        canvas.text(course.name, .title, size: titleSize, Palette.textPrimary, x: layout.width / 2, midY: y, align: .center,
                    maxWidth: layout.width - 2 * layout.margin)
        y += Double(titleSize) * 0.85
        canvas.text(formatter.string(from: date), .body, size: layout.captionFont + 2, Palette.textSecondary,
                    x: layout.width / 2, midY: y, align: .center)
        y += Double(layout.captionFont) * 1.5

        let rows = snapshot.standings.rows
        let cardW = min(layout.width - 2 * layout.margin, max(layout.height * 1.1, layout.width * 0.6))
        let cardX = (layout.width - cardW) / 2
        let metaH = Double(layout.captionFont) * 2.4
        let available = layout.footer.y - y - metaH - layout.margin
        let rowH = min(available / Double(max(rows.count, 1)), layout.height * 0.1).rounded(.down)
        let nameSize = Layout.fontSize(rowH * 0.46)
        for (index, row) in rows.enumerated() {
            let rect = Rect(x: cardX, y: y + Double(index) * rowH, w: cardW, h: rowH - max(2, rowH * 0.1))
            canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            let medal: RGB? = row.position == 1 ? Palette.accent : (row.position ?? 99) <= 3 ? Palette.textPrimary : nil
            let badge = Rect(x: rect.x + rect.h * 0.2, y: rect.y + rect.h * 0.15, w: rect.h * 0.7, h: rect.h * 0.7)
            if let medal {
                canvas.strokeRounded(badge, radius: badge.h / 2, width: max(2, 3 * layout.scale), medal, inner: Palette.elevated)
            }
            canvas.text(row.positionLabel, .title, size: Layout.fontSize(rowH * 0.36), medal ?? Palette.textSecondary,
                        x: badge.midX, midY: badge.midY, align: .center, maxWidth: badge.w * 0.8)
            canvas.text(row.name, .title, size: nameSize, Palette.textPrimary, x: badge.maxX + rect.h * 0.3, midY: rect.midY,
                        maxWidth: rect.w * 0.45)
            let strokes = row.status == .dnf ? "DNF · \(row.strokes) strokes" : "\(row.strokes) strokes"
            canvas.text(strokes, .body, size: Layout.fontSize(rowH * 0.26), Palette.textSecondary,
                        x: rect.maxX - rect.h * 1.9, midY: rect.midY, align: .right)
            canvas.text(toPar(row.toPar), .score, size: Layout.fontSize(rowH * 0.5), Palette.toPar(row.toPar),
                        x: rect.maxX - rect.h * 0.3, midY: rect.midY, align: .right)
        }
        let metaY = y + Double(rows.count) * rowH + metaH / 2
        canvas.fill(Rect(x: cardX, y: metaY - metaH / 2, w: cardW, h: max(1, layout.scale)), Palette.tertiary)
        var meta = ["\(course.holeCount) holes", "par \(course.totalPar)"]
        if let start = snapshot.round.startedAt, let end = snapshot.round.completedAt, end.timeIntervalSince(start) >= 60 {
            let minutes = Int(end.timeIntervalSince(start) / 60)
            meta.append(minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min")
        }
        if let organizer = snapshot.round.participant(snapshot.round.organizerID) { meta.append("organized by \(organizer.name)") }
        canvas.text(meta.joined(separator: " · "), .body, size: layout.captionFont, Palette.textSecondary,
                    x: layout.width / 2, midY: metaY + metaH * 0.15, align: .center)
        paintFooter(hint)
    }
}
