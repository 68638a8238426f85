import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

struct Score: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Record a score (a correction when the hole already has one), then sync if enrolled.")

    @OptionGroup var options: ScoreWriteOptions
    @OptionGroup var cell: CellScoreArguments

    func run() async throws {
        let (db, round) = try options.open()
        let (who, hole, strokes) = (try DeviceLookup.participant(cell.participant, in: round), cell.hole, cell.strokes)
        let recorded: RecordedScore
        do {
            recorded = try await db.write(
                .recordScore(
                    ScoreEntry(
                        roundID: round.id, participantID: who.id, hole: hole,
                        strokes: strokes, reportedBy: who.id, deviceName: ServerLink.enrolledName(in: db.directory))))
        } catch { throw CommandFailure(error) }
        let correction = recorded.event.supersedes.isEmpty ? "" : " (corrects \(recorded.event.supersedes.count) earlier)"
        print("recorded \(who.name), hole \(hole): \(strokes)\(correction); event \(recorded.event.id.uuidString)")
        if let d = recorded.cell.discrepancy {
            print("discrepancy on hole \(hole) for \(who.name): \(d.values.map(String.init).joined(separator: " vs "))")
        }
        if recorded.roundStatus != round.status { print("round is now \(recorded.roundStatus.rawValue)") }
        await options.finish(db)
    }
}
