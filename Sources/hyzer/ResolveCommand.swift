import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

/// `hyzer resolve`: the same single event the kiosk's resolve screen writes
/// (`.resolveDiscrepancy`, reported by the round's organizer as there), then a
/// sync when the device is enrolled, as `hyzer score` does.
struct Resolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Settle an open discrepancy with the value that counts, then sync if enrolled.")

    @OptionGroup var options: ScoreWriteOptions
    @OptionGroup var cell: CellScoreArguments

    func run() async throws {
        let (db, round) = try options.open()
        let (who, hole, strokes) = (try DeviceLookup.participant(cell.participant, in: round), cell.hole, cell.strokes)
        // Said with the name, before the store's own refusal (which only knows ids).
        let open = try await db.read(.snapshot(round: round.id)).scorecard.discrepancies
        guard open.contains(where: { $0.cell == ScoreCell(participantID: who.id, hole: hole) }) else {
            let list = open.map { "\(round.participant($0.cell.participantID)?.name ?? "?") hole \($0.cell.hole)" }
            throw CommandFailure(
                message: "\(who.name) has no open discrepancy on hole \(hole)"
                    + (list.isEmpty ? "; this round has none" : " (open: \(list.joined(separator: ", ")))"))
        }
        let recorded: RecordedScore
        do {
            recorded = try await db.write(
                .resolveDiscrepancy(
                    ScoreEntry(
                        roundID: round.id, participantID: who.id, hole: hole, strokes: strokes, reportedBy: round.organizerID,
                        deviceName: ServerLink.enrolledName(in: db.directory))))
        } catch { throw CommandFailure(error) }
        print(
            "resolved \(who.name), hole \(hole): \(strokes) (supersedes \(recorded.event.supersedes.count)); event \(recorded.event.id.uuidString)"
        )
        await options.finish(db)
    }
}
