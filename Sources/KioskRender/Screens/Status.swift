import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The maintainer's status screen: sections of labelled facts, in two columns on a
    /// landscape screen, and the two buttons along the bottom.
    func paint(_ status: Screen.Status) {
        let head = layout.listTitle
        canvas.text(
            "Status", .title, size: Layout.fontSize(head.h * 0.5), Palette.textPrimary, x: head.x,
            midY: head.y + head.h * 0.36, maxWidth: layout.width - 2 * layout.margin)
        let facts = layout.statusFactBoxes(state.statusSections(wallClock: wallClock), page: state.statusFactPage(at: now))
        let subtitle = state.status.map { "Hyzer \($0.version) · \($0.addresses.first ?? "no network")" } ?? ""
        canvas.text(
            subtitle, .body, size: Layout.fontSize(head.h * 0.26), Palette.accent, x: head.x, midY: head.y + head.h * 0.84,
            maxWidth: layout.width - 2 * layout.margin - (facts.indicator?.frame.w ?? 0))
        for (index, (rect, item)) in zip(layout.statusButtons(count: StatusItem.allCases.count), StatusItem.allCases)
            .enumerated()
        {
            let selected = index == status.cursor
            if selected {
                canvas.strokeRounded(
                    rect, radius: rect.h * 0.25, width: max(2, 4 * layout.scale), Palette.accent, inner: Palette.elevated)
            } else {
                canvas.fillRounded(rect, radius: rect.h * 0.25, Palette.elevated)
            }
            canvas.text(
                item.title, .title, size: Layout.fontSize(rect.h * 0.42), Palette.textPrimary, x: rect.midX, midY: rect.midY,
                align: .center, maxWidth: rect.w - rect.h * 0.6)
        }
        // After the buttons: facts that ever ran over them would show, not hide behind them.
        paintStatusFacts(facts)
        paintFooter("Turn to choose · Press to select · Hold to go back")
    }

    /// The facts as KioskCore laid them out (`Layout.statusFactBoxes`), on their page.
    private func paintStatusFacts(_ boxes: Layout.StatusFactBoxes) {
        for row in boxes.rows {
            for text in row.texts { draw(text) }
        }
        if let indicator = boxes.indicator { draw(indicator) }
    }
}
