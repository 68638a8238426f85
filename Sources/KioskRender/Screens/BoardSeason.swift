import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The season's table on the idle board (issue 37): the summary card's look, its title the
    /// season's name, "Season · net" over it when it ranks by net.
    func paintSeason(_ table: SeasonTable, page: Int, hint: String) {
        let boxes = layout.summaryBoxes(
            lines: KioskState.seasonLines(table, minus: Self.minus), heading: true, page: page,
            rowsPerPage: state.settings.boardRowsPerPage)
        let centerX = boxes.card.x + boxes.card.w / 2
        let titleWidth = layout.width - 2 * layout.margin
        let titleSize = layout.summaryTitleSize
        var y = layout.margin + Double(titleSize) * 0.7
        canvas.text(
            KioskState.seasonHeading(table.season).uppercased(), .body, size: layout.captionFont, Palette.accent, x: centerX,
            midY: y, align: .center)
        y += Double(layout.captionFont) * 1.4
        canvas.text(
            table.season.name, .title, size: titleSize, Palette.textPrimary, x: centerX, midY: y, align: .center,
            maxWidth: titleWidth)
        y += Double(titleSize) * 0.85
        canvas.text(
            KioskState.seasonDetail(table), .body, size: layout.captionFont + 2, Palette.textSecondary, x: centerX, midY: y,
            align: .center, maxWidth: titleWidth)
        paintRankedRows(boxes)
        canvas.fill(
            Rect(x: boxes.card.x, y: boxes.metaY - boxes.metaHeight / 2, w: boxes.card.w, h: max(1, layout.scale)),
            Palette.tertiary)
        canvas.text(
            Self.seasonRange(table.season), .body, size: layout.captionFont, Palette.textSecondary, x: centerX,
            midY: boxes.metaY + boxes.metaHeight * 0.15, align: .center, maxWidth: boxes.card.w)
        paintFooter(hint)
    }

    /// "1 April – 30 September 2026" (the year once when both ends share it).
    static func seasonRange(_ season: Season) -> String {
        func parts(_ day: String) -> (Int, Int, Int)? {
            let p = day.split(separator: "-").compactMap { Int($0) }
            return p.count == 3 ? (p[0], p[1], p[2]) : nil
        }
        guard let (y1, m1, d1) = parts(season.from), let (y2, m2, d2) = parts(season.to), (1...12).contains(m1),
            (1...12).contains(m2)
        else { return "\(season.from) – \(season.to)" }
        let months = Screen.History.monthNames
        let first = "\(d1) \(months[m1 - 1])" + (y1 == y2 ? "" : " \(y1)")
        return "\(first) – \(d2) \(months[m2 - 1]) \(y2)"
    }
}
