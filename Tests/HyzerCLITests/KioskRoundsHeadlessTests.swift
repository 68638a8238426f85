import Foundation
import HyzerKit
import HyzerStore
import Testing

/// Issue 9 item 3 at the real kiosk with no display: two cards on the course. The board's
/// header is the "course now" panel; pressing asks which card; the one picked takes the board
/// and its scores go to it.
///
/// `HYZER_SNAPSHOT_DIR=docs/screens swift test --filter KioskRoundsHeadlessTests` also copies
/// the journey's images there (how the two-card pictures in docs/screens were made).
@Suite(.serialized) struct KioskRoundsHeadlessTests {
    /// The demo round (Riverside Nine, through hole 2) and a newer one on another course with
    /// no scores: the newer is in front at first.
    static let script = """
        expect-screen board
        snapshot board-two-cards
        press                 # which card?
        expect-screen choose-round
        turn 1                # the older one, Riverside Nine
        snapshot choose-round
        press
        expect-screen hole-3
        press                 # Nate's hole 3 (par 3)
        press                 # par: saved to Riverside's round
        wait 5000             # the Undo toast goes (until then a long press undoes)
        long-press
        expect-screen board   # Riverside's board now, lit in the panel
        snapshot board-two-cards-picked

        """

    @Test func pickingACardFromTwoScoresIntoIt() async throws {
        let journey = try await HeadlessJourney.demo("rounds", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        let second: Round
        do {
            let db = try HyzerDatabase(directory: journey.dir)
            let river = try await db.read(.snapshot(round: journey.roundID)).round
            let other = try #require(try await db.read(.courses).first { $0.id != river.courseID })
            let created = try await db.write(
                .createRound(
                    courseID: other.id, organizerID: river.organizerID, participants: Array(river.participants.prefix(2))))
            second = try await db.write(.startRound(created.id))
        }
        let before = try await HyzerDatabase(directory: journey.dir).read(.events(round: journey.roundID)).count

        let images = try await journey.play(Self.script)

        let db = try HyzerDatabase(directory: journey.dir)
        #expect(try await db.read(.events(round: journey.roundID)).count == before + 1, "the score went to the round picked")
        #expect(try await db.read(.events(round: second.id)).isEmpty)
        #expect(try await db.read(.activeRounds).count == 2)
        try HeadlessJourney.check(["board-two-cards", "choose-round", "board-two-cards-picked"], in: images)
        // The panel's lit cell moved: the header differs between the two boards.
        let first = try PNGImage(contentsOf: URL(fileURLWithPath: images.first { $0.hasSuffix("-board-two-cards.png") }!))
        let picked = try PNGImage(
            contentsOf: URL(fileURLWithPath: images.first { $0.hasSuffix("-board-two-cards-picked.png") }!))
        let differing = HeadlessJourney.differingPixels(first, picked, x: 0..<800, y: 0..<86)
        #expect(differing > 500, "the lit cell did not move (\(differing) pixels differ)")
    }
}
