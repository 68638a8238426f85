import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 35 item 2 at the kiosk: reopen a finished round and correct one of its scores from
/// history, restore a deleted course from the course list, each behind the organizer code
/// and each carried out by the shell as a named effect.
@Suite struct UndoScreenTests {
    static let undoable = HistoryUndo(canCorrect: true, canReopen: true)

    /// History open on `snapshot`'s standings, the lock `lock`.
    static func opened(
        _ snapshot: RoundSnapshot, undo: HistoryUndo = undoable, lock: OrganizerLock.Setting = .off
    ) -> KioskState {
        var state = KioskState()
        state.settings.organizerLock = lock
        _ = HistoryScreenTests.openHistory(&state, first: HistoryScreenTests.page(0..<1, holding: snapshot, at: 0))
        state.handle(.pressed, now: 2_000)
        state.handle(.historyRoundLoaded(snapshot, undo: undo), now: 2_000)
        return state
    }

    static func history(_ state: KioskState) -> Screen.History? {
        if case .history(let h) = state.screen { h } else { nil }
    }

    @Test func reopenIsTheRowAfterTheStandingsAndAsksTheCodeThenConfirms() throws {
        let snapshot = try HistoryScreenTests.completed()
        var state = Self.opened(snapshot, lock: .set(length: 4))
        let h = try #require(Self.history(state))
        #expect(h.rowCount == 5)
        #expect(h.rowText(4, minus: "-").title == "Reopen this round")
        #expect(h.rowText(3, minus: "-").title == "–  Dee", "the standings first")
        state.handle(.turned(4), now: 2_100)
        #expect(state.handle(.pressed, now: 2_200).isEmpty)
        #expect(state.screen.name == "code", "the code first")
        if case .codeEntry(let entry) = state.screen { #expect(entry.purpose == "Needed to reopen this round.") }
        // The code dialled and pressed digit by digit; the shell says it is right, and the
        // question shows, starting on keeping the round finished.
        var asked: [KioskEffect] = []
        for digit in [1, 9, 5, 1] {
            guard case .codeEntry(let entry) = state.screen else { break }
            if digit != entry.dial { state.handle(.turned(digit - entry.dial), now: 2_300) }
            asked += state.handle(.pressed, now: 2_300)
        }
        #expect(asked.contains(.checkOrganizerCode("1951")))
        state.handle(.organizerCodeChecked(true), now: 2_400)
        #expect(state.screen.name == "reopen-round")
        guard case .undoConfirm(let question) = state.screen else { return }
        #expect(question.cursor == 1)
        #expect(question.lines.title == "Reopen this round?")
        // A press on "Keep it finished" changes nothing.
        #expect(state.handle(.pressed, now: 2_500).isEmpty)
        #expect(state.screen.name == "history-round")
    }

    @Test func reopeningWithTheLockOffGoesStraightToTheQuestionAndEmitsTheReopen() throws {
        let snapshot = try HistoryScreenTests.completed()
        var state = Self.opened(snapshot)
        state.handle(.turned(4), now: 2_100)
        state.handle(.pressed, now: 2_200)
        #expect(state.screen.name == "reopen-round")
        state.handle(.turned(-1), now: 2_300)
        #expect(state.handle(.pressed, now: 2_400) == [.buzz(.confirm), .reopenRound(snapshot.round.id)])
        #expect(state.screen == .board)
    }

    @Test func noReopenRowPastTheWindowAndTheRoundsActionsAreListed() throws {
        var snapshot = try HistoryScreenTests.completed()
        var round = snapshot.round
        let action = RecordedAction(
            kind: .finishedEarly, at: Date(timeIntervalSince1970: 1_800_000_000), deviceID: "kiosk-here",
            authority: .organizerCode)
        round = Round(
            id: round.id, courseID: round.courseID, organizerID: round.organizerID, participants: round.participants,
            status: .completed, createdAt: round.createdAt, startedAt: round.startedAt, completedAt: round.completedAt,
            actions: [action])
        snapshot = RoundSnapshot(round: round, course: snapshot.course, events: snapshot.events)
        var state = Self.opened(snapshot, undo: HistoryUndo(canCorrect: true, canReopen: false))
        let h = try #require(Self.history(state))
        #expect(h.rowCount == 5)
        let text = h.rowText(4, minus: "-", here: "kiosk-here")
        #expect(text.title.hasPrefix("Finished early · "))
        #expect(text.caption == "at the kiosk with the organizer code")
        #expect(h.rowText(4, minus: "-", here: "other").caption == "from another device with the organizer code")
        state.handle(.turned(4), now: 2_100)
        #expect(state.handle(.pressed, now: 2_200) == [.buzz(.limit)], "an action's line opens nothing")
    }

    @Test func aHoleOfAFinishedRoundIsCorrectedAndTheRoundReadAgain() throws {
        let snapshot = try HistoryScreenTests.completed()
        var state = Self.opened(snapshot)
        // Cy's card, hole 5 (Cy took 4, par 4).
        state.handle(.turned(2), now: 2_100)
        state.handle(.pressed, now: 2_200)
        state.handle(.turned(4), now: 2_300)
        #expect(state.handle(.pressed, now: 2_400).isEmpty)
        #expect(state.screen.name == "correct-hole-5")
        guard case .correctScore(let correction) = state.screen else { return }
        #expect(correction.value == 4 && correction.previous == 4)
        state.handle(.turned(-1), now: 2_500)
        let cy = snapshot.round.participants[2].id
        #expect(
            state.handle(.pressed, now: 2_600) == [
                .buzz(.confirm), .correctScore(roundID: snapshot.round.id, participantID: cy, hole: 5, strokes: 3),
                .loadHistoryRound(snapshot.round.id),
            ])
        #expect(state.screen.name == "history-player")
        // The round read again (the correction in it) stays on Cy's card, on hole 5.
        var corrected = snapshot.events
        corrected.append(
            ScoreEvent(
                roundID: snapshot.round.id, participantID: cy, hole: 5, strokes: 3,
                supersedes: snapshot.events.filter { $0.participantID == cy && $0.hole == 5 }.map(\.id),
                reportedBy: ScoreEvent.nobody, deviceID: "kiosk", createdAt: Date(), correction: .lockOff))
        state.handle(
            .historyRoundLoaded(
                RoundSnapshot(round: snapshot.round, course: snapshot.course, events: corrected), undo: Self.undoable),
            now: 2_700)
        let h = try #require(Self.history(state))
        #expect(state.screen.name == "history-player")
        #expect(h.cursorOnLevel == 4)
        #expect(h.rowText(4, minus: "-").caption.hasPrefix("Corrected · "))
        #expect(h.rowText(4, minus: "-").value == "3")
    }

    @Test func anOlderGroupServerSaysWhyNothingCanBeCorrected() throws {
        let snapshot = try HistoryScreenTests.completed()
        var state = Self.opened(
            snapshot, undo: HistoryUndo(canCorrect: false, canReopen: false, refusal: "the group server is older than undo"))
        #expect(try #require(Self.history(state)).rowCount == 4, "no reopen row")
        state.handle(.pressed, now: 2_100)
        #expect(state.handle(.pressed, now: 2_200) == [.buzz(.limit)])
        #expect(state.notice?.text == "the group server is older than undo")
        #expect(state.screen.name == "history-player")
    }

    @Test func aDeletedCourseIsRestoredFromTheListsDeletedSection() throws {
        var state = KioskState()
        let live = try Course(name: "Maple Hill", holeCount: 9)
        let gone = DeletedCourse(
            id: UUID(), name: "Pine Hollow", deletedAt: Date(timeIntervalSince1970: 1_800_000_000), restorable: true)
        let unknown = DeletedCourse(id: UUID(), name: "Far Away", deletedAt: Date(), restorable: false)
        state.handle(.dataChanged(KioskData(courses: [live], deletedCourses: [gone, unknown]), .localScore), now: 0)
        state.screen = .courseList(cursor: 0)
        // Maple Hill, New course, Pine Hollow, Far Away.
        state.handle(.turned(3), now: 100)
        #expect(state.handle(.pressed, now: 200) == [.buzz(.limit)])
        #expect(state.notice?.text.contains("restore it where it was played") == true)
        state.handle(.turned(-1), now: 300)
        state.handle(.pressed, now: 400)
        #expect(state.screen.name == "restore-course")
        state.handle(.turned(-1), now: 500)
        #expect(state.handle(.pressed, now: 600) == [.buzz(.confirm), .restoreCourse(gone.id)])
        // Back on the list; the cursor goes to the course once it is in it.
        #expect(state.screen.name == "courses")
        state.handle(
            .dataChanged(
                KioskData(
                    courses: [live, try Course(id: gone.id, name: "Pine Hollow", holeCount: 9)],
                    deletedCourses: [unknown]), .localScore), now: 700)
        #expect(state.screen == .courseList(cursor: 1))
    }
}

/// Issue 35 at the kiosk: the menu's Players, removing one from the roster and merging one
/// entered twice into the other, each behind the code and asked once more.
@Suite struct PlayersScreenTests {
    static func roster() throws -> (KioskState, [Player]) {
        var state = KioskState()
        state.settings.organizerLock = .off
        let players = try ["Ana", "Ben", "Benny"].map { try Player(displayName: $0) }
        state.handle(.dataChanged(KioskData(players: players), .localScore), now: 0)
        state.handle(.longPressed, now: 100)
        state.handle(.turned(state.menuItems.firstIndex(of: .players)!), now: 100)
        state.handle(.pressed, now: 100)
        return (state, players)
    }

    @Test func removingAPlayerIsAskedAndEmitted() throws {
        var (state, players) = try Self.roster()
        #expect(state.screen.name == "players")
        guard case .players(let screen) = state.screen else { return }
        #expect(screen.rows(in: state.data) == ["Ana", "Ben", "Benny"])
        state.handle(.pressed, now: 200)
        #expect(state.screen.name == "player-choose")
        state.handle(.pressed, now: 300)
        #expect(state.screen.name == "remove-player")
        state.handle(.turned(-1), now: 400)
        #expect(state.handle(.pressed, now: 500) == [.buzz(.confirm), .removePlayer(players[0].id)])
        #expect(state.screen.name == "players")
    }

    @Test func mergingOffersEveryoneElseAndAsksTheCode() throws {
        var (state, players) = try Self.roster()
        state.settings.organizerLock = .set(length: 4)
        state.handle(.turned(2), now: 200)  // Benny
        state.handle(.pressed, now: 200)
        state.handle(.turned(1), now: 300)  // Merge Benny into…
        state.handle(.pressed, now: 300)
        #expect(state.screen.name == "player-merge-into")
        guard case .players(let screen) = state.screen else { return }
        #expect(screen.rows(in: state.data) == ["Ana", "Ben"])
        state.handle(.turned(1), now: 400)
        state.handle(.pressed, now: 400)
        #expect(state.screen.name == "code")
        // A long press on the code goes back to whom to merge into, nothing done.
        state.handle(.longPressed, now: 500)
        #expect(state.screen.name == "player-merge-into")
        state.settings.organizerLock = .off
        state.handle(.pressed, now: 600)
        #expect(state.screen.name == "merge-player")
        guard case .undoConfirm(let question) = state.screen else { return }
        #expect(question.lines.title == "Merge Benny into Ben?")
        state.handle(.turned(-1), now: 700)
        #expect(state.handle(.pressed, now: 800) == [.buzz(.confirm), .mergePlayer(players[2].id, into: players[1].id)])
        // The roster without Benny: the screen stays on a row that exists.
        state.handle(.dataChanged(KioskData(players: Array(players.prefix(2))), .localScore), now: 900)
        #expect(state.screen.name == "players")
    }
}
