import Foundation
import HyzerKit
import KioskCore
import Testing

@testable import KioskRender

/// Issue 13 item 4: the board drawn straight onto a console's panel (DRM dumb buffers, no GL).
/// These machines have no DRM device: the choices and the pixel copy are checked here, and
/// the real scanout in the emulated appliance (board/appliance-test: the board on QEMU's
/// screen, the panel unplugged and plugged back).
@Suite struct KMSScanoutTests {
    typealias Connector = KMSScanout.Connector
    typealias Encoder = KMSScanout.Encoder

    static let hd = KMSScanout.ModeSize(width: 1920, height: 1080, preferred: true)
    static let hdReady = KMSScanout.ModeSize(width: 1280, height: 720, preferred: false)

    @Test func theConnectedPanelItsPreferredModeAndTheCrtcItsEncoderDrives() {
        let connectors = [
            Connector(id: 40, connected: false, modes: [], currentEncoder: 0, encoders: [30]),
            Connector(id: 41, connected: true, modes: [Self.hdReady, Self.hd], currentEncoder: 31, encoders: [31]),
        ]
        let encoders = [
            Encoder(id: 30, crtc: 0, possibleCrtcs: 0b01), Encoder(id: 31, crtc: 21, possibleCrtcs: 0b10),
        ]
        let choice = KMSScanout.choose(connectors: connectors, encoders: encoders, crtcs: [20, 21])
        #expect(choice == KMSScanout.Choice(connector: 41, mode: 1, crtc: 21))
    }

    @Test func anUnlitPanelGetsTheFirstCrtcItsEncodersMayDrive() {
        // After an unplug the encoder drives nothing: the panel back needs a CRTC by its mask.
        let connectors = [Connector(id: 41, connected: true, modes: [Self.hd], currentEncoder: 0, encoders: [31])]
        let encoders = [Encoder(id: 31, crtc: 0, possibleCrtcs: 0b10)]
        #expect(
            KMSScanout.choose(connectors: connectors, encoders: encoders, crtcs: [20, 21])
                == KMSScanout.Choice(connector: 41, mode: 0, crtc: 21))
        // No CRTC it may use: no choice rather than a mode set the kernel refuses.
        #expect(
            KMSScanout.choose(
                connectors: connectors, encoders: [Encoder(id: 31, crtc: 0, possibleCrtcs: 0b100)], crtcs: [20, 21])
                == nil)
    }

    @Test func aPanelBackKeepsTheSizeTheBoardWasDrawnFor() {
        let connectors = [Connector(id: 41, connected: true, modes: [Self.hd, Self.hdReady], currentEncoder: 0, encoders: [31])]
        let encoders = [Encoder(id: 31, crtc: 0, possibleCrtcs: 1)]
        let kept = KMSScanout.choose(connectors: connectors, encoders: encoders, crtcs: [20], keepSize: (1280, 720))
        #expect(kept?.mode == 1)
        // A size the panel does not offer: its preferred mode (the frame is centred or cut).
        let other = KMSScanout.choose(connectors: connectors, encoders: encoders, crtcs: [20], keepSize: (800, 480))
        #expect(other?.mode == 0)
    }

    @Test func noConnectedPanelNoChoice() {
        let connectors = [
            Connector(id: 40, connected: false, modes: [Self.hd], currentEncoder: 0, encoders: [30]),
            // Connected but without modes (no EDID yet): nothing to set.
            Connector(id: 41, connected: true, modes: [], currentEncoder: 0, encoders: [30]),
        ]
        #expect(
            KMSScanout.choose(connectors: connectors, encoders: [Encoder(id: 30, crtc: 0, possibleCrtcs: 1)], crtcs: [20]) == nil)
        #expect(KMSScanout.choose(connectors: [], encoders: [], crtcs: []) == nil, "a render-only card")
    }

    @Test func aDRMChangeUeventMakesTheScanoutLookAgain() {
        func message(_ fields: [String]) -> [UInt8] { Array(fields.joined(separator: "\0").utf8) + [0] }
        // As a driver's hotplug interrupt sends it, and as `echo change > .../card0/uevent` does.
        let hotplug = message([
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change",
            "DEVPATH=/devices/pci0000:00/0000:00:02.0/drm/card0", "SUBSYSTEM=drm", "HOTPLUG=1", "DEVNAME=dri/card0",
            "DEVTYPE=drm_minor", "SEQNUM=2291", "MAJOR=226", "MINOR=0",
        ])
        #expect(KMSScanout.announcesConnectorChange(hotplug))
        let synthetic = message([
            "change@/devices/pci0000:00/0000:00:02.0/drm/card0", "ACTION=change", "SUBSYSTEM=drm",
            "SYNTH_UUID=0", "DEVNAME=dri/card0",
        ])
        #expect(KMSScanout.announcesConnectorChange(synthetic))
        // A card appearing, another subsystem's change, and nothing.
        #expect(!KMSScanout.announcesConnectorChange(message(["add@/devices/x/drm/card1", "ACTION=add", "SUBSYSTEM=drm"])))
        #expect(!KMSScanout.announcesConnectorChange(message(["change@/devices/usb1/1-1", "ACTION=change", "SUBSYSTEM=usb"])))
        #expect(!KMSScanout.announcesConnectorChange([UInt8]()))
    }

    /// Runs `ScanoutCopy` from a frame whose pixels are their own (x, y) to a target filled
    /// with 0xFFFFFFFF (a padded pitch on both sides), and returns the target's rows.
    func copied(width: Int, height: Int, rotate: Bool, to targetWidth: Int, _ targetHeight: Int) -> [[UInt32]] {
        let sourcePitch = (width + 3) * 4
        let targetPitch = (targetWidth + 2) * 4
        var source = [UInt32](repeating: 0xDEAD, count: sourcePitch / 4 * height)
        for y in 0..<height { for x in 0..<width { source[y * sourcePitch / 4 + x] = UInt32(x << 8 | y) } }
        var target = [UInt32](repeating: 0xFFFF_FFFF, count: targetPitch / 4 * targetHeight)
        source.withUnsafeBytes { from in
            target.withUnsafeMutableBytes { to in
                ScanoutCopy.copy(
                    from: from.baseAddress!, pitch: sourcePitch, width: width, height: height, rotate: rotate,
                    to: to.baseAddress!, pitch: targetPitch, width: targetWidth, height: targetHeight)
            }
        }
        return (0..<targetHeight).map { y in Array(target[(y * targetPitch / 4)..<(y * targetPitch / 4 + targetWidth)]) }
    }

    @Test func aFrameOfThePanelsSizeIsCopiedRowByRow() {
        let rows = copied(width: 3, height: 2, rotate: false, to: 3, 2)
        #expect(rows == [[0x000, 0x100, 0x200], [0x001, 0x101, 0x201]])
    }

    @Test func aSmallerFrameIsCentredOnBlackAndALargerOneCut() {
        let centred = copied(width: 2, height: 1, rotate: false, to: 4, 3)
        #expect(centred == [[0, 0, 0, 0], [0, 0x000, 0x100, 0], [0, 0, 0, 0]])
        let cut = copied(width: 4, height: 3, rotate: false, to: 2, 1)
        #expect(cut == [[0x101, 0x201]], "the middle of the frame")
    }

    @Test func aPortraitFrameTurnsClockwiseOntoALandscapePanel() {
        // Portrait 2 wide, 3 tall: its top-left lands top-right, its bottom-left top-left,
        // as SDL_RenderCopyEx's 90° turns the window path's frame (and as taps are undone).
        let rows = copied(width: 2, height: 3, rotate: true, to: 3, 2)
        #expect(rows == [[0x002, 0x001, 0x000], [0x102, 0x101, 0x100]])
    }

    @Test func aMissingCardIsAClearErrorNotACrash() {
        let error = #expect(throws: RenderError.self) {
            _ = try Display(
                mode: .kms(card: "/dev/dri/by-path/no-such-card"), size: Viewport(width: 800, height: 480),
                fontsDirectory: URL(fileURLWithPath: "/nonexistent"))
        }
        #expect(error?.description.contains("KMS: cannot open /dev/dri/by-path/no-such-card") == true)
    }

    @Test func onlyCardsWithConnectorsAreDisplayCards() throws {
        // A file named like a card that is no DRM device is passed over, not opened as one.
        let dri = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID())")
        try FileManager.default.createDirectory(at: dri, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dri) }
        FileManager.default.createFile(atPath: dri.appendingPathComponent("card0").path, contents: Data(count: 64))
        #expect(KMSScanout.displayCards(in: dri.path).isEmpty)
        #expect(Display.consoleCard(configured: "/dev/dri/by-path/platform-gpu-card") == "/dev/dri/by-path/platform-gpu-card")
    }

    @Test func theFrameInMemoryIsThePanelsSizeTurnedToPortraitWhenRotated() {
        let configured = Viewport(width: 1280, height: 720)
        func frame(_ panel: (Int, Int)?, rotate: Bool) -> Viewport {
            Display.offscreenFrame(panel: panel, configured: configured, rotate: rotate)
        }
        #expect(frame((1024, 768), rotate: false) == Viewport(width: 1024, height: 768))
        #expect(frame((1024, 768), rotate: true) == Viewport(width: 768, height: 1024))
        #expect(frame(nil, rotate: false) == configured, "no panel yet")
        #expect(frame(nil, rotate: true) == Viewport(width: 720, height: 1280))
    }

    /// Issue 34: trixie's bochs-drm brought a replugged panel back at 1024×768, not the
    /// 1280×800 it left at, and the kiosk showed the middle of its old frame. A panel back at
    /// another size now gets a frame remade at that size, and the board laid out for it: the
    /// same pixels a kiosk started on that panel draws. Negative controls: the old frame cut
    /// to the new panel (what the scanout showed before) differs from it; and with
    /// `resizeOffscreenFrame` changing only the viewport, not the frame, this fails (a
    /// 1280×800 frame, 1.5 M bytes off the board laid out for 1024×768).
    @Test func aFrameRemadeForAPanelBackAtAnotherSizeIsTheBoardLaidOutForIt() throws {
        let assets = try #require(HyzerPaths.assetsDirectory(), "cannot find assets/")
        let fonts = assets.appendingPathComponent("fonts")
        let (before, after) = (Viewport(width: 1280, height: 800), Viewport(width: 1024, height: 768))
        let wallClock = Date(timeIntervalSince1970: 1_800_000_100)
        func board(_ size: Viewport) throws -> KioskState {
            let players = try ["Avery", "Blake", "Casey", "Devon"].map { try Player(displayName: $0) }
            let course = try Course(name: "Riverside Long Loop", holeCount: 9)
            var round = Round(
                courseID: course.id, organizerID: players[0].id, createdAt: Date(timeIntervalSince1970: 1_800_000_000))
            for p in players { try round.add(.registered(p)) }
            try round.start(at: Date(timeIntervalSince1970: 1_800_000_060))
            var state = KioskState(viewport: size)
            state.handle(
                .dataChanged(
                    KioskData(round: RoundSnapshot(round: round, course: course, events: []), courses: [course]),
                    .localScore),
                now: 60_000)
            return state
        }
        let display = try Display(mode: .headless, size: before, fontsDirectory: fonts)
        var state = try board(before)
        display.draw(state, now: 60_000, wallClock: wallClock)
        let old = try display.capture()
        #expect((old.width, old.height) == (1280, 800))
        let textsBefore = display.rasterizations

        #expect(!display.resizeOffscreenFrame(to: before), "the same size: nothing to remake")
        #expect(display.resizeOffscreenFrame(to: after))
        #expect(display.viewport == after)
        state.handle(.resized(after), now: 60_000)
        display.draw(state, now: 60_000, wallClock: wallClock)
        let remade = try display.capture()
        #expect(display.rasterizations > textsBefore, "the old renderer's text textures went with it")

        let fresh = try Display(mode: .headless, size: after, fontsDirectory: fonts)
        fresh.draw(try board(after), now: 60_000, wallClock: wallClock)
        let reference = try fresh.capture()
        #expect((remade.width, remade.height) == (reference.width, reference.height))
        // Counted, not compared as arrays: a failing #expect on two 2.4 MB arrays diffs them
        // element by element for minutes.
        #expect(Self.differingBytes(remade.rgb, reference.rgb) == 0, "the board laid out for 1024×768")

        // The old frame's middle, 1024×768 of it, as the scanout cut it onto the new panel.
        let (left, top) = ((old.width - after.width) / 2, (old.height - after.height) / 2)
        var cut: [UInt8] = []
        for y in 0..<after.height {
            let start: Int = ((top + y) * old.width + left) * 3
            cut += old.rgb[start..<(start + after.width * 3)]
        }
        #expect(
            Self.differingBytes(cut, reference.rgb) > reference.rgb.count / 100,
            "the cut old frame is not the board laid out for the panel")
    }

    /// Bytes that differ between two frames (every byte of the longer one's tail too).
    static func differingBytes(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { $0 + ($1.0 == $1.1 ? 0 : 1) } + abs(a.count - b.count)
    }
}
