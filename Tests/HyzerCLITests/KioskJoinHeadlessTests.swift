import Foundation
import HyzerTestSupport
import Testing

/// Issue 9 item 5 at the real kiosk with no display: a kiosk in no group offers "Join a
/// group" in its menu; started without `--server` the join screen says how to give one, and
/// a long press goes back. (With a server, the code and the polling are `JoinServiceTests`
/// in KioskAppTests; the headless runner runs no services.)
/// `HYZER_SNAPSHOT_DIR=docs/screens` copies `menu-join.png` and `join-no-server.png` there.
@Suite(.serialized) struct KioskJoinHeadlessTests {
    @Test func joinFromTheMenuWithoutAServerSaysHowToGiveOne() async throws {
        let journey = try await HeadlessJourney.demo("join", players: 3, holesPlayed: 2)
        defer { journey.remove() }
        // With a round and no group: Enter scores, Finish round now, Start a new round,
        // Reduce motion, History, Join a group, Status, Back to the board.
        let images = try await journey.play(
            """
            long-press
            expect-screen menu
            turn 5
            snapshot menu-join
            press
            expect-screen join
            snapshot join-no-server
            long-press
            expect-screen menu
            long-press
            expect-screen board

            """)
        try HeadlessJourney.check(["menu-join", "join-no-server"], in: images)
    }
}
