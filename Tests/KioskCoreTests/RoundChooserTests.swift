import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 9 item 3, several cards on the course: every active round in `KioskData`, the round
/// chooser before entering scores, the round picked kept in front (its board, its menu
/// actions), and what happens when one finishes or another device starts one.
@Suite struct RoundChooserTests {
    struct World {
        let clock = ManualClock()
        var river: RoundSnapshot
        var maple: RoundSnapshot

        /// Riverside (older, one score in) and Maple Hill (newer, no scores yet).
        init() throws {
            let riverside = try Course(name: "Riverside Nine", holeCount: 9)
            let mapleHill = try Course(name: "Maple Hill", holeCount: 18)
            let players = try ["Nate", "Mike", "Jake", "Priya"].map { try Player(displayName: $0) }
            func round(_ course: Course, _ group: ArraySlice<Player>, at date: Date) throws -> Round {
                var r = Round(courseID: course.id, organizerID: group.first!.id, createdAt: date)
                for p in group { try r.add(.registered(p)) }
                try r.start(at: date)
                return r
            }
            let first = try round(riverside, players[0..<2], at: clock.date)
            let second = try round(mapleHill, players[2..<4], at: clock.date.addingTimeInterval(60))
            let score = ScoreEvent(
                roundID: first.id, participantID: players[0].id, hole: 1, strokes: 3, reportedBy: players[0].id,
                deviceID: "kiosk", createdAt: clock.date)
            river = RoundSnapshot(round: first, course: riverside, events: [score])
            maple = RoundSnapshot(round: second, course: mapleHill, events: [])
        }

        /// As the shell loads it: the newest round in front, the rest behind, newest first.
        func data(_ rounds: [RoundSnapshot]) -> KioskData {
            let sorted = rounds.sorted(by: KioskData.newestFirst)
            return KioskData(
                round: sorted.first, courses: [river.course, maple.course], otherRounds: Array(sorted.dropFirst()))
        }
    }

    static func machine(_ data: KioskData) -> KioskState {
        var state = KioskState()
        state.handle(.dataChanged(data, .remoteSync), now: 1_000)
        return state
    }

    @Test func oneRoundGoesStraightToItsCard() throws {
        let world = try World()
        var state = Self.machine(world.data([world.river]))
        #expect(state.data.rounds.map(\.round.id) == [world.river.round.id])
        #expect(state.data.otherRounds.isEmpty)
        #expect(state.courseNowBoxes(layout: Layout(viewport: state.viewport)) == nil, "one round: the header as before")
        state.handle(.pressed, now: 2_000)
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))
        state.handle(.longPressed, now: 3_000)
        state.handle(.longPressed, now: 3_100)
        #expect(state.screen == .menu(cursor: 0) && state.menuItems.first == .enterScores)
        state.handle(.pressed, now: 3_200)
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))
    }

    @Test func twoRoundsAskWhichAndThePickedOneStaysInFront() throws {
        let world = try World()
        var state = Self.machine(world.data([world.river, world.maple]))
        #expect(state.data.round?.round.id == world.maple.round.id, "the newest in front at first")
        #expect(state.data.rounds.map(\.course.name) == ["Maple Hill", "Riverside Nine"])
        #expect(state.menuItems.contains(.discardRound), "Maple Hill has no scores yet")

        state.handle(.pressed, now: 2_000)
        #expect(state.screen == .chooseRound(cursor: 0), "asked which card, on the one in front")
        #expect(state.handle(.turned(5), now: 2_100) == [.buzz(.limit)])
        #expect(state.screen == .chooseRound(cursor: 1))
        state.handle(.pressed, now: 2_200)
        // Riverside's card, where scoring resumes: hole 1, Mike still to score.
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))
        #expect(state.data.round?.round.id == world.river.round.id)
        #expect(Set(state.leaderboard.rows.map(\.participantID)) == Set(world.river.round.participants.map(\.id)))
        // The score entered goes to the round picked.
        state.handle(.pressed, now: 2_300)
        let saved = state.handle(.pressed, now: 2_400)
        #expect(saved.contains { if case .saveScore(let id, _, 1, _) = $0 { id == world.river.round.id } else { false } })

        // A reload brings the newest round in front again; the picked one stays there.
        state.handle(.dataChanged(world.data([world.river, world.maple]), .localScore), now: 3_000)
        #expect(state.data.round?.round.id == world.river.round.id)
        #expect(state.menuItems.contains(.finishRound), "finishing acts on Riverside, which has scores")
        let panel = try #require(state.courseNowBoxes(layout: Layout(viewport: state.viewport)))
        #expect(panel.cells.map(\.roundID) == [world.maple.round.id, world.river.round.id], "newest first")
        #expect(panel.cells.map(\.lit) == [false, true], "the board below is Riverside's")
        #expect(panel.cells[1].boxes.texts.map(\.text) == ["Riverside Nine", "thru 0"])

        // From the menu, the chooser opens on the round in front.
        state.handle(.longPressed, now: 4_000)
        state.handle(.longPressed, now: 4_100)
        state.handle(.pressed, now: 4_200)
        #expect(state.screen == .chooseRound(cursor: 1))
        state.handle(.longPressed, now: 4_300)
        #expect(state.screen == .board)
    }

    @Test func oneFinishesWhileTheOtherPlays() throws {
        let world = try World()
        var state = Self.machine(world.data([world.river, world.maple]))
        state.handle(.pressed, now: 2_000)
        state.handle(.turned(1), now: 2_100)
        state.handle(.pressed, now: 2_200)
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))

        // Riverside is finished on another device: its card goes, Maple Hill is in front.
        state.handle(.dataChanged(world.data([world.maple]), .remoteSync), now: 3_000)
        #expect(state.screen == .board, "not silently onto the other round's card")
        #expect(state.data.round?.round.id == world.maple.round.id)
        #expect(state.courseNowBoxes(layout: Layout(viewport: state.viewport)) == nil)
        // With one left there is nothing to choose.
        state.handle(.pressed, now: 3_100)
        #expect(state.screen == .holeCard(hole: 1, cursor: 0))

        // On the chooser when one of two ends: straight to the card of the one left.
        var other = Self.machine(world.data([world.river, world.maple]))
        other.handle(.pressed, now: 2_000)
        #expect(other.screen == .chooseRound(cursor: 0))
        other.handle(.dataChanged(world.data([world.river]), .remoteSync), now: 2_500)
        #expect(other.screen == .holeCard(hole: 1, cursor: 1))
        // And when the last ends, the board.
        other.handle(.dataChanged(world.data([]), .remoteSync), now: 2_600)
        #expect(other.screen == .board && other.data.rounds.isEmpty)
    }

    @Test func aRoundStartedOnAnotherDeviceWaitsBehindButOneStartedHereComesInFront() throws {
        let world = try World()
        var state = Self.machine(world.data([world.river]))
        state.handle(.pressed, now: 2_000)
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))

        // Synced in from another device: Riverside's group keeps its card and its board.
        state.handle(.dataChanged(world.data([world.river, world.maple]), .remoteSync), now: 3_000)
        #expect(state.screen == .holeCard(hole: 1, cursor: 1))
        #expect(state.data.round?.round.id == world.river.round.id)
        #expect(state.data.otherRounds.map(\.round.id) == [world.maple.round.id])
        #expect(try #require(state.courseNowBoxes(layout: Layout(viewport: state.viewport))).cells.count == 2)

        // Started at this kiosk (its own write brings a round it did not have): in front.
        var here = Self.machine(world.data([world.river]))
        here.handle(.dataChanged(world.data([world.river, world.maple]), .localScore), now: 3_000)
        #expect(here.data.round?.round.id == world.maple.round.id)
    }
}
