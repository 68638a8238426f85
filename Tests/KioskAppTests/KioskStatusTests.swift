import Foundation
import HyzerKit
import HyzerSync
import KioskCore
import KioskHardware
import KioskRender
import SQLiteFaults
import Testing

@testable import HyzerStore
@testable import KioskApp

/// Issue 9 item 6: the status screen's facts, gathered by the shell from real files, and
/// the screen drawn headless at the largest and the smallest supported panel.
@Suite struct KioskStatusTests {
    /// Opens the status screen through the menu, as the knob would.
    static func openStatus(_ session: KioskSession, now: Millis) {
        session.send(.longPressed, now: now)
        session.send(.turned(session.state.menuItems.firstIndex(of: .status)!), now: now)
        session.send(.pressed, now: now)
    }

    /// Every file of both databases on disk, by listing the directory (not by the gatherer's names).
    static func filesOnDisk(_ dir: URL) throws -> Int64 {
        try FileManager.default.contentsOfDirectory(atPath: dir.path)
            .filter { $0.hasPrefix(HyzerDatabase.domainFileName) || $0.hasPrefix(HyzerDatabase.operationalFileName) }
            .reduce(Int64(0)) { sum, name in
                let size = try FileManager.default.attributesOfItem(atPath: dir.appendingPathComponent(name).path)[.size]
                return sum + ((size as? NSNumber)?.int64Value ?? 0)
            }
    }

    @Test func theStatusReportsTheRealDatabaseSizeAndFreeSpace() throws {
        let f = try KioskSessionTests.Fixture(onDisk: true)
        Self.openStatus(f.session, now: 10)
        let first = try #require(f.session.state.status, "opening the screen gathered the facts")
        #expect(first.storage.directory == f.dir.path)
        let size = try #require(first.storage.databaseBytes)
        #expect(size == (try Self.filesOnDisk(f.dir)))
        #expect(size > 0)
        let free = try #require(first.storage.freeBytes)
        let system = try #require(
            (try FileManager.default.attributesOfFileSystem(forPath: f.dir.path)[.systemFreeSize] as? NSNumber)?.int64Value)
        // Another engineer's build may write meanwhile: the same volume, give or take 1 GB.
        #expect(abs(free - system) < 1_000_000_000, "free \(free) vs the file system's \(system)")
        #expect(first.storage.warnBelow == Volume.warnBelow, "the store's own threshold")
        #expect(first.group == nil, "not enrolled")
        #expect(first.display == nil, "no display open: none is made up")

        // The database grows; the next refresh (2 s later, the screen's own tick) says so.
        for n in 0..<300 { try f.store.write(.savePlayer(try Player(displayName: "Player \(n) with a long name"))) }
        f.session.send(.tick, now: 10 + Screen.Status.refreshInterval)
        let grown = try #require(f.session.state.status?.storage.databaseBytes)
        #expect(grown > size)
        #expect(grown == (try Self.filesOnDisk(f.dir)))
    }

    @Test func anEnrolledKioskShowsItsGroupAndOutbox() throws {
        let f = try KioskSessionTests.Fixture(onDisk: true)
        let link = ServerLink(
            serverURL: "http://127.0.0.1:8630", groupID: "g1", groupName: "Tuesday league", deviceID: f.store.deviceID,
            deviceName: "Clubhouse kiosk", deviceToken: "t", enrolledAt: Date())
        try link.save(to: f.dir)
        try f.store.write(
            .recordScore(
                ScoreEntry(
                    roundID: f.round.id, participantID: f.round.participants[0].id, hole: 1, strokes: 3,
                    reportedBy: f.round.participants[0].id)))
        Self.openStatus(f.session, now: 20)
        let group = try #require(f.session.state.status?.group)
        #expect(group.server == "http://127.0.0.1:8630")
        #expect(group.group == "Tuesday league")
        #expect(group.deviceName == "Clubhouse kiosk")
        #expect(group.pending == (try f.store.read(.pendingSyncCount)))
        #expect(group.pending > 0, "the round and the score wait for the server")
        #expect(group.refused == 0)
        #expect(group.epoch == nil, "never pulled")
    }

    @Test func theFrameRingKeepsTheLastFramesAndTheirPercentiles() {
        var frames = FrameTimes()
        #expect(frames.percentile(0.5) == nil)
        for ms in 1...100 { frames.record(nanoseconds: UInt64(ms) * 1_000_000) }
        #expect(frames.percentile(0.5) == 50)
        #expect(frames.percentile(0.99) == 99)
        // Weeks of frames: the ring stays at its capacity and forgets the oldest.
        for _ in 0..<(3 * FrameTimes.capacity) { frames.record(nanoseconds: 4_000_000) }
        #expect(frames.count == FrameTimes.capacity)
        #expect(frames.percentile(0.99) == 4)
    }

    /// A knob that stops mid-run (the chip went away) keeps its backend and lines on the
    /// status screen, with the driver's own problem and fix.
    @Test func aKnobFailureMidRunReachesTheStatusWithItsFix() throws {
        let f = try KioskSessionTests.Fixture(onDisk: true)
        let knob = f.session.statusGatherer.knob
        knob.set(KioskStatus.Knob(backend: "gpiod", lines: "encoder A GPIO17 (gpiochip0:17)"))
        knob.failed(
            GpioError(
                kind: .readFailed, lines: ["encoder A GPIO17"], chip: "/dev/gpiochip0", problem: "reading events failed",
                fix: "check the wiring"))
        Self.openStatus(f.session, now: 10)
        let shown = try #require(f.session.state.status?.knob)
        #expect(
            shown
                == KioskStatus.Knob(
                    backend: "gpiod", lines: "encoder A GPIO17 (gpiochip0:17)", error: "reading events failed",
                    fix: "check the wiring"))
    }

    /// The whole path in a running (headless) kiosk: the display loop times its frames, the
    /// status screen's own refresh 2 s later reports them with the display it runs on.
    @Test func theRunningKioskReportsItsDisplayAndFrameTimes() throws {
        let configuration = KioskConfiguration.headlessTest("status-loop")
        let dir = configuration.dataDirectory
        defer { try? FileManager.default.removeItem(at: dir) }
        let kiosk = try buildKiosk(configuration)
        let index = try #require(kiosk.session.state.menuItems.firstIndex(of: .status))
        for event in [KioskEvent.longPressed, .turned(index), .pressed] { kiosk.inbox.post(.event(event)) }
        let start = configuration.clock.uptimeMilliseconds
        kiosk.loop.run(until: start + Screen.Status.refreshInterval + 500)
        #expect(kiosk.session.state.screen.name == "status")
        let status = try #require(kiosk.session.state.status)
        let display = try #require(status.display)
        #expect(display.driver == "dummy")
        #expect(display.renderer == "software")
        #expect(display.width == 800 && display.height == 480)
        #expect(display.frames >= 1, "the first frame was timed before the refresh")
        #expect((display.drawP50 ?? 0) > 0)
        #expect(status.knob.backend == "keyboard")
        #expect(status.storage.directory == dir.path)
    }

    @Test func theAddressesLeaveOutLoopback() {
        let addresses = KioskStatusGatherer.addresses()
        #expect(!addresses.contains("127.0.0.1"))
        #expect(!addresses.contains("::1"))
    }

    /// Draws the screen with every kind of line (a long fix that wraps, a storage fault, low
    /// space) at 1920×1080 and at the Pi's 800×480 panel, and checks that the facts stay
    /// above the buttons: from the end of the fact area down, the frame is pixel for pixel
    /// the one drawn with no facts at all (the facts are drawn after the buttons, so any
    /// that ran over would show). Negative control: with the fitting loop of
    /// `paintStatusFacts` made to stop at once and its starting rows taller (0.9 of a list
    /// row), this fails at both sizes (16,498 and 62,528 bytes differ). The PNGs are left in the temporary directory to look at.
    @Test(arguments: [Viewport(width: 1920, height: 1080), Viewport(width: 800, height: 480)])
    func theStatusScreenDrawsWithoutOverlap(viewport: Viewport) throws {
        let assets = try #require(HyzerPaths.assetsDirectory())
        let display = try Display(mode: .headless, size: viewport, fontsDirectory: assets.appendingPathComponent("fonts"))
        var state = KioskState(viewport: display.viewport)
        state.handle(.longPressed, now: 0)
        state.handle(.turned(state.menuItems.firstIndex(of: .status)!), now: 0)
        state.handle(.pressed, now: 0)
        state.handle(.syncChanged(SyncIndicator(state: .idle, lastSynced: Date(timeIntervalSince1970: 1_800_000_000))), now: 0)
        state.handle(.storageChanged("Storage is read-only: scores cannot be saved"), now: 0)
        state.handle(
            .statusChanged(
                KioskStatus(
                    group: .init(
                        server: "http://clubhouse.local:8630", group: "Tuesday league", deviceName: "Clubhouse kiosk",
                        pending: 12, refused: 1, epoch: "7f3c2a"),
                    knob: .init(
                        backend: "keyboard (GPIO failed)", lines: "/dev/gpiochip0 [pinctrl-bcm2711]",
                        error: "permission denied opening /dev/gpiochip0",
                        fix:
                            "add the user to the `gpio` group (sudo usermod -aG gpio $USER, then log in again) and install board/99-gpio.rules so /dev/gpiochip* belongs to that group"
                    ),
                    display: .init(
                        driver: "KMSDRM", renderer: "opengles2", width: viewport.width, height: viewport.height, drawP50: 3.2,
                        drawP99: 11.4, frames: 240),
                    storage: .init(
                        directory: "/var/lib/hyzer", databaseBytes: 48_200_000, freeBytes: 31_000_000, warnBelow: 50_000_000),
                    version: KioskStatusGatherer.version, addresses: ["192.168.1.20", "fd00::1c2"])), now: 0)
        #expect(state.screen.name == "status")
        display.draw(state, now: 0, wallClock: Date(timeIntervalSince1970: 1_800_000_300))
        let png = FileManager.default.temporaryDirectory.appendingPathComponent(
            "hyzer-status-\(viewport.width)x\(viewport.height).png")
        try display.writePNG(to: png)

        let frame = try display.capture()
        let layout = Layout(viewport: display.viewport)
        let buttons = layout.statusButtons(count: StatusItem.allCases.count)
        func pixel(_ x: Int, _ y: Int) -> RGB {
            let i = (y * frame.width + x) * 3
            return RGB(UInt32(frame.rgb[i]) << 16 | UInt32(frame.rgb[i + 1]) << 8 | UInt32(frame.rgb[i + 2]))
        }
        // The same screen before any facts arrived: title, buttons and footer only.
        var bare = KioskState(viewport: display.viewport)
        // (Its own menu: a kiosk in no group has "Join a group" before "Status".)
        for event in [KioskEvent.longPressed, .turned(bare.menuItems.firstIndex(of: .status)!), .pressed] {
            bare.handle(event, now: 0)
        }
        display.draw(bare, now: 0, wallClock: Date(timeIntervalSince1970: 1_800_000_300))
        let reference = try display.capture()
        let below = Int(layout.statusFacts.maxY.rounded(.up)) * frame.width * 3
        var differing = 0
        for i in below..<frame.rgb.count where frame.rgb[i] != reference.rgb[i] { differing += 1 }
        #expect(differing == 0, "\(differing) bytes differ below the fact area: facts ran over the buttons")
        // Something is drawn in the facts, and the selected button is outlined.
        let facts = layout.statusFacts
        var inked = 0
        for y in stride(from: Int(facts.y), to: Int(facts.maxY), by: 2) {
            for x in stride(from: Int(facts.x), to: Int(facts.maxX), by: 2) where pixel(x, y) != Palette.background {
                inked += 1
            }
        }
        #expect(inked > 1_000, "the facts are drawn")
        #expect(pixel(Int(buttons[0].midX), Int(buttons[0].y + 1)) == Palette.accent, "the selected button is outlined")
    }
}
