import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync

/// `hyzer discrepancies`: what the kiosk's resolve screen walks through (issue 9 item 7),
/// for scripts and the admin: each open cell with every value in dispute and who said it,
/// on which device, and when.
struct Discrepancies: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List open discrepancies: each cell's values and who recorded them, on which device, when.",
        discussion: "Without ROUND: every active round (several cards can be on the course at once).")

    @OptionGroup var data: DataOptions
    @Argument(help: "Round id, or \"current\" for the newest active round (default: every active round).")
    var round: String?
    @Flag(help: "Print JSON.") var json = false

    /// The printed shape; `--json` encodes it as it is.
    struct Cell: Encodable {
        struct Source: Encodable {
            var strokes: Int
            var reportedBy: String
            var reportedByID: String
            var device: String
            var thisDevice: Bool
            var at: String
            var counts: Bool
            var resolution: Bool
            var event: String
        }
        var round: String
        var course: String
        var participant: String
        var participantID: String
        var hole: Int
        var values: [Int]
        var counting: Int?
        var kinds: [String]
        var sources: [Source]
    }

    func run() async throws {
        let db = try data.open()
        let rounds: [Round]
        if let round { rounds = [try DeviceLookup.round(round, in: db)] } else { rounds = try await db.read(.activeRounds) }
        var cells: [Cell] = []
        for round in rounds {
            let snapshot: RoundSnapshot
            do { snapshot = try await db.read(.snapshot(round: round.id)) } catch { throw CommandFailure(error) }
            cells += Self.cells(of: snapshot, thisDevice: db.deviceID)
        }
        if json {
            try printJSON(cells)
            return
        }
        guard !cells.isEmpty else {
            print(rounds.isEmpty ? "no active round" : "no open discrepancies")
            return
        }
        for cell in cells {
            print(
                "\(cell.participant), hole \(cell.hole): \(cell.values.map(String.init).joined(separator: " vs "))"
                    + (cell.counting.map { " (\($0) counts now)" } ?? "") + " · \(cell.course) · round \(cell.round)")
            for s in cell.sources {
                print(
                    "  \(s.strokes) by \(s.reportedBy) on device \(s.device)\(s.thisDevice ? " (this one)" : "") at \(s.at)"
                        + (s.counts ? "" : " (overridden)"))
            }
        }
        print("resolve one with: hyzer resolve ROUND PARTICIPANT HOLE STROKES")
    }

    static func cells(of snapshot: RoundSnapshot, thisDevice: String) -> [Cell] {
        let round = snapshot.round
        let byID = Dictionary(uniqueKeysWithValues: snapshot.events.map { ($0.id, $0) })
        return snapshot.scorecard.discrepancies.map { d in
            let resolution = snapshot.scorecard.resolution(participant: d.cell.participantID, hole: d.cell.hole)
            let leafIDs = Set(resolution.leaves.map(\.id))
            let sources = d.eventIDs.compactMap { byID[$0] }.sorted {
                ($0.createdAt, $0.id.uuidString) < ($1.createdAt, $1.id.uuidString)
            }
            .map { e in
                Cell.Source(
                    strokes: e.strokes, reportedBy: round.participant(e.reportedBy)?.name ?? e.reportedBy.uuidString,
                    reportedByID: e.reportedBy.uuidString, device: e.deviceID, thisDevice: e.deviceID == thisDevice,
                    at: ISO8601Time.string(from: e.createdAt), counts: leafIDs.contains(e.id),
                    resolution: e.isResolution, event: e.id.uuidString)
            }
            return Cell(
                round: round.id.uuidString, course: snapshot.course.name,
                participant: round.participant(d.cell.participantID)?.name ?? d.cell.participantID.uuidString,
                participantID: d.cell.participantID.uuidString, hole: d.cell.hole, values: d.values,
                counting: resolution.value, kinds: d.kinds.map(\.rawValue).sorted(), sources: sources)
        }
    }
}
