import Foundation
import HyzerHarness
import HyzerTestSupport
import Testing

/// Issue 36's league night from check-in to the night's result, through a real server: the
/// kiosk (headless, its knob scripted) checks 13 players in, sets the side games, draws
/// three balanced cards that start on holes 1, 4 and 7 of Riverside Nine and starts them;
/// it scores cards A and B with the knob; a phone (`hyzer` on a second data directory,
/// enrolled in the same group) scores card C's first six holes; the kiosk takes them in,
/// enters the closest-to-the-pin winner, scores card C's last three and finishes it, so
/// every card has scores from the kiosk and one from a second device too. The night's standings, skins, CTP,
/// aces and pot, as the phone reads them from the server, are the ones worked out by hand
/// below.
@Suite struct LeagueNightHeadlessTests {
    static let names = ["Ann", "Bo", "Cy", "Dee", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max"]

    /// Everyone plays every hole of the par-3 nine in 3, except: Ann and Jo 2 on hole 2 (a
    /// tie), Bo 1 on hole 5 (an ace), Hal 4 on hole 6, Cy 2 on hole 8.
    static func strokes(_ name: String, _ hole: Int) -> Int {
        switch (name, hole) {
        case ("Ann", 2), ("Jo", 2), ("Cy", 8): 2
        case ("Bo", 5): 1
        case ("Hal", 6): 4
        default: 3
        }
    }

    /// By hand. The draw: nobody has a round yet, so everyone is the middle of the field and
    /// the snake deals them in check-in order: A Ann Fay Gus Lou Max (from 1), B Bo Eve Hal
    /// Kim (from 4), C Cy Dee Ivy Jo (from 7).
    /// Skins (the whole field, holes in course order): 1 all 3, carries (1); 2 Ann and Jo
    /// tie, carries (2); 3 and 4 carry (4); 5 Bo alone wins 5; 6 twelve tie at 3, carries;
    /// 7 carries (2); 8 Cy alone wins 3; 9 carries, 1 unclaimed.
    /// Standings: Bo −2; Ann, Cy, Jo −1 (T2, all through, by name); the eight at E (T5);
    /// Hal +1, 13th. The pot: 13 in at 1, Bo's ace wins all 13; it is 0 after.
    static let cards = [
        (letter: "A", start: 1, players: ["Ann", "Fay", "Gus", "Lou", "Max"]),
        (letter: "B", start: 4, players: ["Bo", "Eve", "Hal", "Kim"]),
        (letter: "C", start: 7, players: ["Cy", "Dee", "Ivy", "Jo"]),
    ]
    static let standings = [
        "1 B Bo F -2", "T2 A Ann F -1", "T2 C Cy F -1", "T2 C Jo F -1", "T5 C Dee F 0", "T5 B Eve F 0", "T5 A Fay F 0",
        "T5 A Gus F 0", "T5 C Ivy F 0", "T5 B Kim F 0", "T5 A Lou F 0", "T5 A Max F 0", "13 B Hal F 1",
    ]

    /// `hyzer event show --json`, as EventCommandTests reads it.
    typealias View = EventCommandTests.View

    /// A card's holes in the order it plays them: from its start, round the course.
    static func order(_ card: (letter: String, start: Int, players: [String])) -> [Int] {
        (0..<9).map { (card.start - 1 + $0) % 9 + 1 }
    }

    /// The knob's script for one card's `holes` (all of them unless said): each player
    /// pressed into entry at par, turned to their score, pressed to save; the card moves on
    /// by itself (0.75 s); after its last hole, finalize and the summary. `chooserRows`: the
    /// card is picked on "Which card?" (nil: it is the only one in play).
    static func scoring(
        card: (letter: String, start: Int, players: [String]), chooserRows: Int?, holes: [Int]? = nil
    ) -> String {
        var lines = ["expect-screen board", "press"]
        if let chooserRows { lines += ["expect-screen choose-round", "turn -\(chooserRows)", "press"] }
        let order = holes ?? order(card)
        lines.append("expect-screen hole-\(order[0])")
        for (index, hole) in order.enumerated() {
            if index > 0 { lines.append("expect-screen hole-\(hole)") }
            for name in card.players {
                lines.append("press")
                let delta = strokes(name, hole) - 3
                if delta != 0 { lines.append("turn \(delta)") }
                lines.append("press")
            }
            lines.append("wait 800")
        }
        lines += ["expect-screen finalize", "press", "expect-screen summary", "press", "expect-screen board"]
        return lines.joined(separator: "\n") + "\n"
    }

    @Test func aLeagueNightFromCheckInToItsResultThroughARealServer() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-league-night-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let (kiosk, phone) = (dir.appendingPathComponent("kiosk"), dir.appendingPathComponent("phone"))
        func hyzer(_ args: [String], _ data: URL) async throws -> String {
            let run = try await Binary.run("hyzer", args + ["--data", data.path])
            #expect(run.status == 0, "hyzer \(args.joined(separator: " ")): \(run.stderr)")
            return run.stdout
        }
        let server = try await GroupServer.start(group: "Thursday League", in: dir)
        defer { server.process.kill() }
        let (url, admin) = (server.url, server.admin)

        _ = try await hyzer(["init"], kiosk)
        for name in Self.names { _ = try await hyzer(["player", "add", name], kiosk) }
        _ = try await hyzer(["device", "enroll", "--server", url, "--group-token", admin, "--name", "Kiosk"], kiosk)
        _ = try await hyzer(["sync"], kiosk)
        _ = try await hyzer(["init"], phone)
        _ = try await hyzer(["device", "enroll", "--server", url, "--group-token", admin, "--name", "Nate's phone"], phone)

        // Check-in, the side games, the draw, the start; then cards A and B with the knob.
        var script = [
            "expect-screen board", "long-press", "expect-screen menu", "turn 99", "turn -1", "press",
            "expect-screen check-in",
        ]
        for _ in Self.names { script += ["press", "turn 1"] }
        script += [
            "turn 1", "press", "press",  // Course: Pine Hollow → Ridgeback Championship → Riverside Nine
            "turn 2", "press", "turn 3", "press",  // Closest to the pin: hole 3 (skins stay the whole field)
            "snapshot check-in", "turn -3", "press", "expect-screen draw-cards", "snapshot draw-cards",
            "press", "expect-screen board", "wait 2000", "snapshot night-board",
        ]
        let first =
            script.joined(separator: "\n") + "\n" + Self.scoring(card: Self.cards[0], chooserRows: 3)
            + Self.scoring(card: Self.cards[1], chooserRows: 2)
        let images = try await HeadlessJourney.play(first, in: kiosk, name: "night")
        try HeadlessJourney.check(["check-in", "draw-cards", "night-board"], in: images)

        // The kiosk's store to the server, the phone's from it; the phone scores card C's
        // first six holes (7, 8, 9, 1, 2, 3), the kiosk the last three.
        _ = try await hyzer(["sync"], kiosk)
        _ = try await hyzer(["sync"], phone)
        let drawn = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"], phone).utf8))
        #expect(drawn.cards.map(\.letter) == Self.cards.map(\.letter))
        #expect(drawn.cards.map(\.startHole) == Self.cards.map(\.start))
        #expect(drawn.cards.map(\.players) == Self.cards.map(\.players))
        let cardC = drawn.cards[2]
        let byPhone = Self.order(Self.cards[2]).prefix(6)
        for hole in byPhone {
            for name in cardC.players {
                _ = try await hyzer(["score", cardC.round.uuidString, name, "\(hole)", "\(Self.strokes(name, hole))"], phone)
            }
        }

        // The kiosk takes them in, enters the CTP winner (Gus), scores card C's last three
        // holes (its hole card resumes at 4, the first unplayed in C's order) and finishes it.
        _ = try await hyzer(["sync"], kiosk)
        let second = """
            expect-screen board
            long-press
            expect-screen menu
            turn 99
            turn -1
            press
            expect-screen side-games
            turn 1
            press
            expect-screen side-games-ctp
            turn 3
            press
            expect-screen side-games
            snapshot side-games
            long-press

            """
            + Self.scoring(card: Self.cards[2], chooserRows: nil, holes: Array(Self.order(Self.cards[2]).dropFirst(6)))
            + "wait 2000\nsnapshot night-final\n"
        let more = try await HeadlessJourney.play(second, in: kiosk, name: "night-end")
        try HeadlessJourney.check(["side-games", "night-final"], in: more)
        _ = try await hyzer(["sync"], kiosk)
        _ = try await hyzer(["sync"], phone)

        // What every device reads: the hand-worked night.
        let result = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"], phone).utf8))
        #expect(result.standings.map { "\($0.position) \($0.card) \($0.name) \($0.thru) \($0.toPar)" } == Self.standings)
        #expect(result.skins.count == 1 && result.skins.first?.game == "field")
        #expect(result.skins.first?.won == ["Bo": 5, "Cy": 3])
        #expect(result.skins.first?.unclaimed == 1)
        #expect(result.closestToPin.map { "\($0.hole) \($0.winner ?? "-")" } == ["3 Gus"])
        #expect(result.aces == ["Bo on hole 5"])
        #expect(result.acePot == 0)
        #expect(result.finished)
        // And the kiosk's own store says the same.
        let here = try JSONDecoder().decode(View.self, from: Data(try await hyzer(["event", "show", "--json"], kiosk).utf8))
        #expect(here.standings.map(\.name) == result.standings.map(\.name))
        #expect(here.closestToPin.map(\.winner) == ["Gus"])
    }
}
