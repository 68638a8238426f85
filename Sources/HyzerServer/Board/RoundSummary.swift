import Foundation
import HyzerKit
import HyzerSyncProtocol

/// One round's summary page (`/s/TOKEN`, opened from the QR code on the kiosk's summary
/// card): the standings the live board would show for it, and each player's card hole by
/// hole, computed by the same HyzerKit rules as every device. Like `LiveBoard`, every label
/// is decided here and the page only lays it out.
public struct RoundSummary: Codable, Sendable, Hashable {
    /// One player's card, in the standings' order.
    public struct Card: Codable, Sendable, Hashable {
        public var name: String
        public var guest: Bool
        /// Strokes per hole; nil where nothing was entered (a DNF's unplayed holes).
        public var strokes: [Int?]
        /// Strokes minus par per hole, for the page's colours (the numbers say it too).
        public var toPar: [Int?]
        /// Holes whose value was corrected after the finish (issue 35), marked on the page;
        /// absent when none was.
        public var correctedHoles: [Int]?
    }

    public var group: LiveBoard.Group
    public var round: LiveBoard.Round
    /// Par of each hole.
    public var pars: [Int]
    /// The organizer's name, as the kiosk's card says "organized by …".
    public var organizer: String?
    public var cards: [Card]
    /// The league night this round is a card of (issue 36): the night's summary, every
    /// card's players ranked together, and its side games. Absent for an ordinary round.
    public var night: LiveBoard.Night?
    /// This round's card letter on its night ("B"); absent for an ordinary round.
    public var card: String?
}

extension RoundSummary {
    /// The summary of `source`'s round `roundID`, or nil when its course cannot be read (a
    /// record the domain refuses is left out, never guessed at). The source has the round's
    /// league night, if any, with all its cards.
    public init?(_ source: LiveBoardSource, roundID: UUID) {
        guard let record = source.rounds.first(where: { $0.id == roundID }),
            let course = record.playedCourse(source.courses[record.courseID]),
            let board = LiveBoard.round(record, source)
        else { return nil }
        let round = record.round
        let scorecard = Scorecard(course: course, round: round, events: source.events[round.id] ?? [])
        let standings = StandingsEngine.standings(
            scorecard: scorecard, participants: round.participants, finished: round.status == .completed)
        let guests = Set(round.participants.filter { $0.kind == .guest }.map(\.id))
        let night = source.nights.first { $0.rounds.contains(roundID) }
        self.init(
            group: LiveBoard.Group(id: source.group.id, name: source.group.name), round: board, pars: course.pars,
            organizer: round.participant(round.organizerID)?.name,
            cards: standings.rows.map { row in
                let strokes = (0..<course.pars.count).map { scorecard.value(participant: row.participantID, hole: $0 + 1) }
                let corrected = course.holes.filter {
                    scorecard.resolution(participant: row.participantID, hole: $0).isCorrected
                }
                return Card(
                    name: row.name, guest: guests.contains(row.participantID), strokes: strokes,
                    toPar: zip(strokes, course.pars).map { value, par in value.map { $0 - par } },
                    correctedHoles: corrected.isEmpty ? nil : corrected)
            },
            night: night.flatMap { LiveBoard.night($0, source) },
            card: night.flatMap { $0.rounds.firstIndex(of: roundID) }.map(CardDraw.letter))
    }
}
