import Foundation
import HyzerKit

/// Three finished rounds worked by hand (issue 37's stats: HyzerKit's rules and the kiosk's
/// pages read the same ones). A three-hole course, pars 3 4 3:
///
/// | round | Ann | Bo |
/// | --- | --- | --- |
/// | R1 (day 1) | 3 3 3 = −1 | 2 4 4 = E |
/// | R2 (day 2) | 3 4 2 = −1 | 1 3 3 = −3 |
/// | R3 (day 3) | 4 4 – (DNF) | 3 4 3 = E |
///
/// Returns the course, the rounds in order, and Ann's and Bo's ids.
public enum StatsRounds {
    public static func make() throws -> (Course, [RoundSnapshot], UUID, UUID) {
        let course = try Course(name: "Tiny Three", pars: [3, 4, 3])
        let ann = Participant(id: UUID(), name: "Ann", kind: .registered)
        let bo = Participant(id: UUID(), name: "Bo", kind: .registered)
        let cards: [([Int?], [Int?])] = [([3, 3, 3], [2, 4, 4]), ([3, 4, 2], [1, 3, 3]), ([4, 4, nil], [3, 4, 3])]
        var snapshots: [RoundSnapshot] = []
        for (day, card) in cards.enumerated() {
            let date = Date(timeIntervalSince1970: Double(day + 1) * 86_400)
            var round = Round(courseID: course.id, organizerID: ann.id, createdAt: date)
            try round.add(ann)
            try round.add(bo)
            try round.takePars(of: course)
            try round.start(at: date)
            var events: [ScoreEvent] = []
            for (player, values) in [(ann, card.0), (bo, card.1)] {
                for (index, value) in values.enumerated() {
                    guard let value else { continue }
                    events.append(
                        ScoreEvent(
                            roundID: round.id, participantID: player.id, hole: index + 1, strokes: value, reportedBy: player.id,
                            deviceID: "kiosk", createdAt: date))
                }
            }
            try round.finish(at: date.addingTimeInterval(3_600))
            snapshots.append(RoundSnapshot(round: round, course: course, events: events))
        }
        return (course, snapshots, ann.id, bo.id)
    }
}
