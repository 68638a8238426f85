import Foundation
import HyzerKit

extension Screen {
    /// The summary card of a finished round (FR58).
    public struct Summary: Sendable, Equatable {
        public var roundID: UUID
        /// The round's summary page on the group server, drawn as a QR code beside the
        /// card (issue 11); nil until the shell has one, or for a kiosk in no group.
        public var link: String?
        public init(roundID: UUID, link: String? = nil) {
            self.roundID = roundID
            self.link = link
        }
    }

    public static func summary(roundID: UUID) -> Screen { .summary(Summary(roundID: roundID)) }
}

extension KioskState {
    /// Shows a round's summary card, asking the shell for its summary page's link when the
    /// kiosk is in a group (a phone scans it to keep the card).
    mutating func showSummary(_ roundID: UUID) -> [KioskEffect] {
        screen = .summary(roundID: roundID)
        return isInNoGroup ? [] : [.requestSummaryLink(roundID)]
    }

    /// The shell's report of a summary link: kept if that round's card is still up.
    mutating func summaryLinkChanged(roundID: UUID, url: String) {
        guard case .summary(var summary) = screen, summary.roundID == roundID else { return }
        summary.link = url
        screen = .summary(summary)
    }

    /// The summary page's link on show, if any (the summary screen only: the idle board's
    /// last round is for glancing at, not for scanning).
    public var summaryLinkOnShow: String? {
        if case .summary(let summary) = screen { return summary.link }
        return nil
    }
}

extension KioskState {
    /// The snapshot a summary screen shows.
    public func summarySnapshot(_ id: UUID) -> RoundSnapshot? {
        [data.round, data.lastCompleted].compactMap { $0 }.first { $0.round.id == id }
            ?? data.leagueNight?.cards.first { $0.round.id == id }
    }

    /// The league night a summary's round is a card of (issue 36): the summary card of a
    /// night's card is the night's, every card's players ranked together, with the side
    /// games, and its QR code opens the night's summary page.
    public func summaryNight(_ roundID: UUID) -> LeagueNightSnapshot? {
        guard let night = data.leagueNight, night.event.rounds.contains(roundID) else { return nil }
        return night
    }

    /// The standings a summary card ranks: its round's, or its night's.
    public func summaryStandings(_ snapshot: RoundSnapshot) -> [Standing] {
        summaryNight(snapshot.round.id)?.results.standings.standings.rows ?? snapshot.standings.rows
    }

    /// What the round on a summary card set (issue 37, "PB!"): only the last finished
    /// round's card says so, on the summary screen and on the idle board's last round.
    public func summaryBests(_ snapshot: RoundSnapshot) -> NewBests? {
        guard snapshot.round.id == data.lastCompleted?.round.id else { return nil }
        return data.newBests
    }
}

extension Screen.Summary: ScreenBehavior {
    var name: String { "summary" }
    /// Built to be read (and photographed): it stays until someone presses.
    var isTransient: Bool { false }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.screen = .board
        return []
    }
}

extension KioskState {
    /// The summary on show, if any: the summary screen's round, or the last round on the idle
    /// board (with its "Last round" heading).
    public var summaryOnShow: (snapshot: RoundSnapshot, heading: Bool)? {
        switch screen {
        case .summary(let summary): return summarySnapshot(summary.roundID).map { ($0, false) }
        // A league night's last card: the board shows the night's result instead (issue 36).
        case .board where isIdleBoard: return data.lastCompleted.map { ($0, true) }
        default: return nil
        }
    }

    /// The summary's pages on this screen with these settings.
    public func summaryPages(_ snapshot: RoundSnapshot, heading: Bool) -> Layout.BoardPages {
        Layout(viewport: viewport).summaryPages(
            summaryStandings(snapshot), heading: heading, qr: summaryLinkOnShow != nil,
            rowsPerPage: settings.boardRowsPerPage)
    }

    /// The summary's page at `now`. It turns with the clock, one page a board interval: the
    /// card stays up for hours on an idle kiosk, so nobody's page is more than a few
    /// intervals away, and no state is needed to follow it.
    public func summaryPage(at now: Millis) -> Int {
        // On the idle board the summary shares its turns with the season's table.
        if case .summary(let page)? = idlePage(at: now) { return page }
        guard let (snapshot, heading) = summaryOnShow else { return 0 }
        let pages = summaryPages(snapshot, heading: heading)
        return pages.rotates ? Int((now / settings.boardPageInterval) % Millis(pages.pages)) : 0
    }

    /// When a paging summary (or the idle board's turn to the season) turns its page next;
    /// nil when none is on show or it fits.
    func summaryPageFlip(after now: Millis) -> Millis? {
        if let flip = idlePageFlip(after: now) { return flip }
        guard let (snapshot, heading) = summaryOnShow, summaryPages(snapshot, heading: heading).rotates else {
            return nil
        }
        return clockPageFlip(after: now)
    }

    /// When the clock's next page interval begins (screens that page with the clock).
    func clockPageFlip(after now: Millis) -> Millis {
        (now / settings.boardPageInterval + 1) * settings.boardPageInterval
    }
}

// MARK: Layout

/// The summary card's geometry: its rows, their pages (the board's rule) and its QR code.
/// One ranked row of a card of standings: a round's player, a season's. What the summary
/// card's layout needs of it, already worded.
public struct RankedLine: Sendable, Equatable {
    public var id: UUID
    /// Competition rank; nil for an unranked row (a DNF, a player short of the season's rounds).
    public var position: Int?
    public var positionLabel: String
    public var name: String
    /// Under-stated, beside the value: "31 strokes", "12 events".
    public var detail: String
    public var value: String
    public var valueColor: RGB
    /// The detail's colour: the accent for a moment worth seeing from the tee ("PB!").
    public var detailColor: RGB

    public init(
        id: UUID, position: Int?, positionLabel: String, name: String, detail: String, value: String, valueColor: RGB,
        detailColor: RGB = Palette.textSecondary
    ) {
        (self.id, self.position, self.positionLabel, self.name) = (id, position, positionLabel, name)
        (self.detail, self.value, self.valueColor, self.detailColor) = (detail, value, valueColor, detailColor)
    }
}

extension Layout {
    /// The summary card's standings as boxes: rows share the room between the title block and
    /// the meta line, never under the minimums; past them, one page (`summaryPages`).
    public struct SummaryBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var line: RankedLine
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
        summaryPages(positions: standings.map(\.position), heading: heading, qr: qr, rowsPerPage: rowsPerPage)
    }

    /// The same for any ranked rows (the season page's), by their positions in order.
    public func summaryPages(positions: [Int?], heading: Bool, qr: Bool = false, rowsPerPage: Int? = nil) -> BoardPages {
        let (_, pitch, available) = summaryRoom(positions.count, heading: heading, qr: qr)
        let slots = max(1, Int(available / pitch))
        return Layout.pages(positions: positions, slots: slots, rowsPerPage: rowsPerPage)
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
        rowsPerPage: Int? = nil, guests: Set<UUID> = [], cards: [UUID: String] = [:], bests: Set<UUID> = [],
        net: Bool = false
    ) -> SummaryBoxes {
        let lines = standings.map { standing in
            // A guest is marked where the strokes are said (issue 14): "guest · 31 strokes";
            // on a league night's card, the player's card too: "B · 31 strokes" (issue 36);
            // a new personal best first of all: "PB! · 29 strokes" (issue 37); on a night ranked
            // by net, a player without a handicap: "gross · 31 strokes".
            RankedLine(
                id: standing.participantID, position: standing.position, positionLabel: standing.positionLabel,
                name: standing.name,
                detail: (bests.contains(standing.participantID) ? "PB! · " : "")
                    + (cards[standing.participantID].map { "\($0) · " } ?? "")
                    + (guests.contains(standing.participantID) ? "guest · " : "")
                    + (standing.rankedGross(net: net) ? "gross · " : "")
                    + (standing.status == .dnf ? "DNF · \(standing.strokes) strokes" : "\(standing.strokes) strokes"),
                value: standing.scoreText(minus: minus), valueColor: Palette.toPar(standing.scoreSign),
                detailColor: bests.contains(standing.participantID) ? Palette.accent : Palette.textSecondary)
        }
        return summaryBoxes(lines: lines, heading: heading, page: page, qr: qr, rowsPerPage: rowsPerPage)
    }

    /// The card's rows from any ranked lines: a round's standings, a season's table.
    public func summaryBoxes(
        lines standings: [RankedLine], heading: Bool, page: Int = 0, qr: Bool = false, rowsPerPage: Int? = nil
    ) -> SummaryBoxes {
        let caption = Double(captionFont)
        let beside = qr && summaryQRBeside
        // Beside a QR code the card moves left and gives up what the code needs.
        let cardW = beside ? min(summaryCardWidth, width - 3 * margin - summaryQRSide) : summaryCardWidth
        let card = Span(x: beside ? margin : (width - cardW) / 2, w: cardW)
        let metaH = caption * 2.4
        let count = standings.count
        let (top, pitch, _) = summaryRoom(count, heading: heading, qr: qr)
        let pages = summaryPages(positions: standings.map(\.position), heading: heading, qr: qr, rowsPerPage: rowsPerPage)
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
            // As wide as "+12", or the widest value a season's table says ("-10.5", "137.5").
            let scoreW = max(Layout.textWidth("+12", size: scoreSize), Layout.textWidth(standing.value, size: scoreSize))
            let score = Span(x: rect.maxX - pad - scoreW, w: scoreW)
            let strokesText = standing.detail
            let nameX = badge.maxX + rect.h * 0.3
            // Right-aligned, so each row's own width keeps the column straight. The name
            // keeps half the room between the badge and the value at least: a long detail
            // ("1 event · 1 of 2 rounds" on a narrow portrait card) is cut, never the name.
            let room = max(0, score.x - pad - nameX)
            let nameNeeds = min(room / 2, Layout.textWidth(standing.name, size: nameSize))
            let strokesW = min(Layout.textWidth(strokesText, size: strokesSize), max(0, room - nameNeeds - pad))
            let strokes = Span(x: score.x - pad - strokesW, w: strokesW)
            var texts = [
                TextBox(
                    standing.positionLabel, .title, size: positionSize, medal ?? Palette.textSecondary,
                    span: Span(x: badge.x, w: badge.w), midY: badge.midY, align: .center),
                TextBox(
                    standing.name, .title, size: nameSize, Palette.textPrimary,
                    span: Span(x: nameX, w: max(0, strokes.x - pad - nameX)), midY: rect.midY, ellipsized: true),
            ]
            if strokesW > 0 {
                texts.append(
                    TextBox(
                        strokesText, .body, size: strokesSize, standing.detailColor, span: strokes, midY: rect.midY,
                        align: .right, ellipsized: true))
            }
            texts.append(
                TextBox(
                    standing.value, .score, size: scoreSize, standing.valueColor, span: score, midY: rect.midY,
                    align: .right))
            rows.append(.init(line: standing, badge: badge, boxes: RowBoxes(frame: rect, texts: texts)))
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
}
