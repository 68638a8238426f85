import Foundation
import HyzerKit
import KioskCore
import KioskRender

/// Runs a script headless on a virtual clock and writes a PNG of each screen it visits.
public struct ScriptRunner {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    let session: KioskSession
    let display: Display
    let snapshots: URL
    /// Where the kiosk's services post (joining a group with `--server`; syncing and sharing
    /// with phones once in a group); nil runs none.
    let inbox: KioskInbox?
    /// The wall clock behind "synced 2 min ago"; the script's own time is `now`.
    let clock: any HyzerClock
    public private(set) var now: Millis = 0
    public private(set) var written: [URL] = []
    private var lastScreenShot: String?

    public init(
        session: KioskSession, display: Display, snapshots: URL, startingAt now: Millis = 0,
        clock: any HyzerClock = SystemClock(), inbox: KioskInbox? = nil
    ) throws {
        self.session = session
        self.inbox = inbox
        self.clock = clock
        self.display = display
        self.snapshots = snapshots
        self.now = now
        try FileManager.default.createDirectory(at: snapshots, withIntermediateDirectories: true)
    }

    public mutating func run(_ script: KioskScript) throws {
        try autoSnapshot()
        for (line, step) in script.steps {
            deliverPosts()
            switch step {
            case .turn(let n): session.send(.turned(n), now: now)
            case .press: session.send(.pressed, now: now)
            case .longPress: session.send(.longPressed, now: now)
            case .tap(let x, let y): session.send(.touch(x: x, y: y), now: now)
            case .wait(let ms): advance(by: ms)
            case .snapshot(let name): try write(name: name)
            case .expectScreen(let name):
                let actual = session.state.screen.name
                guard actual == name else {
                    throw Failure(description: "script line \(line): expected screen \(name), but the kiosk shows \(actual)")
                }
            case .waitFor(let phase, let seconds):
                try waitFor(phase, seconds: seconds, line: line)
            case .type(let key):
                // As the display loop does: a keyboard types only where typing is taken.
                guard session.state.screen.takesTyping else {
                    throw Failure(
                        description:
                            "script line \(line): nothing types on \(session.state.screen.name) (a keyboard types on name-entry)")
                }
                session.send(.typed(key), now: now)
            }
            if case .snapshot = step { continue }
            try autoSnapshot()
        }
    }

    /// Time passes as it would on the kiosk: every wake-up the machine asks for is
    /// delivered at its instant, and outside writes are noticed.
    mutating func advance(by ms: Millis) {
        let target = now + ms
        while let wake = session.state.nextWakeUp(after: now), wake <= target {
            now = max(wake, now + 1)
            session.send(.tick, now: now)
        }
        now = target
        session.reload(.external, now: now)
        session.send(.tick, now: now)
    }

    /// Delivers what the services post, in real time (a server answers when it answers), with
    /// the script's clock kept in step, until the screen reaches `phase`.
    mutating func waitFor(_ phase: String, seconds: Int, line: Int) throws {
        let step: Millis = 50
        var waited: Millis = 0
        while session.state.screen.phase != phase {
            guard waited < Millis(seconds) * 1_000 else {
                let how = inbox == nil ? " (no services run: give the kiosk --server to join a group)" : ""
                throw Failure(
                    description:
                        "script line \(line): waited \(seconds) s for \(phase), but the kiosk shows \(session.state.screen.phase)\(how)"
                )
            }
            Thread.sleep(forTimeInterval: Double(step) / 1_000)
            waited += step
            advance(by: step)
            deliverPosts()
            try autoSnapshot()
        }
    }

    /// What the services posted since the last step, delivered as the display loop delivers
    /// it between frames: their events to the machine, their commits as a reload.
    mutating func deliverPosts() { deliver(inbox?.drain() ?? []) }

    private mutating func deliver(_ messages: [KioskInbox.Message]) {
        for message in messages {
            switch message {
            case .event(let event): session.send(event, now: now)
            case .storeChanged(let change): _ = session.reload(change, now: now)
            case .stop, .servicesEnded: break
            }
        }
    }

    /// Waits in real time, up to `seconds`, for the services' first post (the sync service's
    /// first state, which says the kiosk is in a group), and delivers it: a script's first
    /// steps then see the kiosk as a person at it would a moment after it started.
    public mutating func awaitFirstPost(seconds: Double) {
        guard let inbox else { return }
        let deadline = Date().addingTimeInterval(seconds)
        var posts = inbox.drain()
        while posts.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.02)
            posts = inbox.drain()
        }
        deliver(posts)
    }

    private mutating func autoSnapshot() throws {
        let name = session.state.screen.name
        guard name != lastScreenShot else { return }
        lastScreenShot = name
        try write(name: name)
    }

    /// Frames are drawn as they will look once motion has settled (arrows still showing).
    private mutating func write(name: String) throws {
        let url = snapshots.appendingPathComponent(String(format: "%03d-%@.png", written.count + 1, name))
        display.draw(session.state, now: now + MotionTokens.reshuffleBudget + 100, wallClock: clock.date)
        try display.writePNG(to: url)
        written.append(url)
    }
}
