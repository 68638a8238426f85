import Foundation
import HyzerKit

extension Screen {
    /// The idle live board; with no round, the last summary and "press to start a round".
    public struct Board: Sendable, Equatable {
        public init() {}
    }
}

extension Screen.Board: ScreenBehavior {
    var name: String { "board" }
    var isTransient: Bool { false }

    /// Into the round being played (or its finalize prompt), or into setting one up.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard state.data.round != nil else { return Screen.SetupCourse.begin(in: &state, now: now) }
        Screen.ChooseRound.enterScores(in: &state)
        return []
    }

    func back(in state: inout KioskState) { state.screen = .menu(cursor: 0) }

    /// Which page of a board that does not fit is on show, since when, and how far its rows
    /// have come in.
    public struct Paging: Sendable, Equatable {
        public var page = 0
        public var shownAt: Millis = 0
        /// The new page's reveal, 0 → 1 after a flip (constant 1 with reduce motion): the
        /// k-th of its n rotating rows is shown once it reaches k/n.
        public var reveal = Tween(from: 1, to: 1, start: 0, duration: 1)
    }
}

extension KioskState {
    /// The live board's pages on this screen with these settings.
    public var boardPages: Layout.BoardPages {
        boardLayout(Layout(viewport: viewport)).boardPages(leaderboard.rows, rowsPerPage: settings.boardRowsPerPage)
    }

    /// When the board's page flips next: only on the live board, and only when it pages, so
    /// a board that fits (and every other screen) sleeps until something happens.
    public var boardPageFlipAt: Millis? {
        // A round's board, or a league night's result after its last card (issue 36).
        guard screen == .board, round != nil || data.leagueNight != nil, boardPages.rotates else { return nil }
        return boardPaging.shownAt + settings.boardPageInterval
    }

    /// Frames for the page's reveal, while it runs.
    func boardPageFrameInterval(at now: Millis) -> Millis? {
        screen == .board && boardPaging.reveal.isRunning(at: now) ? MotionTokens.softFrameInterval : nil
    }

    /// Shows `page` from `now` for one interval; its rotating rows come in one after another
    /// (at once with reduce motion).
    mutating func showBoardPage(_ page: Int, now: Millis, reveal: Bool = true) {
        let cascades = reveal && !settings.reduceMotion
        boardPaging = Screen.Board.Paging(
            page: page, shownAt: now,
            reveal: Tween(
                from: cascades ? 0 : 1, to: 1, start: now, duration: MotionTokens.boardPageReveal, easing: .linear))
    }

    /// The board with the page on show fully revealed, while its rows are still coming in
    /// (nil otherwise). The display draws it where nothing shows (`Display.warm`) between
    /// frames, so the texts of a row never seen before are rasterized before the frame that
    /// reveals it: on a Pi that frame had cost a third more than the others.
    public func boardPageRevealed(at now: Millis) -> KioskState? {
        guard screen == .board, boardPaging.reveal.isRunning(at: now) else { return nil }
        var revealed = self
        revealed.boardPaging.reveal = Tween(from: 1, to: 1, start: now, duration: 1)
        return revealed
    }

    /// A wake-up: the next page once the interval is up (after the last, the first again).
    mutating func flipBoardPageIfDue(now: Millis) {
        guard let due = boardPageFlipAt, now >= due else { return }
        showBoardPage((boardPaging.page + 1) % boardPages.pages, now: now)
    }

    /// After new standings: when the change moved a player to a page other than the one on
    /// show, that page is shown for one interval, so the people watching see where they went
    /// (with the ▲/▼ arrow still on the row). Of several, the biggest move wins.
    mutating func followBoardReshuffle(now: Millis) {
        let pages = boardPages
        guard screen == .board, pages.rotates else { return }
        let moved = leaderboard.rows.enumerated().compactMap { index, standing -> (page: Int, delta: Int)? in
            guard let arrow = leaderboard.arrows[standing.participantID], arrow.shownAt == now,
                let page = pages.page(of: index)
            else { return nil }
            return (page, abs(arrow.delta))
        }
        guard let biggest = moved.max(by: { $0.delta < $1.delta }) else { return }
        if biggest.page != boardPaging.page { showBoardPage(biggest.page, now: now) }
    }
}

extension KioskState {
    /// The live board's rows as boxes at `now`: everyone, when they fit at the minimum
    /// sizes; else the pinned leaders, the page on show and its indicator ("9–14 of 20").
    public struct BoardBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var standing: Standing
            public var boxes: RowBoxes
            /// A rotating row (not a pinned leader): it comes in with its page.
            public var rotating: Bool
            /// False while the page's reveal has not reached this row yet: its card is drawn,
            /// its texts are not. Pinned leaders are always shown.
            public var revealed: Bool
        }
        public var geometry: Layout.BoardGeometry
        public var pages: Layout.BoardPages
        /// The page on show.
        public var page: Int
        public var rows: [Row]
        /// The page indicator's line, on a board that pages.
        public var more: RowBoxes?
    }

    public func boardBoxes(layout base: Layout, now: Millis, minus: String) -> BoardBoxes {
        // The rows give a league night's side games their room (BoardSideGames.swift).
        let layout = boardLayout(base)
        let standings = leaderboard.rows
        let geometry = layout.board(rows: standings.count)
        let pages = layout.boardPages(standings, rowsPerPage: settings.boardRowsPerPage)
        let page = min(boardPaging.page, pages.pages - 1)
        let onPage = pages.rotating(page: page)
        // The indicator's slot, under the last row a page can hold.
        let indicatorSlot = Double(pages.pinned + (pages.rotates ? pages.perPage : 0))
        let columns = geometry.columns
        // Guests are marked at the end of the name column (issue 14): "Marcus … guest".
        let players = (data.leagueNight?.cards.map(\.round) ?? []) + [data.round?.round].compactMap { $0 }
        let guests = Set(players.flatMap(\.participants).filter(\.isGuest).map(\.id))
        // A league night's rows say their card (issue 36): "B", or "guest · B"; on a night
        // ranked by net, a player without a handicap is marked as ranked gross (issue 37).
        let net = data.leagueNight?.event.net == true
        func tag(_ standing: Standing) -> String? {
            let id = standing.participantID
            let parts = [
                standing.rankedGross(net: net) ? "gross" : nil, guests.contains(id) ? "guest" : nil, leaderboard.cards[id],
            ].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: " · ")
        }
        var rows: [BoardBoxes.Row] = []
        // The reveal goes down the page in its order, whatever slot a row is sliding through.
        let reveal = screen == .board ? boardPaging.reveal.value(at: now) : 1
        for (index, standing) in standings.enumerated() where index < pages.pinned || onPage.contains(index) {
            // Rows slide between slots in the leaderboard's order; a rotating row's slot is
            // shifted onto the page and stays between the leaders and the indicator (it comes in
            // from the edge it crossed).
            let slot = leaderboard.slot(of: standing.participantID, at: now)
            let rotating = index >= pages.pinned
            let shown = rotating ? Double(pages.pinned) + slot - Double(onPage.lowerBound) : slot
            let rect = layout.boardRow(
                slot: min(max(shown, rotating ? Double(pages.pinned) : 0), indicatorSlot), rows: standings.count)
            let mid = rect.midY
            let label = tag(standing)
            let tagWidth = label.map { Layout.textWidth($0, size: geometry.captionSize) } ?? 0
            var nameSpan = columns.name
            if label != nil { nameSpan.w = max(0, nameSpan.w - tagWidth - Double(geometry.captionSize)) }
            var texts = [
                TextBox(
                    standing.positionLabel, .title, size: geometry.nameSize,
                    standing.position == 1 ? Palette.accent : Palette.textPrimary, span: columns.position, midY: mid),
                TextBox(
                    standing.name, .title, size: geometry.nameSize, Palette.textPrimary, span: nameSpan, midY: mid,
                    ellipsized: true),
                TextBox(
                    ScoreFormat.progress(standing), .body, size: geometry.captionSize, Palette.textSecondary,
                    span: columns.progress, midY: mid, align: .center),
                TextBox(
                    standing.scoreText(minus: minus), .score, size: geometry.scoreSize,
                    Palette.toPar(standing.scoreSign), span: columns.toPar, midY: mid, align: .right),
            ]
            if let label {
                texts.append(
                    TextBox(
                        label, .body, size: geometry.captionSize, Palette.textSecondary,
                        span: Layout.Span(x: columns.name.x + columns.name.w - tagWidth, w: tagWidth), midY: mid, align: .right))
            }
            // The k-th of the page's n rows once the reveal reaches k/n (a rotating row is on the page, so n ≥ 1).
            let revealed = !rotating || Double(index - onPage.lowerBound) / Double(onPage.count) <= reveal
            rows.append(
                .init(standing: standing, boxes: RowBoxes(frame: rect, texts: texts), rotating: rotating, revealed: revealed))
        }
        var more: RowBoxes?
        if let line = pages.indicator(page: page) {
            let rect = layout.boardRow(slot: indicatorSlot, rows: standings.count)
            let span = Layout.Span(x: rect.x, w: rect.w)
            more = RowBoxes(
                frame: rect,
                texts: [
                    TextBox(
                        line, .body, size: geometry.captionSize, Palette.textSecondary, span: span, midY: rect.midY,
                        align: .center, ellipsized: true)
                ])
        }
        return BoardBoxes(geometry: geometry, pages: pages, page: page, rows: rows, more: more)
    }
}

extension KioskState {
    /// Issue 9, several cards on the course: the board's header becomes a "course now" panel,
    /// one cell per round, newest first, each with its course and how far it is ("thru 4");
    /// the cell of the round on the board below is `lit`. Nil with one round: the header as
    /// before. A panel rather than a rotation between the rounds' boards: from 3 m it shows
    /// every card at every moment, nothing moves under a reader, and the board below keeps
    /// its own paging and reshuffles (docs/architecture.md).
    public struct CourseNowBoxes: Sendable, Equatable {
        public struct Cell: Sendable, Equatable {
            public var roundID: UUID
            public var lit: Bool
            public var boxes: RowBoxes
        }
        public var cells: [Cell]
        /// "net", after the cells, on a night ranked by net (issue 37): nobody mistakes it.
        public var net: TextBox? = nil
    }

    public func courseNowBoxes(layout: Layout) -> CourseNowBoxes? {
        // A league night's cards (first in `rounds`, card A first) go by their letters
        // (issue 36): one course for all of them says nothing.
        let night = data.leagueNight?.event
        let rounds = data.rounds
        guard rounds.count > 1 else { return nil }
        let header = layout.header
        // The sync badge keeps the right third of the header.
        var span = Layout.Span(x: layout.margin, w: layout.width * 0.64 - layout.margin)
        let gap = layout.margin / 2
        // A night ranked by net says so at the cells' end, in the accent: room for it at
        // the cells' largest size, drawn at the size they come to (`netTag`).
        let largest = max(layout.minimumTextSize, Layout.fontSize(header.h * 0.36))
        let netRoom = night?.net == true ? Layout.textWidth("net", size: largest) : 0
        if netRoom > 0 { span.w -= netRoom + gap }
        func netTag(size: Int) -> TextBox? {
            guard netRoom > 0 else { return nil }
            return TextBox(
                "net", .title, size: size, Palette.accent,
                span: Layout.Span(x: span.maxX + gap, w: Layout.textWidth("net", size: size)), midY: header.midY)
        }
        let pad = gap / 2
        // Inside a cell, clear of its outline.
        let inner = gap
        // The largest size at which the cells fit the header, in as few lines as it takes
        // (a portrait header is tall and narrow): a cell holds "thru 18" whole and at least
        // three letters of the course; never under the minimum text size.
        let minimum = layout.minimumTextSize
        var size = largest
        var perLine = 1
        var frameH = 0.0
        while true {
            let least = Layout.textWidth("thru 18", size: size) + Layout.textWidth("Abc", size: size) + 3 * inner
            perLine = min(rounds.count, max(1, Int((span.w + gap) / (least + gap))))
            let lines = (rounds.count + perLine - 1) / perLine
            frameH = Double(size) * Layout.lineHeight + gap
            if size <= minimum || Double(lines) * frameH + Double(lines - 1) * pad <= header.h - pad { break }
            size -= 2
        }
        let lines = (rounds.count + perLine - 1) / perLine
        guard Double(lines) * frameH + Double(lines - 1) * pad <= header.h + 0.5 else {
            // More cards than the header holds at the minimum size (a league night of 8):
            // one cell for them all, how many and how far the slowest and the fastest are.
            // Each card's own progress is on "Which card?".
            let letters = night.map { "Cards A–\(CardDraw.letter($0.rounds.count - 1))" } ?? "\(rounds.count) cards"
            let thrus = rounds.map(\.thru)
            let low = thrus.min() ?? 0
            let high = thrus.max() ?? 0
            let thru = low == high ? "thru \(low)" : "thru \(low)–\(high)"
            var size = largest
            while size > minimum, Layout.textWidth(letters + thru, size: size) + 4 * inner > span.w { size -= 2 }
            let frameH = Double(size) * Layout.lineHeight + gap
            let frame = Rect(x: span.x, y: header.midY - frameH / 2, w: span.w, h: frameH)
            let thruW = Layout.textWidth(thru, size: size)
            let texts = [
                TextBox(
                    letters, .title, size: size, Palette.textPrimary,
                    span: Layout.Span(x: frame.x + inner, w: max(1, frame.w - thruW - 3 * inner)), midY: frame.midY,
                    ellipsized: true),
                TextBox(
                    thru, .body, size: size, Palette.accent, span: Layout.Span(x: frame.maxX - inner - thruW, w: thruW),
                    midY: frame.midY, align: .right),
            ]
            let front = data.round?.round.id ?? rounds[0].round.id
            return CourseNowBoxes(
                cells: [.init(roundID: front, lit: true, boxes: RowBoxes(frame: frame, texts: texts))], net: netTag(size: size))
        }
        let cellW = (span.w - gap * Double(perLine - 1)) / Double(perLine)
        let top = header.midY - (Double(lines) * frameH + Double(lines - 1) * pad) / 2
        let cells = rounds.enumerated().map { index, snapshot in
            let (line, column) = index.quotientAndRemainder(dividingBy: perLine)
            let frame = Rect(
                x: span.x + Double(column) * (cellW + gap), y: top + Double(line) * (frameH + pad), w: cellW, h: frameH)
            let thru = snapshot.round.status == .awaitingFinalization ? "all in" : "thru \(snapshot.thru)"
            let thruW = Layout.textWidth(thru, size: size)
            let lit = snapshot.round.id == data.round?.round.id
            let texts = [
                TextBox(
                    night?.letter(of: snapshot.round.id) ?? snapshot.course.name, .title, size: size,
                    lit ? Palette.textPrimary : Palette.textSecondary,
                    span: Layout.Span(x: frame.x + inner, w: max(1, frame.w - thruW - 3 * inner)), midY: frame.midY,
                    ellipsized: true),
                TextBox(
                    thru, .body, size: size, lit ? Palette.accent : Palette.textSecondary,
                    span: Layout.Span(x: frame.maxX - inner - thruW, w: thruW), midY: frame.midY, align: .right),
            ]
            return CourseNowBoxes.Cell(roundID: snapshot.round.id, lit: lit, boxes: RowBoxes(frame: frame, texts: texts))
        }
        return CourseNowBoxes(cells: cells, net: netTag(size: size))
    }
}

// MARK: Layout

/// The board's geometry: its area, its rows and their columns, and its pages.
extension Layout {
    /// Where the rows go: between the header and the footer, less the aside's room.
    public var boardArea: Rect {
        let whole = boardBand
        guard boardAside > 0 else { return whole }
        return boardAsideBeside
            ? Rect(x: whole.x, y: whole.y, w: whole.w - boardAside - margin, h: whole.h)
            : Rect(x: whole.x, y: whole.y, w: whole.w, h: whole.h - boardAside - margin / 2)
    }

    /// The band between the header and the footer, rows and aside together.
    public var boardBand: Rect {
        Rect(x: margin, y: header.maxY + margin / 2, w: width - 2 * margin, h: footer.y - header.maxY - margin)
    }

    /// Whether an aside stands beside the rows (a landscape panel) or under them.
    public var boardAsideBeside: Bool { width >= height * 1.2 }

    /// The aside's rect, when the board gives one room.
    public var boardAsideRect: Rect? {
        guard boardAside > 0 else { return nil }
        let band = boardBand
        return boardAsideBeside
            ? Rect(x: band.maxX - boardAside, y: band.y, w: boardAside, h: band.h)
            : Rect(x: band.x, y: band.maxY - boardAside, w: band.w, h: boardAside)
    }

    /// This layout with `room` (a width beside the rows, or a height under them) given to an aside.
    public func givingBoardAside(_ room: Double) -> Layout {
        var layout = self
        layout.boardAside = max(0, room)
        return layout
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

    /// Fixed columns are sized for their widest content ("T100", "thru 18", "+12"/"DNF") by
    /// the conservative advance; the name takes what is left and is ellipsized into it.
    public func boardColumns(unit h: Double, nameSize: Int, scoreSize: Int, captionSize: Int) -> BoardColumns {
        let area = boardArea
        let gap = h * 0.25
        let position = Span(x: area.x + gap, w: Layout.textWidth("T100", size: nameSize))
        let arrow = Span(x: position.maxX + h * 0.1, w: h * 0.3)
        let toParW = Layout.textWidth(boardScoreSample, size: scoreSize)
        let toPar = Span(x: area.maxX - h * 0.3 - toParW, w: toParW)
        let progressW = Layout.textWidth("thru 18", size: captionSize)
        let progress = Span(x: toPar.x - gap - progressW, w: progressW)
        let nameX = arrow.maxX + gap
        let name = Span(x: nameX, w: max(0, progress.x - gap - nameX))
        return BoardColumns(position: position, arrow: arrow, name: name, progress: progress, toPar: toPar)
    }
}
