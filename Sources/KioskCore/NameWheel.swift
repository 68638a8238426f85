import Foundation
import HyzerKit

/// Names with weights, for the name wheel: what may follow a typed prefix, and a letter model
/// for names on no list.
///
/// Compact, because the bundled list is every name of the SSA's births and the Census (about
/// 97,000): the names sorted by key, so the names a prefix starts are one run found by binary
/// search, and a prefix's node (next letters, completions) worked out over its run. Only the
/// prefixes many names share, where that would scan thousands of names a press, keep a node
/// built once. A node for every prefix, as the index kept when it held 3,000 names, would be
/// about 250,000 dictionaries.
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
    struct Node: Sendable, Equatable {
        var next: [Character: Double] = [:]
        var end: Double = 0
        var total: Double = 0
        var top: [Candidate] = []
    }

    /// Up to this many completions are kept per prefix (the wheel offers three).
    static let keptCompletions = 3
    /// A prefix more names than this start keeps its node; a rarer one's is worked out over
    /// its run when asked (at most this many names, a few microseconds).
    static let scanLimit = 64
    /// The letter model's end of a name, among the characters that may follow a prefix.
    static let end: Character = "$"

    /// Each name once, by key, in the byte order of the keys: a prefix's names are one run.
    let keys: [String]
    /// As spelled (the first spelling of a key), and their weights, in the order of `keys`.
    let names: [String]
    let weights: [Double]
    /// The nodes of the prefixes more than `scanLimit` names start.
    let common: [String: Node]
    /// Nil for the names played here (`NamePredictor.local`): the bundled list's model orders
    /// letters, and a model's 4 MB of counts for a handful of names would be waste.
    let letters: LetterModel?
    /// Names indexed.
    public var count: Int { keys.count }

    public static let empty = NameLexicon([], letterModel: false)

    /// Built once and never changed: the same index is the same value.
    public static func == (lhs: NameLexicon, rhs: NameLexicon) -> Bool { lhs === rhs }

    /// `entries` may repeat a name (by key); repeats add up and keep the first spelling.
    /// Without `letterModel`, `letterModel(after:)` knows nothing.
    public init(_ entries: [Candidate], letterModel: Bool = true) {
        var slots: [String: Int] = [:]
        var merged: [(key: String, name: String, weight: Double)] = []
        for entry in entries {
            // Foundation's trimming costs a microsecond a name: only for a name that needs it.
            let visible = 0x21..<UInt8(0x7F)
            let bytes = entry.name.utf8
            let plainEnds = bytes.first.map(visible.contains) == true && bytes.last.map(visible.contains) == true
            let name = plainEnds ? entry.name : entry.name.trimmingCharacters(in: .whitespacesAndNewlines)
            let key = Self.key(name)
            guard !key.isEmpty, entry.weight > 0 else { continue }
            if let slot = slots[key] {
                merged[slot].weight += entry.weight
            } else {
                slots[key] = merged.count
                merged.append((key, name, entry.weight))
            }
        }
        merged.sort { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        keys = merged.map(\.key)
        names = merged.map(\.name)
        weights = merged.map(\.weight)
        var common: [String: Node] = [:]
        Self.keepNodes(keys: keys, names: names, weights: weights, prefixLength: 0, run: 0..<keys.count, in: &common)
        self.common = common
        letters = letterModel && !keys.isEmpty ? LetterModel(keys) : nil
    }

    /// Reads `name<TAB>weight` lines (the bundled assets/first-names.tsv); `#` starts a comment.
    public convenience init(tsv: String) { self.init(Self.entries(tsv: tsv)) }

    /// The names and weights of `name<TAB>weight` lines (LF or CRLF); other lines are skipped.
    public static func entries(tsv: String) -> [Candidate] {
        // By bytes: splitting 91,000 lines by Character (grapheme breaking) was a third of
        // the index's build.
        let (newline, tab, hash) = (UInt8(ascii: "\n"), UInt8(ascii: "\t"), UInt8(ascii: "#"))
        return tsv.utf8.split(separator: newline).compactMap { line -> Candidate? in
            guard line.first != hash else { return nil }
            let fields = line.split(separator: tab, omittingEmptySubsequences: false)
            guard fields.count >= 2, !fields[0].isEmpty else { return nil }
            let field = fields[1].last == UInt8(ascii: "\r") ? fields[1].dropLast() : fields[1]
            guard let weight = Double(Substring(field)) else { return nil }
            return Candidate(name: String(Substring(fields[0])), weight: weight)
        }
    }

    /// The form names are looked up by.
    public static func key(_ text: some StringProtocol) -> String {
        // Plain ASCII folds to its lower case: the common case by far (all of the bundled
        // list), without Foundation's folding, which costs several microseconds a name.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil).lowercased()
    }

    /// What follows `prefix` (a key), or nil when no name starts with it.
    func node(_ prefix: String) -> Node? {
        if let node = common[prefix] { return node }
        let run = run(of: prefix)
        guard !run.isEmpty else { return nil }
        return Self.node(keys: keys, names: names, weights: weights, prefixLength: prefix.utf8.count, run: run)
    }

    /// Whether `name` is one of the names indexed (folded as the wheel folds).
    public func contains(_ name: String) -> Bool {
        let key = Self.key(name)
        let run = run(of: key)
        // The key itself sorts first among the names it starts.
        return !run.isEmpty && keys[run.lowerBound].utf8.elementsEqual(key.utf8)
    }

    /// The indexes of the keys that start with `prefix`, by two binary searches.
    func run(of prefix: String) -> Range<Int> {
        let bytes = prefix.utf8
        var low = 0
        var high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.lexicographicallyPrecedes(bytes) { low = middle + 1 } else { high = middle }
        }
        let first = low
        high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle].utf8.starts(with: bytes) { low = middle + 1 } else { high = middle }
        }
        return first..<low
    }

    /// How likely each character is to follow `key`, from the letter model alone.
    func letterModel(after key: String) -> [Character: Double] { letters?.next(after: key) ?? [:] }

    /// The node of the prefix the keys of `run` share (its first `prefixLength` bytes).
    private static func node(keys: [String], names: [String], weights: [Double], prefixLength: Int, run: Range<Int>) -> Node {
        var node = Node()
        for index in run {
            let weight = weights[index]
            node.total += weight
            guard let next = nextCharacter(of: keys[index], after: prefixLength) else {
                node.end += weight
                continue
            }
            node.next[next, default: 0] += weight
            keep(Candidate(name: names[index], weight: weight), in: &node.top)
        }
        return node
    }

    /// Keeps the node of every prefix more than `scanLimit` names start, from the run of one
    /// prefix down: its names that go on are grouped by their next character, each group a
    /// run of its own (the names whose keys go on with that character's bytes: a longer
    /// character that begins with them, a conjunct after its first letter, joins the run, as
    /// `node(_:)` finds it by bytes too).
    private static func keepNodes(
        keys: [String], names: [String], weights: [Double], prefixLength: Int, run: Range<Int>,
        in common: inout [String: Node]
    ) {
        guard run.count > scanLimit else { return }
        let prefix = String(decoding: keys[run.lowerBound].utf8.prefix(prefixLength), as: UTF8.self)
        common[prefix] = node(keys: keys, names: names, weights: weights, prefixLength: prefixLength, run: run)
        var index = run.lowerBound
        while index < run.upperBound {
            guard let next = nextCharacter(of: keys[index], after: prefixLength) else {
                index += 1
                continue
            }
            let childLength = prefixLength + next.utf8.count
            let childPrefix = keys[index].utf8.prefix(childLength)
            var end = index + 1
            while end < run.upperBound, keys[end].utf8.starts(with: childPrefix) { end += 1 }
            keepNodes(keys: keys, names: names, weights: weights, prefixLength: childLength, run: index..<end, in: &common)
            index = end
        }
    }

    /// The whole character that follows the first `prefixLength` bytes of `key` (what a
    /// person would type next), nil when they are all of it. A ZWJ emoji family or a
    /// Devanagari conjunct is several scalars and one character: keyed by its first scalar,
    /// it would be offered as "👩" or "र".
    private static func nextCharacter(of key: String, after prefixLength: Int) -> Character? {
        let utf8 = key.utf8
        guard utf8.count > prefixLength else { return nil }
        let start = utf8.index(utf8.startIndex, offsetBy: prefixLength)
        // The common case, an ASCII letter followed by another or by nothing, is a character
        // alone (CR LF, the one ASCII pair that is one character, is not a name's).
        let byte = utf8[start]
        let after = utf8.index(after: start)
        if byte < 0x80, byte != UInt8(ascii: "\r"), after == utf8.endIndex || utf8[after] < 0x80 {
            return Character(Unicode.Scalar(byte))
        }
        // From the prefix's end on: the prefix may end inside a character of this key (a
        // conjunct's first letter typed alone), and a character of `key` would then begin
        // before it.
        return String(key.unicodeScalars[start...]).first
    }

    /// The heaviest first, ties by spelling so the order never depends on the input's.
    private static func keep(_ candidate: Candidate, in top: inout [Candidate]) {
        func before(_ a: Candidate, _ b: Candidate) -> Bool { (a.weight, b.name) > (b.weight, a.name) }
        // The common case on a long run: lighter than all three kept.
        if top.count == keptCompletions, let last = top.last, !before(candidate, last) { return }
        let slot = top.firstIndex { before(candidate, $0) } ?? top.count
        top.insert(candidate, at: slot)
        if top.count > keptCompletions { top.removeLast() }
    }
}

/// Which character follows the last few typed, over every name of a list counted once
/// (whatever its frequency: this model is for names on no list, and rare spellings tell more
/// about them than James). Counts in flat arrays, a context's followers side by side: the
/// 97,000 names' 3 million counts take milliseconds to gather, not a dictionary's hundreds.
struct LetterModel: Sendable {
    /// The longest context, in characters (the start of a name counts as one).
    static let contextLength = 3
    /// Codes: 0 any character the wheel lacks, then the wheel's characters, the start, the end.
    static let symbols = 32
    static let startCode = 30
    static let endCode = 31
    /// The wheel's character of each code (nil for 0, the start and the end).
    static let characters: [Character?] = [nil] + NameWheel.characters.map(Optional.some) + [nil, nil]
    /// The code of each ASCII byte.
    static let asciiCodes: [UInt8] = (0..<128).map { byte in
        UInt8(NameWheel.characters.firstIndex(of: Character(Unicode.Scalar(UInt8(byte)))).map { $0 + 1 } ?? 0)
    }
    /// The first context index of each context length: 1 of length 0, 32 of 1, 32² of 2, 32³ of 3.
    static let offsets = [0, 1, 1 + 32, 1 + 32 + 32 * 32]
    static let contexts = 1 + 32 + 32 * 32 + 32 * 32 * 32

    /// `counts[context * symbols + code]`: how often `code` followed `context`.
    let counts: [Float]
    let totals: [Float]

    init(_ keys: [String]) {
        var counts = [Float](repeating: 0, count: Self.contexts * Self.symbols)
        var totals = [Float](repeating: 0, count: Self.contexts)
        var codes: [Int] = []
        for key in keys {
            codes.removeAll(keepingCapacity: true)
            codes.append(Self.startCode)
            Self.appendCodes(of: key, to: &codes)
            codes.append(Self.endCode)
            for index in 1..<codes.count {
                for length in 0...min(Self.contextLength, index) {
                    let context = Self.context(codes[(index - length)..<index])
                    counts[context * Self.symbols + codes[index]] += 1
                    totals[context] += 1
                }
            }
        }
        self.counts = counts
        self.totals = totals
    }

    static func appendCodes(of key: String, to codes: inout [Int]) {
        for scalar in key.unicodeScalars {
            codes.append(scalar.isASCII ? Int(asciiCodes[Int(scalar.value)]) : 0)
        }
    }

    /// The index of a context of at most `contextLength` codes.
    static func context(_ codes: ArraySlice<Int>) -> Int {
        offsets[codes.count] + codes.reduce(0) { $0 * symbols + $1 }
    }

    /// How likely each character is to follow `key`: the longest contexts that were seen,
    /// each shorter one mixed in with a smaller share.
    func next(after key: String) -> [Character: Double] {
        var history = [Self.startCode]
        Self.appendCodes(of: key, to: &history)
        var result: [Character: Double] = [:]
        var share = 1.0
        for length in stride(from: min(Self.contextLength, history.count), through: 0, by: -1) {
            let context = Self.context(history[(history.count - length)...])
            let total = Double(totals[context])
            guard total > 0 else { continue }
            // The longest context that was seen leads; the rest break its ties and cover
            // letters it never saw.
            let weight = length == 0 ? share : share * NameWheel.Tuning.longestContextShare
            for code in 1..<Self.symbols {
                let count = Double(counts[context * Self.symbols + code])
                guard count > 0, let character = code == Self.endCode ? NameLexicon.end : Self.characters[code] else { continue }
                result[character, default: 0] += weight * count / total
            }
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
    /// (Michael, 1.4% of the people alive), so the people who play here come first.
    public static let playerWeight = 5.0
    /// A guest from a recent round: less than a player, still above every listed name.
    public static let guestWeight = 2.0

    public init(bundled: NameLexicon = .empty, local: NameLexicon = .empty) {
        self.bundled = bundled
        self.local = local
    }

    public init(bundled: NameLexicon, players: [String], guests: [String]) {
        let entries =
            players.map { NameLexicon.Candidate(name: $0, weight: Self.playerWeight) }
            + guests.map { NameLexicon.Candidate(name: $0, weight: Self.guestWeight) }
        self.init(bundled: bundled, local: NameLexicon(entries, letterModel: false))
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
