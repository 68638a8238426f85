import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

@testable import HyzerKit

/// Issue 38 item 2, one parser in two languages held to one set of cases: every case of
/// Tests/Fixtures/voice/cases.json goes through `VoiceParser.parse` (what `hyzer voice` hears)
/// and, with `node`, through assets/web/voice.js (what the phone hears offline), and each
/// parser's result must be the case's expectation: the kind, the scores in order (player,
/// what was heard, strokes) and the fragments not understood. A case either parser gets
/// wrong fails, naming the case and the parser.
///
/// The expectations were written from the rules in VoiceParser's doc comment, not copied
/// from either parser's output.
///
/// Negative control (by hand): with "birdie" made par + 1 in voice.js only, the JavaScript
/// test failed on the six birdie cases with a par, each named ("birdie on a par 3", "a card of
/// par words on a par 4", …), while the Swift test passed; with "oh" taken out of the Swift
/// homophones only, the Swift test failed on the three "oh" cases ("oh away from a name is a
/// filler", …) while the JavaScript test passed. Both put back. With no `node` on PATH the
/// JavaScript test fails saying "install nodejs: make deps".
@Suite struct VoiceFixtureTests {
    static let fixtureFile = repositoryRoot.appendingPathComponent("Tests/Fixtures/voice/cases.json")
    static let runner = repositoryRoot.appendingPathComponent("Tests/Fixtures/voice/run-js.mjs")

    struct Fixture: Decodable {
        var rosters: [String: [Candidate]]
        var cases: [Case]
    }

    struct Candidate: Decodable {
        var id: String
        var name: String
        var aliases: [String]
    }

    struct Case: Decodable {
        var name: String
        var roster: String
        var transcript: String
        var par: Int?
        var expect: Expectation
    }

    struct Expectation: Decodable {
        var kind: String
        var scores: [ExpectedScore]
        var unresolved: [String]
    }

    struct ExpectedScore: Decodable {
        /// The candidate's name in the roster.
        var player: String
        var heard: String
        var strokes: Int
    }

    /// A result in the fixture's terms, with players as roster ids: what both parsers are
    /// reduced to before comparing.
    struct Outcome: CustomStringConvertible {
        var kind: String
        var scores: [(id: String, heard: String, strokes: Int)]
        var unresolved: [String]

        /// Strings compare scalar by scalar: Swift's `==` would call a decomposed "ë" equal to
        /// a composed one, which JavaScript's `===` would not.
        func matches(_ other: Outcome) -> Bool {
            func scalars(_ text: String) -> [Unicode.Scalar] { Array(text.unicodeScalars) }
            return kind == other.kind && scores.count == other.scores.count
                && zip(scores, other.scores).allSatisfy {
                    $0.id == $1.id && scalars($0.heard) == scalars($1.heard) && $0.strokes == $1.strokes
                }
                && unresolved.map(scalars) == other.unresolved.map(scalars)
        }

        var description: String {
            let said = scores.map { "\($0.id) \"\($0.heard)\" \($0.strokes)" }.joined(separator: ", ")
            return "\(kind) [\(said)] unresolved \(unresolved)"
        }
    }

    static func loadFixture() throws -> Fixture {
        try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: fixtureFile))
    }

    /// The case's expectation with each player's name turned into the roster's id; a player
    /// not in the roster is a mistake in the fixture, recorded here.
    static func expected(_ testCase: Case, in fixture: Fixture) -> Outcome {
        let roster = fixture.rosters[testCase.roster] ?? []
        let scores = testCase.expect.scores.map { score in
            let id = roster.first { $0.name == score.player }?.id
            if id == nil { Issue.record("case \"\(testCase.name)\": no \"\(score.player)\" in roster \(testCase.roster)") }
            return (id: id ?? "?", heard: score.heard, strokes: score.strokes)
        }
        return Outcome(kind: testCase.expect.kind, scores: scores, unresolved: testCase.expect.unresolved)
    }

    @Test func theFixtureIsWideEnoughToHoldTheParsersTogether() throws {
        let fixture = try Self.loadFixture()
        #expect(fixture.cases.count >= 70)
        let notSuccess = fixture.cases.filter { $0.expect.kind != "success" }
        #expect(notSuccess.count >= 10, "partial or failed cases: \(notSuccess.count)")
        // A name is how a failure is reported, so it must find one case.
        let names = fixture.cases.map(\.name)
        #expect(Set(names).count == names.count, "case names repeat")
        for testCase in fixture.cases where fixture.rosters[testCase.roster] == nil {
            Issue.record("case \"\(testCase.name)\": no roster \"\(testCase.roster)\"")
        }
        // Every word the parser scores is said in some case, with and without a par for the
        // words relative to it, so a word added to one parser alone meets a case.
        let heard = fixture.cases.map { (words: Set(VoiceParser.tokenize($0.transcript)), par: $0.par) }
        let vocabulary = Set(VoiceParser.numberWords.keys).union(VoiceParser.homophones.keys)
        for word in vocabulary.sorted() where !heard.contains(where: { $0.words.contains(word) }) {
            Issue.record("no case says \"\(word)\"")
        }
        for word in VoiceParser.parWords.keys.sorted() {
            if !heard.contains(where: { $0.words.contains(word) && $0.par != nil }) {
                Issue.record("no case says \"\(word)\" with a par")
            }
        }
        #expect(heard.contains { !$0.words.isDisjoint(with: VoiceParser.parWords.keys) && $0.par == nil })
    }

    @Test func theSwiftParserMeetsEveryCase() throws {
        let fixture = try Self.loadFixture()
        for testCase in fixture.cases {
            let roster = fixture.rosters[testCase.roster] ?? []
            let candidates = roster.map { VoiceCandidate(id: UUID(), name: $0.name, aliases: $0.aliases) }
            let ids = Dictionary(uniqueKeysWithValues: zip(candidates.map(\.id), roster.map(\.id)))
            let result = VoiceParser.parse(testCase.transcript, candidates: candidates, par: testCase.par)
            let kind: String
            let unresolved: [String]
            switch result {
            case .success: (kind, unresolved) = ("success", [])
            case .partial(_, let fragments): (kind, unresolved) = ("partial", fragments)
            case .failed(let fragments): (kind, unresolved) = ("failed", fragments)
            }
            let got = Outcome(
                kind: kind,
                scores: result.scores.map { (id: ids[$0.participantID] ?? "?", heard: $0.heard, strokes: $0.strokes) },
                unresolved: unresolved)
            let expected = Self.expected(testCase, in: fixture)
            if !got.matches(expected) {
                Issue.record(
                    "case \"\(testCase.name)\" (Swift parser): \"\(testCase.transcript)\" par \(testCase.par.map(String.init) ?? "none"): expected \(expected), got \(got)"
                )
            }
        }
    }

    /// One line of run-js.mjs: a case's name and what voice.js returned for it.
    struct JavaScriptLine: Decodable {
        struct Score: Decodable {
            var participantID: String
            var heard: String
            var strokes: Int
        }
        var name: String
        var kind: String
        var scores: [Score]
        var unresolved: [String]
    }

    @Test func theJavaScriptParserMeetsEveryCase() async throws {
        let fixture = try Self.loadFixture()
        guard let node = Self.node() else {
            Issue.record("node is not installed, so assets/web/voice.js cannot be checked: install nodejs: make deps")
            return
        }
        let run = try await Binary.run(executable: node, [Self.runner.path, Self.fixtureFile.path])
        guard run.status == 0 else {
            Issue.record("run-js.mjs exited \(run.status): \(run.stderr)")
            return
        }
        var lines: [String: JavaScriptLine] = [:]
        for text in run.stdout.split(separator: "\n") {
            let line = try JSONDecoder().decode(JavaScriptLine.self, from: Data(text.utf8))
            lines[line.name] = line
        }
        #expect(lines.count == fixture.cases.count, "run-js.mjs printed \(lines.count) cases of \(fixture.cases.count)")
        for testCase in fixture.cases {
            guard let line = lines[testCase.name] else {
                Issue.record("case \"\(testCase.name)\" (JavaScript parser): run-js.mjs printed nothing for it")
                continue
            }
            let got = Outcome(
                kind: line.kind, scores: line.scores.map { (id: $0.participantID, heard: $0.heard, strokes: $0.strokes) },
                unresolved: line.unresolved)
            let expected = Self.expected(testCase, in: fixture)
            if !got.matches(expected) {
                Issue.record(
                    "case \"\(testCase.name)\" (JavaScript parser): \"\(testCase.transcript)\" par \(testCase.par.map(String.init) ?? "none"): expected \(expected), got \(got)"
                )
            }
        }
    }

    /// Node from PATH: Debian's nodejs package installs it as both `node` and `nodejs`.
    static func node() -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for name in ["node", "nodejs"] {
            for dir in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(dir)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }
}
