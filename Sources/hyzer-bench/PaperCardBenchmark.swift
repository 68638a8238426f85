import Foundation
import HyzerKit
import HyzerStore
import KioskApp
import KioskCore

/// `hyzer-bench paper-card` (issue 35 item 3): the knob actions (detents, presses and long
/// presses) it takes to type paper cards in at the kiosk, a cell being one player's strokes
/// on one hole. Each card goes in twice through the real machine and store: with "Enter a
/// paper card" (player by player, from par) and with today's hole-by-hole path (the hole
/// card, crown entry from par, a save that moves the cursor on, the card that moves to the
/// next hole by itself). Both stores must end holding the cards exactly.
///
/// Goal: at most 1.8 actions a cell on a typical amateur card (most holes within one of par).
enum PaperCardBenchmark {
    /// One round's paper card: each player's strokes, hole by hole.
    struct Card {
        var players: [[Int]]
    }

    /// A par-58 18-hole course, as many club courses are: mostly threes.
    static let pars = [3, 3, 4, 3, 3, 3, 4, 3, 3, 3, 4, 3, 3, 5, 3, 3, 4, 3]

    /// `rounds` cards of `players` a round: each hole's strokes from par by a typical
    /// amateur's spread, 85 % within one of par (−1: 10 %, par: 45 %, +1: 30 %, +2: 12 %,
    /// +3: 3 %), from a fixed seed so every run types the same cards.
    static func typicalCards(rounds: Int, players: Int) -> [Card] {
        var seed: UInt64 = 0x5EED_CA4D
        func next() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        let spread: [(Double, Int)] = [(0.10, -1), (0.55, 0), (0.85, 1), (0.97, 2), (1.0, 3)]
        return (0..<rounds).map { _ in
            Card(
                players: (0..<players).map { _ in
                    pars.map { par in
                        let u = next()
                        return par + (spread.first { u < $0.0 }?.1 ?? 0)
                    }
                })
        }
    }

    /// Cards from a file: one player's 18 numbers a line (spaces or commas), `players`
    /// lines a round; blank lines and `#` comments are skipped.
    static func cards(from url: URL, players: Int) throws -> [Card] {
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map {
            $0.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        }.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
        let rows = try lines.enumerated().map { index, line in
            let numbers = line.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }).map { Int($0) }
            guard numbers.count == pars.count, numbers.allSatisfy({ $0.map(ScoreEvent.allowedStrokes.contains) == true })
            else {
                throw BenchError("\(url.path): card line \(index + 1) is not \(pars.count) strokes of 1 to 20")
            }
            return numbers.compactMap { $0 }
        }
        guard !rows.isEmpty, rows.count % players == 0 else {
            throw BenchError("\(url.path): \(rows.count) lines is not whole rounds of \(players) players")
        }
        return stride(from: 0, to: rows.count, by: players).map { Card(players: Array(rows[$0..<($0 + players)])) }
    }

    static func run(cards: [Card]) throws -> Figures {
        var paper = 0
        var holeCard = 0
        var cells = 0
        for card in cards {
            paper += try typeOnPaperCard(card)
            holeCard += try typeHoleByHole(card)
            cells += card.players.count * pars.count
        }
        let within = cards.flatMap { $0.players.flatMap { zip($0, pars).map { abs($0 - $1) <= 1 } } }
        log("paper-card: \(cards.count) cards, \(cells) cells, both paths checked against the cards")
        let paperPerCell = Double(paper) / Double(cells)
        let holeCardPerCell = Double(holeCard) / Double(cells)
        return [
            "cards": Double(cards.count),
            "cells": Double(cells),
            "cells_within_one_of_par_share": round3(Double(within.filter { $0 }.count) / Double(within.count)),
            "paper_card_actions_per_cell": round3(paperPerCell),
            "hole_by_hole_actions_per_cell": round3(holeCardPerCell),
            "hole_by_hole_over_paper_card": round3(holeCardPerCell / paperPerCell),
        ]
    }

    /// A store with the card's round started, and a kiosk session on it.
    static func session(for card: Card) throws -> (KioskSession, RoundSnapshot, HyzerDatabase) {
        let store = try HyzerDatabase.inMemory()
        let course = try Course(
            name: "Paper Park", holeCount: pars.count,
            exceptions: Dictionary(uniqueKeysWithValues: pars.enumerated().compactMap { $1 == 3 ? nil : ($0 + 1, $1) }))
        try store.write(.saveCourse(course))
        let players = try card.players.indices.map { try Player(displayName: "Card \($0 + 1)") }
        for player in players { try store.write(.savePlayer(player)) }
        let created = try store.write(
            .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
        let round = try store.write(.startRound(created.id))
        let session = try KioskSession(store: store, viewport: Viewport(width: 1280, height: 720), now: 0)
        return (session, try store.read(.snapshot(round: round.id)), store)
    }

    /// The store holds exactly the card.
    static func check(_ store: HyzerDatabase, _ round: RoundSnapshot, _ card: Card, path: String) throws {
        let scorecard = try store.read(.snapshot(round: round.round.id)).scorecard
        for (index, strokes) in card.players.enumerated() {
            let id = round.round.participants[index].id
            let kept = (1...pars.count).map { scorecard.value(participant: id, hole: $0) }
            guard kept == strokes else {
                throw BenchError("\(path): player \(index + 1) holds \(kept), the card says \(strokes)")
            }
        }
    }

    /// "Enter a paper card": the menu, then each cell's turns from where the knob starts and a press.
    static func typeOnPaperCard(_ card: Card) throws -> Int {
        let (session, round, store) = try session(for: card)
        var actions = 0
        let now: Millis = 1_000
        session.send(.longPressed, now: now)
        guard let index = session.state.menuItems.firstIndex(of: .paperCard) else {
            throw BenchError("no paper card in the menu")
        }
        if index > 0 { session.send(.turned(index), now: now) }
        session.send(.pressed, now: now)
        actions += 2 + index
        for strokes in card.players.flatMap({ $0 }) {
            guard case .paperCard(let screen) = session.state.screen else {
                throw BenchError("paper card: on \(session.state.screen.name), not the paper card")
            }
            if strokes != screen.value { session.send(.turned(strokes - screen.value), now: now) }
            session.send(.pressed, now: now)
            actions += abs(strokes - screen.value) + 1
        }
        try check(store, round, card, path: "paper card")
        return actions
    }

    /// Today's path: the hole card (a press from the board), and on each cell the cursor to
    /// the player's row, a press into crown entry at par, the turns, a press to save; a
    /// complete hole's card moves on by itself (`autoAdvanceDelay`, no action).
    static func typeHoleByHole(_ card: Card) throws -> Int {
        let (session, round, store) = try session(for: card)
        var actions = 1
        var now: Millis = 1_000
        session.send(.pressed, now: now)
        for hole in 1...pars.count {
            for (player, strokes) in card.players.map({ $0[hole - 1] }).enumerated() {
                guard case .holeCard(let screen) = session.state.screen, screen.hole == hole else {
                    throw BenchError("hole by hole: on \(session.state.screen.name), not hole \(hole)'s card")
                }
                if screen.cursor != player { session.send(.turned(player - screen.cursor), now: now) }
                session.send(.pressed, now: now)
                guard case .entry(let entry) = session.state.screen else { throw BenchError("no crown entry on hole \(hole)") }
                if strokes != entry.value { session.send(.turned(strokes - entry.value), now: now) }
                session.send(.pressed, now: now)
                actions += abs(player - screen.cursor) + 1 + abs(strokes - entry.value) + 1
            }
            now += MotionTokens.autoAdvanceDelay + 1
            session.send(.tick, now: now)
        }
        try check(store, round, card, path: "hole by hole")
        return actions
    }
}
