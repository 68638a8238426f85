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
/// device that received a transcript. Names match by the alias map first, then by an
/// exact first or full name, then by edit distance on the spelling and on a rough
/// phonetic key; a fuzzy match is accepted only when exactly one participant clears the
/// threshold (FR23), so ambiguity is reported instead of guessed.
public enum VoiceParser {
    public static func parse(_ transcript: String, candidates: [VoiceCandidate]) -> VoiceParseResult {
        let tokens = tokenize(transcript)
        var scores: [VoiceScore] = []
        var unresolved: [String] = []
        var pendingName: [String] = []

        func flushName() {
            if !pendingName.isEmpty { unresolved.append(pendingName.joined(separator: " ")) }
            pendingName = []
        }

        for token in tokens {
            switch classify(token, afterName: !pendingName.isEmpty) {
            case .filler:
                continue
            case .word:
                pendingName.append(token)
            case .number(let value):
                guard !pendingName.isEmpty else {
                    unresolved.append(token)
                    continue
                }
                let heard = pendingName.joined(separator: " ")
                pendingName = []
                guard ScoreEvent.allowedStrokes.contains(value) else {
                    unresolved.append("\(heard) \(token)")
                    continue
                }
                guard let match = FuzzyNameMatcher.match(heard, among: candidates) else {
                    unresolved.append("\(heard) \(token)")
                    continue
                }
                // A name said twice ("Mike 3 no Mike 4") keeps the last value.
                scores.removeAll { $0.participantID == match.id }
                scores.append(VoiceScore(participantID: match.id, heard: heard, strokes: value))
            }
        }
        flushName()

        if scores.isEmpty { return .failed(unresolved: unresolved) }
        return unresolved.isEmpty ? .success(scores) : .partial(scores, unresolved: unresolved)
    }

    // MARK: Tokenize

    static func tokenize(_ transcript: String) -> [String] {
        var cleaned = ""
        for scalar in transcript.lowercased().unicodeScalars {
            if CharacterSet.letters.contains(scalar) || CharacterSet.decimalDigits.contains(scalar) || scalar == "'" {
                cleaned.unicodeScalars.append(scalar)
            } else {
                cleaned.append(" ")
            }
        }
        return cleaned.split(separator: " ").map { String($0).replacingOccurrences(of: "'s", with: "") }
            .map { $0.replacingOccurrences(of: "'", with: "") }
            .filter { !$0.isEmpty }
    }

    // MARK: Classify

    enum TokenClass: Equatable { case number(Int), word, filler }

    private static let numberWords: [String: Int] = [
        "one": 1, "two": 2, "three": 3, "four": 4, "five": 5,
        "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
        "ace": 1, "eleven": 11, "twelve": 12,
    ]
    /// Recognizers mishear numbers as these words; they count only right after a name.
    private static let homophones: [String: Int] = [
        "won": 1, "to": 2, "too": 2, "tree": 3, "for": 4, "fore": 4, "ate": 8,
    ]
    private static let fillers: Set<String> = [
        "and", "a", "an", "got", "gets", "had", "has", "shot", "scored", "score", "with", "is", "was",
        "then", "on", "the", "hole", "made", "took", "card", "carded",
        // Spoken self-corrections: "Mike 3, no, Mike 4", "sorry, actually make that".
        "no", "sorry", "actually", "wait", "make", "that", "it", "i", "mean",
    ]

    static func classify(_ token: String, afterName: Bool) -> TokenClass {
        if let digits = Int(token) { return .number(digits) }
        if let value = numberWords[token] { return .number(value) }
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
    static func threshold(for name: String) -> Int { max(1, name.count / 3) }

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
        var s = text.replacingOccurrences(of: " ", with: "")
        for (from, to) in [
            ("ph", "f"), ("ck", "k"), ("gh", "g"), ("kn", "n"), ("wr", "r"), ("c", "k"),
            ("q", "k"), ("z", "s"), ("x", "ks"), ("y", "i"), ("ee", "i"), ("ie", "i"),
        ] {
            s = s.replacingOccurrences(of: from, with: to)
        }
        guard let first = s.first else { return "" }
        var key = String(first)
        for ch in s.dropFirst() where !"aeiouhw".contains(ch) && key.last != ch { key.append(ch) }
        return key
    }

    /// Classic two-row Levenshtein distance over Unicode characters.
    public static func levenshtein(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
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
