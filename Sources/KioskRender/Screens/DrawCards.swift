import Foundation
import HyzerKit
import KioskCore

extension Painter {
    /// The draw: one box a card, its letter and start hole over its players; swapping
    /// outlines the player under the knob and fills the one picked first.
    func paint(_ drawn: Screen.DrawCards) {
        let texts = drawn.texts(in: state.data)
        let boxes = layout.drawCardsBoxes(
            title: texts.title, subtitle: texts.subtitle, cards: texts.cards, page: Int(state.clockPage))
        draw(boxes.title)
        draw(boxes.subtitle)
        for card in boxes.cards {
            canvas.fillRounded(card.frame, radius: layout.margin / 2, Palette.elevated)
            draw(card.header)
            for (name, player) in zip(card.names, card.players) {
                if let swap = drawn.swap {
                    let line = Rect(x: card.frame.x + 2, y: name.frame.y, w: card.frame.w - 4, h: name.frame.h)
                    if swap.picked == player {
                        canvas.fillRounded(line, radius: line.h * 0.2, Palette.accent)
                    } else if swap.cursor == player {
                        canvas.strokeRounded(
                            line, radius: line.h * 0.2, width: max(2, 3 * layout.scale), Palette.accent, inner: Palette.elevated)
                    }
                }
                var box = name
                if drawn.swap?.picked == player { box.color = Palette.background }
                draw(box)
            }
        }
        if boxes.pages > 1 {
            let page = Int(state.clockPage) % boxes.pages + 1
            canvas.text(
                "\(page)/\(boxes.pages)", .body, size: layout.captionFont, Palette.textSecondary,
                x: layout.width - layout.margin, midY: boxes.title.frame.midY, align: .right)
        }
        if drawn.cards != nil, drawn.swap == nil { paintChoices(Screen.DrawCards.choices, cursor: drawn.cursor) }
        paintFooter(
            drawn.swap == nil
                ? "Turn to choose · Press to confirm · Hold to go back"
                : drawn.swap?.picked == nil
                    ? "Turn to a player · Press to pick them · Hold to stop" : "Turn to a player on another card · Press to swap")
    }
}
