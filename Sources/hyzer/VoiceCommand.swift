import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

struct Voice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record the scores in a transcript like \"Mike 3, Jake 4\" on the current hole, then sync if enrolled.")

    @OptionGroup var options: ScoreWriteOptions
    @Argument(help: "What was said, e.g. \"Mike 3, Jake four, Sarah birdie\".") var transcript: String
    @Option(help: "Hole (default: the first hole someone still lacks a score on).") var hole: Int?

    func run() async throws {
        let (db, round) = try options.open()
        let snapshot = try await db.read(.snapshot(round: round.id))
        let hole = self.hole ?? snapshot.currentHole
        // The hole's par (as this round plays it), so "Mike birdie" means par − 1 here.
        let result = VoiceParser.parse(
            transcript, candidates: snapshot.voiceCandidates, par: snapshot.course.par(of: hole))
        let unresolved: [String]
        switch result {
        case .success: unresolved = []
        case .partial(_, let u): unresolved = u
        case .failed(let u):
            throw CommandFailure(
                message: "nothing usable in \"\(transcript)\""
                    + (u.isEmpty ? "" : " (not understood: \(u.joined(separator: ", ")))"))
        }
        for score in result.scores {
            let name = round.participant(score.participantID)?.name ?? score.heard
            do {
                let recorded = try await db.write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: score.participantID, hole: hole,
                            strokes: score.strokes, reportedBy: score.participantID,
                            deviceName: ServerLink.enrolledName(in: db.directory))))
                print(
                    "recorded \(name), hole \(hole): \(score.strokes) (heard \"\(score.heard)\")"
                        + (recorded.event.supersedes.isEmpty ? "" : ", a correction"))
            } catch { throw CommandFailure(message: "\(name), hole \(hole): \(error)") }
        }
        if !unresolved.isEmpty { printError("warning: not understood: \(unresolved.joined(separator: ", "))") }
        await options.finish(db)
    }
}
