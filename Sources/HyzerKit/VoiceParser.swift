import Foundation

/// Someone the parser may hear: a round participant with the aliases of their player.
public struct VoiceCandidate: Sendable, Hashable {
    public var id: UUID
    public var name: String
    public var aliases: [String]

    public init(id: UUID, name: String, aliases: [String] = []) {
        self.id = id
        self.name = name
        self.aliases = aliases
    }
}

public struct VoiceScore: Sendable, Hashable {
    public var participantID: UUID
    /// What was heard for the name, as spoken.
    public var heard: String
    public var strokes: Int
}

public enum VoiceParseResult: Sendable, Hashable {
    /// Every spoken name resolved and had a score.
    case success([VoiceScore])
    /// Some scores resolved; `unresolved` lists the fragments that did not (FR27).
    case partial([VoiceScore], unresolved: [String])
    /// Nothing usable (FR28: the caller offers retry or cancel).
    case failed(unresolved: [String])

    public var scores: [VoiceScore] {
        switch self {
        case .success(let s), .partial(let s, _): s
        case .failed: []
        }
    }
}

/// The voice micro-language (FR22–FR29): "Mike 3, jake four, Sarah 2".
///
/// A pure function in three stages, tokenize → classify → assemble, so it can run on any
/// device that received a transcript. `assets/web/voice.js` is its line-for-line port for the
/// phone, which parses its own microphone offline; `Tests/Fixtures/voice/cases.json` holds the
/// two to one set of cases (`VoiceFixtureTests`), so a rule changes in both or the test fails.
///
/// What is heard, in order:
/// - A name, then a score for it. Everything up to the score is the name ("Jake Miller 4").
/// - A score is digits ("3"), a number word from "one" to "ten", "ace" or "hole in one"
///   (always 1), or a word relative to the hole's `par`: "par", "birdie" (−1), "eagle" (−2),
///   "albatross" (−3), "bogey"/"bogie" (+1), "double" (+2), "triple" (+3), "quad" or
///   "quadruple" (+4); the last four may be followed by "bogey" ("double bogey").
/// - Recognizers write some numbers as words ("won", "to", "too", "tree", "for", "fore",
///   "ate", "oh"): these count as numbers only right after a name, and elsewhere are fillers.
/// - Fillers ("got", "a", "had", "and", "no", "sorry", "make it", …) are skipped, so
///   "Sarah got a 4 and Mike had 3" and "Mike 3, no, Mike 4" read as meant.
/// - A name said twice keeps its last score (a spoken self-correction).
///
/// What is not understood is listed in the order it was heard, never guessed: a name and its
/// score when the score is outside 1–10 (`ScoreEvent.allowedStrokes`: "eleven", "zero",
/// "oh", an eagle on a par 2), when a par word is said but the hole's par is not known, or
/// when the name matches no one or more than one participant; a score with no name before it;
/// words left over at the end. Names match by the alias map first, then by an exact first or
/// full name, then by edit distance on the spelling and on a rough phonetic key; a fuzzy match
/// is accepted only when exactly one participant clears the threshold (FR23), so ambiguity is
/// reported instead of guessed.
///
/// Text is compared as Unicode scalars of its lowercased NFC form (not as Swift characters)
/// so that JavaScript, which sees code points, computes the same distances.
public enum VoiceParser {
    /// `par` is the par of the hole being scored, when known; without it the words relative
    /// to par ("birdie", "bogey") are not understood.
    public static func parse(_ transcript: String, candidates: [VoiceCandidate], par: Int? = nil) -> VoiceParseResult {
        let tokens = tokenize(transcript)
        var scores: [VoiceScore] = []
        var unresolved: [String] = []
        var pendingName: [String] = []
        var index = 0

        func flushName() {
            if !pendingName.isEmpty { unresolved.append(pendingName.joined(separator: " ")) }
            pendingName = []
        }

        while index < tokens.count {
            let term = classify(tokens, at: index, afterName: !pendingName.isEmpty)
            index += term.length
            let strokes: Int?
            switch term.kind {
            case .filler:
                continue
            case .word:
                pendingName.append(term.text)
                continue
            case .number(let value): strokes = value
            case .toPar(let offset): strokes = par.map { $0 + offset }
            }
            guard !pendingName.isEmpty else {
                unresolved.append(term.text)
                continue
            }
            let heard = pendingName.joined(separator: " ")
            pendingName = []
            guard let strokes, ScoreEvent.allowedStrokes.contains(strokes) else {
                unresolved.append("\(heard) \(term.text)")
                continue
            }
            guard let match = FuzzyNameMatcher.match(heard, among: candidates) else {
                unresolved.append("\(heard) \(term.text)")
                continue
            }
            // A name said twice ("Mike 3 no Mike 4") keeps the last value.
            scores.removeAll { $0.participantID == match.id }
            scores.append(VoiceScore(participantID: match.id, heard: heard, strokes: strokes))
        }
        flushName()

        if scores.isEmpty { return .failed(unresolved: unresolved) }
        return unresolved.isEmpty ? .success(scores) : .partial(scores, unresolved: unresolved)
    }

    // MARK: Tokenize

    /// Lowercased words of letters and digits. An apostrophe (straight or curly, as dictation
    /// writes "O’Neil") joins a word and is then dropped, with a possessive "'s" at its end
    /// ("Mike's 3"); inside a name it is only dropped ("O'Sullivan" is "osullivan").
    static func tokenize(_ transcript: String) -> [String] {
        var words: [String] = []
        var word: [Unicode.Scalar] = []
        func endWord() {
            if word.count >= 2, word[word.count - 2] == "'", word.last == "s" { word.removeLast(2) }
            word.removeAll { $0 == "'" }
            if !word.isEmpty { words.append(String(String.UnicodeScalarView(word))) }
            word = []
        }
        for scalar in transcript.lowercased().precomposedStringWithCanonicalMapping.unicodeScalars {
            if scalar == "'" || scalar == "\u{2019}" {
                word.append("'")
            } else if CharacterSet.letters.contains(scalar) || CharacterSet.decimalDigits.contains(scalar) {
                word.append(scalar)
            } else {
                endWord()
            }
        }
        endWord()
        return words
    }

    // MARK: Classify

    enum TokenClass: Equatable {
        case number(Int)
        /// Strokes relative to the hole's par: "birdie" is −1.
        case toPar(Int)
        case word
        case filler
    }

    /// One term of the transcript: a token, or a phrase of several ("double bogey").
    struct Term: Equatable {
        var text: String
        var length: Int
        var kind: TokenClass
    }

    static let numberWords: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
        "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "ace": 1, "eleven": 11, "twelve": 12,
    ]
    /// Recognizers mishear numbers as these words; they count only right after a name.
    static let homophones: [String: Int] = [
        "won": 1, "to": 2, "too": 2, "tree": 3, "for": 4, "fore": 4, "ate": 8, "oh": 0,
    ]
    /// What golfers say instead of a number: strokes relative to the hole's par.
    static let parWords: [String: Int] = [
        "par": 0, "birdie": -1, "eagle": -2, "albatross": -3, "bogey": 1, "bogie": 1,
        "double": 2, "triple": 3, "quad": 4, "quadruple": 4,
    ]
    /// "Double bogey" is one term: these words may be followed by a "bogey" that adds nothing.
    private static let bogeyMultiples: Set<String> = ["double", "triple", "quad", "quadruple"]
    private static let bogeys: Set<String> = ["bogey", "bogie"]
    private static let fillers: Set<String> = [
        "and", "a", "an", "got", "gets", "had", "has", "shot", "scored", "score", "with", "is", "was",
        "then", "on", "the", "hole", "made", "took", "card", "carded",
        // Spoken self-corrections: "Mike 3, no, Mike 4", "sorry, actually make that".
        "no", "sorry", "actually", "wait", "make", "that", "it", "i", "mean",
    ]

    /// The term starting at `tokens[index]`: a phrase when one starts there, else the token.
    static func classify(_ tokens: [String], at index: Int, afterName: Bool) -> Term {
        let token = tokens[index]
        let rest = tokens[(index + 1)...]
        if token == "hole", rest.starts(with: ["in", "one"]) {
            return Term(text: "hole in one", length: 3, kind: .number(1))
        }
        if bogeyMultiples.contains(token), let next = rest.first, bogeys.contains(next), let offset = parWords[token] {
            return Term(text: "\(token) \(next)", length: 2, kind: .toPar(offset))
        }
        return Term(text: token, length: 1, kind: classify(token, afterName: afterName))
    }

    static func classify(_ token: String, afterName: Bool) -> TokenClass {
        // Any run of ASCII digits is a number; one too long for an Int is out of range anyway.
        if !token.isEmpty, token.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) {
            return .number(Int(token) ?? Int.max)
        }
        if let value = numberWords[token] { return .number(value) }
        if let offset = parWords[token] { return .toPar(offset) }
        if afterName, let value = homophones[token] { return .number(value) }
        if fillers.contains(token) || homophones[token] != nil { return .filler }
        return .word
    }
}

/// Matches a spoken fragment to exactly one participant, or to none.
public enum FuzzyNameMatcher {
    public static func match(_ heard: String, among candidates: [VoiceCandidate]) -> VoiceCandidate? {
        let spoken = normalize(heard)
        guard !spoken.isEmpty else { return nil }

        // 1. The alias map: a player's own list of what recognizers hear for them.
        let byAlias = candidates.filter { $0.aliases.contains { normalize($0) == spoken } }
        if byAlias.count == 1 { return byAlias[0] }
        if byAlias.count > 1 { return nil }

        // 2. The exact full or first name.
        let exact = candidates.filter { names(of: $0).contains(spoken) }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 { return nil }

        // 3. Edit distance on spelling or sound, within a threshold that grows with length.
        let spokenKey = phoneticKey(spoken)
        let close = candidates.filter { candidate in
            names(of: candidate).contains { name in
                levenshtein(spoken, name) <= threshold(for: name)
                    || (!spokenKey.isEmpty && levenshtein(spokenKey, phoneticKey(name)) == 0)
            }
        }
        return close.count == 1 ? close[0] : nil
    }

    /// At most one edit for short names, about a third of the letters for long ones.
    static func threshold(for name: String) -> Int { max(1, name.unicodeScalars.count / 3) }

    static func names(of candidate: VoiceCandidate) -> [String] {
        let full = normalize(candidate.name)
        var result = [full]
        if let first = full.split(separator: " ").first, String(first) != full { result.append(String(first)) }
        result.append(contentsOf: candidate.aliases.map(normalize))
        return result
    }

    static func normalize(_ text: String) -> String {
        VoiceParser.tokenize(text).joined(separator: " ")
    }

    /// A rough English sound key: similar-sounding spellings collapse to one key
    /// ("Jake"/"Jayk", "Phil"/"Fil", "Katie"/"Caty").
    static func phoneticKey(_ text: String) -> String {
        var s = Array(text.unicodeScalars).filter { $0 != " " }
        for (from, to) in [
            ("ph", "f"), ("ck", "k"), ("gh", "g"), ("kn", "n"), ("wr", "r"), ("c", "k"),
            ("q", "k"), ("z", "s"), ("x", "ks"), ("y", "i"), ("ee", "i"), ("ie", "i"),
        ] {
            s = replacing(from, with: to, in: s)
        }
        guard let first = s.first else { return "" }
        var key = [first]
        for scalar in s.dropFirst() where !"aeiouhw".unicodeScalars.contains(scalar) && key.last != scalar {
            key.append(scalar)
        }
        return String(String.UnicodeScalarView(key))
    }

    /// Every `from` in `text` replaced by `to`, left to right, scalar by scalar: String's own
    /// replacing matches whole characters, which JavaScript's `replaceAll` does not.
    private static func replacing(_ from: String, with to: String, in text: [Unicode.Scalar]) -> [Unicode.Scalar] {
        let from = Array(from.unicodeScalars)
        var result: [Unicode.Scalar] = []
        var index = 0
        while index < text.count {
            if text[index...].starts(with: from) {
                result.append(contentsOf: to.unicodeScalars)
                index += from.count
            } else {
                result.append(text[index])
                index += 1
            }
        }
        return result
    }

    /// Classic two-row Levenshtein distance over Unicode scalars (JavaScript's code points),
    /// so both parsers count "Zoë" as three letters.
    public static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = Array(repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
