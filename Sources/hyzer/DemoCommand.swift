import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add an active demo round part-way through, with corrections. Prints the round id last.")

    @OptionGroup var data: DataOptions
    @Option(help: "Number of players (1–\(Round.maxParticipants)).") var players = 6
    @Option(name: .customLong("holes-played"), help: "Holes already scored.") var holesPlayed = 6
    @Option(help: "Course name (default: the first 18-hole course).") var course: String?
    @Option(help: "Random seed, for repeatable data.") var seed: UInt64 = 1
    @Option(name: .customLong("start-hole"), help: "The card's start hole (a shotgun start); holes are played from there.")
    var startHole = 1
    @Option(help: "Scores another device disputes on the last hole played (the resolve screen's demo).")
    var disputes = 0

    func validate() throws {
        guard (1...Round.maxParticipants).contains(players) else {
            throw ValidationError("--players must be between 1 and \(Round.maxParticipants)")
        }
        guard holesPlayed >= 0 else { throw ValidationError("--holes-played cannot be negative") }
        guard (0...players).contains(disputes) else { throw ValidationError("--disputes must be between 0 and --players") }
        guard disputes == 0 || holesPlayed > 0 else { throw ValidationError("--disputes needs --holes-played 1 or more") }
    }

    func run() async throws {
        let db = try data.open()
        let round: Round
        do {
            round = try db.createDemoRound(
                players: players, holesPlayed: holesPlayed, courseName: course, seed: seed, startHole: startHole)
            try db.addDemoDisputes(disputes, round: round.id)
        } catch { throw CommandFailure(error) }
        let snapshot = try await db.read(.snapshot(round: round.id))
        print(
            "demo round on \(snapshot.course.name): \(round.participants.count) players, \(holesPlayed) holes scored, \(snapshot.events.count) events, status \(round.status.rawValue)"
        )
        print(round.id.uuidString)
    }
}
