import Foundation
import HyzerKit

/// Issue 35's "Undo" toast: for a few seconds after a kiosk action that can be undone
/// cheaply, a long press of the knob (or a tap on the toast) undoes it. The toast belongs
/// to the screen it was made on: the hole card for a score, round setup for a new player or
/// a guest. Moving on to another screen, or the time running out, takes it away; turning
/// the knob on its screen does not (someone may turn to look before deciding).
///
/// The undo itself is never a deletion: a score is withdrawn by a retraction event, a new
/// player taken off the roster by a removal, both synced (docs/sync-protocol.md).
public struct UndoToast: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// A score just saved at the hole card: the cell goes back to what it was.
        case score(roundID: UUID, participantID: UUID, hole: Int, strokes: Int)
        /// A registered player just made on the name wheel in setup: off the draft and the roster.
        case newPlayer(UUID)
        /// A walk-up guest just added in setup: off the draft (a guest exists nowhere else).
        case guest(UUID)
    }

    public var action: Action
    /// What was done, in a few words: "Nate 4 on hole 3".
    public var text: String
    public var shownAt: Millis

    public var expiresAt: Millis { shownAt + MotionTokens.undoToastLifetime }

    /// Whether the toast still belongs on `screen`.
    func belongs(on screen: Screen, round: RoundSnapshot?) -> Bool {
        switch (action, screen) {
        case (.score(let roundID, _, _, _), .holeCard): round?.round.id == roundID
        case (.newPlayer, .setupPlayers), (.guest, .setupPlayers): true
        default: false
        }
    }
}

extension MotionTokens {
    /// Long enough to see the mistake and reach for the knob; short enough that a long
    /// press soon after means the board again.
    public static let undoToastLifetime: Millis = 5_000
}

extension KioskState {
    /// The toast, while it shows at `now`.
    public func undoToast(at now: Millis) -> UndoToast? {
        guard let undoToast, now < undoToast.expiresAt else { return nil }
        return undoToast
    }

    /// Offers an undo for what was just done on the current screen.
    mutating func offerUndo(_ action: UndoToast.Action, _ text: String, now: Millis) {
        undoToast = UndoToast(action: action, text: text, shownAt: now)
    }

    /// Drops a toast that has run out or whose screen is gone.
    mutating func keepUndoToastCurrent(now: Millis) {
        guard let toast = undoToast else { return }
        if now >= toast.expiresAt || !toast.belongs(on: screen, round: data.round) { undoToast = nil }
    }

    /// A long press or a tap on the toast while it shows: undo, and say so.
    mutating func undo(now: Millis) -> [KioskEffect] {
        guard let toast = undoToast(at: now) else { return [] }
        undoToast = nil
        notice = Notice(text: "Undone: " + toast.text, kind: .info, shownAt: now)
        switch toast.action {
        case .score(let roundID, let participantID, let hole, let strokes):
            // Back on the card of that hole, on that row: the right score is one press away.
            let row = data.round?.round.participants.firstIndex { $0.id == participantID } ?? 0
            screen = .holeCard(hole: hole, cursor: row)
            return [
                .buzz(.confirm),
                .undoScore(roundID: roundID, participantID: participantID, hole: hole, strokes: strokes),
            ]
        case .newPlayer(let id):
            dropFromSetup(id)
            return [.buzz(.confirm), .undoNewPlayer(id)]
        case .guest(let id):
            dropFromSetup(id)
            return [.buzz(.confirm)]
        }
    }

    /// Takes someone just added off round setup's draft.
    private mutating func dropFromSetup(_ id: UUID) {
        guard case .setupPlayers(var setup) = screen else { return }
        setup.selected.removeAll { $0 == id }
        setup.guests.removeAll { $0.id == id }
        screen = .setupPlayers(setup)
    }
}

// MARK: Layout

extension Layout {
    /// The toast as boxes, over the bottom of the screen just above the footer: what was
    /// done, then an "Undo" button. `button` is its touch target (the whole toast answers
    /// a tap: at arm's length a finger is wider than the button).
    public struct UndoToastBoxes: Sendable, Equatable {
        public var frame: Rect
        public var button: Rect
        public var texts: [TextBox]
    }

    public static let undoLabel = "Undo · hold"

    public func undoToastBoxes(_ text: String) -> UndoToastBoxes {
        // The notice's size, but no larger than fits the words and the button on one line
        // (a portrait panel's footer is tall and its width narrow); past the minimum, the
        // words give way with an ellipsis.
        let padShare = 0.8
        let perPoint = Layout.textWidth(text + Layout.undoLabel, size: 1) + 5 * padShare
        let fits = Int((width - 2 * margin) / perPoint)
        let size = max(minimumTextSize, min(captionFont + 4, fits))
        let h = max(Layout.touchTarget, (Double(size) * 2.2).rounded())
        // Whole pixels: a rounded fill at a fractional edge shows a seam between its parts.
        let pad = (Double(size) * padShare).rounded()
        let buttonW = (Layout.textWidth(Layout.undoLabel, size: size) + 2 * pad).rounded(.up)
        let textW = min(Layout.textWidth(text, size: size), width - 2 * margin - buttonW - 3 * pad).rounded(.up)
        let w = min(width - 2 * margin, textW + buttonW + 3 * pad).rounded(.down)
        let frame = Rect(x: ((width - w) / 2).rounded(), y: (footer.y - h - margin / 2).rounded(), w: w, h: h)
        let inset = (h * 0.14).rounded()
        let button = Rect(x: frame.maxX - buttonW - inset, y: frame.y + inset, w: buttonW, h: h - 2 * inset)
        return UndoToastBoxes(
            frame: frame, button: button,
            texts: [
                TextBox(
                    text, .title, size: size, Palette.textPrimary,
                    span: Span(x: frame.x + pad, w: max(0, button.x - pad - frame.x - pad)), midY: frame.midY,
                    ellipsized: true),
                TextBox(
                    Layout.undoLabel, .title, size: size, Palette.background, span: Span(x: button.x, w: button.w),
                    midY: frame.midY, align: .center),
            ])
    }
}
