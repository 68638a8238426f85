import Foundation
import HyzerKit

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

    /// For a course's name (issue 35): the group's course names whole, and each word in them
    /// ("Riverside", "Hill", "Park"); never the list of people's first names, which offered
    /// "Michael, James, David" for a new course.
    public init(courseNames: [String]) {
        var seen: Set<String> = []
        var entries: [NameLexicon.Candidate] = []
        for name in courseNames where seen.insert(NameLexicon.key(name)).inserted {
            entries.append(NameLexicon.Candidate(name: name, weight: Self.playerWeight))
        }
        for word in courseNames.flatMap({ $0.split(separator: " ").map(String.init) })
        where word.count > 1 && seen.insert(NameLexicon.key(word)).inserted {
            entries.append(NameLexicon.Candidate(name: word, weight: Self.guestWeight))
        }
        self.init(bundled: .empty, local: NameLexicon(entries, letterModel: false))
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
