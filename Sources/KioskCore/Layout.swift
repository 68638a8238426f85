import Foundation
import HyzerKit

/// A rectangle in logical pixels.
public struct Rect: Sendable, Equatable {
    public var x, y, w, h: Double
    public init(x: Double, y: Double, w: Double, h: Double) { (self.x, self.y, self.w, self.h) = (x, y, w, h) }
    public var maxX: Double { x + w }
    public var maxY: Double { y + h }
    public var midX: Double { x + w / 2 }
    public var midY: Double { y + h / 2 }
    public func contains(x px: Double, y py: Double) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
    public func inset(_ dx: Double, _ dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, w: w - 2 * dx, h: h - 2 * dy) }
}

/// One text on screen: what it says, how it is set, and the box it must stay in. Screens
/// are laid out as boxes in KioskCore so a pure test can check them (LayoutCheckTests); the
/// renderer draws each box as given, measuring the real glyphs only to ellipsize.
public struct TextBox: Sendable, Equatable {
    public enum Align: Sendable, Equatable { case left, center, right }
    public var text: String
    public var role: FontRole
    public var size: Int
    public var color: RGB
    public var frame: Rect
    public var align: Align
    /// Names and other free text give way with an ellipsis; positions and scores must fit whole.
    public var ellipsized: Bool

    /// A one-line box over `span`, centred on `midY`.
    public init(
        _ text: String, _ role: FontRole, size: Int, _ color: RGB, span: Layout.Span, midY: Double,
        align: Align = .left, ellipsized: Bool = false
    ) {
        let h = Double(size) * Layout.lineHeight
        (self.text, self.role, self.size, self.color, self.align, self.ellipsized) =
            (text, role, size, color, align, ellipsized)
        frame = Rect(x: span.x, y: midY - h / 2, w: span.w, h: h)
    }

    /// Where the renderer anchors the text for its alignment.
    public var anchorX: Double {
        switch align {
        case .left: frame.x
        case .center: frame.midX
        case .right: frame.maxX
        }
    }
}

/// A row of a screen (a board standing, a hole card participant): its card and its texts.
public struct RowBoxes: Sendable, Equatable {
    public var frame: Rect
    public var texts: [TextBox]
    public init(frame: Rect, texts: [TextBox]) { (self.frame, self.texts) = (frame, texts) }
}

/// Screen geometry for any size from 800×480 (the Pi 7" panel) to 1920×1080 (a TV), and
/// portrait. Pure, so the renderer draws with it and touch hit-tests against the same rects.
///
/// Type size for the board: the group reads it from about 3 m. Comfortable reading needs
/// roughly 20 arcminutes of letter height, ≈17 mm at 3 m; on a 43" 1080p TV (0.5 mm per
/// pixel) that is ~34 px of x-height, i.e. a ~70 px name font. Board rows therefore aim for
/// 13% of the screen height (140 px at 1080p, name font ≈ 0.5 × row ≈ 70 px) and shrink
/// only when more rows must fit, never below the minimums (`minimumTextSize`,
/// `minimumRowHeight`): past them the board and the summary page (leaders pinned), and the hole
/// card scrolls.
public struct Layout: Sendable, Equatable {
    public let width: Double
    public let height: Double
    /// 1.0 on a 1280×720 canvas.
    public let scale: Double
    public let margin: Double

    public init(viewport: Viewport) {
        width = Double(viewport.width)
        height = Double(viewport.height)
        scale = min(width / 1280, height / 720)
        margin = (24 * scale).rounded()
    }

    public var isPortrait: Bool { height > width }

    // MARK: Minimums (issue 15)

    /// NFR14: anything tapped is at least 48 pt. Layout works in logical pixels, which the
    /// display maps 1:1 to points (the Pi's 7" panel shows about one pixel per point), so a
    /// row is never shorter than 48.
    public static let touchTarget: Double = 48

    /// The smallest text any row shows, for a reader 3 m away: 1/24 of the panel's shorter
    /// side (its height in landscape; a TV turned to portrait keeps its pixel size, so the
    /// same letters need the same pixels). The rule assumes the panel is sized for the room,
    /// as a 43" 1080p TV (0.5 mm a pixel) is for 3 m: 1080 / 24 = 45 px, whose capitals
    /// (≈0.7 of the size) are 16 mm, about 18 arcminutes at 3 m, the floor of easy reading
    /// (comfortable is 20+, what the default sizes aim for). Smaller panels get the same
    /// proportion: a 7" panel cannot be read from 3 m at any size, but it keeps the layout
    /// the TV has. Nothing shrinks below this: the board shows fewer rows, the hole card
    /// scrolls. See docs/architecture.md, "Readable sizes".
    public var minimumTextSize: Int { Layout.fontSize(min(width, height) / 24) }

    /// Line box of a text: the rendered surface of both faces is under 1.35 × the size.
    public static let lineHeight = 1.35

    /// A conservative advance per glyph, as a fraction of the size: the faces' digits and
    /// capitals advance 0.6 (JetBrains Mono) or less (Quicksand), so a column sized with it
    /// holds "T100" or "DNF" whole. The renderer measures for real and ellipsizes names.
    public static let glyphAdvance = 0.68

    /// The width `text` needs at `size`, by the conservative advance.
    public static func textWidth(_ text: String, size: Int) -> Double {
        Double(text.count) * Double(size) * glyphAdvance
    }

    /// The board's page indicator: which places the rotating rows show ("9–14 of 20").
    public static func pageLine(_ places: Range<Int>, of count: Int) -> String {
        places.count == 1
            ? "\(places.upperBound) of \(count)" : "\(places.lowerBound + 1)–\(places.upperBound) of \(count)"
    }

    /// The gap between a row's rect and the next row's: rows read as separate cards.
    static func rowGap(_ pitch: Double) -> Double { max(2, pitch * 0.08) }

    /// Font sizes come in steps of 2 px so the renderer opens few faces.
    public static func fontSize(_ px: Double) -> Int { max(10, Int((px / 2).rounded()) * 2) }

    // MARK: Bands

    /// Course name, hole progress, sync state.
    public var header: Rect { Rect(x: 0, y: 0, w: width, h: (height * 0.12).rounded()) }
    /// One line of hints ("press to score · hold for menu").
    public var footer: Rect {
        let h = (height * 0.065).rounded()
        return Rect(x: 0, y: height - h, w: width, h: h)
    }
    public var headerFont: Int { Layout.fontSize(header.h * 0.42) }
    public var captionFont: Int { Layout.fontSize(footer.h * 0.45) }

    // MARK: Board

    public var boardArea: Rect {
        Rect(x: margin, y: header.maxY + margin / 2, w: width - 2 * margin, h: footer.y - header.maxY - margin)
    }

    /// A board row is tall enough to tap and for its name at the minimum text size (half the row).
    public var boardMinimumRowHeight: Double { max(Layout.touchTarget, Double(minimumTextSize) * 2) }

    /// Slot to slot: the rows share the area, at most 13% of the height, never under the minimum.
    public func boardRowHeight(rows: Int) -> Double {
        let fit = boardArea.h / Double(max(rows, 1))
        // Portrait: rows taller than ~1/6 of the width only add empty space.
        return max(boardMinimumRowHeight, min(fit, height * 0.13, width * 0.16).rounded(.down))
    }

    /// The size unit of a board row's contents: its height, unless the screen is too
    /// narrow for text that big (portrait), where the width decides.
    public func boardUnit(rows: Int) -> Double {
        min(boardRowHeight(rows: rows), boardArea.w / 10)
    }

    /// The rect of board row slot `slot` (fractional while animating).
    public func boardRow(slot: Double, rows: Int) -> Rect {
        let h = boardRowHeight(rows: rows)
        return Rect(x: boardArea.x, y: boardArea.y + slot * h, w: boardArea.w, h: h - Layout.rowGap(h))
    }

    /// A horizontal extent: one column of a row.
    public struct Span: Sendable, Equatable {
        public var x, w: Double
        public var maxX: Double { x + w }
    }

    public struct BoardColumns: Sendable, Equatable {
        public var position, arrow, name, progress, toPar: Span
    }

    /// Everything the board's rows need for `rows` standings on this screen.
    public struct BoardGeometry: Sendable, Equatable {
        public var rowHeight: Double
        public var unit: Double
        /// Row slots in the board area.
        public var slots: Int
        /// Rows drawn at once, leaders first; when some do not fit, the last slot shows the
        /// page indicator (`BoardPages`).
        public var shown: Int
        public var hidden: Int
        public var nameSize, scoreSize, captionSize: Int
        public var columns: BoardColumns
    }

    public func board(rows: Int) -> BoardGeometry {
        let pitch = boardRowHeight(rows: rows)
        let unit = boardUnit(rows: rows)
        let minimum = minimumTextSize
        let nameSize = max(minimum, Layout.fontSize(unit * 0.5))
        let scoreSize = max(minimum, Layout.fontSize(unit * 0.56))
        let captionSize = max(minimum, Layout.fontSize(unit * 0.3))
        let slots = max(1, Int(boardArea.h / pitch))
        let shown = rows <= slots ? rows : max(1, slots - 1)
        return BoardGeometry(
            rowHeight: pitch, unit: unit, slots: slots, shown: shown, hidden: rows - shown, nameSize: nameSize,
            scoreSize: scoreSize, captionSize: captionSize,
            columns: boardColumns(unit: unit, nameSize: nameSize, scoreSize: scoreSize, captionSize: captionSize))
    }

    /// How the board splits `standings` into pages when they do not all fit: the leaders
    /// (the top 3 and everyone tied with them) are pinned at the top of every page, the
    /// rest rotate `perPage` at a time, and the last slot shows which places are on show.
    /// With everyone on one page, nothing rotates.
    public struct BoardPages: Sendable, Equatable {
        /// Standings in all.
        public var count: Int
        /// The first `pinned` standings are on every page.
        public var pinned: Int
        /// Rotating standings a page.
        public var perPage: Int
        public var pages: Int

        public var rotates: Bool { pages > 1 }

        /// The indices (in display order) of the rotating standings on `page`.
        public func rotating(page: Int) -> Range<Int> {
            guard rotates else { return pinned..<count }
            let first = pinned + min(max(page, 0), pages - 1) * perPage
            return first..<min(count, first + perPage)
        }

        /// The page that shows the standing at `index`; nil for a pinned leader (on every page).
        public func page(of index: Int) -> Int? {
            guard index >= pinned, index < count else { return nil }
            return rotates ? (index - pinned) / perPage : 0
        }

        /// "9–14 of 20", or nil on a board that does not page.
        public func indicator(page: Int) -> String? {
            rotates ? Layout.pageLine(rotating(page: page), of: count) : nil
        }
    }

    /// The leaders pinned while the board pages: the top 3 and everyone tied with them (a
    /// standing without a position, DNF, is never a leader).
    public static func leaders(_ standings: [Standing]) -> Int {
        guard standings.count > 3, let third = standings[2].position else { return min(3, standings.count) }
        return standings.prefix { ($0.position ?? .max) <= third }.count
    }

    /// The board's pages for `standings` at `rowsPerPage` rotating rows (nil: as many as
    /// fit). The pinned leaders take at most half the rows (at least the top 3, when the
    /// board holds 4): a big tie for third, or nobody scored yet (all tied first), would
    /// otherwise leave one row rotating through a page each, a long wait to find yourself.
    /// Ties cut there carry on as the first rows of the first page. The rows per page
    /// never exceed what fits at the minimum sizes.
    public func boardPages(_ standings: [Standing], rowsPerPage: Int? = nil) -> BoardPages {
        let geometry = board(rows: standings.count)
        return Layout.pages(standings, slots: geometry.hidden > 0 ? geometry.slots : nil, rowsPerPage: rowsPerPage)
    }

    /// Pages for `standings` in `slots` rows (nil: they all fit), the board's and the
    /// summary's rule: the leaders pinned, the rest rotating, one slot for the indicator.
    static func pages(_ standings: [Standing], slots: Int?, rowsPerPage: Int?) -> BoardPages {
        let count = standings.count
        guard let slots, slots < count else { return BoardPages(count: count, pinned: count, perPage: 0, pages: 1) }
        // One slot is the indicator's; what is left is shared by the pinned and the rotating rows.
        let room = max(1, slots - 1)
        let pinned = min(Layout.leaders(standings), max(3, room / 2), room - 1)
        let fits = max(1, room - pinned)
        let perPage = min(fits, max(1, rowsPerPage ?? fits))
        let pages = (count - pinned + perPage - 1) / perPage
        return BoardPages(count: count, pinned: pinned, perPage: perPage, pages: pages)
    }

    /// Fixed columns are sized for their widest content ("T100", "thru 18", "+12"/"DNF") by
    /// the conservative advance; the name takes what is left and is ellipsized into it.
    public func boardColumns(unit h: Double, nameSize: Int, scoreSize: Int, captionSize: Int) -> BoardColumns {
        let area = boardArea
        let gap = h * 0.25
        let position = Span(x: area.x + gap, w: Layout.textWidth("T100", size: nameSize))
        let arrow = Span(x: position.maxX + h * 0.1, w: h * 0.3)
        let toParW = Layout.textWidth("+12", size: scoreSize)
        let toPar = Span(x: area.maxX - h * 0.3 - toParW, w: toParW)
        let progressW = Layout.textWidth("thru 18", size: captionSize)
        let progress = Span(x: toPar.x - gap - progressW, w: progressW)
        let nameX = arrow.maxX + gap
        let name = Span(x: nameX, w: max(0, progress.x - gap - nameX))
        return BoardColumns(position: position, arrow: arrow, name: name, progress: progress, toPar: toPar)
    }

    // MARK: Hole card

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

    /// The hole card's rows on this screen: how many show whole, and where row `i` is when
    /// the card is scrolled to `top` (the first row shown, fractional while scrolling).
    public struct HoleCardGeometry: Sendable, Equatable {
        public var rows: Int
        public var rowHeight: Double
        /// Rows that fit whole in the area.
        public var visible: Int
        /// Where the rows are drawn (and clipped while scrolling).
        public var area: Rect
        /// The scroll position indicator's track, when the rows do not all fit.
        public var track: Rect?
        public var nameSize, captionSize, scoreSize: Int

        public var scrolls: Bool { rows > visible }
        public var maxTop: Double { Double(max(0, rows - visible)) }

        /// The first row to show: the nearest to `near` that shows `cursor` whole.
        public func top(cursor: Int, near: Double) -> Double {
            let shown = min(max(near, Double(cursor - visible + 1)), Double(cursor))
            return min(max(shown, 0), maxTop)
        }

        public func row(_ index: Int, top: Double) -> Rect {
            Rect(
                x: area.x, y: area.y + (Double(index) - top) * rowHeight, w: area.w,
                h: rowHeight - Layout.rowGap(rowHeight))
        }

        /// Which row a touch at `y` hits, if any.
        public func row(at y: Double, top: Double) -> Int? {
            guard y >= area.y, y < area.maxY else { return nil }
            let index = Int(((y - area.y) / rowHeight + top).rounded(.down))
            return index < rows ? index : nil
        }

        /// The thumb inside `track`: its length is the share of rows shown, its place the scroll position.
        public func thumb(top: Double) -> Rect? {
            guard let track, scrolls else { return nil }
            let length = max(track.w * 2, track.h * Double(visible) / Double(rows))
            let y = track.y + (track.h - length) * (maxTop > 0 ? min(max(top / maxTop, 0), 1) : 0)
            return Rect(x: track.x, y: y, w: track.w, h: length)
        }
    }

    public func holeCard(rows: Int) -> HoleCardGeometry {
        twoLineRows(rows: rows, pitch: holeRowHeight(rows: rows), in: holeRowsArea, nameShare: 0.4, scoreShare: 0.56)
    }

    /// Scrolling rows of `pitch` in `area`, each a name over a caption with a value at the
    /// right; the name and value take these shares of the row, never below the minimum.
    func twoLineRows(rows: Int, pitch: Double, in area: Rect, nameShare: Double, scoreShare: Double) -> HoleCardGeometry {
        let (visible, area, track) = scrolling(rows: rows, pitch: pitch, in: area)
        let h = pitch - Layout.rowGap(pitch)
        let minimum = minimumTextSize
        let captionSize = max(minimum, Layout.fontSize(h * 0.24))
        // The name takes what the two lines leave, in the 2 px steps of `fontSize`.
        let nameRoom = (Int(h / Layout.lineHeight) - captionSize) / 2 * 2
        return HoleCardGeometry(
            rows: rows, rowHeight: pitch, visible: visible, area: area, track: track,
            nameSize: max(minimum, min(Layout.fontSize(h * nameShare), nameRoom)), captionSize: captionSize,
            scoreSize: max(minimum, Layout.fontSize(h * scoreShare)))
    }

    /// Rows of `pitch` in `area`: how many show whole, and when they do not all fit, the
    /// scroll indicator's track at the right (the rows' area narrowed for it).
    func scrolling(rows: Int, pitch: Double, in area: Rect) -> (visible: Int, area: Rect, track: Rect?) {
        var area = area
        let visible = max(1, min(rows, Int((area.h + Layout.rowGap(pitch)) / pitch)))
        var track: Rect?
        if rows > visible {
            // The indicator takes a strip at the right, so it never covers a score.
            let w = max(4, (6 * scale).rounded())
            track = Rect(x: area.maxX - w, y: area.y, w: w, h: Double(visible) * pitch - Layout.rowGap(pitch))
            // Whole pixels: the renderer fills rounded rects as rectangles, and a fraction shows as a seam.
            area.w -= w + (margin / 2).rounded()
        }
        return (visible, area, track)
    }

    // MARK: Lists (menu, setup, finalize)

    public var listTitle: Rect { Rect(x: margin, y: margin, w: width - 2 * margin, h: (height * 0.14).rounded()) }

    public var listArea: Rect {
        Rect(
            x: margin * 2, y: listTitle.maxY + margin / 2, w: width - 4 * margin,
            h: footer.y - listTitle.maxY - margin)
    }

    public var listRowHeight: Double { max(48, (height * 0.105).rounded(.down)) }

    public var visibleListRows: Int { max(1, Int(listArea.h / listRowHeight)) }

    /// First row shown, so that the cursor stays visible and roughly centred.
    public func listOffset(rows: Int, cursor: Int) -> Int {
        let visible = visibleListRows
        guard rows > visible else { return 0 }
        return min(max(0, cursor - visible / 2), rows - visible)
    }

    public func listRow(_ index: Int, rows: Int, cursor: Int) -> Rect? {
        let offset = listOffset(rows: rows, cursor: cursor)
        let visibleIndex = index - offset
        guard visibleIndex >= 0, visibleIndex < visibleListRows else { return nil }
        return Rect(
            x: listArea.x, y: listArea.y + Double(visibleIndex) * listRowHeight,
            w: listArea.w, h: listRowHeight - 6 * scale)
    }

    /// A list row's texts at the minimum sizes: the title, ellipsized, and a detail at the
    /// right ("organizer", "18 holes · par 54") that keeps its whole width; a checkbox at
    /// the left when the row has one.
    public func listRowBoxes(
        _ rect: Rect, title: String, detail: String?, checkbox: Bool, color: RGB,
        detailColor: RGB = Palette.textSecondary
    ) -> (row: RowBoxes, checkbox: Rect?) {
        let minimum = minimumTextSize
        let size = max(minimum, Layout.fontSize(listRowHeight * 0.4))
        let detailSize = max(minimum, Layout.fontSize(Double(size) * 0.7))
        let pad = rect.h * 0.4
        var x = rect.x + pad
        var box: Rect?
        if checkbox {
            let b = Rect(x: x, y: rect.midY - rect.h * 0.2, w: rect.h * 0.4, h: rect.h * 0.4)
            box = b
            x = b.maxX + rect.h * 0.35
        }
        var end = rect.maxX - pad
        var texts: [TextBox] = []
        if let detail {
            let w = min(Layout.textWidth(detail, size: detailSize), (end - x) / 2)
            texts.append(
                TextBox(
                    detail, .body, size: detailSize, detailColor, span: Span(x: end - w, w: w),
                    midY: rect.midY, align: .right, ellipsized: true))
            end -= w + Double(detailSize)
        }
        texts.insert(
            TextBox(title, .title, size: size, color, span: Span(x: x, w: end - x), midY: rect.midY, ellipsized: true),
            at: 0)
        return (RowBoxes(frame: rect, texts: texts), box)
    }

    /// Which list row a touch at `y` hits, if any.
    public func listRow(at y: Double, rows: Int, cursor: Int) -> Int? {
        guard y >= listArea.y else { return nil }
        let index = Int((y - listArea.y) / listRowHeight) + listOffset(rows: rows, cursor: cursor)
        return index < rows && Int((y - listArea.y) / listRowHeight) < visibleListRows ? index : nil
    }

    // MARK: Summary

    /// The summary card's standings as boxes: rows share the room between the title block and
    /// the meta line, never under the minimums; past them, one page (`summaryPages`).
    public struct SummaryBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var standing: Standing
            public var badge: Rect
            public var boxes: RowBoxes
        }
        /// Where the title block ends and the rows begin.
        public var top: Double
        public var rowHeight: Double
        public var card: Span
        public var rows: [Row]
        public var more: RowBoxes?
        /// The middle of the meta line under the rows.
        public var metaY: Double
        public var metaHeight: Double
        /// Where the summary page's QR code goes (whole-pixel modules fit inside it) and
        /// the caption under it; nil without a link.
        public var qr: QRBox?
    }

    /// A QR code's square and the caption under it.
    public struct QRBox: Sendable, Equatable {
        public var square: Rect
        public var caption: TextBox
    }

    public var summaryTitleSize: Int { Layout.fontSize(height * 0.075) }

    /// A summary row is tappable and holds its name at the minimum size (half the row).
    public var summaryMinimumRowHeight: Double { max(Layout.touchTarget, Double(minimumTextSize) * 2) }

    /// The summary's pages when its rows do not fit at the minimums: the board's rule (leaders
    /// pinned, the rest rotating, "9–14 of 20" in the last slot), so no one vanishes from it.
    public func summaryPages(
        _ standings: [Standing], heading: Bool, qr: Bool = false, rowsPerPage: Int? = nil
    )
        -> BoardPages
    {
        let (_, pitch, available) = summaryRoom(standings.count, heading: heading, qr: qr)
        let slots = max(1, Int(available / pitch))
        return Layout.pages(standings, slots: slots, rowsPerPage: rowsPerPage)
    }

    /// Where the summary's rows begin, their pitch, and the height they share.
    func summaryRoom(_ count: Int, heading: Bool, qr: Bool) -> (top: Double, pitch: Double, available: Double) {
        let title = Double(summaryTitleSize)
        let caption = Double(captionFont)
        let top = margin + title * 0.7 + (heading ? caption * 1.4 : 0) + title * 0.85 + caption * 1.5
        // In portrait the QR code goes under the rows and takes its height from them.
        let below = qr && !summaryQRBeside ? summaryQRSide + caption * 3 : 0
        let available = footer.y - top - caption * 2.4 - margin - below
        let pitch = max(summaryMinimumRowHeight, min(available / Double(max(count, 1)), height * 0.1).rounded(.down))
        return (top, pitch, available)
    }

    /// The summary card's width: the rows read as a card, not a stripe across a wide panel.
    var summaryCardWidth: Double { min(width - 2 * margin, max(height * 1.1, width * 0.6)) }

    /// Whether the QR code stands beside the card (a landscape panel) or under it.
    var summaryQRBeside: Bool { width >= height * 1.2 }

    /// The QR code's square: beside the card it takes the room the card leaves (a third of
    /// the height at least, so the 800×480 panel's code still scans from an arm's length);
    /// under it, two fifths of the width.
    var summaryQRSide: Double {
        if summaryQRBeside {
            let room = width - 3 * margin - summaryCardWidth
            return min(max(room, height / 3), height * 0.5).rounded(.down)
        }
        return min(width * 0.5, height * 0.25).rounded(.down)
    }

    public func summaryBoxes(
        _ standings: [Standing], heading: Bool, minus: String, page: Int = 0, qr: Bool = false,
        rowsPerPage: Int? = nil, guests: Set<UUID> = []
    ) -> SummaryBoxes {
        let caption = Double(captionFont)
        let beside = qr && summaryQRBeside
        // Beside a QR code the card moves left and gives up what the code needs.
        let cardW = beside ? min(summaryCardWidth, width - 3 * margin - summaryQRSide) : summaryCardWidth
        let card = Span(x: beside ? margin : (width - cardW) / 2, w: cardW)
        let metaH = caption * 2.4
        let count = standings.count
        let (top, pitch, _) = summaryRoom(count, heading: heading, qr: qr)
        let pages = summaryPages(standings, heading: heading, qr: qr, rowsPerPage: rowsPerPage)
        let onShow = Array(0..<pages.pinned) + Array(pages.rotating(page: page))
        let minimum = minimumTextSize
        // As on the board: in portrait the card's width, not the row, bounds the text.
        let unit = min(pitch, card.w / 10)
        let positionSize = max(minimum, Layout.fontSize(unit * 0.36))
        let nameSize = max(minimum, Layout.fontSize(unit * 0.46))
        let strokesSize = max(minimum, Layout.fontSize(unit * 0.26))
        let scoreSize = max(minimum, Layout.fontSize(unit * 0.5))
        var rows: [SummaryBoxes.Row] = []
        for (index, standing) in onShow.map({ standings[$0] }).enumerated() {
            let rect = Rect(x: card.x, y: top + Double(index) * pitch, w: card.w, h: pitch - Layout.rowGap(pitch))
            let pad = rect.h * 0.3
            // The badge is a circle until "T14" needs a pill.
            let badgeW = max(rect.h * 0.7, Layout.textWidth("T100", size: positionSize) + rect.h * 0.2).rounded()
            let badge = Rect(
                x: (rect.x + rect.h * 0.2).rounded(), y: (rect.y + rect.h * 0.15).rounded(), w: badgeW,
                h: (rect.h * 0.7).rounded())
            let medal: RGB? =
                standing.position == 1 ? Palette.accent : (standing.position ?? 99) <= 3 ? Palette.textPrimary : nil
            let scoreW = Layout.textWidth("+12", size: scoreSize)
            let score = Span(x: rect.maxX - pad - scoreW, w: scoreW)
            // A guest is marked where the strokes are said (issue 14): "guest · 31 strokes".
            let strokesText =
                (guests.contains(standing.participantID) ? "guest · " : "")
                + (standing.status == .dnf ? "DNF · \(standing.strokes) strokes" : "\(standing.strokes) strokes")
            // Right-aligned, so each row's own width keeps the column straight.
            let strokesW = Layout.textWidth(strokesText, size: strokesSize)
            let strokes = Span(x: score.x - pad - strokesW, w: strokesW)
            let nameX = badge.maxX + rect.h * 0.3
            let texts = [
                TextBox(
                    standing.positionLabel, .title, size: positionSize, medal ?? Palette.textSecondary,
                    span: Span(x: badge.x, w: badge.w), midY: badge.midY, align: .center),
                TextBox(
                    standing.name, .title, size: nameSize, Palette.textPrimary,
                    span: Span(x: nameX, w: max(0, strokes.x - pad - nameX)), midY: rect.midY, ellipsized: true),
                TextBox(
                    strokesText, .body, size: strokesSize, Palette.textSecondary, span: strokes, midY: rect.midY,
                    align: .right),
                TextBox(
                    ScoreFormat.toPar(standing.toPar, minus: minus), .score, size: scoreSize,
                    Palette.toPar(standing.toPar), span: score, midY: rect.midY, align: .right),
            ]
            rows.append(.init(standing: standing, badge: badge, boxes: RowBoxes(frame: rect, texts: texts)))
        }
        var more: RowBoxes?
        if let indicator = pages.indicator(page: page) {
            let rect = Rect(x: card.x, y: top + Double(rows.count) * pitch, w: card.w, h: pitch - Layout.rowGap(pitch))
            more = RowBoxes(
                frame: rect,
                texts: [
                    TextBox(
                        indicator, .body, size: strokesSize,
                        Palette.textSecondary, span: Span(x: rect.x, w: rect.w), midY: rect.midY, align: .center,
                        ellipsized: true)
                ])
        }
        let used = Double(rows.count + (more == nil ? 0 : 1))
        let metaY = top + used * pitch + metaH / 2
        var code: QRBox?
        if qr {
            let side = summaryQRSide
            let square =
                beside
                ? Rect(
                    x: (card.maxX + margin + (width - margin - card.maxX - margin - side) / 2).rounded(.down), y: top, w: side,
                    h: side)
                : Rect(x: ((width - side) / 2).rounded(.down), y: (metaY + caption * 1.5).rounded(.down), w: side, h: side)
            // Beside the card, as wide as its column; under it, as wide as the card.
            let span = beside ? Span(x: square.x - margin / 2, w: square.w + margin) : card
            code = QRBox(
                square: square,
                caption: TextBox(
                    "Scan for the summary", .body, size: max(minimumTextSize, captionFont), Palette.textSecondary,
                    span: span, midY: square.maxY + caption, align: .center, ellipsized: true)
            )
        }
        return SummaryBoxes(
            top: top, rowHeight: pitch, card: card, rows: rows, more: more, metaY: metaY, metaHeight: metaH, qr: code)
    }

    // MARK: Crown entry

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
        let holeSize = max(minimum, captionFont + 4)
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
