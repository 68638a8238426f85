import Foundation
import HyzerKit

@testable import KioskCore

/// Plays the shell's part in memory: carries out effects against a tiny world and feeds
/// the resulting data back, with an injected clock.
struct Harness {
    var state: KioskState
    var now: Millis = 1_000
    var course: Course
    /// Every course the world has (the store's list, by name); `course` is the first.
    var courses: [Course]
    var players: [Player]
    var round: Round?
    var events: [ScoreEvent] = []
    var completed: RoundSnapshot?
    var effects: [KioskEffect] = []
    let device = "kiosk"
    /// The organizer code the shell keeps (its hash, on a kiosk); nil: none set.
    var organizerCode: String?
    /// Wall-clock time for the values the harness makes (rounds, score events); the
    /// machine itself runs on `now`.
    let clock = ManualClock()

    init(
        players count: Int = 3, holes: Int = 9, startRound: Bool = true, reduceMotion: Bool = false, startHole: Int = 1
    ) throws {
        course = try Course(name: "Riverside Nine", holeCount: holes, exceptions: holes == 9 ? [5: 4] : [:])
        courses = [course]
        players = try ["Nate", "Mike", "Jake", "Sarah", "Priya", "Tom"].prefix(count).map { try Player(displayName: $0) }
        state = KioskState(settings: KioskSettings(reduceMotion: reduceMotion))
        if startRound {
            var r = Round(courseID: course.id, organizerID: players[0].id, createdAt: clock.date)
            for p in players { try r.add(.registered(p)) }
            try r.takePars(of: course)
            try r.startOn(hole: startHole)
            try r.start(at: clock.date)
            round = r
        }
        publish(.localScore)
    }

    var snapshot: RoundSnapshot? { round.map { RoundSnapshot(round: $0, course: course, events: events) } }

    var data: KioskData {
        KioskData(round: snapshot, lastCompleted: completed, courses: courses, players: players, deviceID: device)
    }

    mutating func publish(_ trigger: StandingsTrigger) {
        effects += state.handle(.dataChanged(data, trigger), now: now)
    }

    /// Sends an event and performs the effects, like the kiosk's main loop.
    @discardableResult
    mutating func send(_ event: KioskEvent) -> [KioskEffect] {
        let produced = state.handle(event, now: now)
        effects += produced
        for effect in produced { perform(effect) }
        return produced
    }

    mutating func advance(_ ms: Millis) {
        now += ms
        send(.tick)
    }

    mutating func perform(_ effect: KioskEffect) {
        switch effect {
        case .checkOrganizerCode(let code):
            // As the shell: checked at once against the code the world keeps.
            send(.organizerCodeChecked(code == organizerCode))
        case .setOrganizerCode(let code):
            organizerCode = code
        case .saveScore(_, let participant, let hole, let strokes):
            record(participant, hole: hole, strokes: strokes, resolution: false)
            if Scorecard(course: course, round: round!, events: events).isComplete { round!.markAllScored() }
            publish(.localScore)
        case .resolveScore(_, let participant, let hole, let strokes):
            record(participant, hole: hole, strokes: strokes, resolution: true)
            publish(.localScore)
        case .undoScore(_, let participant, let hole, let strokes):
            // As the store does: a retraction of this kiosk's last score in the cell.
            guard
                let saved = events.last(where: {
                    $0.cell == ScoreCell(participantID: participant, hole: hole) && $0.deviceID == device
                        && !$0.isRetraction
                }), saved.strokes == strokes
            else { return }
            events.append(
                ScoreEvent(
                    roundID: round!.id, participantID: participant, hole: hole, strokes: strokes, supersedes: [saved.id],
                    reportedBy: ScoreEvent.nobody, deviceID: device, createdAt: clock.date, retraction: true))
            publish(.localScore)
        case .undoNewPlayer(let id):
            players.removeAll { $0.id == id }
            publish(.localScore)
        case .discardRound:
            // As the store does: only an empty round; it finishes and leaves no summary.
            guard snapshot?.hasScores != true else { return }
            try! round!.finish(at: clock.date)
            round = nil
            publish(.localScore)
        case .finishRound:
            try! round!.finish(at: clock.date)
            completed = snapshot
            round = nil
            publish(.localScore)
        case .startRound(let courseID, let participants, let startHole):
            var r = Round(courseID: courseID, organizerID: participants[0].id, createdAt: clock.date)
            for p in participants { try! r.add(p) }
            try! r.takePars(of: courses.first { $0.id == courseID }!)
            try! r.startOn(hole: startHole)
            try! r.start(at: clock.date)
            round = r
            events = []
            publish(.localScore)
        case .addPlayer(let player):
            players.append(player)
            publish(.localScore)
        case .saveCourse(let saved):
            courses = (courses.filter { $0.id != saved.id } + [saved])
                .sorted { $0.name.localizedCaseInsensitiveCompare($1.name) == .orderedAscending }
            publish(.localScore)
        case .deleteCourse(let id):
            courses.removeAll { $0.id == id }
            publish(.localScore)
        case .buzz, .saveSettings, .refreshStatus, .startJoin, .requestInvite, .requestSummaryLink, .requestDeviceNames,
            .requestPhoneName, .cancelPhoneName, .loadHistory, .loadHistoryRound, .loadStats, .reopenRound, .correctScore,
            .restoreCourse, .removePlayer, .mergePlayer, .readForm, .startLeagueNight, .setClosestToPin:
            // The undo writes (issue 35) are the store's; UndoScreenTests checks what is asked.
            // League nights (issue 36): LeagueNightKioskTests checks what is asked.
            break
        }
    }

    /// As the store writes a score or a resolution: one event superseding every current leaf.
    mutating func record(
        _ participant: UUID, hole: Int, strokes: Int, resolution: Bool, device: String? = nil, reporter: UUID? = nil
    ) {
        let cell = Scorecard(course: course, round: round!, events: events).resolution(participant: participant, hole: hole)
        events.append(
            ScoreEvent(
                roundID: round!.id, participantID: participant, hole: hole, strokes: strokes,
                supersedes: cell.supersedable, reportedBy: reporter ?? players[0].id, deviceID: device ?? self.device,
                createdAt: clock.date, isResolution: resolution))
    }

    /// Scores a participant on the current hole card through the knob: press, turn, press.
    mutating func score(row: Int, delta: Int) {
        guard case .holeCard(let card) = state.screen else { fatalError("not on a hole card: \(state.screen)") }
        state = Self.moving(state, toRow: row, hole: card.hole, now: now)
        send(.pressed)
        if delta != 0 { send(.turned(delta)) }
        send(.pressed)
    }

    /// Puts the hole card cursor on `row` by turning, as a person would.
    static func moving(_ state: KioskState, toRow row: Int, hole: Int, now: Millis) -> KioskState {
        var state = state
        guard case .holeCard(let card) = state.screen else { return state }
        state.handle(.turned(row - card.cursor), now: now)
        return state
    }

    func id(_ index: Int) -> UUID { players[index].id }
}
