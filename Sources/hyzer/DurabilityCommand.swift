import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

/// `hyzer durability-check`: does this machine's storage keep what it acknowledged? Records
/// scores in a loop, through the same named write the kiosk uses, and prints each event's id
/// only once the write returned (committed and fsynced). Cut the power while it runs; after
/// the next boot every printed id must be in the database (`sqlite3 hyzer.sqlite "SELECT
/// lower(hex(id)) FROM score_events"`). An SD card or USB stick that lies about flushing
/// fails it. The emulated appliance test runs it across its power cuts (board/appliance-test).
struct DurabilityCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "durability-check",
        abstract: "Record scores in a loop, printing each event id once it is on disk; then cut the power.")

    @OptionGroup var data: DataOptions
    @Option(help: "Stop after this many scores (default: until stopped).") var scores: Int?
    @Option(name: .customLong("interval-ms"), help: "Pause between scores, in milliseconds.") var intervalMs = 0

    func validate() throws {
        if let scores, scores < 1 { throw ValidationError("--scores takes 1 or more") }
        guard intervalMs >= 0 else { throw ValidationError("--interval-ms takes 0 or more") }
    }

    func run() async throws {
        let db = try data.open()
        // The newest active round, or a demo round of its own on a store that has none.
        let round: Round
        do {
            round = try await db.read(.activeRounds).first ?? db.createDemoRound(players: 4, holesPlayed: 0)
        } catch { throw CommandFailure(error) }
        // Holes 1-9 exist on every course of 9 holes or more (a round may predate its pars:
        // none recorded).
        let holes = round.pars.isEmpty ? 9 : min(9, round.pars.count)
        var generator = SystemRandomNumberGenerator()
        var written = 0
        while scores.map({ written < $0 }) ?? true {
            let participant = round.participants[written % round.participants.count]
            let hole = (written / round.participants.count) % holes + 1
            let recorded: RecordedScore
            do {
                recorded = try await db.write(
                    .recordScore(
                        ScoreEntry(
                            roundID: round.id, participantID: participant.id, hole: hole,
                            strokes: Int.random(in: 2...6, using: &generator), reportedBy: ScoreEvent.nobody,
                            deviceName: "durability-check")))
            } catch { throw CommandFailure(error) }
            // The id goes out only now: the write returned, so it is on disk (synchronous=FULL).
            let id = recorded.event.id.uuidString.lowercased().replacingOccurrences(of: "-", with: "")
            FileHandle.standardOutput.write(Data("acknowledged \(id)\n".utf8))
            written += 1
            if intervalMs > 0 { try await Task.sleep(for: .milliseconds(intervalMs)) }
        }
    }
}
