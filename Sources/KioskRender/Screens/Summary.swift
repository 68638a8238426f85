import Foundation
import HyzerKit
import KioskCore

extension Painter {
    func paint(_ summary: Screen.Summary) {
        if let snapshot = state.summarySnapshot(summary.roundID) {
            paintSummary(snapshot, hint: "Press to return to the board")
        } else {
            paintCentered("Finishing the round…", detail: nil)
        }
    }

    /// The round summary card (FR58): built to read well as a screenshot. A league night's
    /// card shows the night's (issue 36): its name, its day and course, every card's
    /// players ranked together with their cards, and the side games along the foot.
    func paintSummary(_ snapshot: RoundSnapshot, hint: String, heading: String? = nil) {
        let course = snapshot.course
        let night = state.summaryNight(snapshot.round.id)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "EEEE d MMMM yyyy"
        let dateLine: String
        if let night {
            let day = DateFormatter()
            day.locale = Locale(identifier: "en_US_POSIX")
            day.timeZone = TimeZone(identifier: "UTC")
            day.dateFormat = "yyyy-MM-dd"
            formatter.timeZone = day.timeZone
            dateLine =
                (day.date(from: night.event.day).map(formatter.string) ?? night.event.day) + " · " + course.name
                + (night.event.net ? " · ranked by net" : "")
        } else {
            dateLine = formatter.string(
                from: snapshot.round.completedAt ?? snapshot.round.startedAt ?? snapshot.round.createdAt)
        }
        // Only the summary screen has a link (`summaryLinkOnShow`), never the board's last round.
        let code = state.summaryLinkOnShow.flatMap(canvas.qrCode)
        // What the round set (issue 37): "PB!" on its rows, "Course record!" over its meta line.
        let bests = state.summaryBests(snapshot)
        let record = bests?.courseRecord == true ? "Course record! · " : ""
        let players = night?.cards.map(\.round) ?? [snapshot.round]
        let boxes = layout.summaryBoxes(
            state.summaryStandings(snapshot), heading: heading != nil, minus: Self.minus, page: state.summaryPage(at: now),
            qr: code != nil, rowsPerPage: state.settings.boardRowsPerPage,
            guests: Set(players.flatMap(\.participants).filter(\.isGuest).map(\.id)),
            cards: night?.results.standings.card.mapValues(CardDraw.letter) ?? [:],
            bests: bests?.personalBests ?? [], net: night?.event.net == true)
        // Centred over the card, which a QR code beside it moves off the middle.
        let centerX = boxes.card.x + boxes.card.w / 2
        let titleWidth = code == nil ? layout.width - 2 * layout.margin : boxes.card.w
        let titleSize = layout.summaryTitleSize
        var y = layout.margin + Double(titleSize) * 0.7
        if let heading {
            canvas.text(
                heading.uppercased(), .body, size: layout.captionFont, Palette.accent, x: centerX, midY: y,
                align: .center)
            y += Double(layout.captionFont) * 1.4
        }
        canvas.text(
            night?.event.name ?? course.name, .title, size: titleSize, Palette.textPrimary, x: centerX, midY: y,
            align: .center, maxWidth: titleWidth)
        y += Double(titleSize) * 0.85
        canvas.text(
            dateLine, .body, size: layout.captionFont + 2, Palette.textSecondary, x: centerX, midY: y, align: .center,
            maxWidth: titleWidth)
        if let code, let qr = boxes.qr {
            paint(code, in: qr.square)
            draw(qr.caption)
        }
        paintRankedRows(boxes)
        let (cardX, cardW, metaY, metaH) = (boxes.card.x, boxes.card.w, boxes.metaY, boxes.metaHeight)
        canvas.fill(Rect(x: cardX, y: metaY - metaH / 2, w: cardW, h: max(1, layout.scale)), Palette.tertiary)
        if let night {
            // The side games at the caption's size, cut with an ellipsis where eight cards'
            // skins run long (the board's panel and the summary page have them all).
            let cards = night.cards.count
            let sides = KioskState.sideGamesSentence(night, pot: state.data.acePot)
            draw(
                TextBox(
                    record + (sides.isEmpty ? "\(cards) \(cards == 1 ? "card" : "cards")" : sides), .body,
                    size: layout.captionFont,
                    Palette.textSecondary, span: Layout.Span(x: cardX, w: cardW), midY: metaY + metaH * 0.15,
                    align: .center, ellipsized: true))
            return paintFooter(hint)
        }
        var meta = ["\(course.holeCount) holes", "par \(course.totalPar)"]
        if let start = snapshot.round.startedAt, let end = snapshot.round.completedAt, end.timeIntervalSince(start) >= 60 {
            let minutes = Int(end.timeIntervalSince(start) / 60)
            meta.append(minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min")
        }
        if let organizer = snapshot.round.participant(snapshot.round.organizerID) {
            meta.append("organized by \(organizer.name)")
        }
        canvas.text(
            record + meta.joined(separator: " · "), .body, size: layout.captionFont,
            record.isEmpty ? Palette.textSecondary : Palette.accent,
            x: centerX, midY: metaY + metaH * 0.15, align: .center, maxWidth: cardW)
        paintFooter(hint)
    }

    /// The card's rows, each with its place in a badge (a medal's ring for the first three),
    /// and the page's indicator: a round's summary and a season's table alike.
    func paintRankedRows(_ boxes: Layout.SummaryBoxes) {
        for row in boxes.rows {
            let rect = row.boxes.frame
            canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            let position = row.line.position
            let medal: RGB? = position == 1 ? Palette.accent : (position ?? 99) <= 3 ? Palette.textPrimary : nil
            if let medal {
                canvas.strokeRounded(
                    row.badge, radius: row.badge.h / 2, width: max(2, 3 * layout.scale), medal, inner: Palette.elevated)
            }
            for text in row.boxes.texts { draw(text) }
        }
        if let more = boxes.more {
            for text in more.texts { draw(text) }
        }
    }
}
