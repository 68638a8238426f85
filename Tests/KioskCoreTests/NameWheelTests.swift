import Foundation
import HyzerKit
import HyzerTestSupport
import Testing

@testable import KioskCore

@Suite struct NameWheelTests {
    static func lexicon(_ names: [String: Double]) -> NameLexicon {
        NameLexicon(names.map { NameLexicon.Candidate(name: $0.key, weight: $0.value) })
    }

    static func type(_ text: String, on wheel: inout NameWheel) {
        for character in text.lowercased() {
            let item = NameWheel.Item.character(character)
            wheel.turn(wheel.detents(to: item)!)
            #expect(wheel.selected == item)
            #expect(wheel.press() == .typing)
        }
    }

    /// The likeliest choice sits under the cursor, the next ones alternately one detent
    /// clockwise and one anticlockwise, so the ring's order is the likelihood's.
    @Test func theLikeliestChoicesSitNearestTheCursor() {
        let predictor = NamePredictor(bundled: Self.lexicon(["Anna": 5, "Andrew": 3, "Bob": 1]))
        let wheel = NameWheel(predictor: predictor)
        #expect(wheel.selected == .character("a"))
        #expect(wheel.ring.count == NameWheel.characters.count + 2 + 3)
        let expected = [0, 1, -1, 2, -2, 3, -3]
        for (rank, item) in wheel.ranked.prefix(expected.count).enumerated() {
            #expect(wheel.detents(to: item) == expected[rank], "rank \(rank): \(item)")
        }
        // A ends 8 of the 9 weights' names, so it leads every whole name; Anna leads Andrew.
        #expect(Array(wheel.ranked.prefix(3)) == [.character("a"), .completion("Anna"), .completion("Andrew")])
        // Nothing typed: delete and done are the farthest away.
        #expect(Array(wheel.ranked.suffix(2)) == [.done, .delete])
    }

    /// After each letter the ring is laid out again from what the typed prefix continues into.
    @Test func eachLetterReordersTheWheel() {
        var wheel = NameWheel(predictor: NamePredictor(bundled: Self.lexicon(["Anna": 5, "Andrew": 3, "Ann": 4])))
        Self.type("an", on: &wheel)
        #expect(wheel.text == "An")
        #expect(wheel.selected == .character("n"))
        #expect(wheel.cursor == 0)
        #expect(wheel.completions == ["Anna", "Ann", "Andrew"])
        Self.type("n", on: &wheel)
        // "Ann" is a name (done is likely); "Anna" goes on past it; "Andrew" no longer fits.
        #expect(wheel.completions == ["Anna"])
        #expect(wheel.ranked.firstIndex(of: .done)! < wheel.ranked.firstIndex(of: .character("z"))!)
    }

    /// Players registered here outweigh the commonest listed name; a recent guest outweighs a
    /// rare one. Both are offered whole, as they are spelled.
    @Test func playersAndGuestsComeBeforeTheBundledList() {
        let bundled = Self.lexicon(["Mary": 3, "Maria": 1, "Marcus": 0.5, "Mark": 1.2])
        var wheel = NameWheel(predictor: NamePredictor(bundled: bundled, players: ["Marek Nowak"], guests: ["Marcus"]))
        Self.type("m", on: &wheel)
        #expect(wheel.completions == ["Marek Nowak", "Mary", "Marcus"])
        let plain = NameWheel(text: "M", predictor: NamePredictor(bundled: bundled))
        #expect(plain.completions == ["Mary", "Mark", "Maria"])
    }

    /// A prefix no name has (a name on no list) is ordered by the letter model: which letters
    /// follow the last few typed, over every name.
    @Test func namesOnNoListFallBackToTheLetterModel() {
        var wheel = NameWheel(predictor: NamePredictor(bundled: Self.lexicon(["Mina": 1, "Lina": 1, "Tina": 1, "Nils": 1])))
        Self.type("kin", on: &wheel)
        #expect(wheel.completions.isEmpty)
        #expect(wheel.selected == .character("a"))
    }

    /// Typing folds case and accents for lookup, and a completion enters the name as spelled
    /// and finishes the entry (no Done after it).
    @Test func completionsMatchWithoutAccentsAndEnterTheSpelling() {
        var wheel = NameWheel(predictor: NamePredictor(bundled: Self.lexicon(["Zoë": 2, "Zola": 1])))
        Self.type("zo", on: &wheel)
        #expect(wheel.completions == ["Zoë", "Zola"])
        wheel.turn(wheel.detents(to: .completion("Zoë"))!)
        #expect(wheel.press() == .finished("Zoë"))
        #expect(wheel.text == "Zoë")
    }

    @Test func lettersDeleteAndDone() {
        var wheel = NameWheel(predictor: NamePredictor())
        #expect(wheel.take(.done) == .refused("Enter a name first"))
        #expect(wheel.take(.delete) == .refused("Nothing to delete"))
        #expect(wheel.take(.character(" ")) == .refused("A name starts with a letter"))
        Self.type("jean-luc o'neil", on: &wheel)
        #expect(wheel.text == "Jean-Luc O'Neil")
        #expect(wheel.take(.delete) == .typing)
        #expect(wheel.text == "Jean-Luc O'Nei")
        #expect(wheel.take(.character(" ")) == .typing)
        // Trailing spaces are not part of the name.
        #expect(wheel.take(.done) == .finished("Jean-Luc O'Nei"))
    }

    /// The board shows at most `Player.maxNameLength` characters: the 41st is refused.
    @Test func aNameLongerThanTheBoardShowsIsRefused() {
        var wheel = NameWheel(text: String(repeating: "a", count: Player.maxNameLength), predictor: NamePredictor())
        #expect(wheel.take(.character("b")) == .refused("A name has at most 40 characters"))
        #expect(wheel.text.count == Player.maxNameLength)
    }

    /// The ring wraps both ways.
    @Test func turningWraps() {
        var wheel = NameWheel(predictor: NamePredictor())
        let count = wheel.ring.count
        wheel.turn(-1)
        #expect(wheel.cursor == count - 1)
        wheel.turn(count + 2)
        #expect(wheel.cursor == 1)
    }

    /// The benchmark's replay is the wheel's own: playing its steps on a fresh wheel (turn, check
    /// the cursor is on the step's item, press) enters the name, and its count is those steps.
    @Test func theReplayEntersTheNameWithTheActionsItCounts() throws {
        let predictor = NamePredictor(
            bundled: Self.lexicon(["Emma": 1, "Emily": 2, "Emmett": 0.5, "Ethan": 1.5, "Oisin": 0.1]))
        for name in ["Emma", "Emmanuelle", "Oisin", "Kai Jun"] {
            let steps = try #require(NameWheel.replay(name, predictor: predictor))
            var wheel = NameWheel(predictor: predictor)
            var outcome = NameWheel.Outcome.typing
            for step in steps {
                #expect(outcome == .typing)
                wheel.turn(step.detents)
                #expect(wheel.selected == step.item, "\(name)")
                #expect(abs(step.detents) <= wheel.ring.count / 2)
                outcome = wheel.press()
            }
            #expect(outcome == .finished(name))
            #expect(NameWheel.actions(toEnter: name, predictor: predictor) == steps.reduce(0) { $0 + abs($1.detents) + 1 })
        }
        // A listed name is taken whole once offered; "Emma" needs fewer steps than its letters + done.
        #expect(try #require(NameWheel.replay("Emma", predictor: predictor)).count < 5)
        #expect(NameWheel.replay("Łukasz", predictor: predictor) == nil)
    }

    /// The replay counts the fewest actions: never more than the plain way (take the whole
    /// name as soon as it is offered), and fewer for some names, where typing on brings the
    /// completion nearer than it was first offered. Over the commonest bundled names.
    @Test func theReplayIsNeverDearerThanTakingTheFirstCompletionOffered() throws {
        let url = repositoryRoot.appendingPathComponent("assets/first-names.tsv")
        let text = try String(contentsOf: url, encoding: .utf8)
        let predictor = NamePredictor(bundled: NameLexicon(tsv: text))
        let names = text.split(whereSeparator: \.isNewline).filter { !$0.hasPrefix("#") }.prefix(200)
            .map { String($0.prefix { $0 != "\t" }) }
        var cheaper = 0
        for name in names {
            let replayed = try #require(NameWheel.actions(toEnter: name, predictor: predictor), "\(name)")
            let plain = try #require(Self.plainActions(name, predictor: predictor), "\(name)")
            #expect(replayed <= plain, "\(name)")
            if replayed < plain { cheaper += 1 }
        }
        #expect(cheaper > 0, "no name was cheaper: the replay would be the plain way")
    }

    /// The information measure behind `hyzer-bench name-entry`'s floor: a likely name tells
    /// the wheel less than a rare one, a name on no list more than either, and each press
    /// with c - 1 detents before it reaches one of 2c - 1 items, so an action tells at most
    /// log2(1 + √2) bits.
    @Test func aLikelyNameCarriesLessInformationThanARareOne() throws {
        let predictor = NamePredictor(bundled: Self.lexicon(["Anna": 8, "Annie": 2, "Bob": 1]))
        let anna = try #require(predictor.information(of: "Anna"))
        let annie = try #require(predictor.information(of: "annie"))
        let bob = try #require(predictor.information(of: "Bob"))
        let zed = try #require(predictor.information(of: "Zed"))
        #expect(anna > 0 && anna < annie && annie < zed)
        #expect(bob < zed)
        #expect(predictor.information(of: "Zoë") == predictor.information(of: "Zoe"))
        #expect(predictor.information(of: "R2D2") == nil)
        #expect(predictor.information(of: "") == nil)
        // Ways to spend exactly c actions on presses: the last press after d detents, either
        // way round for d > 0. Their count grows by the factor bitsPerAction is the log of.
        var ways: [Double] = [1]
        for c in 1...60 {
            ways.append(ways[c - 1] + 2 * (0..<(c - 1)).reduce(0) { $0 + ways[$1] })
        }
        #expect(abs(log2(ways[60] / ways[59]) - NamePredictor.bitsPerAction) < 1e-9)
        #expect(abs(NamePredictor.bitsPerAction - 1.2716) < 0.0001)
    }

    /// Letters until the wheel offers the whole name, then that completion (or Done).
    static func plainActions(_ name: String, predictor: NamePredictor) -> Int? {
        let target = NameLexicon.key(name)
        var wheel = NameWheel(predictor: predictor)
        var actions = 0
        while true {
            let typed = NameLexicon.key(wheel.text)
            let next: NameWheel.Item
            if typed == target {
                next = .done
            } else if let whole = wheel.completions.first(where: { NameLexicon.key($0) == target }) {
                next = .completion(whole)
            } else {
                next = .character(target[target.index(target.startIndex, offsetBy: typed.count)])
            }
            guard let detents = wheel.detents(to: next) else { return nil }
            wheel.turn(detents)
            actions += abs(detents) + 1
            switch wheel.press() {
            case .finished: return actions
            case .refused: return nil
            case .typing: continue
            }
        }
    }

    /// The bundled asset parses: every name of the Census and the SSA's births, the commonest
    /// first, comments skipped; names of people born since 1990, not only the Census's; and
    /// rare names, offered whole once their first letters narrow the list to them (none of
    /// these three was among the 3,000 names the list held before).
    @Test func theBundledListLoads() throws {
        let url = repositoryRoot.appendingPathComponent("assets/first-names.tsv")
        let lexicon = NameLexicon(tsv: try String(contentsOf: url, encoding: .utf8))
        #expect(lexicon.count >= 90_000)
        let predictor = NamePredictor(bundled: lexicon)
        #expect(NameWheel(text: "Oi", predictor: predictor).completions.contains("Oisin"))
        #expect(NameWheel(text: "Sao", predictor: predictor).completions.first == "Saoirse")
        #expect(NameWheel(text: "Niam", predictor: predictor).completions.first == "Niamh")
        #expect(lexicon.contains("james") && lexicon.contains("Mary"))
        #expect(!lexicon.contains("#"))
        #expect(NameWheel(text: "Ja", predictor: NamePredictor(bundled: lexicon)).completions.first == "James")
        for name in ["Liam", "Aiden", "Jayden", "Mia", "Ava"] { #expect(lexicon.contains(name), "\(name)") }
        #expect(NameWheel(text: "Lia", predictor: NamePredictor(bundled: lexicon)).completions.contains("Liam"))
        // Weighed by the people alive now, not by everyone ever born: a boy's name of this
        // century is offered before names whose bearers were mostly born a century ago.
        // (The list of everyone born since 1880 offered Mildred after "Mi" and Norma before Noah.)
        #expect(NameWheel(text: "Mi", predictor: predictor).completions == ["Michael", "Michelle", "Mia"])
        #expect(NameWheel(text: "No", predictor: predictor).completions.first == "Noah")
        #expect(NameWheel(text: "Li", predictor: predictor).completions.contains("Liam"))
        // The kiosk keeps this index for as long as it runs. The letter model keeps a row only
        // for the contexts the names have (about 8,300 of 33,825). Negative control: a row for
        // every context, as it was, holds 4.3 MB.
        let letters = try #require(lexicon.letters)
        #expect(letters.byteCount < 1_500_000, "the letter model holds \(letters.byteCount) bytes")
    }
}
