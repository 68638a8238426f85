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
