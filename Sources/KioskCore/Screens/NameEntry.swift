import Foundation
import HyzerKit

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
        }

        public var purpose: Purpose
        public var wheel: NameWheel
        /// The on-screen keyboard is up instead of the wheel's strip: a touch brings it, a turn
        /// of the knob takes it away.
        public var keyboard = false
        /// A new player's name that a registered player already has, said once: Done again
        /// with the same name picks that player instead of registering a second one.
        public var sameNameAs: UUID?

        /// Opens the wheel with the names this kiosk knows behind it: its registered players, the
        /// guests of its current and last rounds, and the bundled list (`state.nameList`).
        public init(_ purpose: Purpose, in state: KioskState) {
            let data = state.data
            let guests = [data.round, data.lastCompleted].compactMap { $0 }.flatMap(\.round.participants)
                .filter(\.isGuest).map(\.name)
            self.purpose = purpose
            wheel = NameWheel(
                predictor: NamePredictor(bundled: state.nameList, players: data.players.map(\.displayName), guests: guests))
        }

        /// The heading: what the name is for.
        public var title: String {
            switch purpose {
            case .newPlayer: "New player's name"
            case .courseName(let editor): editor.isNew ? "New course's name" : "Course name"
            case .guest: "Guest's name"
            }
        }

        /// Where a long press (and a finished entry) goes back to.
        /// Out of the screen, nothing saved: back where the name was asked for.
        func back(in state: inout KioskState) {
            switch purpose {
            case .newPlayer(let setup), .guest(let setup): state.screen = .setupPlayers(setup)
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
                return [.buzz(.confirm), .addPlayer(player)]
            case .guest(var setup):
                // A guest follows a player's rules for a name (it shows on the same board).
                let guest: Participant
                do {
                    guest = try Participant.guest(named: try Player(displayName: name).displayName)
                } catch let error as PlayerError {
                    return state.refuse(Self.sentence(error), now: now)
                } catch {
                    return state.refuse("Enter a name first", now: now)
                }
                setup.guests.append(guest)
                setup.selected.append(guest.id)
                setup.cursor = setup.rows(in: state.data).firstIndex(of: .start) ?? setup.cursor
                state.screen = .setupPlayers(setup)
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
        public var title: TextBox
        public var field: RowBoxes
        /// The wheel's strip, or the keyboard's keys.
        public var cells: [Cell]
        public var completions: [Cell]
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

    public func nameEntryBoxes(_ entry: Screen.NameEntry) -> NameEntryBoxes {
        let wheel = entry.wheel
        let area = Rect(x: margin, y: header.maxY, w: width - 2 * margin, h: footer.y - header.maxY)
        let minimum = minimumTextSize
        let title = TextBox(
            entry.title, .title, size: max(minimum, headerFont), Palette.textPrimary,
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
        return NameEntryBoxes(
            title: title, field: field, cells: cells, completions: completionRow(at: wheelRect.maxY + gap))
    }
}
