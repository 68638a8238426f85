import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

struct Standings: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print standings: of a scenario file (JSON, docs/scenario-format.md) or of a round in the database.",
        discussion: """
            hyzer standings SCENARIO.json       evaluate a self-contained scenario, print JSON
            hyzer standings [ROUND] [--json]    a round in --data (default: the newest active round)
            """)

    @Argument(help: "A scenario .json file, or a round id.") var target: String?
    @OptionGroup var data: DataOptions
    @Flag(help: "Print JSON in the scenario output shape.") var json = false

    func run() async throws {
        if let target, target.hasSuffix(".json") || FileManager.default.fileExists(atPath: target) {
            try runScenario(path: target)
        } else {
            try runDatabase()
        }
    }

    private func runScenario(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandFailure(message: "cannot read scenario \(path)")
        }
        do {
            // A season's document (issue 37): its table, from its events.
            if SeasonScenario.isSeason(data) {
                print(String(decoding: try SeasonScenario.decode(data).evaluate().jsonData(), as: UTF8.self))
                return
            }
            let result = try Scenario.decode(data).evaluate()
            print(String(decoding: try result.jsonData(pretty: true), as: UTF8.self))
        } catch {
            throw CommandFailure(message: "\(path): \(error)")
        }
    }

    private func runDatabase() throws {
        let db = try data.open()
        let roundID: UUID
        if let target {
            guard let id = UUID(uuidString: target) else {
                throw CommandFailure(message: "\"\(target)\" is neither a scenario file nor a round id")
            }
            roundID = id
        } else {
            guard let newest = try db.read(.activeRounds).first else {
                throw CommandFailure(message: "no active round in \(db.files.path); pass a round id or run `hyzer demo`")
            }
            roundID = newest.id
        }
        let snapshot: RoundSnapshot
        do { snapshot = try db.read(.snapshot(round: roundID)) } catch { throw CommandFailure(error) }
        let standings = snapshot.standings
        if json {
            let ids = Dictionary(uniqueKeysWithValues: snapshot.round.participants.map { ($0.id, $0.id.uuidString) })
            let result = ScenarioResult(standings: standings, discrepancies: snapshot.scorecard.discrepancies, ids: ids)
            print(String(decoding: try result.jsonData(pretty: true), as: UTF8.self))
            return
        }
        let round = snapshot.round
        print(
            "\(snapshot.course.name) · \(snapshot.course.holeCount) holes · \(round.status.rawValue) · round \(round.id.uuidString)"
        )
        let width = max(4, standings.rows.map(\.name.count).max() ?? 4)
        print("POS  " + "NAME".padding(toLength: width, withPad: " ", startingAt: 0) + "  TO PAR  STROKES  THRU")
        for row in standings.rows {
            print(
                row.positionLabel.padding(toLength: 5, withPad: " ", startingAt: 0)
                    + row.name.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  " + ScoreFormat.toPar(row.toPar).leftPadded(6)
                    + "  " + String(row.strokes).leftPadded(7)
                    + "  " + ScoreFormat.progress(row))
        }
        for d in snapshot.scorecard.discrepancies {
            let name = round.participant(d.cell.participantID)?.name ?? "?"
            print("discrepancy: \(name), hole \(d.cell.hole): \(d.values.map(String.init).joined(separator: " vs "))")
        }
    }
}

extension String {
    func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}
