import Foundation
import HyzerKit
import HyzerSystem
import KioskCore
import KioskHardware
import KioskRender

/// The kiosk's main-thread loop (LVGL's habit): drain the inbox, deliver the machine's
/// due tick, draw only when the state changed or something moves, then sleep in SDL until
/// input, a post to the inbox, or the machine's next deadline. An idle board sleeps.
///
/// Not a task: SDL wants the thread that created the window (see `DisplayService`).
public final class DisplayLoop {
    let session: KioskSession
    let display: Display
    let inbox: KioskInbox
    let clock: any HyzerClock
    /// systemd: READY=1 after the first frame, WATCHDOG=1 from this loop (so a hung loop is
    /// restarted), STOPPING=1 when it ends.
    let notifier: SystemdNotifier
    /// Called when another process wrote to the store (its writes are pushed too).
    var onExternalWrite: () -> Void = {}
    /// Called once, right after the first frame is on screen.
    var onFirstFrame: () -> Void = {}
    /// Called when the panel goes or comes back (direct KMS), with what happened.
    var onPanelChange: (String) -> Void = { _ in }
    /// Called once after `onFirstFrame`: where the kiosk starts its services.
    var afterFirstFrame: () -> Void = {}
    public private(set) var frames = 0
    private var mapping = KeyboardKnobMapping()
    private var lastDrawn: KioskState?
    /// The sync badge as the last frame drew it.
    private var lastBadge: SyncBadge?
    /// Store changes become one reload per interval (a burst of remote scores, one reshuffle).
    private var reloads = ReloadCoalescer<KioskInbox.StoreChange>()
    /// Input drawn at once, motion at its frame rate, the sync badge's flicker at most 4 times a second.
    private var pacer = RedrawPacer()

    init(session: KioskSession, display: Display, inbox: KioskInbox, clock: any HyzerClock, notifier: SystemdNotifier) {
        self.session = session
        self.display = display
        self.inbox = inbox
        self.clock = clock
        self.notifier = notifier
    }

    private var now: Millis { clock.uptimeMilliseconds }

    /// Runs until the window closes, `.stop` arrives, or `deadline` (clock uptime) passes.
    func run(until deadline: Millis? = nil) {
        defer { notifier.stopping() }
        while true {
            let now = self.now
            if let deadline, now >= deadline { return }
            // Only this thread pings: a loop stuck anywhere (a hung driver, a deadlock) stops
            // the pings, and systemd restarts the kiosk.
            let watchdogDue = notifier.keepAlive(now: now)
            guard drainInbox(now: now) else { return }
            reloadIfDue(now: now)
            if let due = session.state.nextWakeUp(after: now), due <= now {
                session.send(.tick, now: now)
            }
            drawIfNeeded(now: now)
            // The name wheel's index, let go back on the board, is freed once the frame kept
            // here no longer holds it; its pages would otherwise stay resident in malloc's heap.
            if lastDrawn?.nameList === NameLexicon.empty, session.takeNameListRelease() {
                Allocator.returnFreeMemory()
            }
            // While the user decides: the screen a press would open, drawn where nothing shows.
            if let next = session.likelyNext(now: now) { display.warm(next, now: now, wallClock: clock.date) }
            let wake = [
                session.state.nextWakeUp(after: self.now), reloads.dueAt.map { max($0, now) }, pacedRedrawDue, deadline,
                watchdogDue,
            ]
            if !waitForInput(until: wake.compactMap { $0 }.min()) {
                return
            }
        }
    }

    /// After `run` returned: keep the window alive (and answering) until every service
    /// has stopped, so the process leaves only once the group is down.
    func waitForServices() {
        while true {
            if inbox.drain().contains(.servicesEnded) { return }
            // The services' graceful stop takes up to 5 s, inside the watchdog's 10 s, but
            // a slow stop is not a hang.
            notifier.keepAlive(now: now)
            _ = display.waitEvent(timeoutMs: 250)
        }
    }

    /// False when the loop must end.
    private func drainInbox(now: Millis) -> Bool {
        for message in inbox.drain() {
            switch message {
            case .event(let event):
                switch event {
                case .syncChanged, .tick, .dataChanged: break
                default: pacer.noteInput()
                }
                session.send(event, now: now)
            case .storeChanged(let change):
                reloads.noticed(change)
            case .stop:
                return false
            case .servicesEnded:
                break
            }
        }
        return true
    }

    /// One reading of the store for every change noticed since the last one, once due.
    private func reloadIfDue(now: Millis) {
        guard let changes = reloads.take(now: now) else { return }
        // Sync's own commits are also seen by the change monitor: news is "external" (to be
        // pushed) only when no pull came with it, as when each change was read on its own.
        // Another process's write that lands with a pull goes at sync's next round instead.
        let change: KioskInbox.StoreChange = changes.contains(.remote) ? .remote : .external
        if session.reload(change, now: now), change == .external { onExternalWrite() }
    }

    /// When a frame the pacer holds back is due, if one is.
    private var pacedRedrawDue: Millis? {
        pacer.due(changed: showsNews(now: now), frameInterval: session.state.frameInterval(at: now))
    }

    private func showsNews(now: Millis) -> Bool {
        Self.showsNews(session.state, since: lastDrawn, badge: lastBadge, wallClock: clock.date, now: now)
    }

    /// Whether `state` shows anything the frame of `drawn` (its badge `badge`) did not. On
    /// the board a change of the sync indicator alone shows only through its badge: in a
    /// burst each pull stamps a new time and turns it "syncing" and back, and most of those
    /// frames drew the same "Synced just now" in the same colour again (issue 12 item 7).
    /// Other screens may show more of the indicator (a status screen): there it is news.
    static func showsNews(
        _ state: KioskState, since drawn: KioskState?, badge: SyncBadge?, wallClock: Date, now: Millis
    ) -> Bool {
        guard let drawn else { return true }
        guard state != drawn else { return false }
        guard state.sync != drawn.sync, case .board = state.screen else { return true }
        // The state with the drawn indicator put back: anything else that differs is news.
        var rest = state
        rest.handle(.syncChanged(drawn.sync), now: now)
        return rest != drawn || SyncBadge(state.sync, wallClock: wallClock) != badge
    }

    private func drawIfNeeded(now: Millis) {
        let changed = showsNews(now: now)
        let frame = session.state.frameInterval(at: now)
        guard pacer.shouldDraw(changed: changed, frameInterval: frame, now: now) else { return }
        let wallClock = clock.date
        let started = clock.uptimeNanoseconds
        display.draw(session.state, now: now, wallClock: wallClock)
        session.frameTimes.record(nanoseconds: clock.uptimeNanoseconds &- started)
        display.present()
        lastDrawn = session.state
        lastBadge = SyncBadge(session.state.sync, wallClock: wallClock)
        pacer.drew(at: now, moving: frame != nil)
        frames += 1
        if frames == 1 {
            // Type=notify: the kiosk has started once the board shows.
            notifier.ready()
            onFirstFrame()
            afterFirstFrame()
        }
    }

    /// Sleeps in SDL until input or a wake-up, then handles all pending input.
    /// False when the window was closed.
    private func waitForInput(until due: Millis?) -> Bool {
        let timeout = due.map { max(0, $0 - now) } ?? Millis(Int32.max)
        var event = display.waitEvent(timeoutMs: Int(timeout))
        while let current = event {
            if current == .quit { return false }
            handle(current, now: now)
            event = display.waitEvent(timeoutMs: 0)
        }
        return true
    }

    private func handle(_ event: DisplayEvent, now: Millis) {
        if event != .wake { pacer.noteInput() }
        switch event {
        case .quit, .wake:
            break
        case .panel(let change, let resized):
            // The scanout has shown the last frame again on a panel that came back; at
            // another size, the display has remade its frame and the board is laid out again.
            if let resized {
                onPanelChange("\(change): board laid out for \(resized.width)×\(resized.height)")
                session.send(.resized(resized), now: now)
            } else {
                onPanelChange(change)
            }
        case .tap(let x, let y):
            session.send(.touch(x: x, y: y), now: now)
        case .resized(let viewport):
            session.send(.resized(viewport), now: now)
        case .text, .key, .wheel:
            // On the name wheel a keyboard types; elsewhere its keys are the knob, and text is nothing.
            if session.state.screen.takesTyping, let typed = KnobInput.typingEvents(event) {
                for kiosk in typed { session.send(kiosk, now: now) }
                return
            }
            for kiosk in KnobInput.keyboardEvents(event, mapping: &mapping, nowNs: UInt64(max(0, now)) * 1_000_000) {
                session.send(kiosk, now: now)
            }
        }
    }
}
