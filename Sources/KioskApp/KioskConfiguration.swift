import Foundation
import HyzerKit
import HyzerSystem
import KioskCore
import KioskHardware
import KioskRender
import Logging

/// Everything the kiosk is built from: the executable maps its flags onto this, tests and
/// benchmarks fill it in directly.
public struct KioskConfiguration: Sendable {
    public enum Knob: String, Sendable, CaseIterable {
        /// The encoder when a GPIO chip exists, else the keyboard.
        case auto
        case gpiod
        case keyboard
    }

    /// How a full-screen board reaches a console's panel.
    public enum Output: String, Sendable, CaseIterable {
        /// Direct KMS on a console (no X11 or Wayland session), SDL's window in a session.
        case auto
        /// Direct KMS: DRM dumb buffers, no GL (`Display.Mode.kms`).
        case kms
        /// SDL's own drivers everywhere (on a console, KMSDRM through GBM, EGL and Mesa).
        case sdl
    }

    /// The organizer code's lock (issue 35; kiosk.conf's [lock]).
    public struct Lock: Sendable {
        /// Off for a private garage kiosk: nothing asks for a code.
        public var enabled: Bool
        /// kiosk.conf's `lock.code_hash`; nil: the code chosen at the kiosk, or asked for
        /// at the first locked action.
        public var code: OrganizerCode?
        public init(enabled: Bool = true, code: OrganizerCode? = nil) { (self.enabled, self.code) = (enabled, code) }
    }

    public var dataDirectory: URL
    public var assetsDirectory: URL?
    public var display: Display.Mode = .window(fullscreen: true)
    public var output: Output = .auto
    public var size = Viewport(width: 1280, height: 720)
    public var rotate = false
    /// Nil keeps the setting saved from the menu.
    public var reduceMotion: Bool?
    /// How long each page of a board that does not fit stays; nil: `MotionTokens.boardPageInterval`.
    public var boardPageInterval: Millis?
    /// Rotating rows on a board page; nil: as many as fit at the minimum sizes.
    public var boardRowsPerPage: Int?
    /// Idle dimming: after this long with nobody at the knob and no new score the screen
    /// dims to `dimLevel`; nil never dims.
    public var dimAfter: Millis? = 30 * 60_000
    public var dimLevel = KioskSettings.defaultDimLevel
    public var lock = Lock()
    /// Create a demo round when none is active (`make run`).
    public var demo = false
    public var knob: Knob = .auto
    /// The encoder's and buzzer's lines (kiosk.conf's [knob] and [buzzer]).
    public var gpio = GpiodKnobConfig()
    /// How the encoder's edges become detents (full or half cycles, direction).
    public var decoding = KnobConfig()
    /// The DRM card to draw on, by a stable path (`/dev/dri/by-path/…-card`); nil lets SDL
    /// pick (usually card0).
    public var drmCard: String?
    /// The group server "Join a group" asks for a code (`--server`); nil: the join screen
    /// says how to give one.
    public var server: String?
    /// The private CA (PEM) of an https group server (`--ca`), kept with the link on joining.
    public var serverCA: String?
    public var clock: any HyzerClock = SystemClock()
    public var logger = Logger(label: "hyzer.kiosk")
    /// systemd's notify socket and watchdog, from the environment systemd gives the unit.
    public var notifier = SystemdNotifier()

    public init(dataDirectory: URL, assetsDirectory: URL? = HyzerPaths.assetsDirectory()) {
        self.dataDirectory = dataDirectory
        self.assetsDirectory = assetsDirectory
    }
}
