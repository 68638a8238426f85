import Foundation
import Testing

@testable import HyzerKit

@Suite struct VoiceParserTests {
    let mike = VoiceCandidate(id: UUID(), name: "Mike")
    let jake = VoiceCandidate(id: UUID(), name: "Jake Miller")
    let sarah = VoiceCandidate(id: UUID(), name: "Sarah", aliases: ["Sare", "S-Dog"])
    var all: [VoiceCandidate] { [mike, jake, sarah] }

    func strokes(_ result: VoiceParseResult) -> [UUID: Int] {
        Dictionary(uniqueKeysWithValues: result.scores.map { ($0.participantID, $0.strokes) })
    }

    @Test func theSentenceFromThePRD() {
        let result = VoiceParser.parse("Mike 3, jake four, Sarah 2", candidates: all)
        guard case .success = result else {
            Issue.record("expected success, got \(result)")
            return
        }
        #expect(strokes(result) == [mike.id: 3, jake.id: 4, sarah.id: 2])
    }

    @Test func digitsAndWordsUpToTen() {
        let result = VoiceParser.parse("mike ten jake one sarah 7", candidates: all)
        #expect(strokes(result) == [mike.id: 10, jake.id: 1, sarah.id: 7])
    }

    @Test func aliasMapWinsBeforeFuzzyMatching() {
        let result = VoiceParser.parse("S-Dog 3", candidates: all)
        #expect(strokes(result) == [sarah.id: 3])
    }

    @Test func fuzzyMatchAcceptsCloseSpellingsAndSounds() {
        #expect(strokes(VoiceParser.parse("Sara 2", candidates: all)) == [sarah.id: 2])
        #expect(strokes(VoiceParser.parse("Myke 5", candidates: all)) == [mike.id: 5])
        #expect(strokes(VoiceParser.parse("Jake Miler 4", candidates: all)) == [jake.id: 4])
    }

    @Test func ambiguousNamesAreUnresolvedNotGuessed() {
        let jack = VoiceCandidate(id: UUID(), name: "Jack")
        let jakeOnly = VoiceCandidate(id: UUID(), name: "Jake")
        let result = VoiceParser.parse("Jaek 3, Mike 4", candidates: [jack, jakeOnly, mike])
        guard case .partial(let scores, let unresolved) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(scores.map(\.participantID) == [mike.id])
        #expect(unresolved == ["jaek 3"])
    }

    @Test func partialWhenSomeNamesAreUnknown() {
        let result = VoiceParser.parse("Mike 3, Bartholomew 4", candidates: all)
        guard case .partial(let scores, let unresolved) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(scores.count == 1)
        #expect(unresolved == ["bartholomew 4"])
    }

    @Test func failedWhenNothingResolves() {
        #expect(VoiceParser.parse("uh what was that", candidates: all) == .failed(unresolved: ["uh what"]))
        #expect(VoiceParser.parse("", candidates: all) == .failed(unresolved: []))
    }

    @Test func scoresOutsideOneToTenAreUnresolved() {
        let result = VoiceParser.parse("Mike 11, Sarah 0, Jake 3", candidates: all)
        guard case .partial(let scores, let unresolved) = result else {
            Issue.record("got \(result)")
            return
        }
        #expect(strokes(.success(scores)) == [jake.id: 3])
        #expect(unresolved == ["mike 11", "sarah 0"])
    }

    @Test func subsetAndFillerWords() {
        let result = VoiceParser.parse("Sarah got a 4 and Mike had 3", candidates: all)
        #expect(strokes(result) == [sarah.id: 4, mike.id: 3])
    }

    @Test func homophonesCountOnlyAfterAName() {
        #expect(strokes(VoiceParser.parse("Mike for, Sarah to", candidates: all)) == [mike.id: 4, sarah.id: 2])
    }

    @Test func repeatedNameKeepsTheLastValue() {
        let result = VoiceParser.parse("Mike 3 no Mike 4", candidates: all)
        #expect(strokes(result) == [mike.id: 4])
    }

    @Test func levenshteinBasics() {
        #expect(FuzzyNameMatcher.levenshtein("kitten", "sitting") == 3)
        #expect(FuzzyNameMatcher.levenshtein("", "abc") == 3)
        #expect(FuzzyNameMatcher.levenshtein("same", "same") == 0)
    }
}

@Suite struct ScenarioTests {
    @Test func unknownParticipantIsAClearError() throws {
        let json =
            #"{"course": {"name": "x", "pars": [3]}, "participants": [{"id": "p0", "name": "A"}], "events": [{"id": "e1", "participant": "p9", "hole": 1, "strokes": 3, "device": "A"}]}"#
        let scenario = try Scenario.decode(Data(json.utf8))
        #expect(throws: ScenarioError.invalid("event \"e1\": unknown participant \"p9\"")) { try scenario.evaluate() }
    }

    @Test func dnfPositionIsEncodedAsNull() throws {
        let json =
            #"{"course": {"name": "x", "pars": [3, 3]}, "participants": [{"id": "p0", "name": "A"}], "events": [], "finished": true}"#
        let result = try Scenario.decode(Data(json.utf8)).evaluate()
        let text = String(decoding: try result.jsonData(), as: UTF8.self)
        #expect(text.contains("\"position\":null"))
        #expect(text.contains("\"status\":\"dnf\""))
    }

    @Test func notJSONIsMalformed() {
        #expect(throws: ScenarioError.malformed("not valid JSON")) { try Scenario.decode(Data("{nope".utf8)) }
    }
}
