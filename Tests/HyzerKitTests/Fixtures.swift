import Foundation

@testable import HyzerKit

/// Small builders so each test reads as the situation it describes.
struct Fixture {
    var course: Course
    var round: Round
    var ids: [UUID] { round.participants.map(\.id) }
    /// When the fixture's round was created and started.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    init(names: [String] = ["Nate", "Mike", "Jake", "Sarah"], pars: [Int] = Array(repeating: 3, count: 9)) throws {
        course = try Course(name: "Fixture Park", pars: pars)
        round = Round(courseID: course.id, organizerID: UUID(), createdAt: Self.start)
        for name in names { try round.add(Participant(id: UUID(), name: name, kind: .registered)) }
        try round.start(at: Self.start)
    }

    func event(
        _ participant: Int, hole: Int, _ strokes: Int, device: String = "A", supersedes: [ScoreEvent] = [],
        resolution: Bool = false, at time: TimeInterval = 0
    ) -> ScoreEvent {
        ScoreEvent(
            roundID: round.id, participantID: ids[participant], hole: hole, strokes: strokes,
            supersedes: supersedes.map(\.id), reportedBy: ids[0], deviceID: device,
            createdAt: Date(timeIntervalSince1970: 1_800_000_000 + time), isResolution: resolution)
    }

    func scorecard(_ events: [ScoreEvent]) -> Scorecard {
        Scorecard(course: course, round: round, events: events)
    }

    func standings(_ events: [ScoreEvent], finished: Bool = false) -> Standings {
        StandingsEngine.standings(scorecard: scorecard(events), participants: round.participants, finished: finished)
    }
}
