import Foundation
import HyzerKit
import KioskApp
import KioskCore

/// `hyzer-bench name-entry`: how many knob actions the name wheel needs per name, replaying
/// the wheel's own layout (`NameWheel.actions(toEnter:predictor:)`) with only the bundled list
/// behind it, as on a kiosk nobody has played at yet.
enum NameEntryBenchmark {
    /// The median and the mean knob actions for a person picked at random by `list`'s
    /// frequencies (the bundled list's own, the people alive now, unless `--people` names
    /// others): every name of it entered once, each counted with its weight; and the same
    /// median of the fewest actions the wheel's predictions allow (`NamePredictor.information`).
    static func peopleWeightedFigures(
        _ list: [NameLexicon.Candidate], predictor: NamePredictor
    ) -> (actions: Double, floor: Double, meanActions: Double) {
        var entered: [(actions: Double, floor: Double, weight: Double)] = []
        for entry in list {
            guard let actions = NameWheel.actions(toEnter: entry.name, predictor: predictor),
                let bits = predictor.information(of: entry.name)
            else { continue }
            entered.append((Double(actions), bits / NamePredictor.bitsPerAction, entry.weight))
        }
        let weight = entered.reduce(0) { $0 + $1.weight }
        func median(_ value: KeyPath<(actions: Double, floor: Double, weight: Double), Double>) -> Double {
            let sorted = entered.sorted { $0[keyPath: value] < $1[keyPath: value] }
            let half = weight / 2
            var sum = 0.0
            for entry in sorted {
                sum += entry.weight
                if sum >= half { return entry[keyPath: value] }
            }
            return .nan
        }
        // The mean too: a median of whole actions moves only in steps of one.
        return (median(\.actions), median(\.floor), entered.reduce(0) { $0 + $1.actions * $1.weight } / weight)
    }

    /// The actions to enter each of `names` with it taken off the list, the index built
    /// again without it each time; names the wheel cannot spell are left out.
    static func heldOutActions(_ names: [String], entries: [NameLexicon.Candidate]) -> (actions: Int, letters: Int) {
        let keys = entries.map { NameLexicon.key($0.name) }
        var total: (actions: Int, letters: Int) = (0, 0)
        for name in names {
            let key = NameLexicon.key(name)
            let rest = zip(entries, keys).compactMap { $0.1 == key ? nil : $0.0 }
            guard let actions = NameWheel.actions(toEnter: name, predictor: NamePredictor(bundled: NameLexicon(rest))) else {
                continue
            }
            total.actions += actions
            total.letters += name.count
        }
        return total
    }

    static func run(names file: URL, bundled list: URL, people: URL? = nil) throws -> Figures {
        // Timed as the kiosk's NameListService pays it: the file read, parsed and indexed.
        let residentBefore = ResourceUsage.currentRSSMegabytes()
        let built = ContinuousClock.now
        let text = try String(contentsOf: list, encoding: .utf8)
        let entries = NameLexicon.entries(tsv: text)
        let lexicon = NameLexicon(entries)
        let buildTime = ContinuousClock.now - built
        // An upper bound on what the index holds: memory freed since (the text) may stay
        // resident in the allocator.
        let residentGrowth = ResourceUsage.currentRSSMegabytes().flatMap { after in residentBefore.map { after - $0 } }
        let predictor = NamePredictor(bundled: lexicon)
        // One name a line; a TSV's first column (so the bundled list itself can be replayed).
        let names = try String(contentsOf: file, encoding: .utf8).split(whereSeparator: \.isNewline)
            .map { $0.prefix { $0 != "\t" }.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        var listed: [Int] = []
        var unlisted: (actions: Int, letters: Int) = (0, 0)
        // The fewest actions the wheel's own predictions allow (`NamePredictor.information`):
        // how far the layout is from them, and how far they are from the goals.
        var listedFloor: [Double] = []
        var unlistedFloor = 0.0
        var skipped = 0
        let replayed = ContinuousClock.now
        for name in names {
            guard let steps = NameWheel.replay(name, predictor: predictor) else {
                skipped += 1
                log("name-entry: \(name): a character the wheel lacks, skipped")
                continue
            }
            let actions = steps.reduce(0) { $0 + abs($1.detents) + 1 }
            let onList = lexicon.contains(name)
            let trace = steps.map { step in
                let label: String
                switch step.item {
                case .character(let character): label = character == " " ? "space" : String(character)
                case .completion(let whole): label = "[\(whole)]"
                case .delete: label = "delete"
                case .done: label = "done"
                }
                return "\(step.detents)\(label)"
            }
            log("name-entry: \(name) \(actions) actions\(onList ? "" : " (on no list)"): \(trace.joined(separator: " "))")
            let floor = (predictor.information(of: name) ?? .nan) / NamePredictor.bitsPerAction
            if onList {
                listed.append(actions)
                listedFloor.append(floor)
            } else {
                unlisted.actions += actions
                unlisted.letters += name.count
                unlistedFloor += floor
            }
        }
        let replayTime = ContinuousClock.now - replayed
        let heldOut = heldOutActions(names, entries: entries)
        let population = try people.map { NameLexicon.entries(tsv: try String(contentsOf: $0, encoding: .utf8)) } ?? entries
        let peopleWeighted = peopleWeightedFigures(population, predictor: predictor)
        func quantile(_ q: Double, _ values: [Double]) -> Double {
            let sorted = values.sorted()
            guard !sorted.isEmpty else { return .nan }
            let position = q * Double(sorted.count - 1)
            let (low, high) = (Int(position.rounded(.down)), Int(position.rounded(.up)))
            return sorted[low] + (sorted[high] - sorted[low]) * (position - Double(low))
        }
        func quantile(_ q: Double) -> Double { quantile(q, listed.map(Double.init)) }
        return [
            "median_actions_people_weighted": peopleWeighted.actions,
            "floor_median_actions_people_weighted": peopleWeighted.floor,
            "mean_actions_people_weighted": peopleWeighted.meanActions,
            // Over every name in FILE, on a list or not: unlike the figures split by the list,
            // the same names whatever the list holds, so two lists can be compared by it.
            "mean_actions_all": names.count > skipped
                ? Double(listed.reduce(0, +) + unlisted.actions) / Double(names.count - skipped) : .nan,
            "median_actions": quantile(0.5),
            "p90_actions": quantile(0.9),
            "actions_per_letter_unlisted": unlisted.letters > 0 ? Double(unlisted.actions) / Double(unlisted.letters) : .nan,
            // Every name of FILE entered as if it were on no list (taken off the list and out
            // of the letter model): what a name on no list costs, from all of FILE's names
            // rather than the few a list of 91,000 leaves off it.
            "actions_per_letter_held_out": heldOut.letters > 0 ? Double(heldOut.actions) / Double(heldOut.letters) : .nan,
            "floor_median_actions": quantile(0.5, listedFloor),
            "floor_actions_per_letter_unlisted": unlisted.letters > 0 ? unlistedFloor / Double(unlisted.letters) : .nan,
            "names_listed": Double(listed.count),
            "names_unlisted": Double(names.count - listed.count - skipped),
            "names_skipped": Double(skipped),
            "index_build_ms": buildTime / .milliseconds(1),
            "index_rss_growth_mb": residentGrowth ?? .nan,
            "replay_ms_per_name": names.isEmpty ? .nan : replayTime / .milliseconds(1) / Double(names.count),
        ]
    }
}
