import Foundation
import HyzerKit

/// Where typing a name on a phone stands, as the shell reports it (`KioskEvent.phoneNameChanged`;
/// issue 32): the shell asks the group server for a code and waits for the name; the machine
/// only shows what it is told. The name itself comes as `KioskEvent.phoneNameArrived`.
public enum PhoneNameProgress: Sendable, Equatable {
    /// Asking the server.
    case requesting
    /// The link a phone opens (shown as a QR code) and how long it lasts, in seconds.
    case ready(url: String, expiresIn: Int)
    /// Its minutes are over and nobody typed a name.
    case expired
    /// No code can be had (offline, refused): the sentence says why. The wheel still works.
    case failed(String)
}

extension Screen {
    /// Entering a name with the knob: the character wheel (`NameWheel`), the text so far and
    /// up to three completions. Done hands the name to `purpose`; a long press leaves without
    /// saving anything.
    ///
    /// Another use (a guest, a course's name) is a `Purpose` case: where it came from, what
    /// done does with the name (`finish`) and where back goes (`back`).
    public struct NameEntry: Sendable, Equatable {
        public enum Purpose: Sendable, Equatable {
            /// A new registered player, from round setup's player list; back there, with them picked.
            case newPlayer(from: SetupPlayers)
            /// A course's name, for the course editor (a new course is named first).
            case courseName(CourseEditor)
            /// A walk-up guest's name (this round only); back to setup with them picked.
            case guest(from: SetupPlayers)
            /// A walk-up guest at a league night's check-in (issue 36); back there, checked in.
            case checkInGuest(from: CheckIn)
        }

        public var purpose: Purpose
        public var wheel: NameWheel
        /// The on-screen keyboard is up instead of the wheel's strip: a touch brings it, a turn
        /// of the knob takes it away.
        public var keyboard = false
        /// A new player's name that a registered player already has, said once: Done again
        /// with the same name picks that player instead of registering a second one.
        public var sameNameAs: UUID?
        /// Typing the name on a phone instead (issue 32: the knob takes 9–16 actions a name,
        /// a phone's keyboard a few taps in any script): nil in no group, where the wheel is
        /// all there is. Asked for when the screen opens (`KioskState.followPhoneName`).
        public var phone: PhoneNameProgress?
        /// The name a phone sent, now in the wheel (its code is spent: no new one is shown).
        public var fromPhone: String?
        /// The code was asked for again once after expiring while the screen was up.
        var phoneRenewed = false

        /// Opens the wheel with the names this kiosk knows behind it: its registered players, the
        /// guests of its current and last rounds, and the bundled list (`state.nameList`); for
        /// a course, the group's course names and their words instead.
        public init(_ purpose: Purpose, in state: KioskState) {
            let data = state.data
            let guests = [data.round, data.lastCompleted].compactMap { $0 }.flatMap(\.round.participants)
                .filter(\.isGuest).map(\.name)
            self.purpose = purpose
            if case .courseName = purpose {
                wheel = NameWheel(predictor: NamePredictor(courseNames: data.courses.map(\.name)))
            } else {
                wheel = NameWheel(
                    predictor: NamePredictor(bundled: state.nameList, players: data.players.map(\.displayName), guests: guests))
            }
        }

        /// The heading: what the name is for.
        public var title: String {
            switch purpose {
            case .newPlayer: "New player's name"
            case .courseName(let editor): editor.isNew ? "New course's name" : "Course name"
            case .guest, .checkInGuest: "Guest's name"
            }
        }

        /// The heading over the wheel: the title, and where the name came from while the
        /// phone's name is in it untouched.
        public var headline: String {
            guard let fromPhone, wheel.text == fromPhone else { return title }
            return "\(title) · from a phone"
        }

        /// The footer's line: what the knob does now.
        public var hint: String {
            if keyboard { return "Tap to type · Turn the knob for the wheel · Hold to go back" }
            if let fromPhone, wheel.text == fromPhone, wheel.selected == .done {
                return "Press to use it · Turn to change it · Hold to go back"
            }
            return "Turn to choose · Press to add · Hold to go back"
        }

        /// The code for a phone while one is on offer: the link to draw as a QR code (nil
        /// while the server is asked) and the caption under it. nil once a name came, the
        /// code failed or expired for good, and while the on-screen keyboard is up (someone
        /// is typing here; its keys need the width).
        public var phoneCode: (url: String?, caption: String)? {
            guard fromPhone == nil, !keyboard else { return nil }
            switch phone {
            case .requesting: return (nil, Self.phoneCaption)
            case .ready(let url, _): return (url, Self.phoneCaption)
            case .expired, .failed, nil: return nil
            }
        }

        public static let phoneCaption = "Type it on your phone"

        /// The phone's part of `entry`, for the same screen rebuilt (the name list arriving).
        mutating func keepPhone(of entry: NameEntry) {
            phone = entry.phone
            fromPhone = entry.fromPhone
            phoneRenewed = entry.phoneRenewed
        }

        /// Where a long press (and a finished entry) goes back to.
        /// Out of the screen, nothing saved: back where the name was asked for.
        func back(in state: inout KioskState) {
            switch purpose {
            case .newPlayer(let setup), .guest(let setup): state.screen = .setupPlayers(setup)
            case .checkInGuest(let checkIn): state.screen = .checkIn(checkIn)
            // A new course that has no name yet has no editor to go back to.
            case .courseName(let editor) where editor.isNew && editor.draft.name.isEmpty: editor.leave(in: &state)
            case .courseName(let editor): state.screen = .courseEditor(editor)
            }
        }

        /// What done does with a name the wheel accepted: refuse it (the message stays on
        /// screen, nothing is returned) or hand it on.
        func finish(_ name: String, in state: inout KioskState, now: Millis) -> [KioskEffect] {
            switch purpose {
            case .newPlayer(var setup):
                // Player's own rules (not empty, short enough for the board), said on the screen.
                let player: Player
                do {
                    player = try Player(displayName: name)
                } catch {
                    return state.refuse(Self.sentence(error), now: now)
                }
                if let existing = state.data.players.first(where: {
                    $0.displayName.caseInsensitiveCompare(player.displayName) == .orderedSame
                }) {
                    guard sameNameAs == existing.id else {
                        var asked = self
                        asked.sameNameAs = existing.id
                        state.screen = .nameEntry(asked)
                        return state.refuse("\(existing.displayName) is already registered: Done again picks them", now: now)
                    }
                    if !setup.selected.contains(existing.id) { setup.selected.append(existing.id) }
                    // The question is answered: its notice would only say it again.
                    state.notice = nil
                    state.screen = .setupPlayers(setup)
                    return [.buzz(.confirm)]
                }
                setup.selected.append(player.id)
                // The new row comes with the data change; Start is then one row further down.
                setup.cursor = (setup.rows(in: state.data).firstIndex(of: .start) ?? setup.cursor) + 1
                state.screen = .setupPlayers(setup)
                // Made by mistake, they would stay on the roster: a moment to take it back.
                state.offerUndo(.newPlayer(player.id), "Added \(player.displayName)", now: now)
                return [.buzz(.confirm), .addPlayer(player)]
            case .guest(var setup):
                let guest: Participant
                switch Self.guest(named: name) {
                case .success(let named): guest = named
                case .failure(let refusal): return state.refuse(refusal.sentence, now: now)
                }
                setup.guests.append(guest)
                setup.selected.append(guest.id)
                setup.cursor = setup.rows(in: state.data).firstIndex(of: .start) ?? setup.cursor
                state.screen = .setupPlayers(setup)
                state.offerUndo(.guest(guest.id), "Added guest \(guest.name)", now: now)
                return [.buzz(.confirm)]
            case .checkInGuest(var checkIn):
                let guest: Participant
                switch Self.guest(named: name) {
                case .success(let named): guest = named
                case .failure(let refusal): return state.refuse(refusal.sentence, now: now)
                }
                checkIn.guests.append(guest)
                checkIn.checkedIn.append(guest.id)
                checkIn.cursor = checkIn.rows(in: state.data).firstIndex(of: .draw) ?? checkIn.cursor
                state.screen = .checkIn(checkIn)
                return [.buzz(.confirm)]
            case .courseName(var editor):
                let trimmed: String
                do { trimmed = try Course.validName(name) } catch {
                    return state.refuse(Screen.CourseEditor.sentence(error), now: now)
                }
                if let taken = editor.nameTaken(trimmed, in: state.data) { return state.refuse(taken, now: now) }
                editor.draft.name = trimmed
                state.screen = .courseEditor(editor)
                return []
            }
        }

        /// Why a guest's name was refused, as the screen says it.
        struct Refusal: Error {
            var sentence: String
        }

        /// A walk-up guest of this name: a guest follows a player's rules for a name (it
        /// shows on the same board), in round setup and at a league night's check-in alike.
        static func guest(named name: String) -> Result<Participant, Refusal> {
            do {
                return .success(try Participant.guest(named: try Player(displayName: name).displayName))
            } catch let error as PlayerError {
                return .failure(Refusal(sentence: sentence(error)))
            } catch {
                return .failure(Refusal(sentence: "Enter a name first"))
            }
        }

        static func sentence(_ error: PlayerError) -> String {
            switch error {
            case .emptyName: "Enter a name first"
            case .nameTooLong: "A name has at most \(Player.maxNameLength) characters"
            }
        }
    }
}

extension Screen.NameEntry: ScreenBehavior {
    var name: String { "name-entry" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        var entry = self
        entry.keyboard = false
        entry.wheel.turn(steps)
        state.screen = .nameEntry(entry)
        return []
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        take(wheel.selected, in: &state, now: now)
    }

    /// The item pressed, or tapped: typing goes on, a refusal is said, done hands the name on.
    func take(_ item: NameWheel.Item, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        var entry = self
        switch entry.wheel.take(item) {
        case .typing:
            state.screen = .nameEntry(entry)
            return []
        case .refused(let message):
            return state.refuse(message, now: now)
        case .finished(let name):
            return finish(name, in: &state, now: now)
        }
    }

    var takesTyping: Bool { true }

    /// A USB keyboard: each character is taken as if chosen on the wheel (so the same rules
    /// refuse what the wheel refuses), including letters the wheel lacks ("José", "Łukasz"):
    /// a keyboard can type them, and the board draws any script. Control characters are dropped.
    func typed(_ key: TypedKey, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        switch key {
        case .delete: return take(.delete, in: &state, now: now)
        case .done: return take(.done, in: &state, now: now)
        case .text(let text):
            var effects: [KioskEffect] = []
            for character in text {
                guard case .nameEntry(let current) = state.screen else { break }
                guard !character.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                    continue
                }
                effects += current.take(.character(character), in: &state, now: now)
            }
            return effects
        }
    }

    /// A touch brings up the on-screen keyboard; then a tap on a key or a completion takes it.
    /// A tap on the wheel's strip takes that cell as well. Anywhere else types nothing (a stray
    /// touch must not type).
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        let boxes = layout.nameEntryBoxes(self)
        var entry = self
        entry.keyboard = true
        state.screen = .nameEntry(entry)
        guard let hit = (boxes.cells + boxes.completions).first(where: { $0.row.frame.contains(x: x, y: y) }) else {
            return []
        }
        return entry.take(hit.item, in: &state, now: now)
    }
}

// MARK: A name typed on a phone

extension Screen {
    /// On the name entry, whether it asked for a phone's code; nil on any other screen.
    var phoneNameAsked: Bool? {
        guard case .nameEntry(let entry) = self else { return nil }
        return entry.phone != nil
    }
}

extension KioskState {
    /// Opening the name entry in a group asks the shell for a phone's code; leaving it, by
    /// any way (back, done, the idle time-out, a round ending under it), tells the shell to
    /// stop waiting. In no group nothing is asked: the wheel alone, as before. `asked` is
    /// `Screen.phoneNameAsked` before the event.
    mutating func followPhoneName(asked: Bool?) -> [KioskEffect] {
        guard case .nameEntry(var entry) = screen else {
            return asked == true ? [.cancelPhoneName] : []
        }
        guard asked == nil, entry.phone == nil, !isInNoGroup else { return [] }
        entry.phone = .requesting
        screen = .nameEntry(entry)
        return [.requestPhoneName(label: entry.title)]
    }

    /// The shell's report on the code, shown while the name entry that asked is up. An
    /// expired code is asked for again once, quietly: someone still at the wheel after its
    /// minutes may yet reach for a phone, and the code changing under nobody's eyes costs
    /// nothing. A second expiry, or a failure (offline), takes the code away without a
    /// buzz: the wheel works as it always did, and nobody asked for the phone.
    mutating func phoneNameChanged(_ progress: PhoneNameProgress) -> [KioskEffect] {
        guard case .nameEntry(var entry) = screen, entry.phone != nil, entry.fromPhone == nil else { return [] }
        if progress == .expired, !entry.phoneRenewed {
            entry.phoneRenewed = true
            entry.phone = .requesting
            screen = .nameEntry(entry)
            return [.requestPhoneName(label: entry.title)]
        }
        entry.phone = progress
        screen = .nameEntry(entry)
        return []
    }

    /// A name typed on the phone: it replaces the wheel's text, with the cursor on Done, so
    /// a press hands it to the purpose's `finish` and every rule of a name typed here
    /// applies (a name too long for the board is refused on screen, and the wheel mends
    /// it). Only the name entry showing a code takes it; any other screen ignores it.
    mutating func phoneNameArrived(_ name: String, now: Millis) -> [KioskEffect] {
        guard case .nameEntry(var entry) = screen, entry.fromPhone == nil, case .ready = entry.phone else { return [] }
        // As from a keyboard: control characters (a pasted line break) are dropped.
        let typed = String(name.filter { !$0.unicodeScalars.contains { $0.properties.generalCategory == .control } })
            .trimmingCharacters(in: .whitespaces)
        guard !typed.isEmpty else { return [] }
        entry.fromPhone = typed
        entry.keyboard = false
        entry.wheel.replaceText(with: typed)
        screen = .nameEntry(entry)
        notice = Notice(text: "From a phone: \(typed) — press to use it", kind: .info, shownAt: now)
        return [.buzz(.confirm)]
    }
}

// MARK: Layout

extension Layout {
    /// The name entry screen as boxes: the text so far, then either the wheel (a strip of cells
    /// centred on the cursor) or, once the screen is touched, an on-screen keyboard, and the
    /// completions as a row of their own (tappable, and lit when the wheel is on one).
    /// Everything is at least the minimum text size and the touch target.
    public struct NameEntryBoxes: Sendable, Equatable {
        public struct Cell: Sendable, Equatable {
            public var item: NameWheel.Item
            /// Detents from the cursor (0: under it); nil for a key of the on-screen keyboard.
            public var offset: Int?
            public var row: RowBoxes
        }
        /// A QR code's square and its caption's lines (the caption wraps in a narrow column).
        public struct PhoneCode: Sendable, Equatable {
            public var square: Rect
            public var caption: [TextBox]
        }
        public var title: TextBox
        public var field: RowBoxes
        /// The wheel's strip, or the keyboard's keys.
        public var cells: [Cell]
        public var completions: [Cell]
        /// Where the code for typing the name on a phone goes, while one is on offer
        /// (`Screen.NameEntry.phoneCode`).
        public var phone: PhoneCode?
    }

    /// The on-screen keyboard's rows (the last one is Space, Del, Done).
    static let keyRows: [[NameWheel.Item]] =
        ["qwertyuiop", "asdfghjkl", "zxcvbnm-'"].map { $0.map { .character($0) } } + [[.character(" "), .delete, .done]]

    /// What a wheel item says on screen.
    public static func label(_ item: NameWheel.Item) -> String {
        switch item {
        case .character(" "): "Space"
        case .character(let character): character.uppercased()
        // Short, so five cells fit a portrait panel at the minimum size.
        case .delete: "Del"
        case .done: "Done"
        case .completion(let name): name
        }
    }

    /// Edges on whole pixels: rounded cards drawn at fractional edges leave seams.
    static func pixels(_ rect: Rect) -> Rect {
        let x = rect.x.rounded()
        let y = rect.y.rounded()
        return Rect(x: x, y: y, w: rect.maxX.rounded() - x, h: rect.maxY.rounded() - y)
    }

    /// A cell's text gets 88% of its width (the rest is the gaps between cells and around the text).
    static let cellTextShare = 0.88

    /// `items` side by side across `rect`, each as one cell; completions give way with an ellipsis.
    func cellRow(
        _ items: [NameWheel.Item], in rect: Rect, size: Int, color: (NameWheel.Item, Int) -> RGB,
        offset: (NameWheel.Item, Int) -> Int?
    ) -> [NameEntryBoxes.Cell] {
        let width = rect.w / Double(max(items.count, 1))
        let gap = max(2, width * (1 - Layout.cellTextShare) / 3)
        return items.enumerated().map { n, item in
            let frame = Self.pixels(Rect(x: rect.x + Double(n) * width + gap / 2, y: rect.y, w: width - gap, h: rect.h))
            let isCompletion = if case .completion = item { true } else { false }
            let text = TextBox(
                Layout.label(item), isCompletion ? .body : .title, size: size, color(item, n),
                span: Span(x: frame.x + gap, w: frame.w - 2 * gap), midY: frame.midY, align: .center,
                ellipsized: isCompletion)
            return NameEntryBoxes.Cell(item: item, offset: offset(item, n), row: RowBoxes(frame: frame, texts: [text]))
        }
    }

    /// The side of the phone code's square: a third of the panel's short side, as the add-phone
    /// screen's least (a phone's camera at an arm's length reads it on the 800×480 panel).
    var nameEntryPhoneSide: Double { (min(width, height) / 3).rounded(.down) }

    /// Whether the phone code stands beside the wheel (a landscape panel: a column at the
    /// right, which still leaves the strip seven cells at every size) or under it (portrait,
    /// where the height is to spare and the width is not).
    var nameEntryPhoneBeside: Bool { width >= height * 1.2 }

    public func nameEntryBoxes(_ entry: Screen.NameEntry) -> NameEntryBoxes {
        let wheel = entry.wheel
        let phone = entry.phoneCode != nil
        let side = nameEntryPhoneSide
        let beside = phone && nameEntryPhoneBeside
        // Beside the code, the wheel's bands give up its column and a margin.
        let area = Rect(
            x: margin, y: header.maxY, w: width - 2 * margin - (beside ? side + margin : 0), h: footer.y - header.maxY)
        let minimum = minimumTextSize
        let title = TextBox(
            entry.headline, .title, size: max(minimum, headerFont), Palette.textPrimary,
            span: Span(x: margin, w: width - 2 * margin), midY: header.midY, ellipsized: true)

        // The wheel: three bands (the text, the strip, the completions); the keyboard: the text,
        // the completions and four rows of keys. A tall portrait panel does not make them taller
        // than a landscape one of the same width would.
        let bands = entry.keyboard ? 6.6 : 3.6
        let rowHeight = max(
            Layout.touchTarget, Double(minimum) * 2, min(area.h / bands, min(width, height) * 0.22).rounded(.down))
        let gap = Layout.rowGap(rowHeight) * (entry.keyboard ? 1 : 2)
        let fieldRect = Self.pixels(Rect(x: area.x, y: area.y + gap, w: area.w, h: rowHeight))
        // The text shrinks to stay whole as it grows, never under the minimum (then it gives way
        // at the end, which the renderer ellipsizes).
        let shown = wheel.text + "_"
        let fitting = Layout.fontSize(
            (fieldRect.w - 2 * margin) / (Double(max(shown.count, 1)) * Layout.glyphAdvance) - 1)
        let fieldSize = max(minimum, min(Layout.fontSize(rowHeight * 0.55), fitting))
        let field = RowBoxes(
            frame: fieldRect,
            texts: [
                TextBox(
                    shown, .title, size: fieldSize, Palette.textPrimary,
                    span: Span(x: fieldRect.x + margin, w: fieldRect.w - 2 * margin), midY: fieldRect.midY,
                    ellipsized: true)
            ])

        let cellSize = max(minimum, Layout.fontSize(rowHeight * 0.4))
        let names = wheel.completions
        func completionRow(at y: Double) -> [NameEntryBoxes.Cell] {
            let rect = Rect(x: area.x, y: y, w: area.w, h: max(Layout.touchTarget, rowHeight * 0.8))
            guard !names.isEmpty, rect.maxY <= area.maxY + 0.5 else { return [] }
            return cellRow(
                names.map { .completion($0) }, in: rect, size: max(minimum, Layout.fontSize(rect.h * 0.45)),
                color: { item, _ in wheel.selected == item && !entry.keyboard ? Palette.accent : Palette.textSecondary },
                offset: { item, _ in entry.keyboard ? nil : wheel.detents(to: item) })
        }

        if entry.keyboard {
            let completions = completionRow(at: fieldRect.maxY + gap)
            var y = fieldRect.maxY + gap + (names.isEmpty ? 0 : max(Layout.touchTarget, rowHeight * 0.8) + gap)
            var keys: [NameEntryBoxes.Cell] = []
            for row in Self.keyRows {
                // Letter rows keep the top row's key width, centred; the last row is three wide keys.
                let keyWidth = row.count == 3 ? area.w / 3 : area.w / Double(Self.keyRows[0].count)
                let w = keyWidth * Double(row.count)
                let rect = Rect(x: area.x + (area.w - w) / 2, y: y, w: w, h: rowHeight)
                // As large as the row's widest label ("W", "Space") allows in its key.
                let widest = row.map { Layout.textWidth(Layout.label($0), size: 1) }.max() ?? 1
                keys += cellRow(
                    row, in: rect, size: max(minimum, min(cellSize, Int(keyWidth * Layout.cellTextShare / widest / 2) * 2)),
                    color: { _, _ in Palette.textPrimary }, offset: { _, _ in nil })
                y += rowHeight + gap
            }
            return NameEntryBoxes(title: title, field: field, cells: keys, completions: completions)
        }

        // The strip: an odd number of cells, each wide enough for "Space" at the cell's size,
        // which is as large as lets seven cells fit (never under the minimum: then fewer fit).
        let wheelRect = Rect(x: area.x, y: fieldRect.maxY + gap, w: area.w, h: rowHeight)
        // (7.5: seven with room to spare, so rounding never leaves only five.)
        let sevenFit = Int(wheelRect.w / 7.5 * Layout.cellTextShare / Layout.textWidth("Space", size: 1) / 2) * 2
        let stripSize = max(minimum, min(cellSize, sevenFit))
        let widest = Layout.textWidth("Space", size: stripSize) / Layout.cellTextShare + 6
        var visible = max(1, Int(wheelRect.w / max(widest, Layout.touchTarget)))
        if visible % 2 == 0 { visible -= 1 }
        visible = min(visible, wheel.ring.count)
        let ring = wheel.ring.count
        let items = (0..<visible).map { wheel.ring[((wheel.cursor + $0 - visible / 2) % ring + ring) % ring] }
        let cells = cellRow(
            items, in: wheelRect, size: stripSize,
            color: { _, slot in slot == visible / 2 ? Palette.accent : Palette.textPrimary },
            offset: { _, slot in slot - visible / 2 })
        var code: NameEntryBoxes.PhoneCode?
        if phone {
            // Beside: level with the text so far; under: below where the completions go (also
            // when there are none, so the code does not move as they come and go).
            let below = wheelRect.maxY + gap + max(Layout.touchTarget, rowHeight * 0.8) + gap
            let column = beside ? Span(x: width - margin - side, w: side) : Span(x: area.x, w: area.w)
            code = phoneCodeBoxes(
                column: column, top: beside ? fieldRect.y : below, side: side, caption: Screen.NameEntry.phoneCaption)
        }
        return NameEntryBoxes(
            title: title, field: field, cells: cells, completions: completionRow(at: wheelRect.maxY + gap), phone: code)
    }

    /// The phone code's square, centred in `column` from `top`, and its caption under it,
    /// wrapped to the column at the minimum size. Under the wheel the square gives way to
    /// the caption when the footer is near (a short portrait panel).
    func phoneCodeBoxes(column: Span, top: Double, side: Double, caption: String) -> NameEntryBoxes.PhoneCode {
        let size = max(minimumTextSize, captionFont)
        let lineH = (Double(size) * Layout.lineHeight).rounded(.up)
        let chars = max(8, Int(column.w / (Double(size) * Layout.glyphAdvance)))
        let lines = Self.wrap(caption, chars: chars)
        let gap = (margin / 2).rounded()
        let room = footer.y - margin / 2 - top - gap - Double(lines.count) * lineH
        let fitted = max(0, min(side, room)).rounded(.down)
        let square = Rect(x: (column.x + (column.w - fitted) / 2).rounded(.down), y: top.rounded(.down), w: fitted, h: fitted)
        let boxes = lines.enumerated().map { index, line in
            TextBox(
                line, .body, size: size, Palette.textSecondary, span: column,
                midY: square.maxY + gap + (Double(index) + 0.5) * lineH, align: .center)
        }
        return NameEntryBoxes.PhoneCode(square: square, caption: boxes)
    }
}
