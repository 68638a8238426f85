import Foundation
import HyzerKit

/// The board's side-games panel (issue 36 item 5): while the board shows a league night
/// (its cards in play, or its result after the last one), the night's skins, its
/// closest-to-the-pin holes and the ace pot stand beside the rows on a landscape panel and
/// under them on a portrait one. Everything in it comes from the scores and the night's
/// settings, so it changes only when they do; the side games screen (menu) has the long form.
///
/// A panel, not a page of the board's rotation: the question at the tee ("what's riding on
/// the next hole?") is asked at any moment, and a rotation would answer it one page in
/// three. It takes about a quarter of a landscape board's width, which a row's name column
/// can spare (the rows keep their heights, so the board shows as many players as before).
extension KioskState {
    /// One line of the panel: a label (ellipsized) and a value at its right (always whole).
    public struct SideGamesLine: Sendable, Equatable {
        public enum Style: Sendable, Equatable {
            /// A game's title ("Skins"), its value what rides on the next hole.
            case heading
            case entry
        }
        /// Which game a line is of, for folding: never read from its words (a player may
        /// well be called "Ace").
        public enum Kind: Sendable, Equatable {
            case skins, closestToPin, acePot
        }
        public var label: String
        public var value: String
        public var style: Style
        public var kind: Kind
        public init(_ label: String, _ value: String = "", style: Style = .entry, kind: Kind = .skins) {
            (self.label, self.value, self.style, self.kind) = (label, value, style, kind)
        }
    }

    /// The panel as laid out: its card and its texts, lines top to bottom (in portrait,
    /// down the first column, then the second).
    public struct SideGamesPanelBoxes: Sendable, Equatable {
        public var frame: Rect
        public var texts: [TextBox]
        /// The lines shown, after any folding to fit (`SideGamesLine.fitted`).
        public var lines: [SideGamesLine]
    }

    /// The night the board shows with a panel: one with a side game, shown on the board
    /// (while its cards are played, or as the result when no other round is), the same rule
    /// by which the board ranks its cards together.
    public var boardSideGamesNight: LeagueNightSnapshot? {
        guard let night = data.leagueNight, night.inPlay || data.round == nil else { return nil }
        let event = night.event
        guard event.skins != .off || !event.closestToPin.isEmpty || event.acePot != nil else { return nil }
        return night
    }

    /// The panel's lines for the night on the board.
    public var boardSideGamesLines: [SideGamesLine] {
        guard let night = boardSideGamesNight else { return [] }
        return Self.sideGamesLines(night, pot: data.acePot)
    }

    /// The lines, in the order a player asks: skins (who has won how many, what rides on
    /// the next hole), each CTP hole and who took it, and the pot.
    public static func sideGamesLines(_ night: LeagueNightSnapshot, pot: AcePot?) -> [SideGamesLine] {
        let names = night.names
        func name(_ id: UUID) -> String { names[id] ?? "?" }
        func riding(_ game: Skins) -> String { game.riding.map { "\($0.skins) on \($0.hole)" } ?? "" }
        var lines: [SideGamesLine] = []
        let games = night.results.skinsGames
        if let field = games.first, games.count == 1, field.card == nil {
            lines.append(SideGamesLine("Skins", riding(field.game), style: .heading))
            let won = ranked(field.game.won, name: name)
            lines += won.isEmpty ? [SideGamesLine("none won yet")] : won.map { SideGamesLine($0.name, "\($0.skins)") }
            if field.game.unclaimed > 0 { lines.append(SideGamesLine("unclaimed", "\(field.game.unclaimed)")) }
        } else if !games.isEmpty {
            lines.append(SideGamesLine("Skins by card", style: .heading))
            for (card, game) in games {
                let won = ranked(game.won, name: name).map { "\($0.name) \($0.skins)" }
                lines.append(
                    SideGamesLine("\(card ?? "?") · " + (won.isEmpty ? "none yet" : won.joined(separator: ", ")), riding(game)))
            }
        }
        for ctp in night.event.closestToPin {
            lines.append(SideGamesLine("CTP \(ctp.hole)", ctp.winner.map(name) ?? "–", kind: .closestToPin))
        }
        if let pot {
            let paid = pot.payouts.map { "\(name($0.player)) won \($0.amount)" }
            lines.append(
                SideGamesLine(
                    paid.isEmpty ? "Ace pot" : "Ace! " + paid.joined(separator: ", "), "\(pot.total)", kind: .acePot))
        }
        return lines
    }

    /// The night's side games in one sentence, for the foot of its summary card, the short
    /// ones first so a cut line loses only skins: "Ace pot: Bo won 26 · CTP 5: Gus · Skins:
    /// Bo 2, Ann 1 · 1 unclaimed".
    public static func sideGamesSentence(_ night: LeagueNightSnapshot, pot: AcePot?) -> String {
        let names = night.names
        var parts: [String] = []
        if let pot {
            let paid = pot.payouts.map { "\(names[$0.player] ?? "?") won \($0.amount)" }
            parts.append("Ace pot: " + (paid.isEmpty ? "\(pot.total)" : paid.joined(separator: ", ")))
        }
        for ctp in night.event.closestToPin {
            parts.append("CTP \(ctp.hole): \(ctp.winner.flatMap { names[$0] } ?? "–")")
        }
        parts += night.results.skinsGames.map { card, game in
            (card.map { "Skins \($0)" } ?? "Skins") + ": " + game.summary { names[$0] ?? "?" }
        }
        return parts.joined(separator: " · ")
    }

    /// Skins won, the most first, then by name.
    private static func ranked(_ won: [UUID: Int], name: (UUID) -> String) -> [(name: String, skins: Int)] {
        won.map { (name: name($0.key), skins: $0.value) }.sorted { ($0.skins, $1.name) > ($1.skins, $0.name) }
    }

    /// The board's layout: with a panel, the rows give it its room.
    /// Called for every frame's rows: beside them the panel's room is a fixed width, so its
    /// lines are worded only under them (portrait), where their count sets its height.
    public func boardLayout(_ layout: Layout) -> Layout {
        var layout = layout
        // A night ranked by net shows tenths (issue 37): the column as wide as the widest.
        if data.leagueNight?.event.net == true {
            let texts = leaderboard.rows.map { $0.scoreText() } + [layout.boardScoreSample]
            layout.boardScoreSample = texts.max { $0.count < $1.count } ?? layout.boardScoreSample
        }
        guard boardSideGamesNight != nil else { return layout }
        guard layout.boardAsideBeside else { return boardLayout(layout, lines: boardSideGamesLines) }
        return layout.givingBoardAside(SideGamesPanelGeometry(layout).width)
    }

    /// The board's layout for a panel of `lines` (none: no panel).
    func boardLayout(_ layout: Layout, lines: [SideGamesLine]) -> Layout {
        guard !lines.isEmpty else { return layout }
        let panel = SideGamesPanelGeometry(layout)
        return layout.givingBoardAside(layout.boardAsideBeside ? panel.width : panel.height(lines: lines.count))
    }

    /// The panel's boxes on the board, or nil when it has none.
    public func sideGamesPanelBoxes(layout: Layout) -> SideGamesPanelBoxes? {
        let lines = boardSideGamesLines
        guard let frame = boardLayout(layout, lines: lines).boardAsideRect else { return nil }
        let panel = SideGamesPanelGeometry(layout)
        let columns = layout.boardAsideBeside ? 1 : 2
        let fitted = SideGamesLine.fitted(lines, capacity: columns * max(1, Int((frame.h - 2 * panel.pad) / panel.pitch)))
        let perColumn = (fitted.count + columns - 1) / columns
        let columnW = (frame.w - 2 * panel.pad - Double(columns - 1) * panel.pad) / Double(columns)
        var texts: [TextBox] = []
        for (index, line) in fitted.enumerated() {
            let (column, row) = index.quotientAndRemainder(dividingBy: max(1, perColumn))
            let x = frame.x + panel.pad + Double(column) * (columnW + panel.pad)
            let midY = frame.y + panel.pad + (Double(row) + 0.5) * panel.pitch
            let size = panel.size
            // A value is whole up to 60% of the column (a count, "3 on 7"); a longer one (a
            // CTP winner's name) gives way with an ellipsis.
            let wanted = line.value.isEmpty ? 0 : Layout.textWidth(line.value, size: size)
            let valueW = min(wanted, (columnW * 0.6).rounded(.down))
            let labelW = max(1, columnW - valueW - (valueW > 0 ? Double(size) * 0.5 : 0))
            let heading = line.style == .heading
            texts.append(
                TextBox(
                    line.label, heading ? .title : .body, size: size, heading ? Palette.accent : Palette.textPrimary,
                    span: Layout.Span(x: x, w: labelW), midY: midY, ellipsized: true))
            if valueW > 0 {
                texts.append(
                    TextBox(
                        line.value, .body, size: size, heading ? Palette.accent : Palette.textSecondary,
                        span: Layout.Span(x: x + columnW - valueW, w: valueW), midY: midY, align: .right,
                        ellipsized: wanted > valueW))
            }
        }
        return SideGamesPanelBoxes(frame: frame, texts: texts, lines: fitted)
    }
}

extension KioskState.SideGamesLine {
    /// `lines` in at most `capacity`: first every CTP hole on one line ("CTP 4 Gus · 8 –"),
    /// then the skins entries cut with how many more there are ("+3 more"), so the heading,
    /// the CTP and the pot always show. Enough for 8 cards' skins, two CTP holes and the
    /// pot on the 800×480 panel (LeagueNightBoardLayoutTests).
    public static func fitted(_ lines: [Self], capacity: Int) -> [Self] {
        guard lines.count > capacity else { return lines }
        var lines = lines
        let ctp = lines.indices.filter { lines[$0].kind == .closestToPin }
        if ctp.count > 1 {
            let merged = "CTP " + ctp.map { lines[$0].label.dropFirst(4) + " " + lines[$0].value }.joined(separator: " · ")
            lines[ctp[0]] = Self(merged, kind: .closestToPin)
            for index in ctp.dropFirst().reversed() { lines.remove(at: index) }
        }
        guard lines.count > capacity else { return lines }
        // The skins entries run from after the heading to the first line that is not one.
        let first = lines.first?.style == .heading ? 1 : 0
        let end = lines[first...].firstIndex { $0.kind != .skins } ?? lines.endIndex
        let cut = lines.count - capacity + 1
        guard end - first > cut else { return Array(lines.prefix(capacity)) }
        let keep = end - first - cut
        lines.replaceSubrange((first + keep)..<end, with: [Self("+\(end - first - keep) more")])
        return lines
    }
}

/// The panel's sizes on a layout: its text is the smallest the board reads at (the panel
/// says a little about many things), its lines a little apart.
struct SideGamesPanelGeometry {
    let size: Int
    let pitch: Double
    let pad: Double
    /// Beside the rows: about a quarter of the width.
    let width: Double
    private let layout: Layout

    init(_ layout: Layout) {
        self.layout = layout
        size = layout.minimumTextSize
        pitch = (Double(size) * Layout.lineHeight * 1.1).rounded(.up)
        pad = (Double(size) * 0.5).rounded()
        width = (layout.width * 0.27).rounded()
    }

    /// Under the rows: two columns of the lines, at most a third of the band.
    func height(lines: Int) -> Double {
        let rows = Double((lines + 1) / 2)
        return min(rows * pitch + 2 * pad, (layout.boardBand.h / 3).rounded(.down))
    }
}
