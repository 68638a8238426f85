import Foundation
import HyzerKit

// The season's table on the idle board (issue 37 item 1): between rounds the board turns
// through the last round's summary and then the season's table, a page an interval, so the
// tee sees who leads the season as well as who won last. No state of its own: the pages
// count from the last knob input (whoever comes back to the board sees the last round
// first), and a wake-up is asked for only while there is more than one page to show.

extension KioskState {
    /// What the idle board shows at an instant.
    public enum IdlePage: Sendable, Equatable {
        /// The last round's summary, on this page of its rows.
        case summary(page: Int)
        /// The season's table, on this page of its rows.
        case season(page: Int)
    }

    /// The board with no round in play and no league night's result on it: the idle board,
    /// which shows the last round's summary and the season's table.
    var isIdleBoard: Bool { screen == .board && round == nil && data.leagueNight == nil }

    /// The current season's table when the idle board may show it: someone has played an
    /// event in it.
    public var idleSeason: SeasonTable? {
        guard isIdleBoard, let season = data.season, !season.rows.isEmpty else { return nil }
        return season
    }

    /// The table's rows as the summary card lays them out: each player's place, name, events
    /// attended (and why an unranked one is: "2 of 5 rounds"), and their points or to-par.
    /// "gross" marks a player ranked gross in a net season (no handicap yet).
    public static func seasonLines(_ table: SeasonTable, minus: String) -> [RankedLine] {
        let toPar = if case .pointsByPlace = table.season.rule { false } else { true }
        return table.rows.map { row in
            var detail = ["\(row.attended) \(row.attended == 1 ? "event" : "events")"]
            if row.position == nil { detail.append(row.valueText + " rounds") }
            if row.gross { detail.append("gross") }
            let value = row.position == nil ? "–" : row.valueText.replacingOccurrences(of: "-", with: minus)
            let color =
                row.position == nil
                ? Palette.textSecondary
                : toPar ? Palette.toPar(Int(row.value.rounded())) : row.position == 1 ? Palette.accent : Palette.textPrimary
            return RankedLine(
                id: row.player, position: row.position, positionLabel: row.positionLabel, name: row.name,
                detail: detail.joined(separator: " · "), value: value, valueColor: color)
        }
    }

    /// The season page's heading: "Season", and "net" when it ranks by net, so nobody takes
    /// a net table for strokes.
    public static func seasonHeading(_ season: Season) -> String { season.net ? "Season · net" : "Season" }

    /// The line under the season's name: its rule and how many events it has had.
    public static func seasonDetail(_ table: SeasonTable) -> String {
        "\(table.season.rule.description) · \(table.events) \(table.events == 1 ? "event" : "events")"
    }

    /// The season table's pages on this screen (the summary card's rule: leaders pinned).
    public func seasonPages(_ table: SeasonTable) -> Layout.BoardPages {
        Layout(viewport: viewport).summaryPages(
            positions: table.rows.map(\.position), heading: true, rowsPerPage: settings.boardRowsPerPage)
    }

    /// The idle board's page at `now`: the last round's summary pages, then the season's,
    /// round and round with the clock. Nil when the board is not idle or has neither.
    public func idlePage(at now: Millis) -> IdlePage? {
        guard let (summaries, seasons) = idlePageCounts, summaries + seasons > 0 else { return nil }
        let index = Int((max(0, now - lastInputAt) / settings.boardPageInterval) % Millis(summaries + seasons))
        return index < summaries ? .summary(page: index) : .season(page: index - summaries)
    }

    /// When the idle board turns its page next; nil when it is not on show or has one page.
    func idlePageFlip(after now: Millis) -> Millis? {
        guard let (summaries, seasons) = idlePageCounts, summaries + seasons > 1 else { return nil }
        let interval = settings.boardPageInterval
        return lastInputAt + (max(0, now - lastInputAt) / interval + 1) * interval
    }

    /// The idle board's pages of the last round's summary and of the season's table; nil
    /// when the board is not idle.
    private var idlePageCounts: (summaries: Int, seasons: Int)? {
        guard isIdleBoard else { return nil }
        return (
            data.lastCompleted.map { summaryPages($0, heading: true).pages } ?? 0,
            idleSeason.map { seasonPages($0).pages } ?? 0
        )
    }
}
