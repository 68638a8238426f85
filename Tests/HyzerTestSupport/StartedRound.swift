import HyzerKit
import HyzerStore

extension HyzerDatabase {
    /// Saves a player for each of `names` and starts a round of them on `course`, the first
    /// organizing: where most store and sync tests begin.
    public func startedRound(on course: Course, names: [String]) throws -> Round {
        let players = try names.map { try Player(displayName: $0) }
        for player in players { try write(.savePlayer(player)) }
        let round = try write(
            .createRound(
                courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        return try write(.startRound(round.id))
    }
}
