import Foundation
import HyzerKit
import Testing

@testable import KioskCore

@Suite struct ScoringLoopTests {
    @Test func pressOnTheBoardOpensTheCurrentHoleOnTheFirstUnscoredRow() throws {
        var h = try Harness()
        #expect(h.state.screen == .board)
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
    }

    @Test func crownEntryStartsAtParAndStepsOnePerDetent() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.turned(4))  // to hole 2 row 1 (3 rows per hole)
        #expect(h.state.screen == .holeCard(hole: 2, cursor: 1))
        h.send(.turned(-4))
        h.send(.pressed)
        guard case .entry(let entry) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(entry.value == 3 && entry.previous == nil && entry.hole == 1 && entry.participantID == h.id(0))
        h.send(.turned(1))
        h.send(.turned(1))
        h.send(.turned(-1))
        guard case .entry(let after) = h.state.screen else { return }
        #expect(after.value == 4)
    }

    @Test func entryClampsToOneAndTenWithALimitBuzz() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.pressed)
        #expect(h.send(.turned(6)) == [])  // 3 → 9
        #expect(h.send(.turned(3)) == [.buzz(.limit)])  // 9 → 10, clamped
        guard case .entry(let high) = h.state.screen else { return }
        #expect(high.value == 10)
        #expect(h.send(.turned(-20)) == [.buzz(.limit)])
        guard case .entry(let low) = h.state.screen else { return }
        #expect(low.value == 1)
    }

    @Test func pressSavesWithAConfirmBuzzAndMovesToTheNextUnscoredRow() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.pressed)
        h.send(.turned(-1))
        let round = try #require(h.round)
        let effects = h.send(.pressed)
        #expect(effects == [.buzz(.confirm), .saveScore(roundID: round.id, participantID: h.id(0), hole: 1, strokes: 2)])
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 1))
        #expect(h.events.count == 1)
        #expect(h.state.leaderboard.rows.first?.participantID == h.id(0))
        #expect(h.state.leaderboard.rows.first?.toPar == -1)
    }

    @Test func longPressCancelsWithoutSaving() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.pressed)
        h.send(.turned(2))
        #expect(h.send(.longPressed) == [])
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
        #expect(h.events.isEmpty)
    }

    @Test func reEnteringAScoredParticipantStartsFromTheScoreAndSavesACorrection() throws {
        var h = try Harness()
        h.send(.pressed)
        h.score(row: 0, delta: 2)  // 5 on a par 3
        h.state = Harness.moving(h.state, toRow: 0, hole: 1, now: h.now)
        h.send(.pressed)
        guard case .entry(let entry) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(entry.value == 5 && entry.previous == 5)
        h.send(.turned(-1))
        h.send(.pressed)
        #expect(h.events.count == 2)
        #expect(h.events[1].supersedes == [h.events[0].id])
        #expect(h.snapshot?.scorecard.value(participant: h.id(0), hole: 1) == 4)
    }

    @Test func holeCardTurnsPastTheEndsIntoNeighbouringHoles() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.turned(2))
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 2))
        h.send(.turned(1))
        #expect(h.state.screen == .holeCard(hole: 2, cursor: 0))
        h.send(.turned(-1))
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 2))
        #expect(h.send(.turned(-5)) == [.buzz(.limit)])
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
        h.send(.turned(100))
        #expect(h.state.screen == .holeCard(hole: 9, cursor: 2))
    }

    @Test func autoAdvancesAfterTheLastScoreOfAHoleUnlessSomeoneTurns() throws {
        var h = try Harness()
        h.send(.pressed)
        for row in 0..<3 { h.score(row: row, delta: 0) }
        let due = try #require(h.state.autoAdvanceAt)
        #expect(due == h.now + MotionTokens.autoAdvanceDelay)
        #expect(h.state.nextWakeUp(after: h.now) ?? .max <= due)
        h.advance(MotionTokens.autoAdvanceDelay - 1)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 2))  // nobody left unscored: cursor stays
        h.advance(1)
        #expect(h.state.screen == .holeCard(hole: 2, cursor: 0))
        // Going back to review a complete hole does not bounce forward again.
        h.send(.turned(-1))
        h.advance(2_000)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 2))
    }

    @Test func turningDuringTheDelayCancelsTheAdvance() throws {
        var h = try Harness()
        h.send(.pressed)
        for row in 0..<3 { h.score(row: row, delta: 0) }
        h.now += 200
        h.send(.turned(-1))
        #expect(h.state.autoAdvanceAt == nil)
        h.advance(2_000)
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 1))
    }

    @Test func wholeRoundKnobOnlyEndsInFinalizeAndSummary() throws {
        var h = try Harness(players: 2)
        h.send(.pressed)
        for hole in 1...9 {
            #expect(h.state.screen == .holeCard(hole: hole, cursor: 0))
            h.score(row: 0, delta: hole % 3 - 1)
            h.score(row: 1, delta: 0)
            h.advance(MotionTokens.autoAdvanceDelay)
        }
        #expect(h.round?.status == .awaitingFinalization)
        #expect(h.state.screen == .finalizePrompt(cursor: 0))
        let roundID = try #require(h.round?.id)
        #expect(h.send(.pressed) == [.buzz(.confirm), .finishRound(roundID)])
        #expect(h.state.screen == .summary(roundID: roundID))
        let summary = try #require(h.state.summarySnapshot(roundID))
        #expect(summary.round.status == .completed)
        #expect(summary.standings.rows.map(\.status) == [.finished, .finished])
        h.send(.pressed)
        #expect(h.state.screen == .board)
        #expect(h.state.data.round == nil)
    }

    @Test func keepScoringFromTheFinalizePrompt() throws {
        var h = try Harness(players: 1, holes: 9)
        h.send(.pressed)
        for _ in 1...9 {
            h.score(row: 0, delta: 0)
            h.advance(MotionTokens.autoAdvanceDelay)
        }
        #expect(h.state.screen == .finalizePrompt(cursor: 0))
        h.send(.turned(1))
        h.send(.pressed)
        #expect(h.state.screen == .holeCard(hole: 9, cursor: 0))
        #expect(h.round?.status == .awaitingFinalization)
    }
}

@Suite struct RoundSetupTests {
    @Test func startARoundWithTheKnob() throws {
        var h = try Harness(players: 4, startRound: false)
        h.send(.pressed)
        #expect(h.state.screen == .setupCourse(cursor: 0))
        h.send(.pressed)
        #expect(h.state.screen == .setupPlayers(courseID: h.course.id, selected: [], cursor: 0))
        // Start with nobody picked is refused, loudly.
        h.send(.turned(4))
        #expect(h.send(.pressed) == [.buzz(.error)])
        #expect(h.state.notice?.kind == .error)
        h.send(.turned(-4))
        h.send(.pressed)  // Nate
        h.send(.turned(2))
        h.send(.pressed)  // Jake
        h.send(.turned(-2))
        h.send(.pressed)  // Nate again: unpicked
        h.send(.pressed)  // and picked again, now after Jake
        #expect(h.state.screen == .setupPlayers(courseID: h.course.id, selected: [h.id(2), h.id(0)], cursor: 0))
        h.send(.turned(4))  // "Start round", after the 4 players ("Add a player" is below it)
        #expect(h.send(.pressed) == [])
        guard case .confirmRound(let confirm) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        let card = confirm.card(in: h.state.data)
        #expect(card.title == "Riverside Nine" && card.course == "9 holes · par 28 · 2 playing")
        #expect(card.players == ["Jake · organizer", "Nate"])
        let effects = h.send(.pressed)
        #expect(
            effects == [
                .buzz(.confirm),
                .startRound(
                    courseID: h.course.id, participants: [.registered(h.players[2]), .registered(h.players[0])]),
            ])
        #expect(h.round?.participants.map(\.name) == ["Jake", "Nate"])
        #expect(h.state.screen == .holeCard(hole: 1, cursor: 0))
    }

    @Test func longPressWalksBackThroughSetup() throws {
        var h = try Harness(startRound: false)
        h.send(.pressed)
        h.send(.pressed)
        h.send(.longPressed)
        #expect(h.state.screen == .setupCourse(cursor: 0))
        h.send(.longPressed)
        #expect(h.state.screen == .board)
    }
}

@Suite struct BoardMotionTests {
    /// Two players; Mike overtakes Nate.
    func overtake(reduceMotion: Bool) throws -> Harness {
        var h = try Harness(players: 2, reduceMotion: reduceMotion)
        h.send(.pressed)
        h.score(row: 0, delta: -1)  // Nate −1
        h.score(row: 1, delta: 0)  // Mike E
        h.advance(5_000)  // settle; hole 2
        h.state = Harness.moving(h.state, toRow: 1, hole: 2, now: h.now)
        h.send(.pressed)
        h.send(.turned(-2))
        h.send(.pressed)  // Mike −2 on hole 2 → −2 total
        return h
    }

    @Test func reshuffleSlidesRowsWithinFiveHundredMillisecondsAndShowsArrows() throws {
        var h = try overtake(reduceMotion: false)
        let board = h.state.leaderboard
        #expect(board.rows.map(\.name) == ["Mike", "Nate"])
        #expect(board.arrows[h.id(1)]?.delta == 1)
        #expect(board.arrows[h.id(0)]?.delta == -1)
        #expect(board.slot(of: h.id(1), at: h.now) == 1)  // starts where it was drawn
        #expect(h.state.isAnimating(at: h.now))
        #expect(h.state.nextWakeUp(after: h.now) == h.now + MotionTokens.frameInterval)
        let mid = board.slot(of: h.id(1), at: h.now + 200)
        #expect(mid > 0 && mid < 1)
        #expect(board.slot(of: h.id(1), at: h.now + MotionTokens.reshuffleBudget) == 0)
        #expect(board.slot(of: h.id(0), at: h.now + MotionTokens.reshuffleBudget) == 1)
        // Monotone, no overshoot.
        var last = 1.0
        for t in stride(from: 0, through: 500, by: 10) {
            let s = board.slot(of: h.id(1), at: h.now + Millis(t))
            #expect(s <= last && s >= 0)
            last = s
        }
        #expect(board.arrowOpacity(of: h.id(1), at: h.now + 500, reduceMotion: false) == 1)
        #expect(board.arrowOpacity(of: h.id(1), at: h.now + 1_400, reduceMotion: false) < 1)
        h.advance(MotionTokens.arrowLifetime)
        #expect(h.state.leaderboard.arrows.isEmpty)
        #expect(!h.state.isAnimating(at: h.now))
    }

    @Test func reduceMotionJumpsButKeepsTheArrows() throws {
        let h = try overtake(reduceMotion: true)
        let board = h.state.leaderboard
        #expect(board.slot(of: h.id(1), at: h.now) == 0)
        #expect(board.arrows[h.id(1)]?.delta == 1)
        #expect(board.arrowOpacity(of: h.id(1), at: h.now + 1_000, reduceMotion: true) == 1)
    }

    @Test func anIdleBoardAsksForNoWakeUp() throws {
        var h = try Harness()
        h.advance(10_000)
        #expect(!h.state.isAnimating(at: h.now))
        #expect(h.state.nextWakeUp(after: h.now) == nil)
    }

    @Test func remoteChangesAnimateWithTheirTrigger() throws {
        var h = try Harness(players: 2)
        h.events.append(
            ScoreEvent(
                roundID: h.round!.id, participantID: h.id(1), hole: 1, strokes: 2,
                reportedBy: h.id(1), deviceID: "phone", createdAt: h.clock.date))
        h.publish(.remoteSync)
        #expect(h.state.leaderboard.lastTrigger == .remoteSync)
        #expect(h.state.leaderboard.rows.first?.name == "Mike")
        #expect(h.state.leaderboard.pulses[h.id(1)] == h.now)
    }
}

@Suite struct MenuAndTimeoutTests {
    @Test func menuTogglesReduceMotionAndFinishes() throws {
        var h = try Harness()
        // One score in: the round can be finished (an empty one is discarded instead).
        h.send(.pressed)
        h.score(row: 0, delta: 0)
        // Until its undo toast goes, a long press would undo the score.
        h.advance(MotionTokens.undoToastLifetime)
        h.send(.longPressed)
        h.send(.longPressed)
        #expect(h.state.screen == .menu(cursor: 0))
        #expect(
            h.state.menuItems.map(\.title) == [
                "Enter scores", "Finish round now", "Enter a paper card", "Start a new round",
                "Reduce motion: off", "History", "Stats", "Join a group", "Status", "Courses", "Players", "League night",
                "Back to the board",
            ])
        h.send(.turned(4))
        #expect(h.send(.pressed) == [.saveSettings(KioskSettings(reduceMotion: true))])
        #expect(h.state.settings.reduceMotion)
        h.send(.turned(-3))
        let round = try #require(h.round)
        // "Finish round now" asks first (issue 9), then finishes on a press.
        #expect(h.send(.pressed).isEmpty)
        #expect(h.state.screen == .finishRound(kind: .finish))
        #expect(h.send(.pressed) == [.buzz(.confirm), .finishRound(round.id)])
        #expect(h.state.screen == .summary(roundID: round.id))
        #expect(h.completed?.standings.rows.allSatisfy { $0.status == .dnf } == true)
    }

    @Test func anAbandonedEntryTimesOutToTheBoardWithoutSaving() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.pressed)
        h.send(.turned(1))
        #expect(h.state.nextWakeUp(after: h.now) == h.now + MotionTokens.idleTimeout)
        h.advance(MotionTokens.idleTimeout)
        #expect(h.state.screen == .board)
        #expect(h.events.isEmpty)
    }

    @Test func failedEffectsShowAnErrorAndBuzz() throws {
        var h = try Harness()
        #expect(h.send(.effectFailed("disk full")) == [.buzz(.error)])
        #expect(h.state.notice == Notice(text: "disk full", kind: .error, shownAt: h.now))
        h.advance(MotionTokens.noticeLifetime)
        #expect(h.state.notice == nil)
    }

    @Test func roundFinishedElsewhereTakesTheCardBackToTheBoard() throws {
        var h = try Harness()
        h.send(.pressed)
        h.send(.pressed)
        h.perform(.finishRound(h.round!.id))
        #expect(h.state.screen == .board)
    }
}

@Suite struct TouchTests {
    @Test func tapOnAHoleCardRowOpensEntryForThatParticipant() throws {
        var h = try Harness()
        h.send(.resized(Viewport(width: 1280, height: 720)))
        h.send(.pressed)
        let layout = Layout(viewport: Viewport(width: 1280, height: 720))
        let rowH = layout.holeRowHeight(rows: 3)
        h.send(.touch(x: 400, y: layout.holeRowsArea.y + rowH * 1.5))
        guard case .entry(let entry) = h.state.screen else {
            Issue.record("\(h.state.screen)")
            return
        }
        #expect(entry.participantID == h.id(1))
        h.send(.touch(x: 1000, y: 360))  // right half: +1
        h.send(.touch(x: 1000, y: 360))
        h.send(.touch(x: 100, y: 360))  // left half: −1
        guard case .entry(let stepped) = h.state.screen else { return }
        #expect(stepped.value == 4)
        h.send(.touch(x: 640, y: 700))  // bottom band: save
        #expect(h.events.last?.strokes == 4)
    }
}

@Suite struct PaletteTests {
    @Test func everyTextColourMeetsFourAndAHalfToOne() {
        for pair in Palette.textPairs {
            #expect(
                pair.text.contrast(with: pair.background) >= 4.5, "\(pair.name): \(pair.text.contrast(with: pair.background))")
        }
    }

    @Test func contrastFormulaMatchesKnownValues() {
        #expect(abs(RGB(0xFFFFFF).contrast(with: RGB(0x000000)) - 21) < 0.001)
        #expect(abs(RGB(0x777777).contrast(with: RGB(0xFFFFFF)) - 4.48) < 0.01)
    }

    @Test func scoreColoursFollowScoreState() {
        #expect(Palette.toPar(-2) == Palette.underPar)
        #expect(Palette.toPar(0) == Palette.atPar)
        #expect(Palette.toPar(3) == Palette.overPar)
        #expect(Palette.strokes(5, par: 3) == Palette.wayOver)
        #expect(Palette.strokes(4, par: 3) == Palette.overPar)
    }

    @Test func layoutsFromThePiPanelToATV() {
        for (w, h) in [(800, 480), (1280, 720), (1920, 1080), (1080, 1920)] {
            let layout = Layout(viewport: Viewport(width: w, height: h))
            let rows = 20
            // The rows shown and the page indicator under them fit above the footer.
            let board = layout.board(rows: rows)
            let last = layout.boardRow(slot: Double(board.hidden > 0 ? board.shown : board.shown - 1), rows: rows)
            #expect(last.maxY <= layout.footer.y, "\(w)x\(h): 20 rows fit above the footer")
            #expect(layout.boardRowHeight(rows: 6) <= Double(h) * 0.13 + 0.5)
            // Names get room before the "thru" column in every orientation.
            let columns = layout.board(rows: 8).columns
            let unit = layout.boardUnit(rows: 8)
            #expect(columns.name.w >= unit * 3, "\(w)x\(h): name column too narrow")
            #expect(columns.toPar.maxX <= layout.boardArea.maxX)
        }
        // A TV with the usual group of six gets ~70 px names (readable from 3 m).
        let tv = Layout(viewport: Viewport(width: 1920, height: 1080))
        #expect(Layout.fontSize(tv.boardRowHeight(rows: 6) * 0.5) >= 66)
    }
}
