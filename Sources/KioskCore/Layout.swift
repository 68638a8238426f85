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

/// Screen geometry for any size from 800×480 (the Pi 7" panel) to 1920×1080 (a TV), and
/// portrait. Pure, so the renderer draws with it and touch hit-tests against the same rects.
///
/// Type size for the board: the group reads it from about 3 m. Comfortable reading needs
/// roughly 20 arcminutes of letter height, ≈17 mm at 3 m; on a 43" 1080p TV (0.5 mm per
/// pixel) that is ~34 px of x-height, i.e. a ~70 px name font. Board rows therefore aim for
/// 13% of the screen height (140 px at 1080p, name font ≈ 0.5 × row ≈ 70 px) and shrink
/// only when more rows must fit: up to 7 players keep full size on a TV, 20 players still
/// get ~45 px text (readable at about 2 m).
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

    public func boardRowHeight(rows: Int) -> Double {
        let fit = boardArea.h / Double(max(rows, 1))
        // Portrait: rows taller than ~1/6 of the width only add empty space.
        return min(fit, height * 0.13, width * 0.16).rounded(.down)
    }

    /// The size unit of a board row's contents: its height, unless the screen is too
    /// narrow for text that big (portrait), where the width decides.
    public func boardUnit(rows: Int) -> Double {
        min(boardRowHeight(rows: rows), boardArea.w / 10)
    }

    /// The rect of board row slot `slot` (fractional while animating).
    public func boardRow(slot: Double, rows: Int) -> Rect {
        let h = boardRowHeight(rows: rows)
        return Rect(x: boardArea.x, y: boardArea.y + slot * h, w: boardArea.w, h: h - max(2, h * 0.08))
    }

    public struct BoardColumns: Sendable, Equatable {
        public var position, arrow, name, thru, toPar: Double
    }

    public func boardColumns(unit h: Double) -> BoardColumns {
        let area = boardArea
        let positionW = h * 1.25
        return BoardColumns(
            position: area.x + h * 0.25, arrow: area.x + positionW,
            name: area.x + positionW + h * 0.55, thru: area.maxX - h * 3.6,
            toPar: area.maxX - h * 0.3)
    }

    // MARK: Hole card

    /// The condensed standings ticker (the seeds' floating pill).
    public var ticker: Rect {
        Rect(x: margin, y: margin / 2, w: width - 2 * margin, h: (height * 0.075).rounded())
    }

    public var holeHeader: Rect {
        Rect(x: margin, y: ticker.maxY + margin / 2, w: width - 2 * margin, h: (height * 0.12).rounded())
    }

    public var holeRowsArea: Rect {
        Rect(
            x: margin, y: holeHeader.maxY + margin / 2, w: width - 2 * margin,
            h: footer.y - holeHeader.maxY - margin)
    }

    public func holeRowHeight(rows: Int) -> Double {
        min(holeRowsArea.h / Double(max(rows, 1)), height * 0.14).rounded(.down)
    }

    // MARK: Lists (menu, setup, finalize)

    public enum ListStyle: Sendable { case list, holeCard }

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

    /// Which row a touch at `y` hits, if any.
    public func listRow(at y: Double, rows: Int, cursor: Int, style: ListStyle) -> Int? {
        switch style {
        case .holeCard:
            let area = holeRowsArea
            let h = holeRowHeight(rows: rows)
            guard y >= area.y, h > 0 else { return nil }
            let index = Int((y - area.y) / h)
            return index < rows ? index : nil
        case .list:
            guard y >= listArea.y else { return nil }
            let index = Int((y - listArea.y) / listRowHeight) + listOffset(rows: rows, cursor: cursor)
            return index < rows && Int((y - listArea.y) / listRowHeight) < visibleListRows ? index : nil
        }
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
}
