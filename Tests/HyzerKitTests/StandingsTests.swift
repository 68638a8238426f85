import Foundation
import Testing

@testable import HyzerKit

@Suite struct StandingsTests {
    @Test func everyoneStartsTiedAtEven() throws {
        let f = try Fixture()
        let rows = f.standings([]).rows
        #expect(rows.allSatisfy { $0.position == 1 && $0.tied && $0.toPar == 0 && $0.thru == 0 && $0.status == .playing })
        #expect(rows.map(\.positionLabel) == ["T1", "T1", "T1", "T1"])
    }

    @Test func sumsAreOverHolesWithAValue() throws {
        let f = try Fixture(names: ["Nate"], pars: [3, 4, 5, 3, 3, 3, 3, 3, 3])
        let events = [f.event(0, hole: 1, 2), f.event(0, hole: 2, 4), f.event(0, hole: 3, 7)]
        let row = try #require(f.standings(events).rows.first)
        #expect(row.toPar == -1 + 0 + 2)
        #expect(row.strokes == 13)
        #expect(row.thru == 3)
        #expect(row.status == .playing)
    }

    @Test func competitionRankingWithTies() throws {
        let f = try Fixture(names: ["A", "B", "C", "D"], pars: Array(repeating: 3, count: 9))
        let events = [f.event(0, hole: 1, 2), f.event(1, hole: 1, 3), f.event(2, hole: 1, 3), f.event(3, hole: 1, 4)]
        let rows = f.standings(events).rows
        #expect(rows.map(\.name) == ["A", "B", "C", "D"])
        #expect(rows.map(\.position) == [1, 2, 2, 4])
        #expect(rows.map(\.tied) == [false, true, true, false])
        #expect(rows.map(\.positionLabel) == ["1", "T2", "T2", "4"])
    }

    @Test func finishedWhenEveryHoleHasAValue() throws {
        let f = try Fixture(names: ["A", "B"])
        let events = f.course.holes.map { f.event(0, hole: $0, 3) } + [f.event(1, hole: 1, 3)]
        let rows = f.standings(events).rows
        #expect(rows.first { $0.name == "A" }?.status == .finished)
        #expect(rows.first { $0.name == "B" }?.status == .playing)
    }

    @Test func manualFinishMakesMissingHolesDNFAndRanksThemLast() throws {
        let f = try Fixture(names: ["Low", "Full", "None"])
        var events = f.course.holes.map { f.event(1, hole: $0, 4) }  // +9, finished
        events += [f.event(0, hole: 1, 2), f.event(0, hole: 2, 2)]  // −2 but only 2 holes
        let rows = f.standings(events, finished: true).rows
        #expect(rows.map(\.name) == ["Full", "Low", "None"])
        #expect(rows[0].position == 1 && rows[0].status == .finished)
        #expect(rows[1].position == nil && rows[1].status == .dnf)
        #expect(rows[2].position == nil && rows[2].status == .dnf && rows[2].thru == 0)
        #expect(rows[1].positionLabel == "–")
    }

    @Test func changeReportsArrowsAndTrigger() throws {
        let f = try Fixture(names: ["A", "B", "C"])
        var engine = StandingsEngine()
        var events = [f.event(0, hole: 1, 2), f.event(1, hole: 1, 3), f.event(2, hole: 1, 4)]
        let first = engine.recompute(round: f.round, course: f.course, events: events, trigger: .localScore)
        #expect(first.previous == nil)
        #expect(first.positionDeltas.isEmpty)
        events += [f.event(2, hole: 2, 1, device: "B")]  // C: +1 −2 = −1
        events += [f.event(0, hole: 2, 4)]  // A: −1 +1 = E, now tied with B (T2)
        let second = engine.recompute(round: f.round, course: f.course, events: events, trigger: .remoteSync)
        #expect(second.trigger == .remoteSync)
        #expect(second.new.rows.map(\.name) == ["C", "A", "B"])
        #expect(second.positionDeltas[f.ids[2]] == 2)  // 3rd → 1st ▲2
        #expect(second.positionDeltas[f.ids[0]] == -1)  // 1st → 2nd ▼1
        #expect(second.positionDeltas[f.ids[1]] == nil)  // 2nd → T2: no arrow
        #expect(second.new.rows.map(\.positionLabel) == ["1", "T2", "T2"])
        #expect(second.orderChanged)
        let third = engine.recompute(round: f.round, course: f.course, events: events, trigger: .localScore)
        #expect(third.positionDeltas.isEmpty)
        #expect(!third.orderChanged)
    }

    @Test func correctionChangesStandingsThroughTheChain() throws {
        let f = try Fixture(names: ["A", "B"])
        let a = f.event(0, hole: 1, 5)
        let rows = f.standings([a, f.event(1, hole: 1, 3), f.event(0, hole: 1, 2, supersedes: [a])]).rows
        #expect(rows.map(\.name) == ["A", "B"])
        #expect(rows[0].toPar == -1)
    }

    @Test func formatAlwaysShowsSignAndNumber() {
        #expect(ScoreFormat.toPar(0) == "E")
        #expect(ScoreFormat.toPar(2) == "+2")
        #expect(ScoreFormat.toPar(-1) == "-1")
        #expect(ScoreFormat.toPar(-3, minus: "\u{2212}") == "\u{2212}3")
    }
}

@Suite struct RoundLifecycleTests {
    @Test func participantListIsLockedOnceActive() throws {
        var round = Round(courseID: UUID(), organizerID: UUID(), createdAt: Fixture.start)
        let marcus = try Participant.guest(named: "Marcus")
        try round.add(marcus)
        try round.start(at: Fixture.start)
        #expect(throws: RoundError.participantsLocked(.active)) { try round.add(try Participant.guest(named: "Late")) }
        #expect(throws: RoundError.participantsLocked(.active)) { try round.remove(participantID: marcus.id) }
    }

    @Test func guestsAreNeverDeduplicated() throws {
        var round = Round(courseID: UUID(), organizerID: UUID(), createdAt: Fixture.start)
        try round.add(try Participant.guest(named: "Marcus"))
        try round.add(try Participant.guest(named: "Marcus"))
        #expect(round.participants.count == 2)
        #expect(Set(round.participants.map(\.id)).count == 2)
    }

    @Test func cannotStartEmptyOrTwice() throws {
        var round = Round(courseID: UUID(), organizerID: UUID(), createdAt: Fixture.start)
        #expect(throws: RoundError.noParticipants) { try round.start(at: Fixture.start) }
        try round.add(try Participant.guest(named: "A"))
        try round.start(at: Fixture.start)
        #expect(throws: RoundError.invalidTransition(from: .active, to: .active)) { try round.start(at: Fixture.start) }
    }

    @Test func completionIsDetectedWhenEveryCellHasAValue() throws {
        var f = try Fixture(names: ["A", "B"], pars: Array(repeating: 3, count: 9))
        var events: [ScoreEvent] = []
        for hole in f.course.holes { events.append(f.event(0, hole: hole, 3)) }
        for hole in f.course.holes.dropLast() { events.append(f.event(1, hole: hole, 3)) }
        #expect(!f.scorecard(events).isComplete)
        #expect(f.scorecard(events).isHoleComplete(8))
        #expect(!f.scorecard(events).isHoleComplete(9))
        events.append(f.event(1, hole: 9, 4))
        #expect(f.scorecard(events).isComplete)
        f.round.markAllScored()
        #expect(f.round.status == .awaitingFinalization)
        try f.round.finish(at: Fixture.start)
        #expect(f.round.status == .completed)
        #expect(f.round.completedAt != nil)
        #expect(throws: RoundError.invalidTransition(from: .completed, to: .completed)) { try f.round.finish(at: Fixture.start) }
    }

    @Test func manualFinishFromActive() throws {
        var f = try Fixture()
        try f.round.finish(at: Fixture.start)
        #expect(f.round.status == .completed)
    }

    @Test func scoringValidationSaysWhatWasWrong() throws {
        var f = try Fixture(names: ["A"])
        let ok = f.event(0, hole: 1, 3)
        #expect(throws: Never.self) { try ok.validate(in: f.round, course: f.course) }
        var e = ok
        e.strokes = 0
        #expect(throws: ScoringError.strokesOutOfRange(0)) { try e.validate(in: f.round, course: f.course) }
        e.strokes = 11
        #expect(throws: ScoringError.strokesOutOfRange(11)) { try e.validate(in: f.round, course: f.course) }
        #expect(ScoringError.strokesOutOfRange(11).description == "strokes must be between 1 and 10, not 11")
        e = ok
        e.hole = 10
        #expect(throws: ScoringError.unknownHole(10, holeCount: 9)) { try e.validate(in: f.round, course: f.course) }
        e = ok
        e.participantID = UUID()
        #expect(throws: ScoringError.unknownParticipant(e.participantID)) { try e.validate(in: f.round, course: f.course) }
        e = ok
        e.supersedes = [e.id]
        #expect(throws: ScoringError.selfSupersession) { try e.validate(in: f.round, course: f.course) }
        let other = f.event(0, hole: 2, 3)
        e = ok
        e.supersedes = [other.id]
        #expect(throws: ScoringError.supersedesOtherCell(other.id)) {
            try e.validate(in: f.round, course: f.course, known: [other.id: other])
        }
        e = ok
        e.isResolution = true
        #expect(throws: ScoringError.resolutionWithoutTargets) { try e.validate(in: f.round, course: f.course) }
        // Finished a minute in: a score made after that is refused; one made before it and
        // arriving late (an offline phone, the kiosk's own outbox) still counts (NFR8).
        try f.round.finish(at: Fixture.start.addingTimeInterval(60))
        #expect(throws: ScoringError.roundCompleted) {
            try f.event(0, hole: 1, 3, at: 61).validate(in: f.round, course: f.course)
        }
        try f.event(0, hole: 1, 3, at: 59).validate(in: f.round, course: f.course)
        let setup = Round(
            id: f.round.id, courseID: f.course.id, organizerID: UUID(), participants: f.round.participants,
            createdAt: Fixture.start)
        #expect(throws: ScoringError.roundNotStarted) { try ok.validate(in: setup, course: f.course) }
    }

    @Test func courseRules() throws {
        let c = try Course(name: " Ridge ", holeCount: 18, exceptions: [4: 4, 9: 5])
        #expect(c.name == "Ridge")
        #expect(c.par(of: 4) == 4 && c.par(of: 9) == 5 && c.par(of: 1) == 3)
        #expect(c.totalPar == 18 * 3 + 1 + 2)
        #expect(c.par(of: 19) == nil)
        #expect(throws: CourseError.invalidHoleCount(37)) { try Course(name: "x", holeCount: 37) }
        #expect(throws: CourseError.nameTooLong(41)) { try Course(name: String(repeating: "x", count: 41), holeCount: 9) }
        #expect(throws: CourseError.invalidPar(hole: 2, par: 9)) { try Course(name: "x", holeCount: 9, exceptions: [2: 9]) }
        #expect(throws: CourseError.unknownHole(10, holeCount: 9)) { try Course(name: "x", holeCount: 9, exceptions: [10: 4]) }
        #expect(throws: CourseError.emptyName) { try Course(name: "  ", holeCount: 9) }
    }
}
