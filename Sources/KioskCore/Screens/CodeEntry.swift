import Foundation

extension Screen {
    /// The organizer code, entered with the knob (issue 35 item 1): turn to a digit, press
    /// to enter it; the last digit submits. A long press takes a digit back, or with none
    /// entered goes back where the code was asked for. Entered digits show as dots: the
    /// kiosk stands in public.
    public struct CodeEntry: Sendable, Equatable {
        public enum Step: Sendable, Equatable {
            /// The code asked for.
            case unlock
            /// No code yet: a new one...
            case choose
            /// ...entered again, to be sure of it.
            case confirm(first: [Int])
        }

        public enum Message: Sendable, Equatable {
            case wrong(triesLeft: Int)
            /// The new code entered again was not the same.
            case mismatch
        }

        public var action: LockedAction
        public var step: Step
        public var digits: [Int] = []
        /// The digit under the knob.
        public var dial = 0
        public var message: Message?
        /// The last digit went to the shell to be checked; nothing is taken until it answers.
        public var checking = false
        /// The code's length (the configured code's, or a new one's).
        public var length: Int
        /// While locked out: until when, and the whole seconds shown (the screen changes
        /// each second, so the display loop, which draws changed states, counts down).
        public var lockedUntil: Millis?
        public var secondsShown: Int?

        public init(action: LockedAction, step: Step, length: Int = OrganizerLock.chosenLength) {
            self.action = action
            self.step = step
            self.length = length
        }

        /// The code asked for, as `state`'s lock stands at `now`.
        init(action: LockedAction, step: Step, in state: KioskState, now: Millis) {
            let length = if case .set(let length) = state.settings.organizerLock { length } else { OrganizerLock.chosenLength }
            self.init(action: action, step: step, length: length)
            if let seconds = state.lock.lockedSeconds(at: now) {
                lockedUntil = state.lock.lockedUntil
                secondsShown = seconds
            }
        }

        public var title: String {
            switch step {
            case .unlock: "Organizer code"
            case .choose: "New organizer code"
            case .confirm: "New code, once more"
            }
        }

        /// What the code is for: "Needed to finish the round early."
        public var purpose: String { "Needed \(action.purpose)." }

        /// How it goes: a new code's step, a wrong code, the lock-out (nil: nothing to say).
        public var status: String? {
            if let secondsShown {
                return "\(OrganizerLock.maxTries) wrong codes: try again in \(secondsShown) s"
            }
            switch message {
            case .wrong(let left): return "Wrong code. \(left) \(left == 1 ? "try" : "tries") left."
            case .mismatch: return "Not the same code. Choose again."
            case nil: break
            }
            return switch step {
            case .unlock: nil
            case .choose: "Choose \(length) digits to be asked for."
            case .confirm: "The same \(length) digits again."
            }
        }
    }
}

extension Screen.CodeEntry: ScreenBehavior {
    var name: String {
        switch step {
        case .unlock: secondsShown == nil ? "code" : "code-locked"
        case .choose: "code-choose"
        case .confirm: "code-confirm"
        }
    }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        guard secondsShown == nil, !checking else { return [.buzz(.limit)] }
        var entry = self
        // A lock's dial: round and round, 9 next to 0.
        entry.dial = ((dial + steps) % 10 + 10) % 10
        state.screen = .codeEntry(entry)
        return []
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard secondsShown == nil, !checking else { return [.buzz(.limit)] }
        var entry = self
        entry.digits.append(dial)
        entry.message = nil
        guard entry.digits.count == length else {
            state.screen = .codeEntry(entry)
            return []
        }
        switch step {
        case .unlock:
            entry.checking = true
            state.screen = .codeEntry(entry)
            return [.checkOrganizerCode(entry.digits.map(String.init).joined())]
        case .choose:
            state.screen = .codeEntry(Screen.CodeEntry(action: action, step: .confirm(first: entry.digits), length: length))
            return []
        case .confirm(let first):
            guard first == entry.digits else {
                var again = Screen.CodeEntry(action: action, step: .choose, length: length)
                again.message = .mismatch
                state.screen = .codeEntry(again)
                return [.buzz(.error)]
            }
            return state.organizerCodeChosen(entry.digits, for: action, now: now)
        }
    }

    /// A digit back; with none entered, back where the code was asked for.
    func back(in state: inout KioskState) {
        guard !digits.isEmpty, secondsShown == nil, !checking else { return state.cancel(action) }
        var entry = self
        entry.dial = entry.digits.removeLast()
        state.screen = .codeEntry(entry)
    }

    /// A tap enters the digit under the dial, as a press does.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        pressed(in: &state, now: now)
    }

    /// Each second of a lock-out, and its end.
    var refreshDue: Millis? {
        guard let lockedUntil, let secondsShown else { return nil }
        return lockedUntil - Millis(secondsShown - 1) * 1_000
    }

    func refresh(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        state.screen = .codeEntry(Screen.CodeEntry(action: action, step: step, in: state, now: now))
        return []
    }
}

// MARK: Geometry

extension Layout {
    /// The code entry laid out: its title and what it says, then one slot a digit (the
    /// entered ones filled, the one being entered showing the dial's digit between ▲ and ▼,
    /// the rest empty), the block centred above the footer.
    public struct CodeEntryBoxes: Sendable, Equatable {
        public var title: TextBox
        public var purpose: TextBox
        public var status: TextBox?
        public var slots: [Rect]
        /// The dial's digit, in the slot being entered (nil while locked out or checking).
        public var digit: TextBox?
        /// The ▲ and ▼ above and below that slot: turning changes the digit.
        public var up: Rect?
        public var down: Rect?
    }

    public func codeEntryBoxes(
        title: String, purpose: String, status: String?, statusColor: RGB, length: Int, entered: Int, dial: Int?
    ) -> CodeEntryBoxes {
        let minimum = minimumTextSize
        let inner = Span(x: margin, w: width - 2 * margin)
        // The header's size, or less where the title would not fit the width (portrait).
        let fitting = inner.w / (Double(max(1, title.count)) * Layout.glyphAdvance)
        let titleSize = max(minimum, min(Layout.fontSize(header.h * 0.5), Int(fitting / 2) * 2))
        let detailSize = max(minimum, captionFont + 4)
        let line = { (size: Int) in (Double(size) * Layout.lineHeight).rounded(.up) }
        let titleRow = Rect(x: inner.x, y: (margin / 2).rounded(), w: inner.w, h: line(titleSize))
        let purposeRow = Rect(x: inner.x, y: titleRow.maxY, w: inner.w, h: line(detailSize))
        let statusRow = Rect(x: inner.x, y: purposeRow.maxY, w: inner.w, h: line(detailSize))
        // The slots: within four fifths of the width (gaps of a third of a slot), as tall as
        // the room under the texts allows with a marker above and below, 1.4× their width.
        let gap = 1.0 / 3
        let count = Double(max(1, length))
        let room = max(0, footer.y - margin / 2 - statusRow.maxY)
        let markerH = (room * 0.09).rounded()
        let slotH = min(((room - 2 * markerH) * 0.8).rounded(.down), 1.4 * inner.w * 0.8 / (count + (count - 1) * gap))
        let slotW = (slotH / 1.4).rounded(.down)
        let step = (slotW * (1 + gap)).rounded()
        let rowW = slotW + step * (count - 1)
        let top = (statusRow.maxY + (room - slotH) / 2).rounded()
        let left = ((width - rowW) / 2).rounded()
        let slots = (0..<max(1, length)).map { Rect(x: left + Double($0) * step, y: top, w: slotW, h: slotH) }
        var boxes = CodeEntryBoxes(
            title: TextBox(title, .title, size: titleSize, Palette.textPrimary, span: inner, midY: titleRow.midY, align: .center),
            purpose: TextBox(
                purpose, .body, size: detailSize, Palette.textSecondary, span: inner, midY: purposeRow.midY, align: .center,
                ellipsized: true),
            status: status.map {
                TextBox(
                    $0, .body, size: detailSize, statusColor, span: inner, midY: statusRow.midY, align: .center, ellipsized: true)
            },
            slots: slots)
        if let dial, entered < slots.count {
            let slot = slots[entered]
            let digitSize = max(minimum, Layout.fontSize(slot.h * 0.75 / Layout.lineHeight))
            boxes.digit = TextBox(
                "\(dial)", .score, size: digitSize, Palette.textPrimary, span: Span(x: slot.x, w: slot.w),
                midY: slot.midY, align: .center)
            let markerW = (slot.w * 0.4).rounded()
            let markerX = (slot.midX - markerW / 2).rounded()
            boxes.up = Rect(x: markerX, y: slot.y - markerH * 0.85, w: markerW, h: markerH * 0.6)
            boxes.down = Rect(x: markerX, y: slot.maxY + markerH * 0.25, w: markerW, h: markerH * 0.6)
        }
        return boxes
    }
}
