import Foundation
import HyzerKit

extension Screen {
    /// League night, step 2 (issue 36 item 2): the cards as drawn, each with its letter,
    /// start hole and players, big enough to photograph; Start, Swap two players, Draw again
    /// (at random), Back. The first draw is balanced by recent form (`CardDraw.balanced`,
    /// the form read by the shell: `readForm` → `formRead`); "Draw again" deals at random,
    /// seeded from the clock. Swapping: turn to a player, press, turn to one on another
    /// card, press; they change places.
    public struct DrawCards: Sendable, Equatable {
        public var checkIn: CheckIn
        /// The cards, card A first; nil while the form is being read.
        public var cards: [[Participant]]?
        /// Balanced by form, or at random ("Draw again").
        public var random: Bool
        /// 0 = start, 1 = swap, 2 = draw again, 3 = back.
        public var cursor: Int
        /// Swapping: the player under the cursor (an index into every card's players, card
        /// A first) and the one picked first.
        public var swap: Swap?

        public struct Swap: Sendable, Equatable {
            public var cursor: Int
            public var picked: Int?
        }

        public init(
            checkIn: CheckIn, cards: [[Participant]]? = nil, random: Bool = false, cursor: Int = 0, swap: Swap? = nil
        ) {
            self.checkIn = checkIn
            self.cards = cards
            self.random = random
            self.cursor = cursor
            self.swap = swap
        }

        public static let choices = ["Start the night", "Swap two", "Draw again", "Back"]

        /// Each card's start hole on `course`: spread round it (a shotgun start).
        public static func startHoles(cards: Int, course: Course?) -> [Int] {
            (0..<cards).map { CardDraw.startHole(card: $0, of: cards, holes: course?.holeCount ?? 1) }
        }

        /// The players in card order, flattened: what the swap cursor walks.
        public var everyone: [Participant] { (cards ?? []).flatMap { $0 } }

        /// Card and place of the `index`th player of `everyone`.
        func place(_ index: Int) -> (card: Int, slot: Int)? {
            var rest = index
            for (card, players) in (cards ?? []).enumerated() {
                if rest < players.count { return (card, rest) }
                rest -= players.count
            }
            return nil
        }

        /// The plan the shell makes the night from.
        public func plan(in data: KioskData) -> LeagueNightPlan? {
            guard let cards, let course = checkIn.course(in: data) else { return nil }
            let holes = Self.startHoles(cards: cards.count, course: course)
            let everyone = cards.flatMap { $0 }
            return LeagueNightPlan(
                courseID: course.id,
                cards: zip(cards, holes).map { LeagueNightPlan.Card(participants: $0, startHole: $1) },
                skins: checkIn.skins, closestToPin: checkIn.closestToPin, net: checkIn.net,
                acePot: checkIn.acePot > 0
                    ? LeagueEvent.AcePotEntry(
                        buyIn: checkIn.acePot, players: everyone.map(\.id).filter { !checkIn.acePotOut.contains($0) }) : nil)
        }

        /// A draw of `players` with `form` (balanced) or from `seed` (random).
        static func draw(_ players: [Participant], form: [UUID: Double], random seed: UInt64?) -> [[Participant]] {
            let byID = Dictionary(players.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a })
            let ids = players.map(\.id)
            let drawn: [[UUID]]
            if let seed {
                var generator = SeededGenerator(seed: seed)
                drawn = CardDraw.random(ids, using: &generator)
            } else {
                drawn = CardDraw.balanced(ids, form: form)
            }
            return drawn.map { $0.compactMap { byID[$0] } }
        }
    }
}

/// What the kiosk's "Start the night" asks the shell to make: the cards with their start
/// holes, and the night's side games (issue 36).
public struct LeagueNightPlan: Sendable, Equatable {
    public struct Card: Sendable, Equatable {
        public var participants: [Participant]
        public var startHole: Int
    }

    public var courseID: UUID
    public var cards: [Card]
    public var skins: LeagueEvent.SkinsGame
    public var closestToPin: [Int]
    public var net: Bool
    public var acePot: LeagueEvent.AcePotEntry?
}

extension KioskState {
    /// The form the balanced draw waited for: the cards are dealt.
    mutating func formRead(_ form: [UUID: Double]) {
        guard case .drawCards(var draw) = screen, draw.cards == nil else { return }
        draw.cards = Screen.DrawCards.draw(draw.checkIn.participants(in: data), form: form, random: nil)
        screen = .drawCards(draw)
    }
}

extension Screen.DrawCards: ScreenBehavior {
    var name: String { "draw-cards" }

    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] {
        guard let swap else {
            return state.moveCursor(cursor, by: steps, count: Self.choices.count) {
                var draw = self
                draw.cursor = $0
                return .drawCards(draw)
            }
        }
        return state.moveCursor(swap.cursor, by: steps, count: everyone.count) {
            var draw = self
            draw.swap?.cursor = $0
            return .drawCards(draw)
        }
    }

    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard let cards else { return [] }  // still drawing
        var draw = self
        if let swap {
            guard let picked = swap.picked else {
                draw.swap?.picked = swap.cursor
                state.screen = .drawCards(draw)
                return []
            }
            guard let a = place(picked), let b = place(swap.cursor), a.card != b.card else {
                draw.swap?.picked = nil
                state.screen = .drawCards(draw)
                return state.refuse("Pick a player on another card", now: now)
            }
            var swapped = cards
            (swapped[a.card][a.slot], swapped[b.card][b.slot]) = (cards[b.card][b.slot], cards[a.card][a.slot])
            draw.cards = swapped
            draw.swap = nil
            draw.cursor = 0
            state.screen = .drawCards(draw)
            return [.buzz(.confirm)]
        }
        switch cursor {
        case 0:
            guard let plan = plan(in: state.data) else { return state.refuse("Pick a course first", now: now) }
            // The cards appear with the next data change, on the night's board.
            state.screen = .board
            return [.buzz(.confirm), .startLeagueNight(plan)]
        case 1:
            guard everyone.count > 1, cards.count > 1 else { return state.refuse("One card: nobody to swap with", now: now) }
            draw.swap = Swap(cursor: 0, picked: nil)
        case 2:
            // Seeded from the clock: a script replays the same draw.
            draw.cards = Self.draw(everyone, form: [:], random: UInt64(max(0, now)))
            draw.random = true
        default:
            state.screen = .checkIn(checkIn)
            return []
        }
        state.screen = .drawCards(draw)
        return []
    }

    /// Swapping: stop (a pick is dropped). Otherwise back to check-in, everyone still in.
    func back(in state: inout KioskState) {
        guard swap == nil else {
            var draw = self
            draw.swap = nil
            state.screen = .drawCards(draw)
            return
        }
        state.screen = .checkIn(checkIn)
    }

    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        guard swap == nil else { return [] }
        return state.touchChoices(layout, x: x, y: y, count: Self.choices.count, now: now) {
            var draw = self
            draw.cursor = $0
            return .drawCards(draw)
        }
    }

    /// A player removed elsewhere: back to check-in, which no longer has them.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {
        let known = Set(state.data.players.map(\.id)).union(checkIn.guests.map(\.id))
        guard everyone.allSatisfy({ known.contains($0.id) }) else {
            state.screen = .checkIn(checkIn)
            let behavior = state.screen.behavior
            behavior.dataChanged(from: old, in: &state, now: now)
            return
        }
    }
}

extension Layout {
    /// The draw as the group photographs it: a title, then one box a card (its letter and
    /// start hole, then its players) in a grid over the area above the buttons, at the
    /// largest size every card fits at. Past what fits at the minimum size, the cards page
    /// with the clock (`page`), "Cards A–D · 1/2" by the title.
    public struct DrawCardsBoxes: Sendable, Equatable {
        public struct Card: Sendable, Equatable {
            public var frame: Rect
            public var header: TextBox
            public var names: [TextBox]
            /// Each name's index in `DrawCards.everyone`, for the swap cursor.
            public var players: [Int]
        }

        public var title: TextBox
        public var subtitle: TextBox
        public var cards: [Card]
        /// Cards per page and pages in all (1 when everything fits).
        public var perPage: Int
        public var pages: Int
    }

    /// `cards`: each card's header ("A · hole 1") and names. `page` counts from 0 and wraps.
    public func drawCardsBoxes(
        title: String, subtitle: String, cards: [(header: String, names: [String])], page: Int
    )
        -> DrawCardsBoxes
    {
        let minimum = minimumTextSize
        let (titleBox, subtitleBox) = headingBoxes(title: title, subtitle: subtitle, subtitleColor: Palette.textSecondary)
        let top = max(listTitle.maxY, subtitleBox.frame.maxY) + margin / 2
        let area = Rect(x: margin, y: top, w: width - 2 * margin, h: statusButtonRow.y - margin / 2 - top)
        let gap = margin / 2
        let lines = Double(1 + (cards.map(\.names.count).max() ?? 0))
        // A name is read whole at about 11 characters; longer ones give way with an ellipsis.
        let nameChars = 11.0
        func size(columns: Int, rows: Int) -> (size: Double, cell: (w: Double, h: Double)) {
            let w = (area.w - gap * Double(columns - 1)) / Double(columns)
            let h = (area.h - gap * Double(rows - 1)) / Double(rows)
            let pad = gap
            return (min((h - pad) / (lines * Layout.lineHeight), (w - 2 * pad) / (nameChars * Layout.glyphAdvance)), (w, h))
        }
        let count = max(1, cards.count)
        // The grid that lets the largest type fit, every card on one page.
        var best = (columns: 1, rows: count, size: 0.0)
        for columns in 1...count {
            let rows = (count + columns - 1) / columns
            let fit = size(columns: columns, rows: rows).size
            if fit > best.size { best = (columns, rows, fit) }
        }
        var perPage = count
        var grid = (columns: best.columns, rows: best.rows)
        if Layout.fontSize(best.size) < minimum {
            // At the minimum: as many whole cards a page as fit, paging with the clock.
            let cellH = lines * Layout.lineHeight * Double(minimum) + gap
            let cellW = nameChars * Layout.glyphAdvance * Double(minimum) + 2 * gap
            let rows = max(1, Int((area.h + gap) / (cellH + gap)))
            let columns = max(1, Int((area.w + gap) / (cellW + gap)))
            grid = (columns, rows)
            perPage = max(1, rows * columns)
        }
        let pages = (cards.count + perPage - 1) / perPage
        let shown = pages <= 1 ? 0 : ((page % pages) + pages) % pages
        let fontSize = max(minimum, Layout.fontSize(size(columns: grid.columns, rows: grid.rows).size))
        let cellW = (area.w - gap * Double(grid.columns - 1)) / Double(grid.columns)
        let cellH = (area.h - gap * Double(grid.rows - 1)) / Double(grid.rows)
        let lineH = Double(fontSize) * Layout.lineHeight
        var firstPlayer = cards.prefix(shown * perPage).map(\.names.count).reduce(0, +)
        var boxes: [DrawCardsBoxes.Card] = []
        for (slot, card) in cards.dropFirst(shown * perPage).prefix(perPage).enumerated() {
            let column = slot % grid.columns
            let row = slot / grid.columns
            let frame = Rect(
                x: (area.x + Double(column) * (cellW + gap)).rounded(), y: (area.y + Double(row) * (cellH + gap)).rounded(),
                w: cellW.rounded(.down), h: cellH.rounded(.down))
            let inner = Span(x: frame.x + gap, w: frame.w - 2 * gap)
            let header = TextBox(
                card.header, .title, size: fontSize, Palette.accent, span: inner, midY: frame.y + gap / 2 + lineH / 2,
                ellipsized: true)
            let names = card.names.enumerated().map { index, name in
                TextBox(
                    name, .body, size: fontSize, Palette.textPrimary, span: inner,
                    midY: header.frame.maxY + lineH * (Double(index) + 0.5), ellipsized: true)
            }
            boxes.append(
                DrawCardsBoxes.Card(
                    frame: frame, header: header, names: names, players: Array(firstPlayer..<(firstPlayer + names.count))))
            firstPlayer += names.count
        }
        return DrawCardsBoxes(title: titleBox, subtitle: subtitleBox, cards: boxes, perPage: perPage, pages: max(1, pages))
    }
}

extension Screen.DrawCards {
    /// The title, subtitle and cards as the screen shows them.
    public func texts(in data: KioskData) -> (title: String, subtitle: String, cards: [(header: String, names: [String])]) {
        let course = checkIn.course(in: data)
        guard let cards else { return ("Drawing the cards…", course?.name ?? "", []) }
        let holes = Self.startHoles(cards: cards.count, course: course)
        let players = cards.map(\.count).reduce(0, +)
        var side: [String] = []
        if checkIn.net { side.append("net") }
        if checkIn.skins != .off { side.append(checkIn.skins == .field ? "skins: field" : "skins: each card") }
        if !checkIn.closestToPin.isEmpty { side.append("CTP " + checkIn.closestToPin.map(String.init).joined(separator: ", ")) }
        if checkIn.acePot > 0 {
            let out = checkIn.acePotOut.count
            side.append("ace pot \(checkIn.acePot)" + (out > 0 ? " · \(players - out) in" : ""))
        }
        return (
            "League night · \(players) players · \(cards.count) card\(cards.count == 1 ? "" : "s")",
            ([course?.name ?? "", random ? "drawn at random" : "balanced by form"] + side).joined(separator: " · "),
            zip(cards, holes).enumerated().map { index, card in
                ("\(CardDraw.letter(index)) · hole \(card.1)", card.0.map { $0.isGuest ? "\($0.name) (guest)" : $0.name })
            }
        )
    }
}

extension KioskState {
    /// When a paging draw turns its page next; nil when none is on show or it fits.
    func drawPageFlip(after now: Millis) -> Millis? {
        guard case .drawCards(let draw) = screen else { return nil }
        let texts = draw.texts(in: data)
        let boxes = Layout(viewport: viewport).drawCardsBoxes(
            title: texts.title, subtitle: texts.subtitle, cards: texts.cards, page: 0)
        return boxes.pages > 1 ? clockPageFlip(after: now) : nil
    }
}
