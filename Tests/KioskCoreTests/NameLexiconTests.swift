import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// The compact index (sorted runs, nodes kept only for common prefixes, the letter model in
/// flat arrays) answers as the plain one it replaced would: checked against answers worked
/// out name by name from the entries themselves. Negative control: with a kept node's
/// child run cut one name short (`keepNodes`), the totals and next letters differ.
@Suite struct NameLexiconTests {
    /// LF or CRLF; comments, lines without a weight and nameless lines are skipped.
    @Test func theListParsesLineByLine() {
        let entries = NameLexicon.entries(tsv: "# names\r\nAnna\t2.5\r\nBob\t1\nno weight\nCarl\tx\n\t3\n\nZoë\t0.5\textra")
        #expect(entries == [.init(name: "Anna", weight: 2.5), .init(name: "Bob", weight: 1), .init(name: "Zoë", weight: 0.5)])
        // Spaces around a name are not part of it; repeats add up under the first spelling.
        let lexicon = NameLexicon([.init(name: " Ann ", weight: 1), .init(name: "ANN", weight: 2)])
        #expect(lexicon.contains("ann") && lexicon.count == 1)
        #expect(lexicon.node("an")?.top == [.init(name: "Ann", weight: 3)] && lexicon.node("ann")?.top.isEmpty == true)
    }

    /// Names built from a few syllables, so that prefixes are shared by many names (kept
    /// nodes), by a few (scanned runs) and by none; some spelled with accents or repeated.
    static func names(
        count: Int, seed: UInt64, syllables: [String] = ["a", "an", "ma", "mar", "li", "zoë", "bé", "n", "t"]
    ) -> [NameLexicon.Candidate] {
        var random = SeededGenerator(seed: seed)
        return (0..<count).map { _ in
            let parts = random.int(in: 1...4)
            let name = (0..<parts).map { _ in syllables[random.int(in: 0...syllables.count - 1)] }.joined()
            return NameLexicon.Candidate(
                name: name.prefix(1).uppercased() + name.dropFirst(), weight: Double(random.int(in: 1...1000)) / 100)
        }
    }

    /// What follows each prefix, from every entry (merged by key, first spelling kept): a
    /// node for every prefix, as the index kept them before it was made compact. A prefix is
    /// any run of a key's first scalars, so it may end inside a character ("👩" of the
    /// "👩‍👩‍👧" family, whose names it finds); what follows it is the whole character that
    /// begins there, as a person would type it.
    static func expectedNodes(_ entries: [NameLexicon.Candidate]) -> [String: NameLexicon.Node] {
        var merged: [String: NameLexicon.Candidate] = [:]
        var order: [String] = []
        for entry in entries {
            let key = NameLexicon.key(entry.name)
            if merged[key] == nil {
                merged[key] = NameLexicon.Candidate(name: entry.name, weight: 0)
                order.append(key)
            }
            merged[key]?.weight += entry.weight
        }
        var nodes: [String: NameLexicon.Node] = [:]
        var going: [String: [NameLexicon.Candidate]] = [:]
        for key in order {
            let candidate = merged[key]!
            let scalars = Array(key.unicodeScalars)
            for length in 0...scalars.count {
                let prefix = Self.string(scalars[..<length])
                nodes[prefix, default: NameLexicon.Node()].total += candidate.weight
                if length == scalars.count {
                    nodes[prefix]!.end += candidate.weight
                } else {
                    nodes[prefix]!.next[Self.string(scalars[length...]).first!, default: 0] += candidate.weight
                    going[prefix, default: []].append(candidate)
                }
            }
        }
        for (prefix, candidates) in going {
            nodes[prefix]!.top = Array(
                candidates.sorted { ($0.weight, $1.name) > ($1.weight, $0.name) }.prefix(NameLexicon.keptCompletions))
        }
        return nodes
    }

    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var string = ""
        string.unicodeScalars.append(contentsOf: scalars)
        return string
    }

    /// Every prefix of every key, scalar by scalar.
    static func prefixes(of lexicon: NameLexicon) -> Set<String> {
        var prefixes: Set<String> = []
        for key in lexicon.keys {
            let scalars = Array(key.unicodeScalars)
            for length in 0...scalars.count { prefixes.insert(string(scalars[..<length])) }
        }
        return prefixes
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(1, abs(a), abs(b)) }

    /// The lexicon answers each prefix as `nodes`, worked out from the entries, do.
    static func expectAnswers(_ lexicon: NameLexicon, _ nodes: [String: NameLexicon.Node], for prefixes: Set<String>) throws {
        for prefix in prefixes {
            let expected = nodes[prefix]
            let node = lexicon.node(prefix)
            guard let expected else {
                #expect(node == nil, "\(prefix)")
                continue
            }
            let actual = try #require(node, "\(prefix)")
            #expect(Self.close(actual.total, expected.total), "\(prefix)")
            #expect(Self.close(actual.end, expected.end), "\(prefix)")
            #expect(Set(actual.next.keys) == Set(expected.next.keys), "\(prefix)")
            for (character, weight) in expected.next {
                #expect(Self.close(actual.next[character] ?? -1, weight), "\(prefix) \(character)")
            }
            #expect(actual.top.map(\.name) == expected.top.map(\.name), "\(prefix)")
        }
    }

    @Test(arguments: [1, 2, 3] as [UInt64]) func everyPrefixAnswersAsTheEntriesDo(seed: UInt64) throws {
        let entries = Self.names(count: 2_000, seed: seed)
        let lexicon = NameLexicon(entries)
        let nodes = Self.expectedNodes(entries)
        // Both ways of answering are exercised: kept nodes for the common prefixes, runs
        // scanned for the rest.
        #expect(lexicon.common.count > 5)
        let prefixes = Self.prefixes(of: lexicon).union(["x", "maq", "zz"])
        #expect(prefixes.contains { lexicon.common[$0] == nil && lexicon.node($0) != nil })
        try Self.expectAnswers(lexicon, nodes, for: prefixes)
        for entry in entries.prefix(50) { #expect(lexicon.contains(entry.name) && lexicon.contains(entry.name.lowercased())) }
        #expect(!lexicon.contains("Zzz"))
        #expect(lexicon.contains("Ma") == lexicon.keys.contains("ma"))
    }

    /// The letter model's shares, worked out from counts kept in a dictionary per context
    /// (the form it had before it moved to flat arrays).
    @Test func theLetterModelCountsEachNameOnce() {
        let entries = Self.names(count: 300, seed: 9)
        let lexicon = NameLexicon(entries)
        var contexts: [String: [Character: Double]] = [:]
        for key in lexicon.keys {
            let sequence = ["^"] + Array(key) + ["$"]
            for index in 1..<sequence.count {
                for length in 0...min(LetterModel.contextLength, index) {
                    contexts[String(sequence[(index - length)..<index]), default: [:]][sequence[index], default: 0] += 1
                }
            }
        }
        for typed in ["", "m", "ma", "mar", "lu", "zo", "zoe", "xq", "anel", "be"] {
            let history = ["^"] + Array(typed)
            var expected: [Character: Double] = [:]
            var share = 1.0
            for length in stride(from: min(LetterModel.contextLength, history.count), through: 0, by: -1) {
                guard let counts = contexts[String(history[(history.count - length)...])] else { continue }
                let total = counts.values.reduce(0, +)
                let weight = length == 0 ? share : share * NameWheel.Tuning.longestContextShare
                for (character, count) in counts { expected[character, default: 0] += weight * count / total }
                share -= weight
            }
            let actual = lexicon.letterModel(after: typed)
            #expect(Set(actual.keys) == Set(expected.keys), "\(typed)")
            for (character, share) in expected { #expect(Self.close(actual[character] ?? -1, share), "\(typed) \(character)") }
            #expect(Self.close(actual.values.reduce(0, +), 1), "\(typed)")
        }
    }

    /// Names in any script reach the index as players' names from other devices: its byte
    /// runs and scans take multi-byte characters, emoji sequences and combining marks, what
    /// follows a prefix is a whole character ("👩‍👩‍👧", not its first scalar "👩"; "र्जु",
    /// not "र"), and a wheel over them offers them as completions and types its own letters
    /// as before. Negative control: keyed by the next scalar, as it was, the next characters
    /// after "" and "अ" differ.
    @Test func namesInAnyScriptAreIndexedWhole() throws {
        let names = [
            "김민준", "김서연", "😀 Smiley", "👩‍👩‍👧 Family", "👩 Solo", "Łukasz", "Zoë", "Ngozi", "Nguyễn Văn An", "अर्जुन", "अरुण",
            "Ελένη",
        ]
        let entries = names.enumerated().map { NameLexicon.Candidate(name: $1, weight: Double(names.count - $0)) }
        let lexicon = NameLexicon(entries)
        try Self.expectAnswers(lexicon, Self.expectedNodes(entries), for: Self.prefixes(of: lexicon))
        #expect(lexicon.node("").map { Set($0.next.keys).isSuperset(of: ["👩‍👩‍👧", "👩", "김", "अ"]) } == true)
        // Whether "र्जु" is one character or "र्" and "जु" depends on the Unicode version of
        // the standard library's grapheme breaking (conjuncts joined in 15.1): as it says.
        #expect(lexicon.node("अ").map { Set($0.next.keys) } == [Array("अर्जुन")[1], Array("अरुण")[1]])
        for name in names { #expect(lexicon.contains(name), "\(name)") }
        #expect(lexicon.node("김")?.top.map(\.name) == ["김민준", "김서연"])
        // Enough of them that nodes are kept, grouped by whole characters, some of which
        // begin with another's bytes ("👩" and the family, "र" and its conjunct).
        let many = Self.names(count: 2_000, seed: 4, syllables: ["👩‍👩‍👧", "👩", "र्जु", "र", "रु", "김", "a", "ë"])
        let manyLexicon = NameLexicon(many)
        #expect(manyLexicon.common.keys.contains { !$0.isEmpty && !$0.unicodeScalars.allSatisfy(\.isASCII) })
        try Self.expectAnswers(manyLexicon, Self.expectedNodes(many), for: Self.prefixes(of: manyLexicon).union(["x"]))
        // As players (all of one weight, so ties go by spelling), typed on a keyboard.
        let players = NamePredictor(bundled: .empty, players: names, guests: [])
        #expect(NameWheel(predictor: players).completions == ["Ngozi", "Nguyễn Văn An", "Zoë"])
        #expect(NameWheel(text: "김", predictor: players).completions == ["김민준", "김서연"])
        #expect(NameWheel(text: "😀", predictor: players).completions == ["😀 Smiley"])
        #expect(NameWheel(text: "👩‍👩‍👧", predictor: players).completions == ["👩‍👩‍👧 Family"])
        var typing = NameWheel(text: "Ng", predictor: NamePredictor(bundled: lexicon))
        #expect(Set(typing.completions) == ["Ngozi", "Nguyễn Văn An"])
        #expect(typing.take(.character("u")) == .typing)
        #expect(typing.completions == ["Nguyễn Văn An"])
    }
}
