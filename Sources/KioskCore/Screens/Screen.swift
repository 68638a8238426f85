import Foundation

/// The screens of the kiosk. Each case carries one screen's own small state (its cursor, its
/// selection); everything else comes from `KioskData`, so a data change never leaves a screen stale.
///
/// Adding a screen: a `Screen.<Name>` value conforming to `ScreenBehavior` in
/// `KioskCore/Screens/<Name>.swift` (its state and transitions), its drawing in
/// `KioskRender/Screens/<Name>.swift`, and a case here. The compiler then points at the two
/// switches that route to it: `behavior` below and the painter's in KioskRender.
public enum Screen: Sendable, Equatable {
    /// The idle live board (or the last summary and "start a round" when none is active).
    case board
    case menu(Menu)
    /// One hole's card: the participants' scores on one hole.
    case holeCard(HoleCard)
    /// Crown-style entry for one participant on one hole.
    case entry(Entry)
    /// "All scores recorded. Finalize round?"
    case finalizePrompt(FinalizePrompt)
    case summary(Summary)
    case setupCourse(SetupCourse)
    case setupPlayers(SetupPlayers)
    /// The maintainer's status screen (issue 9).
    case status(Status)
    /// Checking the round's open discrepancies one cell at a time (issue 9).
    case resolve(Resolve)
    /// "Finish round now" (who is missing what) or "Discard this round", confirmed (issue 9).
    case finishRound(FinishRound)
    /// Joining a group with a code the admin approves (issue 9).
    case join(Join)
    /// Completed rounds, one round's standings, one player's holes (issue 9).
    case history(History)
    /// Which round, when several are being played (issue 9).
    case chooseRound(ChooseRound)
    /// Entering a name with the knob's character wheel (issue 14).
    case nameEntry(NameEntry)
    /// A QR code that makes a phone one more scorer of the group (issue 11).
    case addPhone(AddPhone)
    /// The menu's course list, a course's editor, and "Delete this course?" (issue 14).
    case courseList(CourseList)
    case courseEditor(CourseEditor)
    case deleteCourse(DeleteCourse)
    /// The card before a round starts: course, holes, par, who plays (issue 14).
    case confirmRound(ConfirmRound)
    /// The organizer code, asked before what destroys (issue 35).
    case codeEntry(CodeEntry)
    /// A card scored on paper, typed in player by player (issue 35).
    case paperCard(PaperCard)
    /// A finished round's score corrected from history (issue 35).
    case correctScore(CorrectScore)
    /// "Reopen this round?", "Restore Maple Hill?", "Remove Nate?" (issue 35).
    case undoConfirm(UndoConfirm)
    /// The roster: remove or merge players (issue 35).
    case players(Players)
    /// League night (issue 36): who is here and the night's side games, then the cards drawn.
    case checkIn(CheckIn)
    case drawCards(DrawCards)
    /// Tonight's skins, closest to the pin (its winners entered here), aces and ace pot.
    case sideGames(SideGames)
    /// A player's or a course's numbers (issue 37).
    case stats(Stats)

    /// The current screen's behaviour: the one place input is routed per screen.
    var behavior: any ScreenBehavior {
        switch self {
        case .board: Board()
        case .menu(let screen): screen
        case .holeCard(let screen): screen
        case .entry(let screen): screen
        case .finalizePrompt(let screen): screen
        case .summary(let screen): screen
        case .setupCourse(let screen): screen
        case .setupPlayers(let screen): screen
        case .status(let screen): screen
        case .resolve(let screen): screen
        case .finishRound(let screen): screen
        case .join(let screen): screen
        case .history(let screen): screen
        case .chooseRound(let screen): screen
        case .nameEntry(let screen): screen
        case .addPhone(let screen): screen
        case .courseList(let screen): screen
        case .courseEditor(let screen): screen
        case .deleteCourse(let screen): screen
        case .confirmRound(let screen): screen
        case .codeEntry(let screen): screen
        case .paperCard(let screen): screen
        case .correctScore(let screen): screen
        case .undoConfirm(let screen): screen
        case .players(let screen): screen
        case .checkIn(let screen): screen
        case .drawCards(let screen): screen
        case .sideGames(let screen): screen
        case .stats(let screen): screen
        }
    }

    /// A name for snapshots, scripts (`expect-screen`) and logs.
    public var name: String { behavior.name }

    /// The name and, where a screen waits on something outside the kiosk, how far it got
    /// (`join-waiting`, `join-joined`): what a script's `wait-for` waits for.
    public var phase: String {
        if case .nameEntry(let entry) = self {
            // A name typed on a phone: its code on screen, then the name waiting for a press.
            if entry.fromPhone != nil { return "name-entry-phone-arrived" }
            if case .ready = entry.phone { return "name-entry-phone-ready" }
            return name
        }
        guard case .join(let join) = self else { return name }
        return switch join.progress {
        case .requesting: "join-requesting"
        case .waiting: "join-waiting"
        case .joined: "join-joined"
        case .expired: "join-expired"
        case .failed: "join-failed"
        }
    }

    /// Screens someone is in the middle of; they time out back to the board.
    var isTransient: Bool { behavior.isTransient }

    /// Whether a keyboard types here (the name wheel) rather than standing in for the knob.
    public var takesTyping: Bool { behavior.takesTyping }
}

/// How one screen answers the machine's events. Each answer may change the machine (most often
/// `state.screen`, to move to another screen) and returns what the shell must do.
///
/// The defaults are what most screens do: turning does nothing, a long press goes back to the
/// board, a touch anywhere counts as a press, fresh data changes nothing, and the screen times
/// out to the board after `MotionTokens.idleTimeout` without input.
protocol ScreenBehavior: Sendable {
    /// For snapshots, scripts and logs, e.g. "hole-3".
    var name: String { get }
    /// Whether the screen times out back to the board when nobody touches the knob.
    var isTransient: Bool { get }
    /// ±n detents, never 0.
    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect]
    /// A click.
    func pressed(in state: inout KioskState, now: Millis) -> [KioskEffect]
    /// A long press: back or cancel.
    func back(in state: inout KioskState)
    /// A tap at a point in logical coordinates; `layout` is the screen's geometry.
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect]
    /// `state.data` was just replaced; `old` is what the screen showed until now.
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis)
    /// The screen's own timer (`state.autoAdvanceAt`) is due.
    func advance(in state: inout KioskState)
    /// When the screen wants fresh facts from the shell (the status screen); unlike
    /// `autoAdvanceAt`, input does not cancel it.
    var refreshDue: Millis? { get }
    /// `refreshDue` passed: schedule the next one and say what to fetch.
    func refresh(in state: inout KioskState, now: Millis) -> [KioskEffect]
    /// Whether a keyboard types on this screen; then its input comes as `typed`.
    var takesTyping: Bool { get }
    /// A keyboard typed.
    func typed(_ key: TypedKey, in state: inout KioskState, now: Millis) -> [KioskEffect]
}

extension ScreenBehavior {
    var isTransient: Bool { true }
    func turned(_ steps: Int, in state: inout KioskState) -> [KioskEffect] { [] }
    func back(in state: inout KioskState) { state.screen = .board }
    func touched(x: Double, y: Double, layout: Layout, in state: inout KioskState, now: Millis) -> [KioskEffect] {
        pressed(in: &state, now: now)
    }
    func dataChanged(from old: KioskData, in state: inout KioskState, now: Millis) {}
    func advance(in state: inout KioskState) {}
    var refreshDue: Millis? { nil }
    func refresh(in state: inout KioskState, now: Millis) -> [KioskEffect] { [] }
    var takesTyping: Bool { false }
    func typed(_ key: TypedKey, in state: inout KioskState, now: Millis) -> [KioskEffect] { [] }
}

// MARK: Shared list behaviour

extension KioskState {
    /// Moves a list cursor by `steps`, clamped to `count` rows; the clamp is felt as a double pulse.
    mutating func moveCursor(_ cursor: Int, by steps: Int, count: Int, _ make: (Int) -> Screen) -> [KioskEffect] {
        guard count > 0 else { return [.buzz(.limit)] }
        let wanted = cursor + steps
        let clamped = min(max(wanted, 0), count - 1)
        screen = make(clamped)
        return wanted == clamped ? [] : [.buzz(.limit)]
    }

    /// A tap on one of a question's answer buttons chooses that answer and presses it; a tap
    /// elsewhere does nothing (a stray touch must not answer).
    mutating func touchChoices(
        _ layout: Layout, x: Double, y: Double, count: Int, now: Millis, _ make: (Int) -> Screen
    ) -> [KioskEffect] {
        guard let index = layout.statusButtons(count: count).firstIndex(where: { $0.contains(x: x, y: y) }) else {
            return []
        }
        screen = make(index)
        return press(now: now)
    }

    /// A tap on a list row selects that row and presses it.
    mutating func touchList(
        _ layout: Layout, y: Double, rows: Int, cursor: Int = 0, now: Millis, _ make: (Int) -> Screen
    ) -> [KioskEffect] {
        guard let row = layout.listRow(at: y, rows: rows, cursor: cursor) else { return [] }
        screen = make(row)
        return press(now: now)
    }
}
