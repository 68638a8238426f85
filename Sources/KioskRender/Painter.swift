import CSDL2
import Foundation
import HyzerKit
import KioskCore

/// Draws one frame of a `KioskState`. All geometry comes from `Layout`, all colours from
/// `Palette`; nothing here decides anything about the round.
///
/// This file holds what every screen shares (footer, sync badge, notice, lists, centred text);
/// each screen's own drawing is a `paint(_:)` in Screens/<Name>.swift.
struct Painter {
    let canvas: Canvas
    let layout: Layout
    let state: KioskState
    let now: Millis
    let wallClock: Date

    static let minus = "\u{2212}"

    func paint() {
        canvas.clear(Palette.background)
        switch state.screen {
        case .board: paint(Screen.Board())
        case .menu(let menu): paint(menu)
        case .holeCard(let card): paint(card)
        case .entry(let entry): paint(entry)
        case .finalizePrompt(let prompt): paint(prompt)
        case .summary(let summary): paint(summary)
        case .setupCourse(let setup): paint(setup)
        case .setupPlayers(let setup): paint(setup)
        case .status(let status): paint(status)
        case .resolve(let resolve): paint(resolve)
        case .finishRound(let finish): paint(finish)
        case .join(let join): paint(join)
        case .history(let history): paint(history)
        case .chooseRound(let choose): paint(choose)
        case .nameEntry(let entry): paint(entry)
        case .addPhone(let add): paint(add)
        case .courseList(let list): paint(list)
        case .courseEditor(let editor): paint(editor)
        case .deleteCourse(let question): paint(question)
        case .confirmRound(let confirm): paint(confirm)
        case .codeEntry(let entry): paint(entry)
        case .paperCard(let card): paint(card)
        case .correctScore(let correction): paint(correction)
        case .undoConfirm(let question): paint(question)
        case .players(let players): paint(players)
        case .checkIn(let checkIn): paint(checkIn)
        case .drawCards(let draw): paint(draw)
        case .sideGames(let games): paint(games)
        case .stats(let stats): paint(stats)
        }
        // The status screen lists the storage fault among its facts; over its buttons it would only hide them.
        let statusFacts: Bool = if case .status = state.screen { true } else { false }
        let toast = state.undoToast(at: now).map { layout.undoToastBoxes($0.text) }
        if let toast { paintUndoToast(toast) }
        if !(statusFacts && state.notice?.text == state.storageWarning) { paintNotice(above: toast?.frame) }
        // Idle: the whole frame under black, so any panel dims (HDMI has no backlight to turn down).
        if state.dimmed {
            canvas.fill(Rect(x: 0, y: 0, w: layout.width, h: layout.height), RGB(0x000000), alpha: 1 - state.settings.dimLevel)
        }
    }

    // MARK: Shared pieces

    func toPar(_ value: Int) -> String { ScoreFormat.toPar(value, minus: Self.minus) }

    var footerMid: Double { layout.footer.midY }

    func paintFooter(_ hints: String) {
        canvas.text(
            hints, .body, size: layout.captionFont, Palette.textSecondary, x: layout.width / 2, midY: footerMid,
            align: .center, maxWidth: layout.width - 2 * layout.margin)
    }

    /// Offline badge and "last synced" time, top right (hidden when sync is not set up).
    func paintSync(midY: Double) {
        guard let badge = SyncBadge(state.sync, wallClock: wallClock) else { return }
        var x = layout.width - layout.margin
        if badge.refused > 0 {
            // Permanent rejections (A1 `failed`) stay visible until someone deals with them.
            x -=
                canvas.text(
                    "\(badge.refused) not accepted by the server", .body, size: layout.captionFont, Palette.wayOver,
                    x: x, midY: midY, align: .right) + Double(layout.captionFont)
        }
        canvas.text(
            badge.text, .body, size: layout.captionFont, badge.color, x: x, midY: midY, align: .right,
            maxWidth: layout.width * 0.35)
    }

    /// Over the footer, or above the undo toast while it shows (a save's storage warning
    /// and its toast can meet).
    func paintNotice(above toast: Rect? = nil) {
        guard let notice = state.notice else { return }
        let size = layout.captionFont + 4
        let w = min(layout.width - 2 * layout.margin, canvas.measure(notice.text, .title, size: size) + 4 * layout.margin)
        let h = Double(size) * 2.2
        let bottom = toast.map { $0.y } ?? layout.footer.y
        let rect = Rect(x: (layout.width - w) / 2, y: bottom - h - layout.margin / 2, w: w, h: h)
        let edge = notice.kind == .error ? Palette.wayOver : Palette.accent
        canvas.strokeRounded(rect, radius: h / 2, width: max(2, 3 * layout.scale), edge, inner: Palette.elevated)
        canvas.text(
            notice.text, .title, size: size, Palette.textPrimary, x: rect.midX, midY: rect.midY, align: .center,
            maxWidth: w - 2 * layout.margin)
    }

    /// "Nate 4 on hole 3  [Undo · hold]": the accent ring of an info notice, and the
    /// button filled, so the way out reads first.
    func paintUndoToast(_ toast: Layout.UndoToastBoxes) {
        let h = toast.frame.h
        // A whole-pixel ring: an inset by a fraction leaves a seam where the fill's parts meet.
        let ring = max(2, (3 * layout.scale).rounded())
        canvas.strokeRounded(toast.frame, radius: h / 2, width: ring, Palette.accent, inner: Palette.elevated)
        canvas.fillRounded(toast.button, radius: toast.button.h / 2, Palette.accent)
        for text in toast.texts { draw(text) }
    }

    func paintCentered(_ title: String, detail: String?) {
        let big = Layout.fontSize(layout.height * 0.09)
        canvas.text(
            title, .title, size: big, Palette.textPrimary, x: layout.width / 2, midY: layout.height * 0.42,
            align: .center, maxWidth: layout.width - 2 * layout.margin)
        if let detail {
            canvas.text(
                detail, .body, size: Layout.fontSize(layout.height * 0.045), Palette.textSecondary,
                x: layout.width / 2, midY: layout.height * 0.55, align: .center,
                maxWidth: layout.width - 2 * layout.margin)
        }
    }

    // MARK: Boxes

    /// Draws a text box from KioskCore's layout: free text is ellipsized to the box with the
    /// real glyph widths; fixed text (a position, a score) was given room by the layout and
    /// is only scaled down if a face ever runs wider than the layout's advance allows.
    func draw(_ box: TextBox, alpha: Double = 1) {
        let align: Canvas.Align =
            switch box.align {
            case .left: .left
            case .center: .center
            case .right: .right
            }
        let text = box.ellipsized ? fitted(box.text, box.role, size: box.size, width: box.frame.w) : box.text
        canvas.text(
            text, box.role, size: box.size, box.color, x: box.anchorX, midY: box.frame.midY, align: align,
            alpha: alpha, maxWidth: box.frame.w)
    }

    func fitted(_ text: String, _ role: FontRole, size: Int, width: Double) -> String {
        canvas.fitted(text, role, size: size, width: width)
    }

    /// Draws `body` with everything outside `rect` left untouched (rows scrolling under a header).
    func clipped(to rect: Rect, _ body: () -> Void) { canvas.clipped(to: rect, body) }

    // MARK: Lists

    struct ListItem {
        var title: String
        var detail: String? = nil
        var checked: Bool? = nil
        var isAction = false
    }

    func paintList(title: String, subtitle: String, items: [ListItem], cursor: Int, hints: String) {
        paintListTitle(title, subtitle)
        for (index, item) in items.enumerated() {
            guard let rect = layout.listRow(index, rows: items.count, cursor: cursor) else { continue }
            let radius = rect.h * 0.25
            let selected = index == cursor
            if item.isAction && selected {
                canvas.fillRounded(rect, radius: radius, Palette.accent)
            } else if selected {
                canvas.strokeRounded(
                    rect, radius: radius, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: radius, Palette.elevated)
            }
            let textColor = item.isAction ? (selected ? Palette.background : Palette.accent) : Palette.textPrimary
            let (row, checkbox) = layout.listRowBoxes(
                rect, title: item.title, detail: item.detail, checkbox: item.checked != nil, color: textColor,
                // On the accent fill of a chosen action, the grey of a detail would not read.
                detailColor: item.isAction && selected ? Palette.background : Palette.textSecondary)
            if let box = checkbox, let checked = item.checked {
                if checked {
                    canvas.fillRounded(box, radius: box.h * 0.25, Palette.accent)
                    canvas.text(
                        "✓", .score, size: Layout.fontSize(box.h * 0.8), Palette.background, x: box.midX, midY: box.midY,
                        align: .center)
                } else {
                    canvas.strokeRounded(
                        box, radius: box.h * 0.25, width: max(2, 3 * layout.scale), Palette.textSecondary,
                        inner: Palette.elevated)
                }
            }
            for text in row.texts { draw(text) }
        }
        if items.count > layout.visibleListRows {
            canvas.text(
                "\(cursor + 1) / \(items.count)", .body, size: layout.captionFont, Palette.textSecondary,
                x: layout.width - layout.margin, midY: footerMid, align: .right)
        }
        paintFooter(hints)
    }
}
