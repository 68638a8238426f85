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
///
/// Here: the bands, the minimums and what several screens share (columns, the board's and
/// summary's pages, scrolling rows, lists). Each screen's own geometry is an extension of
/// Layout in its file in Screens/, beside its state, where a change to the screen is made.
public struct Layout: Sendable, Equatable {
    public let width: Double
    public let height: Double
    /// 1.0 on a 1280×720 canvas.
    public let scale: Double
    public let margin: Double
    /// What the board's rows give up for a panel beside them (landscape: a width) or under
    /// them (portrait: a height): a league night's side games (issue 36). Zero elsewhere.
    public internal(set) var boardAside = 0.0
    /// The widest score the board's column holds: "+12" (whole strokes), or on a league
    /// night ranked by net (issue 37) the widest net on the board, "-3.8" say: sized to
    /// what is there, so a narrow portrait panel gives its names all it can.
    public internal(set) var boardScoreSample = "+12"

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

    // MARK: Columns

    /// A horizontal extent: one column of a row.
    public struct Span: Sendable, Equatable {
        public var x, w: Double
        public init(x: Double, w: Double) { (self.x, self.w) = (x, w) }
        public var maxX: Double { x + w }
    }

    // MARK: Pages (the board and the summary)

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
    public static func leaders(_ standings: [Standing]) -> Int { leaders(positions: standings.map(\.position)) }

    /// The same for any ranked rows, by their positions in order (nil: unranked).
    static func leaders(positions: [Int?]) -> Int {
        guard positions.count > 3, let third = positions[2] else { return min(3, positions.count) }
        return positions.prefix { ($0 ?? .max) <= third }.count
    }

    /// Pages for `standings` in `slots` rows (nil: they all fit), the board's and the
    /// summary's rule: the leaders pinned, the rest rotating, one slot for the indicator.
    static func pages(_ standings: [Standing], slots: Int?, rowsPerPage: Int?) -> BoardPages {
        pages(positions: standings.map(\.position), slots: slots, rowsPerPage: rowsPerPage)
    }

    static func pages(positions: [Int?], slots: Int?, rowsPerPage: Int?) -> BoardPages {
        let count = positions.count
        guard let slots, slots < count else { return BoardPages(count: count, pinned: count, perPage: 0, pages: 1) }
        // One slot is the indicator's; what is left is shared by the pinned and the rotating rows.
        let room = max(1, slots - 1)
        let pinned = min(Layout.leaders(positions: positions), max(3, room / 2), room - 1)
        let fits = max(1, room - pinned)
        let perPage = min(fits, max(1, rowsPerPage ?? fits))
        let pages = (count - pinned + perPage - 1) / perPage
        return BoardPages(count: count, pinned: pinned, perPage: perPage, pages: pages)
    }

    // MARK: Scrolling rows (the hole card and the history screens)

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
            // Too long to stand side by side (a portrait panel's narrow rows: "Course:…"
            // beside "18 holes · press for…"), and the row tall enough for two lines: the
            // detail goes under the title, both the row's whole width.
            // Two lines take 90% of the row at most: the title a little smaller if need be,
            // never either under the minimum size.
            let room = end - x
            let titleSize = min(size, Layout.fontSize(rect.h * 0.9 / (Layout.lineHeight * 1.7)))
            let underSize = max(minimum, Layout.fontSize(Double(titleSize) * 0.7))
            let stacked = Double(titleSize + underSize) * Layout.lineHeight
            if Layout.textWidth(title, size: size) + Double(detailSize) + Layout.textWidth(detail, size: detailSize) > room,
                titleSize >= minimum, stacked <= rect.h * 0.9 + 0.5
            {
                let top = rect.midY - stacked / 2
                texts = [
                    TextBox(
                        title, .title, size: titleSize, color, span: Span(x: x, w: room),
                        midY: top + Double(titleSize) * Layout.lineHeight / 2, ellipsized: true),
                    TextBox(
                        detail, .body, size: underSize, detailColor, span: Span(x: x, w: room),
                        midY: top + Double(titleSize) * Layout.lineHeight + Double(underSize) * Layout.lineHeight / 2,
                        ellipsized: true),
                ]
                return (RowBoxes(frame: rect, texts: texts), box)
            }
            let w = min(Layout.textWidth(detail, size: detailSize), room / 2)
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
}
