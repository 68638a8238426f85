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
            canvas.text(
                heading.uppercased(), .body, size: layout.captionFont, Palette.accent, x: layout.width / 2, midY: y,
                align: .center)
            y += Double(layout.captionFont) * 1.4
        }
        canvas.text(
            course.name, .title, size: titleSize, Palette.textPrimary, x: layout.width / 2, midY: y, align: .center,
            maxWidth: layout.width - 2 * layout.margin)
        y += Double(titleSize) * 0.85
        canvas.text(
            formatter.string(from: date), .body, size: layout.captionFont + 2, Palette.textSecondary,
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
            canvas.text(
                row.positionLabel, .title, size: Layout.fontSize(rowH * 0.36), medal ?? Palette.textSecondary,
                x: badge.midX, midY: badge.midY, align: .center, maxWidth: badge.w * 0.8)
            canvas.text(
                row.name, .title, size: nameSize, Palette.textPrimary, x: badge.maxX + rect.h * 0.3, midY: rect.midY,
                maxWidth: rect.w * 0.45)
            let strokes = row.status == .dnf ? "DNF · \(row.strokes) strokes" : "\(row.strokes) strokes"
            canvas.text(
                strokes, .body, size: Layout.fontSize(rowH * 0.26), Palette.textSecondary,
                x: rect.maxX - rect.h * 1.9, midY: rect.midY, align: .right)
            canvas.text(
                toPar(row.toPar), .score, size: Layout.fontSize(rowH * 0.5), Palette.toPar(row.toPar),
                x: rect.maxX - rect.h * 0.3, midY: rect.midY, align: .right)
        }
        let metaY = y + Double(rows.count) * rowH + metaH / 2
        canvas.fill(Rect(x: cardX, y: metaY - metaH / 2, w: cardW, h: max(1, layout.scale)), Palette.tertiary)
        var meta = ["\(course.holeCount) holes", "par \(course.totalPar)"]
        if let start = snapshot.round.startedAt, let end = snapshot.round.completedAt, end.timeIntervalSince(start) >= 60 {
            let minutes = Int(end.timeIntervalSince(start) / 60)
            meta.append(minutes >= 60 ? "\(minutes / 60) h \(minutes % 60) min" : "\(minutes) min")
        }
        if let organizer = snapshot.round.participant(snapshot.round.organizerID) {
            meta.append("organized by \(organizer.name)")
        }
        canvas.text(
            meta.joined(separator: " · "), .body, size: layout.captionFont, Palette.textSecondary,
            x: layout.width / 2, midY: metaY + metaH * 0.15, align: .center)
        paintFooter(hint)
    }
}
