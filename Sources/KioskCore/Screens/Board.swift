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
        guard let snapshot = state.data.round else { return Screen.SetupCourse.begin(in: &state, now: now) }
        state.screen =
            snapshot.round.status == .awaitingFinalization
            ? .finalizePrompt(cursor: 0) : Screen.HoleCard.resuming(snapshot)
        return []
    }

    func back(in state: inout KioskState) { state.screen = .menu(cursor: 0) }
}

extension KioskState {
    /// The live board's rows as boxes at `now`: the leaders that fit at the minimum sizes,
    /// then "+N more" for the rest (paging comes with issue 15's item 3).
    public struct BoardBoxes: Sendable, Equatable {
        public struct Row: Sendable, Equatable {
            public var standing: Standing
            public var boxes: RowBoxes
        }
        public var geometry: Layout.BoardGeometry
        public var rows: [Row]
        public var more: RowBoxes?
    }

    public func boardBoxes(layout: Layout, now: Millis, minus: String) -> BoardBoxes {
        let standings = leaderboard.rows
        let geometry = layout.board(rows: standings.count)
        let columns = geometry.columns
        var rows: [BoardBoxes.Row] = []
        for (index, standing) in standings.enumerated() where index < geometry.shown {
            // A row sliding up from below the fold comes in from the "+N more" line.
            let slot = min(leaderboard.slot(of: standing.participantID, at: now), Double(geometry.shown))
            let rect = layout.boardRow(slot: slot, rows: standings.count)
            let mid = rect.midY
            let texts = [
                TextBox(
                    standing.positionLabel, .title, size: geometry.nameSize,
                    standing.position == 1 ? Palette.accent : Palette.textPrimary, span: columns.position, midY: mid),
                TextBox(
                    standing.name, .title, size: geometry.nameSize, Palette.textPrimary, span: columns.name, midY: mid,
                    ellipsized: true),
                TextBox(
                    ScoreFormat.progress(standing), .body, size: geometry.captionSize, Palette.textSecondary,
                    span: columns.progress, midY: mid, align: .center),
                TextBox(
                    ScoreFormat.toPar(standing.toPar, minus: minus), .score, size: geometry.scoreSize,
                    Palette.toPar(standing.toPar), span: columns.toPar, midY: mid, align: .right),
            ]
            rows.append(.init(standing: standing, boxes: RowBoxes(frame: rect, texts: texts)))
        }
        var more: RowBoxes?
        if geometry.hidden > 0 {
            let rect = layout.boardRow(slot: Double(geometry.shown), rows: standings.count)
            let span = Layout.Span(x: rect.x, w: rect.w)
            more = RowBoxes(
                frame: rect,
                texts: [
                    TextBox(
                        Layout.moreLine(shown: geometry.shown, of: standings.count),
                        .body, size: geometry.captionSize, Palette.textSecondary, span: span, midY: rect.midY,
                        align: .center, ellipsized: true)
                ])
        }
        return BoardBoxes(geometry: geometry, rows: rows, more: more)
    }
}
