import Foundation

// Issue 36, league night: the rules that decide, pure, so the kiosk, the server's web board
// and `hyzer` all draw the same cards and count the same skins. Each rule is written out in
// docs/requirements.md ("League night").

/// Drawing a night's players into cards of 3 to 5.
public enum CardDraw {
    /// A card holds 3 to 5 players (fewer only when fewer turned up).
    public static let cardSizes: ClosedRange<Int> = 3...5

    /// How many players each card holds, first card first: as near 4 a card as the count
    /// allows (the usual card), sizes differing by at most one, the larger cards first.
    /// 13 players are 5, 4, 4; 30 are six cards of 4 and two of 3.
    public static func sizes(players count: Int) -> [Int] {
        guard count > 0 else { return [] }
        let fewest = (count + cardSizes.upperBound - 1) / cardSizes.upperBound
        let most = max(1, count / cardSizes.lowerBound)
        let cards = min(max(Int((Double(count) / 4).rounded()), fewest), most)
        return (0..<cards).map { count / cards + ($0 < count % cards ? 1 : 0) }
    }

    /// Random cards: the players shuffled by `generator`, dealt card after card. The
    /// generator's own shuffle, not the standard library's (which promises no sequence), so
    /// a seed draws the same cards on every machine and Swift version.
    public static func random(_ players: [UUID], using generator: inout SeededGenerator) -> [[UUID]] {
        var shuffled = players
        generator.shuffle(&shuffled)
        return deal(shuffled, sizes: sizes(players: players.count))
    }

    /// Balanced cards (the usual "by form" draw): players from best to worst are dealt in
    /// a snake (A B C, C B A, …), so every card gets a share of the strong and the weak.
    /// `form` is a player's recent average to par (lower is better); a player without one
    /// counts as the middle of the field. Ties keep the order given.
    public static func balanced(_ players: [UUID], form: [UUID: Double]) -> [[UUID]] {
        let known = form.values.sorted()
        let middle = known.isEmpty ? 0 : known[known.count / 2]
        let ranked = players.enumerated().sorted { a, b in
            let (fa, fb) = (form[a.element] ?? middle, form[b.element] ?? middle)
            return fa != fb ? fa < fb : a.offset < b.offset
        }.map(\.element)
        let sizes = sizes(players: players.count)
        var cards = sizes.map { _ in [UUID]() }
        var card = 0
        var step = 1
        for player in ranked {
            // Skip cards already full (the smaller ones fill first at the end of a pass).
            while cards[card].count >= sizes[card] { (card, step) = next(card, step, count: sizes.count) }
            cards[card].append(player)
            (card, step) = next(card, step, count: sizes.count)
        }
        return cards
    }

    /// The snake's next card: on to the end, then back.
    private static func next(_ card: Int, _ step: Int, count: Int) -> (Int, Int) {
        guard count > 1 else { return (0, 1) }
        let to = card + step
        if to < 0 || to >= count { return (card, -step) }
        return (to, step)
    }

    private static func deal(_ players: [UUID], sizes: [Int]) -> [[UUID]] {
        var rest = players[...]
        return sizes.map { size in
            defer { rest = rest.dropFirst(size) }
            return Array(rest.prefix(size))
        }
    }

    /// A shotgun start: card `index` of `cards` starts on a hole spread evenly around a
    /// course of `holes` (3 cards on 9 holes: 1, 4, 7). With more cards than holes, some
    /// start together.
    public static func startHole(card index: Int, of cards: Int, holes: Int) -> Int {
        guard cards > 0, holes > 0 else { return 1 }
        return index * holes / cards % holes + 1
    }

    /// "A", "B", … "Z", then "AA": a card's letter on the board.
    public static func letter(_ index: Int) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        return index < alphabet.count
            ? String(alphabet[index]) : letter(index / alphabet.count - 1) + String(alphabet[index % alphabet.count])
    }
}

/// The order a card plays a course in: from its start hole to the last, then round from
/// hole 1 (a shotgun start). A card that starts on hole 1 plays in course order.
public struct HoleOrder: Sendable, Hashable {
    public var start: Int
    public var holeCount: Int

    public init(start: Int, holeCount: Int) {
        self.holeCount = max(1, holeCount)
        self.start = (1...self.holeCount).contains(start) ? start : 1
    }

    /// Every hole, in the order played.
    public var holes: [Int] { (0..<holeCount).map { (start - 1 + $0) % holeCount + 1 } }

    /// The hole played after `hole`, nil after the last one of the card's round.
    public func after(_ hole: Int) -> Int? {
        let next = hole % holeCount + 1
        return next == start ? nil : next
    }

    /// The hole played before `hole`, nil before the first one.
    public func before(_ hole: Int) -> Int? {
        hole == start ? nil : (hole + holeCount - 2) % holeCount + 1
    }

    /// The first hole in this order that `isScored` says is not, nil when all are.
    public func firstUnscored(_ isScored: (Int) -> Bool) -> Int? { holes.first { !isScored($0) } }
}

/// Skins, gross (issue 36 item 5): one skin a hole; the lowest score on a hole, alone, wins
/// its skin and every skin carried to it; a tie carries them on to the next hole in course
/// order. docs/requirements.md, "Skins", has the rule in full.
public struct Skins: Sendable, Hashable {
    public enum Outcome: Sendable, Hashable {
        /// Won outright with `strokes`.
        case won(UUID, strokes: Int)
        /// Tied (or nobody scored it, in a finished round): its skins go on to the next hole.
        case carried
        /// Not everyone has played it yet.
        case open
        /// Decided, but a hole before it is still open: what it is worth is not known yet.
        case waiting
    }

    public struct Hole: Sendable, Hashable {
        public var hole: Int
        /// Skins riding on it: its own and those carried to it (0 while waiting or open
        /// behind an open hole).
        public var skins: Int
        public var outcome: Outcome
    }

    public var holes: [Hole]
    /// Skins still carried after the last hole: nobody won them.
    public var unclaimed: Int

    /// Skins won, by player.
    public var won: [UUID: Int] {
        var totals: [UUID: Int] = [:]
        for hole in holes { if case .won(let player, _) = hole.outcome { totals[player, default: 0] += hole.skins } }
        return totals
    }

    /// The game among `players` on a course of `holeCount` holes. `value` is a player's
    /// score on a hole (nil: none yet). `finished`: their rounds are over, so a player with
    /// no score on a hole no longer holds it open (and cannot win it).
    public init(players: [UUID], holeCount: Int, finished: Bool, value: (UUID, Int) -> Int?) {
        var holes: [Hole] = []
        var carried = 0
        var blocked = false
        for hole in 1...max(1, holeCount) {
            let scores = players.compactMap { player in value(player, hole).map { (player, $0) } }
            guard !players.isEmpty, scores.count == players.count || finished else {
                holes.append(Hole(hole: hole, skins: 0, outcome: .open))
                blocked = true
                continue
            }
            guard !blocked else {
                holes.append(Hole(hole: hole, skins: 0, outcome: .waiting))
                continue
            }
            let best = scores.map(\.1).min()
            let winners = scores.filter { $0.1 == best }
            let riding = carried + 1
            if winners.count == 1, let (player, strokes) = winners.first {
                holes.append(Hole(hole: hole, skins: riding, outcome: .won(player, strokes: strokes)))
                carried = 0
            } else {
                holes.append(Hole(hole: hole, skins: riding, outcome: .carried))
                carried = riding
            }
        }
        self.holes = holes
        unclaimed = blocked ? 0 : carried
    }

    /// Skins across several cards played as one game, or as one game per card.
    public static func games(_ cards: [[UUID]], perCard: Bool) -> [[UUID]] {
        perCard ? cards : [cards.flatMap { $0 }]
    }
}

/// The ace pot (issue 36 item 5): a running pot of the group. Every event adds the buy-in
/// of each player who opted in; an ace (a 1 on a hole) by anyone who opted in wins the pot,
/// split evenly among the night's aces, and the pot starts again from nothing. What a split
/// leaves over (whole units only) stays in the pot.
public struct AcePot: Sendable, Hashable {
    /// One event's part: who opted in at what buy-in, and who aced (once each per ace).
    public struct Night: Sendable, Hashable {
        public var optedIn: Set<UUID>
        public var aces: [UUID]
        public var buyIn: Int
        public init(optedIn: Set<UUID>, aces: [UUID], buyIn: Int) {
            self.optedIn = optedIn
            self.aces = aces
            self.buyIn = buyIn
        }
    }

    public struct Payout: Sendable, Hashable {
        public var night: Int
        public var player: UUID
        public var amount: Int
    }

    /// What is in the pot now, in the group's units (cents, or "dollars": the kiosk shows
    /// the number, not money).
    public var total: Int
    public var payouts: [Payout]

    /// The pot after `nights`, in the order played, on top of `carriedIn` (what the pot
    /// held before the first of them).
    public init(carriedIn: Int = 0, nights: [Night]) {
        var total = carriedIn
        var payouts: [Payout] = []
        for (index, night) in nights.enumerated() {
            total += night.buyIn * night.optedIn.count
            let winners = night.aces.filter(night.optedIn.contains)
            guard !winners.isEmpty else { continue }
            let share = total / winners.count
            for winner in winners { payouts.append(Payout(night: index, player: winner, amount: share)) }
            total -= share * winners.count
        }
        self.total = total
        self.payouts = payouts
    }
}
