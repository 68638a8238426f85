import Foundation
import HyzerKit

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

    /// Puts a whole name in place of the text (one typed on a phone) with the cursor on Done:
    /// a press takes it as it is, a turn edits it like any name entered here. The name is
    /// kept as it came, past `maxLength` too: Done then refuses it with the usual message,
    /// and Del shortens it, rather than a silent cut changing someone's name.
    public mutating func replaceText(with name: String) {
        text = name
        layOut()
        cursor = ring.firstIndex(of: .done) ?? cursor
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
