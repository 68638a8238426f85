import Crypto
import Foundation
import HyzerKit
import KioskCore
import KioskRender
import Testing

/// Every screen the contact sheets show (`make screens`: .ci/contact-sheets, and the QR screens
/// ShareQRTests and PhoneNameServiceTests draw for it), at the same panel sizes and group
/// sizes, drawn headless and held to a fingerprint of its pixels: SHA-256 of the frame's RGB
/// bytes and its size, one line a frame in Tests/Fixtures/screens.sha256. It exists so code
/// can be moved between files (issue 33, "Placement, with no change in behaviour") with proof
/// that no screen changed by a pixel; any change to how a screen looks fails it, on purpose.
///
/// After a change meant to show: run it with HYZER_WRITE_SCREEN_FINGERPRINTS=1, which writes
/// the fixture anew, and look at the PNGs of the frames that changed before committing it.
/// On a mismatch the frame is written as a PNG to a temporary folder the failure names.
///
/// The contact sheets play scripts against a store that `hyzer demo` fills (random ids, the
/// real clock); here the same screens come from the same script steps on data made in memory
/// with fixed ids and times, so every run draws the same frames. The frames are deterministic
/// on the project's machines (one kind for developers and CI; Debian's SDL2, SDL2_ttf,
/// FreeType, HarfBuzz and libqrencode): a different version of one of those libraries may
/// draw text or a code a pixel apart, and then the fixture is regenerated, as above, there.
/// The fonts the machine has installed do not count: fallback to them is off
/// (`Display.fontFallback`), so a glyph the bundled faces (assets/fonts) lack draws as their
/// box, never as whatever face a machine happens to have. Dates and times are shown in UTC
/// whatever the machine's zone (`NSTimeZone.default`, for the whole test process: the
/// project's machines run in UTC anyway).
///
/// Negative control (issue 33, after the moves): with `Layout.rowGap` one pixel wider, 300 of
/// the 425 frames failed, every one of the screens whose rows it spaces (board, hole card,
/// summary and its QR code, the three history levels, name entry and its phone code,
/// resolve) and none of the others; put back, all passed.
@Suite(.serialized) struct ScreenFingerprintTests {
    /// The contact sheets' panel sizes and group sizes (.ci/contact-sheets).
    static let sizes = [
        Viewport(width: 800, height: 480), Viewport(width: 1024, height: 600), Viewport(width: 1280, height: 720),
        Viewport(width: 1920, height: 1080), Viewport(width: 1080, height: 1920),
    ]
    static let groups = [1, 2, 6, 12, 20, Round.maxParticipants]
    /// Screens that show nothing of the group (crown entry and the finalize question as these
    /// rounds reach them: the first player, the same question): drawn for the first group
    /// only, which keeps the test to a few seconds.
    static let sameForEveryGroup: Set = [
        "menu", "status", "join", "setup-course", "add-phone", "entry", "finalize", "code", "code-locked", "code-choose",
        "paper-card", "reopen-round", "correct-score", "courses-deleted", "restore-course", "remove-player",
    ]

    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/screens.sha256")

    /// One frame's fingerprint line: "board 800x480 6 <sha256>".
    struct Frame {
        var screen: String
        var size: Viewport
        var group: Int
        var key: String { "\(screen) \(size.width)x\(size.height) \(group)" }
    }

    @Test func everyScreenIsDrawnAsItsFingerprintSays() throws {
        NSTimeZone.default = TimeZone(identifier: "UTC")!
        let fonts = try #require(HyzerPaths.assetsDirectory(), "cannot find assets/").appendingPathComponent("fonts")
        let names = try #require(HyzerPaths.assetsDirectory()).appendingPathComponent("first-names.tsv")
        // The list's 3,000 commonest names (it is sorted by frequency): the wheel ranks its ring
        // from them as from the whole list, and indexing all 97,000 takes seconds in a debug build.
        let commonest = try String(contentsOf: names, encoding: .utf8).split(separator: "\n").prefix(3_001)
        let lexicon = NameLexicon(tsv: commonest.joined(separator: "\n"))
        var actual: [(key: String, line: String)] = []
        var failed: [String] = []
        var pngs: [String] = []
        let expected = Self.expected()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-screens-\(UUID())")
        for size in Self.sizes {
            let display = try Display(mode: .headless, size: size, fontsDirectory: fonts)
            display.fontFallback = false
            for group in Self.groups {
                let world = try FingerprintWorld(players: group, viewport: size, lexicon: lexicon)
                for (screen, state) in try world.screens()
                where group == Self.groups[0] || !Self.sameForEveryGroup.contains(screen) {
                    let frame = Frame(screen: screen, size: size, group: group)
                    display.draw(state, now: FingerprintWorld.drawn, wallClock: FingerprintWorld.wallClock)
                    let pixels = try display.capture()
                    let digest = SHA256.hash(data: pixels.rgb).map { String(format: "%02x", $0) }.joined()
                    let line = "\(frame.key) \(pixels.width)x\(pixels.height) \(digest)"
                    actual.append((frame.key, line))
                    // A frame that differs, or a new one (to be looked at before the fixture is
                    // written), is written as a PNG.
                    if expected[frame.key] != line {
                        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
                        let png = out.appendingPathComponent("\(screen)-\(size.width)x\(size.height)-\(group).png")
                        try display.writePNG(to: png)
                        pngs.append(png.path)
                        if expected[frame.key] != nil { failed.append(frame.key) }
                    }
                }
            }
        }
        let text = actual.map(\.line).joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["HYZER_WRITE_SCREEN_FINGERPRINTS"] == "1" {
            try text.write(to: Self.fixture, atomically: true, encoding: .utf8)
            print("wrote \(actual.count) fingerprints to \(Self.fixture.path)")
            return
        }
        #expect(!expected.isEmpty, "no fingerprints in \(Self.fixture.path) (HYZER_WRITE_SCREEN_FINGERPRINTS=1 writes them)")
        let drawn = Set(actual.map(\.key))
        #expect(drawn.count == actual.count, "two frames of one name")
        #expect(
            Set(expected.keys) == drawn,
            "frames drawn differ from the fixture's: \(Set(expected.keys).symmetricDifference(drawn).sorted()); as drawn: \(out.path)"
        )
        #expect(
            failed.isEmpty,
            "\(failed.count) of \(actual.count) frames differ from their fingerprints; as drawn now: \(pngs.joined(separator: ", "))"
        )
    }

    /// The fixture's lines by frame.
    static func expected() -> [String: String] {
        guard let text = try? String(contentsOf: fixture, encoding: .utf8) else { return [:] }
        var lines: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count == 5 else { continue }
            lines[fields[0...2].joined(separator: " ")] = String(line)
        }
        return lines
    }
}

/// A group's data made as `hyzer demo` makes it (players from its list, Riverside Nine, three
/// holes played), with fixed ids and times, and the contact sheets' script steps played on it.
struct FingerprintWorld {
    /// The instant every event is sent at, as a script sends them (its clock stands still).
    static let now: Millis = 100_000
    /// Frames are drawn as a script's snapshot draws them: once motion has settled.
    static let drawn: Millis = now + MotionTokens.reshuffleBudget + 100
    static let wallClock = Date(timeIntervalSince1970: 1_800_000_000)
    static let deviceID = "kiosk-1"

    let viewport: Viewport
    let lexicon: NameLexicon
    let course: Course
    let courses: [Course]
    let players: [Player]

    init(players count: Int, viewport: Viewport, lexicon: NameLexicon) throws {
        self.viewport = viewport
        self.lexicon = lexicon
        course = try Course(id: Self.id(0xC0, 1), name: "Riverside Nine", holeCount: 9)
        courses = [
            course, try Course(id: Self.id(0xC0, 2), name: "Maple Hill", pars: [3, 3, 4, 3, 3, 4, 3, 5, 3]),
            try Course(id: Self.id(0xC0, 3), name: "Long Meadow Championship", holeCount: 18, exceptions: [4: 4, 12: 5]),
        ]
        let demoNames = [
            "Nate", "Mike", "Jake", "Sarah", "Priya", "Tom", "Lena", "Omar", "Kai", "Rosa", "Ben", "Mia",
            "Ivan", "Zoe", "Leo", "Ada", "Sam", "Eli", "Noor", "Finn", "Gus", "Ivy", "Max", "Uma",
        ]
        players = try demoNames.prefix(count).enumerated().map { try Player(id: Self.id(0xA0, $0), displayName: $1) }
    }

    static func id(_ kind: Int, _ n: Int) -> UUID {
        UUID(uuidString: String(format: "%08X-0000-4000-8000-%012X", kind, n))!
    }

    static func date(_ seconds: Int) -> Date { wallClock.addingTimeInterval(Double(seconds) - 7_200) }

    /// A round of every player on `course`, `holes` holes scored (the next player along enters
    /// each score, as in the demo), started `age` seconds before the others.
    func round(_ n: Int, holes: Int, age: Int = 0) throws -> (Round, [ScoreEvent]) {
        var round = Round(
            id: Self.id(0xB0, n), courseID: course.id, organizerID: players[0].id, createdAt: Self.date(n * 60 - age))
        for player in players { try round.add(.registered(player)) }
        try round.start(at: Self.date(n * 60 - age + 30))
        var events: [ScoreEvent] = []
        let spread = [0, -1, 0, 1, 0, 2, 0, 1, -1, 0, 0, 1]
        for hole in course.holes.prefix(holes) {
            let par = course.par(of: hole) ?? Course.defaultPar
            for (index, player) in players.enumerated() {
                events.append(
                    ScoreEvent(
                        id: Self.id(0xE0 + n, events.count), roundID: round.id, participantID: player.id, hole: hole,
                        strokes: max(1, par + spread[(index * 5 + hole * 3) % spread.count]),
                        reportedBy: players[(index + 1) % players.count].id, deviceID: Self.deviceID,
                        createdAt: Self.date(n * 60 + hole * 600 + index)))
            }
        }
        return (round, events)
    }

    func state(_ data: KioskData, inGroup: Bool = false) -> KioskState {
        var state = KioskState(viewport: viewport)
        state.nameList = lexicon
        if inGroup {
            state.handle(.syncChanged(SyncIndicator(state: .idle, lastSynced: Self.wallClock.addingTimeInterval(-90))), now: 0)
        }
        state.handle(.dataChanged(data, .localScore), now: 0)
        return state
    }

    /// Every screen of the contact sheets, in their order, as the state to draw.
    func screens() throws -> [(String, KioskState)] {
        var shots: [(String, KioskState)] = []
        /// The frame `name` of the contact sheets, drawn from `state`, on the screen whose
        /// phase (`Screen.phase`) begins with `on` (the name, unless said).
        func shot(_ name: String, _ state: KioskState, on phase: String? = nil) {
            #expect(state.screen.phase.hasPrefix(phase ?? name), "\(name): on \(state.screen.phase)")
            shots.append((name, state))
        }
        let now = Self.now
        let (playing, events) = try round(1, holes: 3)
        let data = KioskData(
            round: RoundSnapshot(round: playing, course: course, events: events), courses: courses, players: players,
            deviceID: Self.deviceID)

        // The main visit: board, hole card, crown entry, menu, status, join, finish, setup, name entry.
        var state = state(data)
        shot("board", state)
        state.handle(.pressed, now: now)
        shot("hole-card", state, on: "hole-")
        state.handle(.pressed, now: now)
        shot("entry", state, on: "entry-hole-")
        for _ in 0..<3 { state.handle(.longPressed, now: now) }
        shot("menu", state)
        try openMenuItem(.status, &state)
        state.handle(.statusChanged(Self.status(viewport)), now: now)
        shot("status", state)
        state.handle(.longPressed, now: now)
        try openMenuItem(.joinGroup, &state)
        state.handle(.joinChanged(.waiting(code: "BCDF-GHJK", server: "http://clubhouse.local:8630", expiresIn: 600)), now: now)
        shot("join", state)
        state.handle(.longPressed, now: now)
        try openMenuItem(.finishRound, &state)
        shot("finish", state)
        state.handle(.longPressed, now: now)

        // The organizer code (issue 35), asked before finishing early: two digits in and
        // the dial on 7; then five wrong codes, and the lock-out; and a kiosk with no code yet.
        var guarded = self.state(data)
        guarded.handle(.settingsChanged(KioskSettings(organizerLock: .set(length: 4))), now: now)
        guarded.handle(.longPressed, now: now)
        try openMenuItem(.finishRound, &guarded)
        for turn in [4, -2, 5] {
            guarded.handle(.turned(turn), now: now)
            if turn != 5 { guarded.handle(.pressed, now: now) }
        }
        shot("code", guarded)
        for _ in 0..<OrganizerLock.maxTries {
            while case .codeEntry(let entry) = guarded.screen, !entry.checking { guarded.handle(.pressed, now: now) }
            guarded.handle(.organizerCodeChecked(false), now: now)
        }
        shot("code-locked", guarded)
        // A paper card typed in (issue 35): the first player's hole 2, a stroke over par.
        var paper = self.state(data)
        paper.handle(.longPressed, now: now)
        try openMenuItem(.paperCard, &paper)
        paper.handle(.pressed, now: now)
        paper.handle(.turned(1), now: now)
        shot("paper-card", paper)
        // The Undo toast (issue 35): the next player's score saved at the hole being played,
        // written as the shell writes it, and the toast offering to undo it.
        var toast = self.state(data)
        for event in [KioskEvent.pressed, .pressed, .turned(1), .pressed] { toast.handle(event, now: now) }
        guard case .score(_, let participant, let hole, let strokes)? = toast.undoToast?.action else {
            throw CancellationError()
        }
        var saved = data
        saved.round = RoundSnapshot(
            round: playing, course: course,
            events: events + [
                ScoreEvent(
                    id: Self.id(0xEF, 0), roundID: playing.id, participantID: participant, hole: hole, strokes: strokes,
                    reportedBy: ScoreEvent.nobody, deviceID: Self.deviceID, createdAt: Self.date(2_500))
            ])
        toast.handle(.dataChanged(saved, .localScore), now: now)
        shot("undo-toast", toast, on: "hole-")
        var unset = self.state(data)
        unset.handle(.settingsChanged(KioskSettings(organizerLock: .unset)), now: now)
        unset.handle(.longPressed, now: now)
        try openMenuItem(.finishRound, &unset)
        shot("code-choose", unset)
        try openMenuItem(.startRound, &state)
        shot("setup-course", state)
        state.handle(.pressed, now: now)
        shot("setup-players", state)
        state.handle(.turned(99), now: now)
        state.handle(.turned(-1), now: now)
        state.handle(.pressed, now: now)
        state.handle(.turned(3), now: now)
        state.handle(.pressed, now: now)
        shot("name-entry", state)

        // Scores another device disputes, opened from the menu's "Check N scores".
        var disputed = data
        let disputes = players.prefix(3).enumerated().compactMap { index, player -> ScoreEvent? in
            guard let mine = events.last(where: { $0.participantID == player.id && $0.hole == 3 }) else { return nil }
            return ScoreEvent(
                id: Self.id(0xD0, index), roundID: playing.id, participantID: player.id, hole: 3,
                strokes: mine.strokes < 10 ? mine.strokes + 1 : mine.strokes - 1, reportedBy: player.id,
                deviceID: "demo-phone", createdAt: Self.date(2_400 + index))
        }
        disputed.round = RoundSnapshot(round: playing, course: course, events: events + disputes)
        state = self.state(disputed)
        state.handle(.longPressed, now: now)
        let check = try #require(state.menuItems.first { if case .checkScores = $0 { true } else { false } })
        try openMenuItem(check, &state)
        shot("resolve", state)

        // Two cards on the course: pressing on the board asks which.
        let (second, _) = try round(2, holes: 0)
        var two = data
        two.otherRounds = [RoundSnapshot(round: second, course: course, events: [])]
        state = self.state(two)
        state.handle(.pressed, now: now)
        shot("choose-round", state)

        // A round with every hole scored: the press finalizes it, and the summary follows.
        let (started, scored) = try round(3, holes: 9)
        var done = started
        done.markAllScored()
        let scoredUp = done
        state = self.state(
            KioskData(
                round: RoundSnapshot(round: done, course: course, events: scored), courses: courses, players: players,
                deviceID: Self.deviceID))
        state.handle(.pressed, now: now)
        shot("finalize", state)
        #expect(state.handle(.pressed, now: now).contains(.finishRound(done.id)))
        try done.finish(at: Self.date(6_000))
        let finished = RoundSnapshot(round: done, course: course, events: scored)
        let after = KioskData(lastCompleted: finished, courses: courses, players: players, deviceID: Self.deviceID)
        state.handle(.dataChanged(after, .localScore), now: now)
        shot("summary", state)
        // The same round as a personal best for its winner and the course record (issue 37).
        var best = after
        best.newBests = NewBests(round: finished, history: [], excluding: [])
        best.newBests?.personalBests = Set(finished.standings.rows.prefix(1).map(\.participantID))
        best.newBests?.courseRecord = true
        var pb = state
        pb.handle(.dataChanged(best, .localScore), now: now)
        shot("pb", pb, on: "summary")
        // The menu's Stats (issue 37): the list, the first player's page, its course's page.
        var stats = self.state(after)
        stats.handle(.longPressed, now: now)
        try openMenuItem(.stats, &stats)
        shot("stats", stats)
        guard case .player(let first)? = Screen.Stats.subjects(in: stats.data).first?.subject else {
            throw CancellationError()
        }
        #expect(stats.handle(.pressed, now: now) == [.loadStats(.player(first))])
        stats.handle(.statsLoaded(.player(first), .player(PlayerStats(player: first, rounds: [finished]))), now: now)
        shot("stats-player", stats)
        stats.handle(.turned(3), now: now)
        #expect(stats.handle(.pressed, now: now) == [.loadStats(.course(course.id))])
        stats.handle(.statsLoaded(.course(course.id), .course(CourseStats(course: course, rounds: [finished]))), now: now)
        shot("stats-course", stats)

        // The finished round in History: the list, the round, a player's holes.
        state = self.state(after)
        state.handle(.longPressed, now: now)
        try openMenuItem(.history, &state)
        let winners = finished.standings.rows.filter { $0.position == 1 }.map(\.name)
        let line = HistoryLine(
            roundID: done.id, courseName: course.name, completedAt: Self.date(6_000), winners: winners,
            players: finished.standings.rows.map(\.name))
        state.handle(.historyLoaded(HistoryPage(lines: [line], next: nil), after: nil), now: now)
        shot("history", state)
        #expect(state.handle(.pressed, now: now) == [.loadHistoryRound(done.id)])
        state.handle(.historyRoundLoaded(finished), now: now)
        shot("history-round", state)
        state.handle(.pressed, now: now)
        shot("history-player", state)

        // The season's table on the idle board (issue 37): the group over three weeks, by
        // points, with no last round (so the table is the page at any time).
        let weeks = (0..<3).map { week in
            SeasonEvent(
                id: Self.id(0x5E, week), day: "2026-10-0\(week + 1)", course: course.id.uuidString,
                results: players.enumerated().map { index, player in
                    let toPar = (index * 7 + week * 3) % 9 - 3
                    return SeasonEvent.Result(
                        player: player.id, name: player.displayName, position: nil, toPar: toPar, finished: true)
                })
        }.map { event in
            // Each week ranked as its standings would: competition rank by to-par.
            var ranked = event
            ranked.results = event.results.map { result in
                var result = result
                result.position = 1 + event.results.filter { $0.toPar < result.toPar }.count
                return result
            }
            return ranked
        }
        let season = try Season(
            id: Self.id(0x5E, 99), name: "Autumn league", from: "2026-09-01", to: "2026-11-30",
            rule: .pointsByPlace(Season.Rule.defaultPoints))
        var seasonal = KioskData(courses: courses, players: players, deviceID: Self.deviceID)
        seasonal.season = SeasonTable(season: season, events: weeks)
        shot("season", self.state(seasonal), on: "board")

        // Undo (issue 35): the round reopenable, finished early by this kiosk with the
        // code, its "Reopen this round" row chosen; a hole being corrected; the questions.
        let early = Round(
            id: done.id, courseID: done.courseID, organizerID: done.organizerID, participants: done.participants,
            status: .completed, createdAt: done.createdAt, startedAt: done.startedAt, completedAt: done.completedAt,
            pars: done.pars,
            actions: [
                RecordedAction(kind: .finishedEarly, at: Self.date(6_000), deviceID: Self.deviceID, authority: .organizerCode)
            ])
        let undoable = RoundSnapshot(round: early, course: course, events: scored)
        state = self.state(after)
        state.handle(.longPressed, now: now)
        try openMenuItem(.history, &state)
        state.handle(.historyLoaded(HistoryPage(lines: [line], next: nil), after: nil), now: now)
        state.handle(.pressed, now: now)
        state.handle(.historyRoundLoaded(undoable, undo: HistoryUndo(canCorrect: true, canReopen: true)), now: now)
        state.handle(.turned(undoable.standings.rows.count), now: now)
        shot("history-round-undo", state, on: "history-round")
        state.handle(.pressed, now: now)
        shot("reopen-round", state)
        state.handle(.longPressed, now: now)
        state.handle(.turned(-99), now: now)
        state.handle(.pressed, now: now)
        state.handle(.turned(2), now: now)
        state.handle(.pressed, now: now)
        state.handle(.turned(-1), now: now)
        shot("correct-score", state, on: "correct-hole-")
        // The course list with a deleted course, and restoring it.
        let deleted = DeletedCourse(
            id: Self.id(0xDC, 0), name: "Pine Hollow", deletedAt: Self.date(5_000),
            deletedBy: RecordedAction(kind: .courseDeleted, at: Self.date(5_000), deviceID: Self.deviceID, authority: .lockOff),
            restorable: true)
        var withDeleted = after
        withDeleted.deletedCourses = [deleted]
        state = self.state(withDeleted)
        state.handle(.longPressed, now: now)
        try openMenuItem(.courses, &state)
        state.handle(.turned(courses.count + 1), now: now)
        shot("courses-deleted", state, on: "courses")
        state.handle(.pressed, now: now)
        shot("restore-course", state)
        // The roster (the menu's Players), and removing its first player.
        state = self.state(after)
        state.handle(.longPressed, now: now)
        try openMenuItem(.players, &state)
        shot("players", state)
        state.handle(.pressed, now: now)
        state.handle(.pressed, now: now)
        shot("remove-player", state)

        // Only in a group: adding a phone, the summary's QR code, a name typed on a phone.
        state = self.state(data, inGroup: true)
        state.handle(.longPressed, now: now)
        try openMenuItem(.addPhone, &state)
        state.handle(.inviteChanged(.ready(url: "https://hyzer.example.org/join/BCDFGHJKLMNP", expiresIn: 600)), now: now)
        shot("add-phone", state)
        state = self.state(
            KioskData(
                round: RoundSnapshot(round: scoredUp, course: course, events: scored), courses: courses, players: players,
                deviceID: Self.deviceID), inGroup: true)
        state.handle(.pressed, now: now)
        #expect(state.handle(.pressed, now: now).contains(.requestSummaryLink(done.id)))
        state.handle(.dataChanged(after, .localScore), now: now)
        state.handle(.summaryLinkChanged(roundID: done.id, url: "https://hyzer.example.org/s/hzs_0123456789abcdef"), now: now)
        shot("summary-qr", state, on: "summary")
        #expect(state.summaryLinkOnShow != nil)
        state = self.state(data, inGroup: true)
        state.handle(.longPressed, now: now)
        try openMenuItem(.startRound, &state)
        state.handle(.pressed, now: now)
        guard case .setupPlayers(let setup) = state.screen else { throw CancellationError() }
        let guest = try #require(setup.rows(in: state.data).firstIndex(of: .addGuest))
        state.handle(.turned(guest - setup.cursor), now: now)
        #expect(state.handle(.pressed, now: now).contains(.requestPhoneName(label: "Guest's name")))
        state.handle(.phoneNameChanged(.ready(url: "https://hyzer.example.org/n/BCDFGHJK", expiresIn: 300)), now: now)
        shot("name-entry-phone", state, on: "name-entry-phone-ready")
        return shots
    }

    /// Opens the menu's `item` from the menu, as a script turns to it and presses.
    func openMenuItem(_ item: MenuItem, _ state: inout KioskState) throws {
        guard case .menu(let menu) = state.screen else {
            Issue.record("not on the menu: \(state.screen.name)")
            throw CancellationError()
        }
        let row = try #require(state.menuItems.firstIndex(of: item), "\(item) is not on the menu")
        state.handle(.turned(row - menu.cursor), now: Self.now)
        state.handle(.pressed, now: Self.now)
    }

    /// The status screen's facts, as a kiosk in no group on the Pi would gather them.
    static func status(_ viewport: Viewport) -> KioskStatus {
        KioskStatus(
            knob: KioskStatus.Knob(backend: "gpiod", lines: "gpiochip0: A 17, B 27, button 22, buzzer 23"),
            display: KioskStatus.Display(
                driver: "KMS", renderer: "software", width: viewport.width, height: viewport.height, drawP50: 4.2,
                drawP99: 11.8, frames: 240),
            storage: KioskStatus.Storage(
                directory: "/var/lib/hyzer", databaseBytes: 1_482_752, freeBytes: 12_884_901_888, warnBelow: 104_857_600),
            version: "1.4.0", addresses: ["192.168.1.40", "fe80::1c2b:3aff:fe4d:5e6f"])
    }
}
