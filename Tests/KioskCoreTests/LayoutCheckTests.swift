import Foundation
import HyzerKit
import Testing

@testable import KioskCore

/// Issue 15's layout check: every screen laid out as boxes (`boardBoxes`, `holeCardBoxes`),
/// at every panel size from the Pi's 800×480 to a portrait TV, for groups of 1 to 40 with
/// 32-character names. No two texts overlap, every text lies in its row, rows keep the
/// minimum height and text the minimum size, fixed texts ("T100", "+12", "DNF") fit whole,
/// and the hole card's cursor row is always whole on screen.
///
/// Negative control (done once, by hand, on 23 Nov 2026): with `boardMinimumRowHeight`
/// lowered to `touchTarget / 2` and `holeCardMinimumRowHeight` to `touchTarget`, both tests
/// fail at every size: texts at the minimum size stick out of their rows (board and hole
/// card), and the board's 24 px rows at 800×480 and 1024×600 fail the touch target. Restored,
/// all pass. Before that, this check found the hole card's name and total overflowing its
/// minimum rows at 1024×600 (rounded sizes adding up past the row), fixed in `holeCard(rows:)`.
///
/// Again for the summary and crown entry (23 Nov 2026, 22:05 UTC): with
/// `summaryMinimumRowHeight` lowered to `touchTarget / 2`, `theSummaryHoldsItsContent` failed
/// at all five sizes with 2,660 issues, nearly all "not inside its row" (names and scores at
/// the minimum size sticking out of 24 px rows); restored, it passes. The entry check found
/// the portrait label ("+3 · Triple bogey", 1,225 px wanted in 1,040) before it was sized by
/// the width.
@Suite struct LayoutCheckTests {
    static let sizes = [(800, 480), (1024, 600), (1280, 720), (1920, 1080), (1080, 1920)]
    /// A round holds at most `Round.maxParticipants` (24), so a group of 40 is laid out by
    /// the pure geometry alone (`theGeometryHoldsFortyRows`); the rounds go up to 24.
    static let groups = [1, 2, 6, 12, 20, Round.maxParticipants]

    /// A round on hole 1 with `count` players, every other one with a 32-character name; the
    /// first has two disagreeing scores (the "check" caption), the second was scored by the
    /// first ("scored by"), the rest of hole 1 is half scored.
    static func state(players count: Int, size: (Int, Int)) throws -> KioskState {
        let clock = ManualClock()
        let course = try Course(name: "Riverside Nine", holeCount: 9)
        let players = try (0..<count).map { i in
            let long = "Maximiliana Bartholomew-Kowal \(String(format: "%02d", i))"
            return try Player(displayName: i % 2 == 0 ? long : "P\(i)")
        }
        #expect(players.first?.displayName.count == 32)
        var round = Round(courseID: course.id, organizerID: players[0].id, createdAt: clock.date)
        for p in players { try round.add(.registered(p)) }
        try round.start(at: clock.date)
        var events: [ScoreEvent] = []
        func score(_ i: Int, _ strokes: Int, by reporter: Int, device: String) {
            events.append(
                ScoreEvent(
                    roundID: round.id, participantID: players[i].id, hole: 1, strokes: strokes, supersedes: [],
                    reportedBy: players[reporter].id, deviceID: device, createdAt: clock.date))
        }
        score(0, 3, by: 0, device: "kiosk")
        score(0, 4, by: 0, device: "phone")
        for i in stride(from: 1, to: count, by: 2) { score(i, 3 + i % 3, by: 0, device: "kiosk") }
        let snapshot = RoundSnapshot(round: round, course: course, events: events)
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        state.handle(
            .dataChanged(KioskData(round: snapshot, courses: [course], players: players), .localScore), now: 1_000)
        return state
    }

    /// The checks every row of every screen must pass.
    static func check(
        _ rows: [RowBoxes], in area: Rect, minimumRow: Double, layout: Layout, _ what: String
    ) {
        for (n, row) in rows.enumerated() {
            #expect(row.frame.y >= area.y - 0.5 && row.frame.maxY <= area.maxY + 0.5, "\(what): row \(n) outside its area")
            for text in row.texts {
                let f = text.frame
                #expect(
                    f.x >= row.frame.x - 0.5 && f.maxX <= row.frame.maxX + 0.5 && f.y >= row.frame.y - 0.5
                        && f.maxY <= row.frame.maxY + 0.5,
                    "\(what): \"\(text.text)\" \(f) is not inside its row \(row.frame)")
                #expect(text.size >= layout.minimumTextSize, "\(what): \"\(text.text)\" at \(text.size) px")
                #expect(f.w > 0, "\(what): \"\(text.text)\" has no room")
                if !text.ellipsized {
                    #expect(
                        Layout.textWidth(text.text, size: text.size) <= f.w + 0.5,
                        "\(what): \"\(text.text)\" needs \(Layout.textWidth(text.text, size: text.size)), has \(f.w)")
                }
            }
            for (i, a) in row.texts.enumerated() {
                for b in row.texts[(i + 1)...] {
                    #expect(!overlaps(a.frame, b.frame), "\(what): \"\(a.text)\" overlaps \"\(b.text)\"")
                }
            }
        }
        for (i, a) in rows.enumerated() {
            #expect(a.frame.h + Layout.rowGap(minimumRow) >= minimumRow - 0.5, "\(what): row \(i) is \(a.frame.h) px")
            for b in rows[(i + 1)...] {
                #expect(!overlaps(a.frame, b.frame), "\(what): rows overlap")
            }
        }
    }

    static func overlaps(_ a: Rect, _ b: Rect) -> Bool {
        a.x < b.maxX - 0.5 && b.x < a.maxX - 0.5 && a.y < b.maxY - 0.5 && b.y < a.maxY - 0.5
    }

    /// Every page of the board, at every size and group size: the pinned leaders and the
    /// page's rows hold their content, the indicator has its own slot, and every
    /// participant is on some page.
    @Test(arguments: sizes)
    func theBoardHoldsItsContentAtTheMinimums(size: (Int, Int)) throws {
        for count in Self.groups {
            var state = try Self.state(players: count, size: size)
            let layout = Layout(viewport: state.viewport)
            let pages = state.boardPages
            var seen: Set<UUID> = []
            for page in 0..<pages.pages {
                let what = "board \(size.0)×\(size.1), \(count) players, page \(page + 1) of \(pages.pages)"
                state.boardPaging.page = page
                let boxes = state.boardBoxes(layout: layout, now: 10_000, minus: "\u{2212}")
                let geometry = boxes.geometry
                #expect(geometry.rowHeight >= Layout.touchTarget, "\(what)")
                #expect(geometry.rowHeight >= layout.boardMinimumRowHeight, "\(what)")
                #expect(geometry.shown + geometry.hidden == count, "\(what)")
                #expect(boxes.rows.count == pages.pinned + pages.rotating(page: page).count, "\(what)")
                #expect(boxes.rows.count <= geometry.slots - (pages.rotates ? 1 : 0), "\(what)")
                #expect((boxes.more != nil) == (geometry.hidden > 0), "\(what)")
                #expect((boxes.more != nil) == pages.rotates, "\(what)")
                seen.formUnion(boxes.rows.map(\.standing.participantID))
                // The widest position and to-par labels fit at this size, not only the ones on show.
                let columns = geometry.columns
                #expect(Layout.textWidth("T100", size: geometry.nameSize) <= columns.position.w, "\(what)")
                #expect(Layout.textWidth("DNF", size: geometry.scoreSize) <= columns.toPar.w, "\(what)")
                #expect(Layout.textWidth("+12", size: geometry.scoreSize) <= columns.toPar.w, "\(what)")
                // A long name keeps room for a readable start before its ellipsis.
                #expect(columns.name.w >= Layout.textWidth("Maximil…", size: geometry.nameSize), "\(what)")
                // The indicator's widest form ("100–100 of 100" is beyond a round) fits whole.
                if let more = boxes.more {
                    #expect(Layout.textWidth("20–24 of 24", size: geometry.captionSize) <= more.frame.w, "\(what)")
                }
                let all = boxes.rows.map(\.boxes) + (boxes.more.map { [$0] } ?? [])
                Self.check(all, in: layout.boardArea, minimumRow: layout.boardMinimumRowHeight, layout: layout, what)
            }
            #expect(seen.count == count, "board \(size.0)×\(size.1), \(count) players: someone is on no page")
        }
    }

    @Test(arguments: sizes)
    func theHoleCardScrollsWithTheCursorAlwaysWhole(size: (Int, Int)) throws {
        for count in Self.groups {
            var state = try Self.state(players: count, size: size)
            let layout = Layout(viewport: state.viewport)
            var now: Millis = 2_000
            state.handle(.pressed, now: now)
            guard case .holeCard(let first) = state.screen else {
                Issue.record("\(state.screen)")
                return
            }
            // The card opens on the first participant without a score; start from the top.
            if first.cursor > 0 { state.handle(.turned(-first.cursor), now: now) }
            // Turn through every row of the card, one detent at a time, and look once the
            // slide has settled and also halfway through it.
            for step in 0..<count {
                if step > 0 {
                    now += 1_000
                    state.handle(.turned(1), now: now)
                }
                guard case .holeCard(let card) = state.screen else { return }
                let what = "hole card \(size.0)×\(size.1), \(count) players, cursor \(card.cursor)"
                #expect(card.cursor == step, "\(what)")
                let mid = state.holeCardBoxes(card, layout: layout, now: now + MotionTokens.holeCardScroll / 2, minus: "−")
                let settled = state.holeCardBoxes(card, layout: layout, now: now + 500, minus: "−")
                guard let mid, let boxes = settled else {
                    Issue.record("\(what): no boxes")
                    return
                }
                let geometry = boxes.geometry
                #expect(geometry.rowHeight >= Layout.touchTarget, "\(what)")
                #expect(geometry.rowHeight >= layout.holeCardMinimumRowHeight, "\(what)")
                #expect(geometry.area.maxY <= layout.footer.y, "\(what)")
                guard let cursorRow = boxes.rows.first(where: { $0.index == card.cursor }) else {
                    Issue.record("\(what): the cursor's row is not drawn")
                    continue
                }
                let f = cursorRow.boxes.frame
                #expect(f.y >= geometry.area.y - 0.5 && f.maxY <= geometry.area.maxY + 0.5, "\(what): cursor row cut")
                #expect((boxes.thumb != nil) == (count > geometry.visible), "\(what): scroll indicator")
                // Rows partly scrolled out are clipped to the area; their boxes are checked whole.
                let area = Rect(x: -1e6, y: -1e6, w: 2e6, h: 2e6)
                Self.check(boxes.rows.map(\.boxes), in: area, minimumRow: layout.holeCardMinimumRowHeight, layout: layout, what)
                Self.check(mid.rows.map(\.boxes), in: area, minimumRow: layout.holeCardMinimumRowHeight, layout: layout, what)
            }
        }
    }

    /// The slide is motion as data: a turn past the last whole row starts a tween, which
    /// reduce motion replaces with the end position at once.
    @Test(arguments: [false, true])
    func turningPastTheLastVisibleRowScrolls(reduceMotion: Bool) throws {
        var state = try Self.state(players: 20, size: (800, 480))
        state.handle(.settingsChanged(KioskSettings(reduceMotion: reduceMotion)), now: 1_500)
        state.handle(.pressed, now: 2_000)
        if case .holeCard(let card) = state.screen, card.cursor > 0 { state.handle(.turned(-card.cursor), now: 2_500) }
        let geometry = Layout(viewport: state.viewport).holeCard(rows: 20)
        #expect(geometry.visible < 20)
        state.handle(.turned(geometry.visible - 1), now: 3_000)
        #expect(state.holeCardScroll.to == 0, "still inside the view: no scroll")
        state.handle(.turned(1), now: 4_000)
        #expect(state.holeCardScroll.to == 1)
        #expect(state.holeCardScroll.isRunning(at: 4_000) == !reduceMotion)
        #expect(state.frameInterval(at: 4_050) == (reduceMotion ? nil : MotionTokens.frameInterval))
        #expect(state.holeCardScroll.value(at: 4_000 + MotionTokens.holeCardScroll) == 1)
    }

    /// Forty rows (more than a round holds, as a club's league night might want on one
    /// board some day): the geometry still keeps the minimums and shows what fits.
    @Test(arguments: sizes)
    func theGeometryHoldsFortyRows(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        let board = layout.board(rows: 40)
        #expect(board.rowHeight >= layout.boardMinimumRowHeight)
        #expect(board.shown + board.hidden == 40 && board.shown >= 1)
        #expect(layout.boardRow(slot: Double(board.shown), rows: 40).maxY <= layout.boardArea.maxY + 0.5)
        let card = layout.holeCard(rows: 40)
        #expect(card.rowHeight >= layout.holeCardMinimumRowHeight)
        for cursor in [0, 17, 39] {
            let top = card.top(cursor: cursor, near: 0)
            let row = card.row(cursor, top: top)
            #expect(row.y >= card.area.y - 0.5 && row.maxY <= card.area.maxY + 0.5, "cursor \(cursor)")
        }
    }

    /// A tap on a scrolled card scores the participant drawn under the finger, not the one
    /// that row held before the card scrolled.
    @Test func aTapOnAScrolledCardHitsTheRowDrawnThere() throws {
        var state = try Self.state(players: 20, size: (800, 480))
        state.handle(.pressed, now: 2_000)
        guard case .holeCard(let opened) = state.screen else { return }
        state.handle(.turned(15 - opened.cursor), now: 3_000)
        guard case .holeCard(let card) = state.screen else { return }
        #expect(card.cursor == 15)
        let layout = Layout(viewport: state.viewport)
        let boxes = try #require(state.holeCardBoxes(card, layout: layout, now: 5_000, minus: "−"))
        #expect(boxes.top > 0)
        let target = try #require(boxes.rows.first { $0.index == 13 })
        state.handle(.touch(x: 200, y: target.boxes.frame.midY), now: 5_000)
        guard case .entry(let entry) = state.screen else {
            Issue.record("\(state.screen)")
            return
        }
        #expect(entry.participantID == state.round?.round.participants[13].id)
    }

    /// The list screens (menu, course and player setup, finalize) share one row layout:
    /// players' names with a checkbox and "organizer" or "#24", a course with its holes and par.
    @Test(arguments: sizes)
    func theListsHoldTheirContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        #expect(layout.listRowHeight >= Layout.touchTarget)
        for count in Self.groups + [40] {
            let rows = count + 1  // and "Start round"
            for cursor in Set([0, count / 2, count]) {
                let what = "list \(size.0)×\(size.1), \(rows) rows, cursor \(cursor)"
                var boxes: [RowBoxes] = []
                for index in 0..<rows {
                    guard let rect = layout.listRow(index, rows: rows, cursor: cursor) else { continue }
                    let title = index % 2 == 0 ? "Maximiliana Bartholomew-Kowal 07" : "18 holes · par 54 course"
                    let detail = index == 0 ? "organizer" : index % 3 == 0 ? "18 holes · par 54" : "#\(index + 1)"
                    let (row, checkbox) = layout.listRowBoxes(
                        rect, title: title, detail: detail, checkbox: index % 2 == 0, color: Palette.textPrimary)
                    if let checkbox {
                        for text in row.texts {
                            #expect(!Self.overlaps(checkbox, text.frame), "\(what): the checkbox covers \"\(text.text)\"")
                        }
                    }
                    boxes.append(row)
                }
                #expect(layout.listRow(cursor, rows: rows, cursor: cursor) != nil, "\(what): the cursor's row is hidden")
                Self.check(boxes, in: layout.listArea, minimumRow: Layout.touchTarget, layout: layout, what)
            }
        }
    }

    /// The summary card: every group, on every page when it pages like the board (leaders
    /// pinned, the indicator in the last slot), and nobody missing from all of them.
    @Test(arguments: sizes)
    func theSummaryHoldsItsContent(size: (Int, Int)) throws {
        for count in Self.groups {
            let state = try Self.state(players: count, size: size)
            let layout = Layout(viewport: state.viewport)
            let standings = try #require(state.round?.standings.rows)
            // The idle board's last round (a heading), the card, and the card with its QR code.
            for (heading, qr) in [(false, false), (true, false), (false, true)] {
                let pages = layout.summaryPages(standings, heading: heading, qr: qr)
                var seen: Set<UUID> = []
                for page in 0..<pages.pages {
                    let what = "summary \(size.0)×\(size.1), \(count) players, heading \(heading), QR \(qr), page \(page + 1)"
                    let boxes = layout.summaryBoxes(standings, heading: heading, minus: "−", page: page, qr: qr)
                    #expect((boxes.qr != nil) == qr, "\(what)")
                    if let code = boxes.qr {
                        let square = code.square
                        // Beside the card or under its meta line; inside the screen, above the
                        // footer with its caption; big enough for a 45-module code at 3 px a
                        // module (a 60-character link at level M) to scan.
                        let clear =
                            square.x >= boxes.card.x + boxes.card.w || square.y >= boxes.metaY + boxes.metaHeight / 2
                        #expect(clear, "\(what): the QR code covers the card")
                        #expect(square.x >= 0 && square.maxX <= layout.width && square.y >= 0, "\(what)")
                        #expect(code.caption.frame.maxY <= layout.footer.y, "\(what): caption")
                        #expect(square.w == square.h && square.w >= 135, "\(what): a \(square.w) px code")
                    }
                    #expect(boxes.rowHeight >= layout.summaryMinimumRowHeight, "\(what)")
                    #expect((boxes.more == nil) == (boxes.rows.count == count), "\(what)")
                    #expect((boxes.more != nil) == pages.rotates, "\(what)")
                    #expect(boxes.rows.count == pages.pinned + pages.rotating(page: page).count, "\(what)")
                    #expect(boxes.metaY + boxes.metaHeight / 2 <= layout.footer.y, "\(what): the meta line under the footer")
                    seen.formUnion(boxes.rows.map(\.line.id))
                    let area = Rect(x: boxes.card.x, y: boxes.top, w: boxes.card.w, h: layout.footer.y - boxes.top)
                    let all = boxes.rows.map(\.boxes) + (boxes.more.map { [$0] } ?? [])
                    Self.check(all, in: area, minimumRow: layout.summaryMinimumRowHeight, layout: layout, what)
                }
                #expect(seen.count == count, "summary \(size.0)×\(size.1), \(count) players: someone is on no page")
            }
        }
    }

    /// The status screen's facts, at their longest: a knob fault with its fix, a storage
    /// fault, the last error, long paths and addresses. On every page they hold their rows,
    /// never under the minimum size; past one page they page, and every row is on one.
    @Test(arguments: sizes)
    func theStatusFactsHoldTheirContent(size: (Int, Int)) throws {
        var state = KioskState(viewport: Viewport(width: size.0, height: size.1))
        let long = KioskStatus(
            group: .init(
                server: "https://hyzer.clubhouse.example.org:8630", group: "Tuesday Night Doubles League",
                deviceName: "Kiosk clubhouse-first-tee", pending: 1_204, refused: 3, epoch: "e-7f3a9c21"),
            knob: .init(
                backend: "gpiod", lines: "encoder A GPIO17, B GPIO18, switch GPIO27 (gpiochip0)",
                error: "GPIO line 17 is busy: another program (pigpiod) holds it",
                fix: "stop the other program (sudo systemctl stop pigpiod), or choose other lines with --encoder-a"),
            display: .init(
                driver: "KMSDRM", renderer: "opengles2", width: size.0, height: size.1, drawP50: 2.5, drawP99: 9.75,
                frames: 120),
            storage: .init(
                directory: "/var/lib/hyzer/a/rather/deep/data/directory/for/the/kiosk", databaseBytes: 3_400_000_000,
                freeBytes: 20_000_000, warnBelow: 50_000_000),
            version: "1.0.0-rc.2+g3c9f1e2", addresses: ["192.168.100.200", "fd00:1234:5678:9abc::20", "10.8.0.6"])
        state.handle(.statusChanged(long), now: 0)
        state.handle(.storageChanged("The disk is full: scores cannot be saved until space is freed"), now: 0)
        state.handle(.effectFailed("Not saved: the disk is full (SQLITE_FULL) at /var/lib/hyzer"), now: 0)
        let layout = Layout(viewport: state.viewport)
        let sections = state.statusSections(wallClock: Date(timeIntervalSince1970: 1_800_000_000))
        let first = layout.statusFactBoxes(sections, page: 0)
        var seen = 0
        for page in 0..<first.pages {
            let what = "status \(size.0)×\(size.1), page \(page + 1) of \(first.pages)"
            let boxes = layout.statusFactBoxes(sections, page: page)
            #expect(boxes.pages == first.pages)
            #expect(!boxes.rows.isEmpty, "\(what): an empty page")
            #expect((boxes.indicator != nil) == (boxes.pages > 1), "\(what)")
            let minimumRow = (Double(layout.minimumTextSize) * Layout.lineHeight * 1.15).rounded(.up)
            // Two columns side by side: each is checked on its own (rows of one column never
            // meet the other's).
            for column in Set(boxes.rows.map(\.frame.x)) {
                Self.check(
                    boxes.rows.filter { $0.frame.x == column }, in: layout.statusFacts, minimumRow: minimumRow,
                    layout: layout, what)
            }
            if let indicator = boxes.indicator {
                #expect(indicator.frame.maxX <= layout.width && indicator.size >= layout.minimumTextSize, "\(what)")
            }
            seen += boxes.rows.count
        }
        // Every wrapped row of every section is on some page.
        let chars = { (rows: [RowBoxes]) in rows.flatMap(\.texts).map(\.text.count).reduce(0, +) }
        var all: [RowBoxes] = []
        for page in 0..<first.pages { all += layout.statusFactBoxes(sections, page: page).rows }
        #expect(all.count == seen)
        let words = sections.flatMap {
            [$0.title.uppercased()] + $0.lines.flatMap { [$0.label] + $0.value.split(separator: " ").map(String.init) }
        }
        #expect(chars(all) >= words.map(\.count).reduce(0, +), "status \(size.0)×\(size.1): text missing")
    }

    /// The join and add-phone screens: the headline, the code or the QR square, and the lines
    /// under them (the longest: a failure's whole sentence, the approve command, a long
    /// server address) stay on the screen, apart, never under the minimum size; the code
    /// and the square keep the room a reader needs.
    @Test(arguments: sizes)
    func theMessageScreensHoldTheirContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        let server = "https://hyzer.clubhouse.example.org:8630"
        let join = Screen.Join(progress: .waiting(code: "BCDF-GHJK", server: server, expiresIn: 600)).text
        let failed = Screen.Join(
            progress: .failed(
                "Cannot reach \(server): the connection timed out (is the server running, and is this kiosk on its network?)")
        ).text
        let phone = Screen.AddPhone(progress: .ready(url: server + "/join/BCDFGHJK", expiresIn: 600)).text
        let cases: [(String, Layout.MessageFeature, [String], String)] = [
            (join.headline, .code(join.code ?? ""), join.lines, "join waiting"),
            (failed.headline, .none, failed.lines, "join failed"),
            (phone.headline, .square, phone.lines, "add-phone ready"),
        ]
        for (headline, feature, lines, name) in cases {
            let what = "\(name) \(size.0)×\(size.1)"
            let boxes = layout.messageBoxes(headline: headline, feature: feature, lines: lines)
            let texts = [boxes.title] + (boxes.code.map { [$0] } ?? []) + boxes.lines
            let screen = Rect(x: 0, y: 0, w: layout.width, h: layout.footer.y)
            Self.check(
                [RowBoxes(frame: screen, texts: texts)], in: screen, minimumRow: 0, layout: layout, what)
            if let square = boxes.square {
                #expect(square.w == square.h && square.w >= 135, "\(what): a \(square.w) px QR square")
                for text in texts { #expect(!Self.overlaps(square, text.frame), "\(what): the square covers \"\(text.text)\"") }
                #expect(square.maxY <= layout.footer.y && square.x >= 0 && square.maxX <= layout.width, "\(what)")
            }
            if let code = boxes.code {
                // From 3 m: at least an eighth of the short side, and whole.
                #expect(Double(code.size) >= min(layout.width, layout.height) / 8, "\(what): the code at \(code.size) px")
            }
        }
    }

    /// The organizer code (issue 35) at every size and length: its texts apart and at the
    /// minimum or more, its slots on the screen above the footer and under the texts, apart,
    /// the dial's digit whole in its slot, the markers clear of everything.
    @Test(arguments: sizes)
    func theCodeEntryHoldsItsContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        for length in OrganizerLock.lengths {
            for entered in 0...length {
                let what = "code \(size.0)×\(size.1), \(entered) of \(length)"
                let boxes = layout.codeEntryBoxes(
                    title: "New code, once more", purpose: "Needed to change the kiosk's settings.",
                    status: "5 wrong codes: try again in 60 s", statusColor: Palette.wayOver, length: length,
                    entered: entered, dial: entered < length ? 8 : nil)
                let texts = [boxes.title, boxes.purpose] + (boxes.status.map { [$0] } ?? [])
                let above = Rect(x: 0, y: 0, w: layout.width, h: layout.footer.y)
                Self.check([RowBoxes(frame: above, texts: texts)], in: above, minimumRow: 0, layout: layout, what)
                #expect(boxes.slots.count == length, "\(what)")
                let lowest = texts.map(\.frame.maxY).max() ?? 0
                for (i, slot) in boxes.slots.enumerated() {
                    #expect(
                        slot.x >= 0 && slot.maxX <= layout.width && slot.maxY <= layout.footer.y, "\(what): slot \(i) off screen")
                    #expect(slot.y >= lowest, "\(what): slot \(i) under the texts")
                    #expect(slot.w >= Layout.touchTarget * 0.75 && slot.h > slot.w, "\(what): slot \(i) is \(slot.w)×\(slot.h)")
                    if i > 0 { #expect(slot.x > boxes.slots[i - 1].maxX, "\(what): slots \(i - 1) and \(i) touch") }
                }
                guard let digit = boxes.digit, let up = boxes.up, let down = boxes.down else {
                    #expect(entered == length, "\(what): no dial")
                    continue
                }
                let slot = boxes.slots[entered]
                Self.check([RowBoxes(frame: slot, texts: [digit])], in: above, minimumRow: 0, layout: layout, what)
                #expect(up.maxY <= slot.y && down.y >= slot.maxY && down.maxY <= layout.footer.y, "\(what): markers")
                for text in texts { #expect(!Self.overlaps(up, text.frame), "\(what): ▲ covers \"\(text.text)\"") }
            }
        }
    }

    /// The finish question: who is missing which holes, every group size with its 32-character
    /// names, wrapped, over the buttons, never under the minimum; whoever does not fit is
    /// counted in the last line.
    @Test(arguments: sizes)
    func theFinishQuestionHoldsItsContent(size: (Int, Int)) throws {
        for count in Self.groups {
            let state = try Self.state(players: count, size: size)
            let layout = Layout(viewport: state.viewport)
            let snapshot = try #require(state.round)
            let missing = Screen.FinishRound.missing(in: snapshot)
            let what = "finish \(size.0)×\(size.1), \(count) players"
            let boxes = layout.questionBoxes(
                title: "Finish the round now?", subtitle: "\(missing.count) players will be DNF (did not finish).",
                subtitleColor: Palette.overPar, lines: missing.map(\.line), more: { "… and \($0) more" })
            let texts = [boxes.title, boxes.subtitle] + boxes.lines
            let above = Rect(x: 0, y: 0, w: layout.width, h: layout.statusButtons(count: 2)[0].y)
            Self.check([RowBoxes(frame: above, texts: texts)], in: above, minimumRow: 0, layout: layout, what)
            // Everyone missing holes is on a line or counted in the last.
            let named = missing.filter { entry in boxes.lines.contains { $0.text.hasPrefix(entry.name.prefix(8)) } }
            let more = boxes.lines.last.flatMap { Int($0.text.split(separator: " ").dropFirst(2).first ?? "") } ?? 0
            #expect(named.count + more >= missing.count, "\(what): \(named.count) named, \(more) more, of \(missing.count)")
            #expect(!boxes.lines.isEmpty, "\(what): nobody named")
        }
    }

    /// Issue 35's undo questions ("Reopen this round?", "Restore <a long name>?"): every
    /// line whole above the buttons, at every size, nothing counted as "more".
    @Test(arguments: sizes)
    func theUndoQuestionsHoldTheirContent(size: (Int, Int)) throws {
        let state = try Self.state(players: 6, size: size)
        let layout = Layout(viewport: state.viewport)
        let snapshot = try #require(state.round)
        var finished = snapshot.round
        try finished.finish(at: Date(timeIntervalSince1970: 1_800_000_000))
        var history = Screen.History()
        history.level = .round(.init(RoundSnapshot(round: finished, course: snapshot.course, events: snapshot.events)), cursor: 0)
        let course = DeletedCourse(
            id: UUID(), name: "Long Meadow Championship Course", deletedAt: Date(timeIntervalSince1970: 1_800_000_000),
            restorable: true)
        let long = try Player(displayName: "Maximiliana Oyelaran-Featherstonehaugh")
        let other = try Player(displayName: "Bartholomew Okonkwo-Vandersloot Jr")
        let questions: [Screen.UndoConfirm] = [
            .init(.reopenRound(history)), .init(.restoreCourse(course)), .init(.removePlayer(long)),
            .init(.mergePlayer(long, into: other)),
        ]
        for question in questions {
            let (title, detail, lines) = question.lines
            let what = "\(title) \(size.0)×\(size.1)"
            let boxes = layout.questionBoxes(
                title: title, subtitle: detail, subtitleColor: Palette.accent, lines: lines, more: { "… and \($0) more" })
            let above = Rect(x: 0, y: 0, w: layout.width, h: layout.statusButtons(count: 2)[0].y)
            Self.check(
                [RowBoxes(frame: above, texts: [boxes.title, boxes.subtitle] + boxes.lines)], in: above, minimumRow: 0,
                layout: layout, what)
            #expect(!boxes.lines.contains { $0.text.hasPrefix("… and") }, "\(what): a line left out")
            #expect(boxes.lines.count >= lines.count, "\(what): \(boxes.lines.count) of \(lines.count) lines")
        }
    }

    /// The resolve screen: 2, 3 and 6 statements with 32-character names and a phone's long
    /// name, the widest strip of choices, at every size: nothing overlaps, the statements keep
    /// two lines at the minimum, and whatever does not fit is counted.
    @Test(arguments: sizes)
    func theResolveScreenHoldsItsContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        let name = "Maximiliana Bartholomew-Kowal 07"
        for count in [2, 3, 6] {
            let what = "resolve \(size.0)×\(size.1), \(count) statements"
            let lines = (0..<count).map { i in
                Layout.ResolveLine(
                    strokes: 3 + i, says: "\(name) says \(3 + i) · corrected since",
                    source: "\(name)'s phone · 14:0\(i)", color: Palette.textPrimary)
            }
            let boxes = layout.resolveBoxes(
                caption: "Check a score · 12 of 24", title: "\(name) · Hole 18 · Par 5", lines: lines, value: 10,
                valueName: "+5 · 5 over", valueColor: Palette.overPar, choices: Array(2...10))
            let screen = Rect(x: 0, y: 0, w: layout.width, h: layout.footer.y)
            let head = [boxes.caption, boxes.title]
            let choice = [boxes.value, boxes.valueName]
            Self.check(
                [RowBoxes(frame: screen, texts: head + choice + (boxes.more.map { [$0] } ?? []))], in: screen,
                minimumRow: 0, layout: layout, what)
            Self.check(boxes.statements, in: screen, minimumRow: 0, layout: layout, what)
            Self.check(boxes.chips, in: screen, minimumRow: Layout.touchTarget, layout: layout, what)
            let cards = boxes.statements.map(\.frame) + boxes.chips.map(\.frame)
            for text in head + choice {
                for card in cards { #expect(!Self.overlaps(text.frame, card), "\(what): \"\(text.text)\" on a card") }
            }
            for statement in boxes.statements {
                for chip in boxes.chips { #expect(!Self.overlaps(statement.frame, chip.frame), "\(what): a chip on a statement") }
            }
            #expect(
                boxes.chips.count == 9 && boxes.chips.allSatisfy { $0.frame.x >= 0 && $0.frame.maxX <= layout.width }, "\(what)")
            let more = boxes.more.flatMap { Int($0.text.split(separator: " ").dropFirst(2).first ?? "") } ?? 0
            #expect(boxes.statements.count + more == count, "\(what): \(boxes.statements.count) shown, \(more) more")
            #expect(
                Double(boxes.value.size) >= Double(layout.minimumTextSize) * 1.5, "\(what): the value at \(boxes.value.size) px")
        }
    }

    /// The summary on a screen it does not fit turns its page with the clock, one page an
    /// interval, and the machine wakes up for each turn; one that fits never wakes it.
    @Test func theSummaryPagesWithTheClock() throws {
        var state = try Self.state(players: 20, size: (800, 480))
        let id = try #require(state.round?.round.id)
        state.screen = .summary(roundID: id)
        let interval = state.settings.boardPageInterval
        let (snapshot, heading) = try #require(state.summaryOnShow)
        let pages = state.summaryPages(snapshot, heading: heading)
        #expect(pages.pages > 1)
        #expect(state.summaryPage(at: 0) == 0)
        #expect(state.summaryPage(at: interval) == 1)
        #expect(state.summaryPage(at: interval * Millis(pages.pages)) == 0)
        #expect(state.nextWakeUp(after: interval * 10 + 10) == interval * 11)
        // The flip changes the state, or the display loop (which draws changed states only)
        // would keep the first page up for good; a tick within the page changes nothing.
        state.handle(.tick, now: interval * 11)
        let flipped = state
        state.handle(.tick, now: interval * 11 + 10)
        #expect(state == flipped)
        state.handle(.tick, now: interval * 12)
        #expect(state != flipped, "a page flip left the state as it was: nothing would be drawn")
        var small = try Self.state(players: 2, size: (800, 480))
        small.screen = .summary(roundID: try #require(small.round?.round.id))
        #expect(small.summaryPage(at: interval * 5) == 0)
        #expect(small.nextWakeUp(after: interval * 10 + 10) == nil)
    }

    /// Crown entry for every group's first participant (a 32-character name): every stroke
    /// count from 1 to 10 with the longest labels, the number between its marks, nothing
    /// under the minimum and everything above the footer; the paper card's longer hole line
    /// (its running total) too.
    @Test(arguments: sizes)
    func crownEntryHoldsItsContent(size: (Int, Int)) throws {
        for count in Self.groups {
            let state = try Self.state(players: count, size: size)
            let layout = Layout(viewport: state.viewport)
            // The first participant's (a 32-character name); the screen does not depend on the
            // group's size, which only picks whose name it is.
            let name = try #require(state.round?.round.participants.first?.name)
            #expect(name.count == 32)
            for value in 1...10 {
                // Crown entry's hole line, and the paper card's with the running total (issue 35).
                for (label, hole) in [
                    ("+3 · Triple bogey", "Hole 18 · Par 5"), ("\u{2212}3 · Albatross", "Hole 18 · Par 5"),
                    ("+7 · 7 over", "Hole 18 · Par 5 · Total 112 (+44)"),
                    ("\u{2212}3 · Albatross", "Hole 18 · Par 5 · Total 48 (\u{2212}14)"),
                ] {
                    let what = "entry \(size.0)×\(size.1), \(count) players, \(value), \(label), \(hole)"
                    let rows = layout.entryBoxes(
                        name: name, hole: hole, value: value, label: label, minus: "\u{2212}",
                        color: Palette.textPrimary)
                    let area = Rect(x: 0, y: 0, w: layout.width, h: layout.footer.y)
                    let line = Double(layout.minimumTextSize) * Layout.lineHeight
                    Self.check(rows, in: area, minimumRow: line, layout: layout, what)
                    // The number stays the screen's biggest text, several times the minimum.
                    let number = try #require(rows.flatMap(\.texts).first { $0.text == "\(value)" })
                    #expect(number.size >= layout.minimumTextSize * 3, "\(what): the number is \(number.size) px")
                }
            }
        }
    }

    /// The hole card's header: "Hole 18", "Par 7" and a course name of 32 characters, at every
    /// size. Negative control (24 Nov 2026): sized by the header's height alone (`scale` = 1),
    /// the portrait 1080×1920 fails all three cases: the course is left 45–142 px, too little
    /// for "Pine…" (drawn before the boxes, it ran into "Par 3", as the contact sheet had
    /// shown); capped by the width, every size passes.
    @Test(arguments: sizes)
    func theHoleCardHeaderHoldsItsContent(size: (Int, Int)) {
        let layout = Layout(viewport: Viewport(width: size.0, height: size.1))
        for (hole, par, course) in [
            ("Hole 1", "Par 3", "Pine Hollow"), ("Hole 18", "Par 7", String(repeating: "Wide Meadow ", count: 3)),
            ("Hole 36", "Par 2", "W"),
        ] {
            let row = layout.holeHeaderBoxes(hole: hole, par: par, course: course)
            let what = "hole header \(size.0)×\(size.1) \(hole) \(par) \"\(course)\""
            Self.check([row], in: row.frame, minimumRow: 0, layout: layout, what)
            // The course keeps room for a few letters, so it is never just an ellipsis.
            #expect(row.texts[2].frame.w >= Layout.textWidth("Pine…", size: row.texts[2].size), "\(what)")
        }
    }

    /// Issue 9: the board's "course now" panel with two and three cards, and the round
    /// chooser's rows with their real texts, hold their content at every size; with eight
    /// (a league night, issue 36) the panel is inside the header too, whole or as one cell.
    @Test(arguments: sizes)
    func theCourseNowPanelAndTheChooserHoldTheirContent(size: (Int, Int)) throws {
        let state = try Self.state(players: 2, size: size)
        let layout = Layout(viewport: state.viewport)
        let front = try #require(state.data.round)
        let longName = try Course(name: "Maximiliana Memorial Disc Park", holeCount: 18)
        for count in [2, 3, 8] {
            let others = (1..<count).map { i in
                var round = front.round
                round.id = UUID()
                round.createdAt = front.round.createdAt.addingTimeInterval(Double(i))
                return RoundSnapshot(round: round, course: longName, events: [])
            }
            var many = state
            many.handle(
                .dataChanged(
                    KioskData(round: front, courses: [front.course], players: [], otherRounds: others), .remoteSync),
                now: 2_000)
            let what = "course now \(size.0)×\(size.1), \(count) rounds"
            let panel = try #require(many.courseNowBoxes(layout: layout), "\(what)")
            // Every card a cell, or (more than the header holds) one cell for them all.
            #expect([count, 1].contains(panel.cells.count) && panel.cells.filter(\.lit).count == 1, "\(what)")
            if count <= 3 { #expect(panel.cells.count == count, "\(what): two or three cards are each a cell") }
            Self.check(panel.cells.map(\.boxes), in: layout.header, minimumRow: 0, layout: layout, what)
            for cell in panel.cells {
                #expect(cell.boxes.frame.maxX <= layout.width * 0.64 + 0.5, "\(what): into the sync badge's room")
            }
            let rows = many.data.rounds.enumerated().compactMap { index, snapshot in
                layout.listRow(index, rows: count, cursor: 0).map {
                    layout.listRowBoxes(
                        $0, title: many.data.chooserTitle(snapshot), detail: KioskData.chooserDetail(snapshot),
                        checkbox: false, color: Palette.textPrimary
                    ).row
                }
            }
            // The chooser scrolls past what fits, as every list does.
            #expect(rows.count == min(count, layout.visibleListRows), "\(what): every round is a row on the chooser")
            Self.check(rows, in: layout.listArea, minimumRow: Layout.touchTarget, layout: layout, "chooser \(what)")
        }
    }

    /// Issue 37: a league night ranked by net says "net" at the panel's end, in the header,
    /// clear of the cells and of the sync badge's room, with 2, 3 and 8 cards.
    @Test(arguments: sizes)
    func aNetNightsTagStaysInTheHeaderBesideTheCells(size: (Int, Int)) throws {
        let state = try Self.state(players: 2, size: size)
        let layout = Layout(viewport: state.viewport)
        let front = try #require(state.data.round)
        for count in [2, 3, 8] {
            let others = (1..<count).map { i in
                var round = front.round
                round.id = UUID()
                return RoundSnapshot(round: round, course: front.course, events: [])
            }
            let night = try LeagueEvent(
                name: "Net league", courseID: front.course.id, day: "2026-11-29",
                rounds: [front.round.id] + others.map(\.round.id), createdAt: Date(), net: true)
            var many = state
            many.handle(
                .dataChanged(
                    KioskData(
                        round: front, courses: [front.course], players: [], otherRounds: others,
                        leagueNight: LeagueNightSnapshot(event: night, cards: [front] + others)), .remoteSync),
                now: 2_000)
            let what = "net tag \(size.0)×\(size.1), \(count) cards"
            let panel = try #require(many.courseNowBoxes(layout: layout), "\(what)")
            let tag = try #require(panel.net, "\(what): no net tag")
            #expect(tag.text == "net")
            Self.check([RowBoxes(frame: layout.header, texts: [tag])], in: layout.header, minimumRow: 0, layout: layout, what)
            #expect(tag.frame.maxX <= layout.width * 0.64 + 0.5, "\(what): into the sync badge's room")
            for cell in panel.cells {
                #expect(cell.boxes.frame.maxX <= tag.frame.x, "\(what): over a cell")
            }
        }
    }
}
