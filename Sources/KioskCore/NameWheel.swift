import Foundation
import HyzerKit

/// Names with weights, indexed once by every prefix, so each press of the name wheel is one
/// dictionary lookup instead of a scan of thousands of names.
///
/// Keys fold case and diacritics ("zoe" finds "Zoë"): the wheel only has plain letters, and
/// a completion still enters the name as it is spelled.
public final class NameLexicon: Sendable, Equatable {
    public struct Candidate: Sendable, Equatable {
        public var name: String
        public var weight: Double
        public init(name: String, weight: Double) { (self.name, self.weight) = (name, weight) }
    }

    /// What follows one prefix: the weight of each next character, of names ending here, and
    /// the heaviest names that go on past it.
    struct Node: Sendable {
        var next: [Character: Double] = [:]
        var end: Double = 0
        var total: Double = 0
        var top: [Candidate] = []
    }

    /// Up to this many completions are kept per prefix (the wheel offers three).
    static let keptCompletions = 3
    /// The longest context of the letter model that backs the prefixes up, in characters.
    static let contextLength = 3
    static let start: Character = "^"
    static let end: Character = "$"

    let nodes: [String: Node]
    /// Context (up to `contextLength` folded characters, `^` for the start) to the count of each
    /// following character (`$` for the end). Each name counts once, whatever its frequency:
    /// this model is for names on no list, and rare spellings tell more about them than James.
    let contexts: [String: [Character: Double]]
    /// Names indexed.
    public let count: Int

    public static let empty = NameLexicon([])

    /// Built once and never changed: the same index is the same value.
    public static func == (lhs: NameLexicon, rhs: NameLexicon) -> Bool { lhs === rhs }

    /// `entries` may repeat a name (by key); repeats add up and keep the first spelling.
    public init(_ entries: [Candidate]) {
        var merged: [String: Candidate] = [:]
        var order: [String] = []
        for entry in entries {
            let name = entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = Self.key(name)
            guard !key.isEmpty, entry.weight > 0 else { continue }
            if merged[key] == nil {
                order.append(key)
                merged[key] = Candidate(name: name, weight: 0)
            }
            merged[key]?.weight += entry.weight
        }
        var nodes: [String: Node] = [:]
        var contexts: [String: [Character: Double]] = [:]
        for key in order {
            guard let candidate = merged[key] else { continue }
            let characters = Array(key)
            for length in 0...characters.count {
                // Changed in place, one lookup a prefix: a copy taken out and stored back
                // would copy its `next` and `top` on every name (most of the index's build
                // time, measured).
                let next = length < characters.count ? characters[length] : nil
                Self.count(candidate, followedBy: next, in: &nodes[String(characters[..<length]), default: Node()])
            }
            let sequence = [Self.start] + characters + [Self.end]
            for index in 1..<sequence.count {
                for length in 0...min(Self.contextLength, index) {
                    contexts[String(sequence[(index - length)..<index]), default: [:]][sequence[index], default: 0] += 1
                }
            }
        }
        self.nodes = nodes
        self.contexts = contexts
        self.count = order.count
    }

    /// Reads `name<TAB>weight` lines (the bundled assets/first-names.tsv); `#` starts a comment.
    public convenience init(tsv: String) {
        let entries = tsv.split(whereSeparator: \.isNewline).compactMap { line -> Candidate? in
            guard !line.hasPrefix("#") else { return nil }
            let fields = line.split(separator: "\t")
            guard fields.count >= 2, let weight = Double(fields[1]) else { return nil }
            return Candidate(name: String(fields[0]), weight: weight)
        }
        self.init(entries)
    }

    /// The form names are looked up by.
    public static func key(_ text: some StringProtocol) -> String {
        // Plain ASCII folds to its lower case: the common case by far (most of the bundled
        // list), without Foundation's folding, which costs several microseconds a name.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    func node(_ prefix: String) -> Node? { nodes[prefix] }

    /// Whether `name` is one of the names indexed (folded as the wheel folds).
    public func contains(_ name: String) -> Bool { (nodes[Self.key(name)]?.end ?? 0) > 0 }

    /// `candidate` passing through `node`'s prefix: on to `next`, or ending there (nil).
    private static func count(_ candidate: Candidate, followedBy next: Character?, in node: inout Node) {
        node.total += candidate.weight
        guard let next else {
            node.end += candidate.weight
            return
        }
        node.next[next, default: 0] += candidate.weight
        keep(candidate, in: &node.top)
    }

    /// The heaviest first, ties by spelling so the order never depends on the input's.
    private static func keep(_ candidate: Candidate, in top: inout [Candidate]) {
        top.append(candidate)
        top.sort { ($0.weight, $1.name) > ($1.weight, $0.name) }
        if top.count > keptCompletions { top.removeLast() }
    }

    /// How likely each character is to follow `key`, from the letter model alone: the longest
    /// contexts that were seen, each shorter one mixed in with a smaller share.
    func letterModel(after key: String) -> [Character: Double] {
        let history = [Self.start] + Array(key)
        var result: [Character: Double] = [:]
        var share = 1.0
        for length in stride(from: min(Self.contextLength, history.count), through: 0, by: -1) {
            let context = String(history[(history.count - length)...])
            guard let counts = contexts[context] else { continue }
            let total = counts.values.reduce(0, +)
            // The longest context that was seen leads; the rest break its ties and cover
            // letters it never saw.
            let weight = length == 0 ? share : share * NameWheel.Tuning.longestContextShare
            for (character, count) in counts { result[character, default: 0] += weight * count / total }
            share -= weight
        }
        return result
    }
}

/// Where the wheel's likelihoods come from: the bundled list, and the names this kiosk has
/// seen (registered players, recent guests), which outweigh any name on the list.
public struct NamePredictor: Sendable, Equatable {
    public var bundled: NameLexicon
    public var local: NameLexicon

    /// A registered player weighs this much: more than the commonest name on the bundled list
    /// (James, 3.3), so the people who play here come first.
    public static let playerWeight = 5.0
    /// A guest from a recent round: less than a player, still above nearly every listed name.
    public static let guestWeight = 2.0

    public init(bundled: NameLexicon = .empty, local: NameLexicon = .empty) {
        self.bundled = bundled
        self.local = local
    }

    public init(bundled: NameLexicon, players: [String], guests: [String]) {
        let entries =
            players.map { NameLexicon.Candidate(name: $0, weight: Self.playerWeight) }
            + guests.map { NameLexicon.Candidate(name: $0, weight: Self.guestWeight) }
        self.init(bundled: bundled, local: NameLexicon(entries))
    }

    public static func == (lhs: NamePredictor, rhs: NamePredictor) -> Bool {
        lhs.bundled === rhs.bundled && lhs.local === rhs.local
    }

    /// What may follow `text`: a score for each character and for ending here (comparable, not
    /// normalised), and up to three completions with theirs.
    func predictions(after text: String) -> (characters: [Character: Double], end: Double, completions: [NameLexicon.Candidate]) {
        let key = NameLexicon.key(text)
        let nodes = [bundled.node(key), local.node(key)].compactMap { $0 }
        let total = nodes.reduce(0) { $0 + $1.total }
        let model = bundled.letterModel(after: key)
        var characters: [Character: Double] = [:]
        // A prefix some name has: its next letters lead, the letter model only orders the rest.
        // A prefix no name has (a name on no list): the letter model alone.
        let modelShare = total > 0 ? NameWheel.Tuning.modelShareOnList : 1
        for (character, p) in model where character != NameLexicon.end { characters[character] = modelShare * p }
        var end = modelShare * (model[NameLexicon.end] ?? 0)
        var completions: [String: NameLexicon.Candidate] = [:]
        for node in nodes {
            for (character, weight) in node.next { characters[character, default: 0] += weight / total }
            end += node.end / total
            for candidate in node.top {
                completions[NameLexicon.key(candidate.name), default: NameLexicon.Candidate(name: candidate.name, weight: 0)]
                    .weight += candidate.weight / total
            }
        }
        let best = completions.values.sorted { ($0.weight, $1.name) > ($1.weight, $0.name) }
        return (characters, end, Array(best.prefix(NameLexicon.keptCompletions)))
    }

    /// How surprising `name` is to these predictions, in bits: each next letter's share of
    /// `predictions(after:)` (letters and the end), over the whole name and its end. Nil when
    /// the name has a character the wheel lacks.
    ///
    /// No wheel that turns to an item and presses it can beat this on average: after a press,
    /// c actions reach at most 2c - 1 items, so an action carries at most log2(1 + √2) bits
    /// (`bitsPerAction`). `hyzer-bench name-entry` divides by it to tell a layout that wastes
    /// detents from predictions too weak for a goal.
    public func information(of name: String) -> Double? {
        let target = Array(NameLexicon.key(name))
        guard !target.isEmpty, target.allSatisfy(NameWheel.characters.contains) else { return nil }
        var bits = 0.0
        for k in 0...target.count {
            let (characters, end, _) = predictions(after: String(target[..<k]))
            let total = characters.values.reduce(end, +)
            let share = (k < target.count ? characters[target[k]] ?? 0 : end) / total
            // A letter no name and no context has ever had: as unlikely as the least likely
            // one the wheel knows, not infinitely so (the wheel still offers it).
            bits -= log2(max(share, 1e-6))
        }
        return bits
    }

    /// The most a turn-and-press action can tell (see `information(of:)`): the wheel's
    /// layouts after c actions, 1 for c = 1 and 2 more for each further detent, grow as
    /// (1 + √2)^c.
    public static let bitsPerAction = log2(1 + 2.0.squareRoot())
}

/// The character wheel for entering a name with the knob: letters, space, hyphen, apostrophe,
/// delete, done, and up to three completions, on one ring. Turn to choose, press to take.
///
/// After each press the ring is laid out again around the cursor: the likeliest choice under
/// it, then alternately one detent clockwise and one anticlockwise in falling likelihood, so
/// the next letter is usually a detent or two away. Pure: the screen and `hyzer-bench
/// name-entry` drive the same value.
public struct NameWheel: Sendable, Equatable {
    public enum Item: Sendable, Hashable {
        case character(Character)
        case delete
        case done
        /// A whole name that starts with what is typed: taking it finishes the entry, as
        /// tapping a suggested name does ("Ja…", Jake appears, tap).
        case completion(String)
    }

    public enum Outcome: Sendable, Equatable {
        case typing
        /// Done was pressed on a name that may be used (trimmed), or a completion was taken.
        case finished(String)
        /// Nothing changed; the message says why, for the screen.
        case refused(String)
    }

    /// Knobs of the layout, set by `hyzer-bench name-entry`'s figures.
    enum Tuning {
        /// On a prefix some listed name has, how much the letter model counts next to the names
        /// (0.3 beat 0.05: a name leaving the list early is ordered sooner by its letters).
        static let modelShareOnList = 0.3
        /// A completion's likelihood against a letter's. Boosting it (2-4, as it saves the rest of
        /// the name) cost more than it saved: it pushed the likely letters a detent further on
        /// every press, and names on no list paid for it (measured with hyzer-bench name-entry).
        static let completionBoost = 1.0
        /// Delete sits among the likely letters, a few detents away (0.04 put it nearer, at
        /// 0.1 actions a letter more for every name).
        static let deleteScore = 0.02
        /// The longest context seen takes this share of the letter model; shorter ones the rest.
        static let longestContextShare = 0.6
    }

    /// The characters the wheel offers, in the order that breaks ties.
    public static let characters: [Character] = Array("abcdefghijklmnopqrstuvwxyz -'")
    /// Longer names do not fit the board's name column at its smallest size (HyzerKit's limit).
    public static let maxLength = Player.maxNameLength

    public private(set) var text: String
    /// The ring, clockwise; `ring[cursor]` is under the cursor.
    public private(set) var ring: [Item]
    public private(set) var cursor: Int
    public let predictor: NamePredictor

    public init(text: String = "", predictor: NamePredictor) {
        self.text = text
        self.predictor = predictor
        ring = []
        cursor = 0
        layOut()
    }

    public var selected: Item { ring[cursor] }

    /// The completions on the ring, likeliest first.
    public var completions: [String] {
        ranked.compactMap { if case .completion(let name) = $0 { name } else { nil } }
    }

    /// The ring's items from the likeliest (under the cursor after a press) outwards.
    public private(set) var ranked: [Item] = []

    /// Turns by `steps` detents; the ring wraps.
    public mutating func turn(_ steps: Int) {
        cursor = ((cursor + steps) % ring.count + ring.count) % ring.count
    }

    /// Detents from the cursor to `item` the short way round (nil: not on the ring), signed.
    public func detents(to item: Item) -> Int? {
        guard let index = ring.firstIndex(of: item) else { return nil }
        let forward = ((index - cursor) % ring.count + ring.count) % ring.count
        return forward <= ring.count / 2 ? forward : forward - ring.count
    }

    /// Takes the item under the cursor.
    public mutating func press() -> Outcome { take(selected) }

    /// Takes `item` as if the cursor were on it (a tap, a key on a keyboard).
    public mutating func take(_ item: Item) -> Outcome {
        switch item {
        case .character(let character):
            guard text.count < Self.maxLength else {
                return .refused("A name has at most \(Self.maxLength) characters")
            }
            if character == " ", text.isEmpty || text.last == " " { return .refused("A name starts with a letter") }
            text.append(Self.capitalized(character, after: text.last))
        case .delete:
            guard !text.isEmpty else { return .refused("Nothing to delete") }
            text.removeLast()
        case .completion(let name):
            // The whole name, so the entry is over: a name to go on typing is typed instead
            // (its letters stay near the cursor), and Done would be one more press each time.
            text = String(name.prefix(Self.maxLength))
            layOut()
            return .finished(text)
        case .done:
            let name = text.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { return .refused("Enter a name first") }
            return .finished(name)
        }
        layOut()
        return .typing
    }

    /// Letters begin each word in capitals: the wheel has one case, and names are written so.
    static func capitalized(_ character: Character, after previous: Character?) -> Character {
        let startsWord = previous.map { " -'".contains($0) } ?? true
        let cased = startsWord ? character.uppercased() : character.lowercased()
        // "ß" capitalises to "SS": a letter that changes length keeps its own case.
        return cased.count == 1 ? Character(cased) : character
    }

    private mutating func layOut() {
        let (characters, end, completions) = predictor.predictions(after: text)
        var scored: [(item: Item, score: Double)] = []
        for (index, character) in Self.characters.enumerated() {
            // The tie-break keeps unseen letters in alphabetical order, after every seen one.
            scored.append((.character(character), (characters[character] ?? 0) - Double(index) * 1e-9))
        }
        scored.append((.done, text.isEmpty ? -1 : end))
        scored.append((.delete, text.isEmpty ? -2 : Tuning.deleteScore))
        for candidate in completions where NameLexicon.key(candidate.name) != NameLexicon.key(text) {
            scored.append((.completion(candidate.name), candidate.weight * Tuning.completionBoost))
        }
        // Stable: equal scores keep the order above.
        ranked = scored.enumerated().sorted { ($0.element.score, $1.offset) > ($1.element.score, $0.offset) }
            .map(\.element.item)
        // Rank 0 under the cursor, then +1, -1, +2, -2, ...
        var ring = [Item?](repeating: nil, count: ranked.count)
        for (rank, item) in ranked.enumerated() {
            let offset = rank % 2 == 1 ? (rank + 1) / 2 : ranked.count - rank / 2
            ring[offset % ranked.count] = item
        }
        self.ring = ring.compactMap { $0 }
        cursor = 0
    }
}

extension NameWheel {
    /// One step of entering a name: turn `detents` (signed), then press on `item`.
    public struct Step: Sendable, Equatable {
        public var item: Item
        public var detents: Int
    }

    /// The fewest knob actions that enter `name`: each item taken the short way round, and the
    /// whole name taken as a completion wherever that is cheaper than typing on (a completion
    /// a few detents away may cost more than the two letters under the cursor that bring it
    /// closer). What a person does who knows the wheel. Nil when the name has a character the
    /// wheel lacks.
    ///
    /// The wheel is laid out from its text alone, so the wheel after k letters is the same
    /// however it was reached: the cheapest way is a shortest path along the name, worked
    /// out backwards from Done.
    public static func replay(_ name: String, predictor: NamePredictor) -> [Step]? {
        let target = Array(NameLexicon.key(name))
        guard !target.isEmpty else { return nil }
        // wheels[k]: the wheel with the first k letters typed.
        var wheels = [NameWheel(predictor: predictor)]
        for character in target {
            var wheel = wheels[wheels.count - 1]
            guard wheel.ring.contains(.character(character)), wheel.take(.character(character)) == .typing else {
                return nil
            }
            wheels.append(wheel)
        }
        func step(_ item: Item, on wheel: NameWheel) -> Step? { wheel.detents(to: item).map { Step(item: item, detents: $0) } }
        func cost(_ steps: [Step]) -> Int { steps.reduce(0) { $0 + abs($1.detents) + 1 } }
        let key = String(target)
        var best: [[Step]?] = Array(repeating: nil, count: target.count + 1)
        best[target.count] = step(.done, on: wheels[target.count]).map { [$0] }
        for k in stride(from: target.count - 1, through: 0, by: -1) {
            var options: [[Step]] = []
            if let rest = best[k + 1], let letter = step(.character(target[k]), on: wheels[k]) {
                options.append([letter] + rest)
            }
            if let whole = wheels[k].completions.first(where: { NameLexicon.key($0) == key }),
                let completion = step(.completion(whole), on: wheels[k])
            {
                options.append([completion])
            }
            best[k] = options.min { cost($0) < cost($1) }
        }
        return best[0]
    }

    /// The knob actions (detents plus presses) of `replay`: what `hyzer-bench name-entry` counts.
    public static func actions(toEnter name: String, predictor: NamePredictor) -> Int? {
        replay(name, predictor: predictor).map { $0.reduce(0) { $0 + abs($1.detents) + 1 } }
    }
}
