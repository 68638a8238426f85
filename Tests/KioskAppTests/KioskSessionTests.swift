import Foundation
import GRDB
import HyzerKit
import HyzerSync
import KioskCore
import Testing

@testable import HyzerStore
@testable import KioskApp

/// The state machine bound to a real store: what the shell does between the knob and SQLite.
/// In memory unless a test needs a second process's view of the same file.
@Suite struct KioskSessionTests {
    final class Fixture {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-session-\(UUID())")
        let store: HyzerDatabase
        let session: KioskSession
        let round: Round
        init(onDisk: Bool = false) throws {
            store = onDisk ? try HyzerDatabase(directory: dir) : try HyzerDatabase.inMemory()
            let course = try Course(name: "Session Nine", holeCount: 9)
            try store.write(.saveCourse(course))
            let players = try ["Ana", "Ben"].map { try Player(displayName: $0) }
            for p in players { try store.write(.savePlayer(p)) }
            let created = try store.write(
                .createRound(courseID: course.id, organizerID: players[0].id, participants: players.map(Participant.registered)))
            round = try store.write(.startRound(created.id))
            session = try KioskSession(store: store, viewport: Viewport(width: 800, height: 480), now: 0)
        }
        deinit { try? FileManager.default.removeItem(at: dir) }
    }

    /// The kiosk's paging flags reach the board's settings; unset, the defaults stay.
    @Test func pagingFlagsReachTheBoardsSettings() throws {
        let f = try Fixture()
        #expect(f.session.state.settings.boardPageInterval == MotionTokens.boardPageInterval)
        #expect(f.session.state.settings.boardRowsPerPage == nil)
        let flagged = try KioskSession(
            store: f.store, viewport: Viewport(width: 800, height: 480), now: 0, paging: (12_000, 4))
        #expect(flagged.state.settings.boardPageInterval == 12_000)
        #expect(flagged.state.settings.boardRowsPerPage == 4)
    }

    /// Issue 14 item 4: a score typed at the kiosk is the kiosk's, not the organizer's: no
    /// person, the kiosk's device id, and (in a group) the name it enrolled with. Negative
    /// control: the session as it was (the organizer as reporter) fails the first check.
    @Test func aScoreTypedHereIsCreditedToTheKiosk() throws {
        let f = try Fixture(onDisk: true)
        for event in [KioskEvent.pressed, .pressed, .pressed] { f.session.send(event, now: 10) }
        var saved = try #require(try f.store.read(.events(round: f.round.id)).last)
        #expect(saved.reportedBy == ScoreEvent.nobody)
        #expect(saved.deviceID == f.store.deviceID && saved.deviceName == nil, "in no group: no name yet")

        // Joined: the link is written, and the next score carries its name.
        try ServerLink(
            serverURL: "http://127.0.0.1:1", groupID: "g", groupName: "League", deviceID: f.store.deviceID,
            deviceName: "Clubhouse kiosk", deviceToken: "t", enrolledAt: Date()
        ).save(to: f.dir)
        f.session.send(.joinChanged(.joined(group: "League")), now: 20)
        // Once the first score's undo toast is gone, a long press is "back" again.
        let later = 10 + MotionTokens.undoToastLifetime
        f.session.send(.longPressed, now: later)
        for event in [KioskEvent.pressed, .turned(1), .pressed, .pressed] { f.session.send(event, now: later + 10) }
        saved = try #require(try f.store.read(.events(round: f.round.id)).last)
        #expect(saved.deviceName == "Clubhouse kiosk")
        #expect(saved.reportedBy == ScoreEvent.nobody)
        #expect(f.session.state.attribution(of: saved, for: saved.participantID) == "at the kiosk")
    }

    /// Issue 35's undo toast, carried out: a long press right after a save appends a
    /// retraction. In a group, only once its server has said it takes them (protocol 2):
    /// before that the kiosk says why, and the score stays.
    @Test func theUndoToastRetractsTheSaveOnlyWhereTheGroupServerTakesIt() throws {
        let f = try Fixture(onDisk: true)
        for event in [KioskEvent.pressed, .pressed, .pressed] { f.session.send(event, now: 10) }
        f.session.send(.longPressed, now: 20)
        var events = try f.store.read(.events(round: f.round.id))
        #expect(events.map(\.isRetraction) == [false, true])
        #expect(try f.store.read(.snapshot(round: f.round.id)).hasScores == false)

        try ServerLink(
            serverURL: "http://127.0.0.1:1", groupID: "g", groupName: "League", deviceID: f.store.deviceID,
            deviceName: "Clubhouse kiosk", deviceToken: "t", enrolledAt: Date()
        ).save(to: f.dir)
        f.session.send(.joinChanged(.joined(group: "League")), now: 30)
        for event in [KioskEvent.pressed, .pressed] { f.session.send(event, now: 40) }
        f.session.send(.longPressed, now: 50)
        events = try f.store.read(.events(round: f.round.id))
        #expect(events.map(\.isRetraction) == [false, true, false])
        #expect(f.session.state.notice?.text.contains("has not heard from its group server yet") == true)
    }

    /// Issue 36: a first hole set on the card before the start reaches the store, and the
    /// round's card opens there.
    @Test func aShotgunStartSetAtTheKioskIsStored() throws {
        let f = try Fixture()
        let menu = [KioskEvent.longPressed]
        for event in menu { f.session.send(event, now: 10) }
        let start = try #require(f.session.state.menuItems.firstIndex(of: .startRound))
        let steps: [KioskEvent] = [
            .turned(start), .pressed,  // Start a new round
            .pressed,  // the first course
            .pressed, .turned(1), .pressed, .turned(1), .pressed,  // Ana, Ben, Start round
            .turned(1), .pressed, .turned(3), .pressed,  // First hole: 4
            .turned(-1), .pressed,  // Start round
        ]
        for event in steps { f.session.send(event, now: 20) }
        let rounds = try f.store.read(.activeRounds)
        let shotgun = try #require(rounds.first { $0.id != f.round.id })
        #expect(shotgun.startHole == 4)
        // Its card opens on hole 4 (with another round already in play, from the board).
        f.session.send(.pressed, now: 30)
        if case .chooseRound = f.session.state.screen { f.session.send(.pressed, now: 30) }
        #expect(f.session.state.screen == .holeCard(hole: 4, cursor: 0))
    }

    @Test func theKnobsSaveLandsInSQLiteAndOnTheBoard() throws {
        let f = try Fixture()
        var wrote = 0
        f.session.onLocalWrite = { wrote += 1 }
        for event in [KioskEvent.pressed, .pressed, .turned(-1), .pressed] { f.session.send(event, now: 10) }
        let events = try f.store.read(.events(round: f.round.id))
        #expect(events.map(\.strokes) == [2])
        #expect(events.first?.deviceID == f.store.deviceID)
        #expect(wrote == 1)
        #expect(f.session.state.leaderboard.rows.first?.name == "Ana")
        #expect(f.session.state.leaderboard.lastTrigger == .localScore)
        // The kiosk's own commit, seen again by the change monitor, is not mistaken for news.
        #expect(!f.session.reload(.external, now: 20))
        #expect(f.session.state.leaderboard.lastTrigger == .localScore)
    }

    @Test func theSessionsOwnCommitIsNoNewsForTheChangeMonitor() throws {
        let f = try Fixture(onDisk: true)
        let monitor = try ChangeMonitor(database: f.store)
        f.session.changeMonitor = monitor
        for event in [KioskEvent.pressed, .pressed, .pressed] { f.session.send(event, now: 10) }
        #expect(try f.store.read(.events(round: f.round.id)).count == 1)
        #expect(try !monitor.poll(), "the kiosk's own save was already loaded")
        try HyzerDatabase(directory: f.dir).write(.savePlayer(try Player(displayName: "Cy")))  // as `hyzer player add` would
        #expect(try monitor.poll(), "a commit by another process is still noticed")
    }

    @Test func writesByAnotherProcessReachTheBoardAsRemoteChanges() throws {
        let f = try Fixture(onDisk: true)
        #expect(!f.session.reload(.external, now: 10))
        let other = try HyzerDatabase(directory: f.dir)  // as `hyzer score` would open it
        try other.write(
            .recordScore(
                ScoreEntry(
                    roundID: f.round.id, participantID: f.round.participants[1].id, hole: 1,
                    strokes: 2, reportedBy: f.round.participants[1].id)))
        #expect(f.session.reload(.external, now: 20))
        #expect(f.session.state.leaderboard.rows.first?.name == "Ben")
        #expect(f.session.state.leaderboard.lastTrigger == .remoteSync)
        #expect(f.session.state.leaderboard.arrows[f.round.participants[0].id]?.delta == -1)  // Ana: T1 → 2
    }

    @Test func aRefusedSaveIsShownAndNothingIsStored() throws {
        let f = try Fixture()
        f.session.send(.pressed, now: 10)
        f.session.send(.pressed, now: 10)  // crown entry open on the kiosk…
        _ = try f.store.write(.finishRound(f.round.id))  // …while another device finishes the round (pulled by sync)
        var buzzes: [BuzzPattern] = []
        f.session.buzz = { buzzes.append($0) }
        f.session.send(.pressed, now: 20)  // save
        #expect(try f.store.read(.events(round: f.round.id)).isEmpty)
        let notice = try #require(f.session.state.notice)
        #expect(notice.kind == .error)
        #expect(notice.text.hasPrefix("Not saved: "))
        #expect(buzzes.contains(.error))
    }
}

/// Issue 12: a save the storage refuses (SQLite's own page limit stands in for a full
/// disk, so this runs without root; StorageFaultTests fills a real tmpfs) is a notice and
/// the error buzz, the board keeps its rows, and the next save after space is freed lands.
@Suite struct KioskStorageFaultTests {
    @Test func aFullStoreShowsANoticeBuzzesAndKeepsTheBoard() throws {
        let f = try KioskSessionTests.Fixture(onDisk: true)
        for event in [KioskEvent.pressed, .pressed, .pressed] { f.session.send(event, now: 10) }
        #expect(try f.store.read(.events(round: f.round.id)).count == 1)
        let rows = f.session.state.leaderboard.rows
        #expect(!rows.isEmpty)
        try f.store.domain.writeWithoutTransaction { db in
            _ = try db.checkpoint(.truncate)
            let pages = try Int.fetchOne(db, sql: "PRAGMA page_count") ?? 0
            // PRAGMA takes no bound parameter; the value is a number read just above.
            _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = \(pages)")
        }
        var buzzes: [BuzzPattern] = []
        f.session.buzz = { buzzes.append($0) }
        var refusedAt: Millis?
        for hole in 0..<40 where refusedAt == nil {
            let now = Millis(1_000 + hole * 5_000)
            for event in [KioskEvent.pressed, .pressed, .pressed] { f.session.send(event, now: now) }
            if buzzes.contains(.error) { refusedAt = now }
        }
        let now = try #require(refusedAt, "the page limit never refused a save")
        let notice = try #require(f.session.state.notice)
        #expect(notice.kind == .error)
        // A page limit with room on the disk says so, not "0 MB free" (the tmpfs test in
        // StorageFaultTests checks the full-card sentence).
        #expect(notice.text == "Database size limit reached: not saved", "\(notice.text)")
        #expect(f.session.storageStatus == "Database size limit reached: not saved")
        #expect(f.session.state.leaderboard.rows.map(\.name) == rows.map(\.name), "the board keeps showing")
        let saved = try f.store.read(.events(round: f.round.id)).count

        try f.store.domain.writeWithoutTransaction { db in _ = try Int.fetchOne(db, sql: "PRAGMA max_page_count = 1000000") }
        buzzes = []
        // The refused save may have left the entry open or gone back to the card (where the
        // limit struck depends on the schema's pages): press until one save lands.
        for _ in 0..<3 where try f.store.read(.events(round: f.round.id)).count == saved {
            f.session.send(.pressed, now: now + 10_000)
        }
        #expect(!buzzes.contains(.error))
        #expect(try f.store.read(.events(round: f.round.id)).count == saved + 1, "writes resume without a restart")
        #expect(f.session.storageStatus == nil, "the storage check clears the status once writes go through")
    }
}
