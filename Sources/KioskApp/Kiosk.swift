import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSystem
import KioskCore
import KioskHardware
import KioskRender
import Logging
import ServiceLifecycle
import Synchronization
import UnixSignals

/// The parts of a running kiosk, composed by `buildKiosk` (Hummingbird's
/// `buildApplication` habit): a session on the main thread, and the services around it.
public final class Kiosk {
    public let session: KioskSession
    public let display: Display
    public let inbox: KioskInbox
    /// The long-running parts: the display loop's stand-in, the knob, the change
    /// monitor, and sync when the kiosk is enrolled.
    public let services: [ServiceGroupConfiguration.ServiceConfiguration]
    public let configuration: KioskConfiguration
    let loop: DisplayLoop
    let loopEnded: Latch

    /// Called once, on the main thread, right after the first frame is on screen.
    public var onFirstFrame: () -> Void {
        get { loop.onFirstFrame }
        set { loop.onFirstFrame = newValue }
    }

    /// Called once, on the main thread, when the display loop ends and before the services
    /// are stopped: what the kiosk used while it ran, without its shutdown.
    public var onLoopEnded: () -> Void = {}

    public var frames: Int { loop.frames }

    init(
        configuration: KioskConfiguration, session: KioskSession, display: Display, inbox: KioskInbox,
        services: [ServiceGroupConfiguration.ServiceConfiguration], loop: DisplayLoop, loopEnded: Latch
    ) {
        self.configuration = configuration
        self.session = session
        self.display = display
        self.inbox = inbox
        self.services = services
        self.loop = loop
        self.loopEnded = loopEnded
    }

    /// Runs the kiosk on the calling thread, which must be the main thread (SDL's), until
    /// the window closes, SIGTERM or SIGINT, or `seconds` pass. Returns once every service
    /// has stopped.
    public func run(seconds: Double? = nil) throws {
        let deadline = seconds.map { configuration.clock.uptimeMilliseconds + Millis($0 * 1000) }
        let group = ServiceGroup(
            configuration: {
                var config = ServiceGroupConfiguration(
                    services: services, gracefulShutdownSignals: [.sigterm, .sigint],
                    logger: configuration.logger)
                // Well inside systemd's stop timeout: a service that ignores shutdown is cancelled.
                config.maximumGracefulShutdownDuration = .seconds(5)
                return config
            }())
        let failure = Mutex<(any Error)?>(nil)
        let inbox = inbox
        // The services start once the first frame is on screen: it needs none of them
        // (the store is read, the display is up), and on two cores their start-up
        // (signal handling, the first look at the store, sync) only competes with it.
        // A loop that ends before drawing lets them start on its way out, so that the
        // group's end below is always reported.
        let firstFrame = Latch()
        loop.afterFirstFrame = { firstFrame.signal() }
        // The journal's first word on a kiosk that shows nothing: which display it found.
        configuration.logger.info(
            "display ready",
            metadata: [
                "driver": "\(display.videoDriver)", "renderer": "\(display.rendererName)",
                "size": "\(display.viewport.width)x\(display.viewport.height)",
            ])
        Task {
            await firstFrame.wait()
            do { try await group.run() } catch { failure.withLock { $0 = error } }
            inbox.post(.servicesEnded)
        }
        loop.run(until: deadline)
        onLoopEnded()
        firstFrame.signal()
        loopEnded.signal()
        loop.waitForServices()
        if let error = failure.withLock({ $0 }) { throw error }
    }
}

/// Opens the store, the display and the knob, and composes the services. Call on the
/// main thread: SDL's window is created here.
public func buildKiosk(_ configuration: KioskConfiguration) throws -> Kiosk {
    let clock = configuration.clock
    unblockShutdownSignals()
    let (store, display, session) = try openScreen(configuration)
    let monitor = try ChangeMonitor(database: store)
    session.changeMonitor = monitor
    let inbox = KioskInbox()
    inbox.setWaker(display.waker)
    let loop = DisplayLoop(
        session: session, display: display, inbox: inbox, clock: clock, notifier: configuration.notifier)
    loop.onPanelChange = { [logger = configuration.logger] change in logger.notice("\(change)") }
    if let panel = display.panel {
        configuration.logger.info(
            "display: direct KMS on \(panel.card), \(panel.width == 0 ? "no panel connected yet" : "\(panel.width)×\(panel.height)")"
        )
    }
    let loopEnded = Latch()

    // Every service is named: without a name, swift-service-lifecycle names it
    // `"\(service)"`, which reflects the whole struct through the runtime's conformance
    // tables: 15.5 M instructions on the main thread before the first frame (callgrind),
    // a tenth of all the kiosk runs before it.
    var services: [ServiceGroupConfiguration.ServiceConfiguration] = [
        // The display leads: when its loop ends (window closed, run time over), the kiosk stops.
        .init(
            service: DisplayService(inbox: inbox, ended: loopEnded),
            successTerminationBehavior: .gracefullyShutdownGroup, failureTerminationBehavior: .gracefullyShutdownGroup,
            serviceName: "display"),
        .init(
            service: ChangeMonitorService(monitor: monitor, inbox: inbox, clock: clock, directory: store.directory),
            failureTerminationBehavior: .ignore, serviceName: "change-monitor"),
    ]
    if let driver = knobDriver(configuration, session: session) {
        session.buzz = { pattern in
            if let mapped = BuzzerPattern(rawValue: pattern.rawValue) { driver.buzzer.play(mapped) }
        }
        // A knob that fails mid-run (the chip went away) leaves the kiosk on the keyboard.
        services.append(
            .init(
                service: KnobService(driver: driver, inbox: inbox, report: session.statusGatherer.knob),
                failureTerminationBehavior: .ignore,
                serviceName: "knob"))
    }
    // Sync with the group server when this kiosk is enrolled (`hyzer device enroll`), or
    // from the moment it joins one from the menu (`JoinService`).
    let sync = SyncSlot()
    session.onLocalWrite = { sync.localWrite() }
    // Another process's writes are pushed too.
    loop.onExternalWrite = { sync.localWrite() }
    if let service = try SyncService(store: store, inbox: inbox, clock: clock) {
        sync.set(service)
        services.append(.init(service: service, serviceName: "sync"))
    }
    if let assets = configuration.assetsDirectory {
        let names = NameListService(file: nameListFile(assets), inbox: inbox, logger: configuration.logger)
        session.onNameListNeeded = { names.requestList() }
        services.append(
            .init(
                service: names, successTerminationBehavior: .ignore, failureTerminationBehavior: .ignore,
                serviceName: "name-list"))
    }
    // QR codes for phones: "Add a phone" (an invite) and the summary card's link.
    let share = ShareService(store: store, inbox: inbox, clock: configuration.clock, logger: configuration.logger)
    session.share = share
    services.append(.init(service: share, failureTerminationBehavior: .ignore, serviceName: "share"))
    if let server = configuration.server {
        let join = JoinService(
            server: server, store: store, inbox: inbox, clock: configuration.clock, sync: sync, logger: configuration.logger,
            ca: configuration.serverCA)
        session.onJoin = { join.requestCode() }
        services.append(.init(service: join, failureTerminationBehavior: .ignore, serviceName: "join"))
    }
    return Kiosk(
        configuration: configuration, session: session, display: display, inbox: inbox,
        services: services, loop: loop, loopEnded: loopEnded)
}

/// The bundled first names behind the name wheel (assets/NAMES.md says where they come from).
private func nameListFile(_ assets: URL) -> URL { assets.appendingPathComponent("first-names.tsv") }

/// The store (with the demo round when asked for), the display, and the session that binds
/// the screens to the store: what both a running kiosk and a headless script need. The
/// store keeps time on the configuration's clock, as everything else the kiosk builds does:
/// what it stores (a score's, a round's times) is that clock's `date`.
private func openScreen(_ configuration: KioskConfiguration) throws -> (HyzerDatabase, Display, KioskSession) {
    let store = try HyzerDatabase.open(
        dataDirectory: configuration.dataDirectory, assets: configuration.assetsDirectory, clock: configuration.clock)
    for recovery in store.recoveries { configuration.logger.critical("\(recovery)") }
    if configuration.demo, try store.read(.activeRounds).isEmpty {
        try store.createDemoRound()
    }
    guard let assets = configuration.assetsDirectory else {
        throw KioskError("cannot find the assets folder (fonts, courses); run from the checkout or set HYZER_ASSETS")
    }
    let mode = try displayMode(configuration)
    let display = try Display(
        mode: mode, size: configuration.size, rotate: configuration.rotate,
        fontsDirectory: assets.appendingPathComponent("fonts"))
    let session = try KioskSession(
        store: store, viewport: display.viewport, now: configuration.clock.uptimeMilliseconds,
        reduceMotion: configuration.reduceMotion,
        paging: (configuration.boardPageInterval, configuration.boardRowsPerPage),
        dimming: (configuration.dimAfter, configuration.dimLevel), lock: configuration.lock)
    session.statusGatherer.display = (display.videoDriver, display.rendererName)
    return (store, display, session)
}

/// The display mode: a full-screen board on a console (no X11 or Wayland session) drives
/// the panel directly through KMS unless `display.output = "sdl"`.
private func displayMode(_ configuration: KioskConfiguration) throws -> Display.Mode {
    if let card = configuration.drmCard {
        // For SDL's KMSDRM when it draws (output "sdl"); SDL reads its hints from the
        // environment too. Set before SDL_Init.
        setenv("SDL_KMSDRM_DEVICE_INDEX", String(try DRMCard.deviceIndex(of: card)), 1)
    }
    guard configuration.display == .window(fullscreen: true), configuration.output != .sdl else {
        return configuration.display
    }
    let environment = ProcessInfo.processInfo.environment
    let session = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
    if configuration.output == .auto, session { return configuration.display }
    guard let card = Display.consoleCard(configured: configuration.drmCard) else {
        if configuration.output == .kms { throw KioskError("display.output is \"kms\" but /dev/dri has no display card") }
        return configuration.display
    }
    return .kms(card: card)
}

/// The encoder when configured and present; nil means the keyboard (which the display
/// loop reads itself). A knob fault never stops the kiosk: it is shown and logged.
private func knobDriver(_ configuration: KioskConfiguration, session: KioskSession) -> KnobDriver? {
    let hasChip = (try? FileManager.default.contentsOfDirectory(atPath: "/dev"))?.contains { $0.hasPrefix("gpiochip") } ?? false
    switch configuration.knob {
    case .keyboard: return nil
    case .auto where !hasChip: return nil
    case .auto, .gpiod:
        let (backend, fault) = KnobBackends.hardwareOrKeyboard(configuration.gpio)
        if let fault {
            session.statusGatherer.knob.set(
                KioskStatus.Knob(backend: "keyboard (GPIO failed)", lines: fault.chip, error: fault.problem, fix: fault.fix))
            session.send(
                .effectFailed("Knob unavailable: \(fault.kind.rawValue) · using the keyboard"),
                now: configuration.clock.uptimeMilliseconds)
            configuration.logger.error("\(fault)")
            return nil
        }
        // "gpiod: encoder A GPIO17 (gpiochip0:17), …": the kind, then the chip and lines.
        let parts = backend.description.split(separator: ":", maxSplits: 1)
        session.statusGatherer.knob.set(
            KioskStatus.Knob(
                backend: String(parts[0]), lines: parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil))
        return KnobDriver(backend: backend, config: configuration.decoding)
    }
}

/// A parent may have spawned the kiosk with SIGTERM and SIGINT blocked (test runners do),
/// and threads inherit the mask: unblock them first, so `systemctl stop` and Ctrl-C always
/// reach the service group's handlers.
private func unblockShutdownSignals() {
    var set = sigset_t()
    sigemptyset(&set)
    sigaddset(&set, SIGTERM)
    sigaddset(&set, SIGINT)
    pthread_sigmask(SIG_UNBLOCK, &set, nil)
}

/// Plays a headless script on a virtual clock and writes a PNG of each screen it visits
/// (docs/kiosk-script-format.md). Returns the files written.
public func playKioskScript(_ configuration: KioskConfiguration, script: KioskScript, snapshots: URL) throws -> [URL] {
    // A script is the knob and the clock: no GPIO lines claimed, and no services but the two
    // a person at the kiosk waits on, whose answers `wait-for` waits for in real time.
    let (_, display, session) = try openScreen(configuration)
    if let assets = configuration.assetsDirectory {
        session.loadNameList(nameListFile(assets), logger: configuration.logger)
    }
    let posts = KioskInbox()
    var inbox: KioskInbox?
    var services: [Task<Void, Never>] = []
    // With a server: joining a group.
    if let server = configuration.server {
        let join = JoinService(
            server: server, store: session.store, inbox: posts, clock: configuration.clock, sync: SyncSlot(),
            logger: configuration.logger, ca: configuration.serverCA)
        session.onJoin = { join.requestCode() }
        services.append(Task { try? await join.run() })
        inbox = posts
    }
    // In a group: syncing (the board's indicator says so, and what the script enters reaches
    // the server) and what the kiosk shares with phones (a name typed on a phone, issue 32).
    let sync = try SyncService(store: session.store, inbox: posts, clock: configuration.clock)
    if let sync {
        session.onLocalWrite = { sync.localWrite() }
        services.append(Task { try? await sync.run() })
        let share = ShareService(store: session.store, inbox: posts, clock: configuration.clock, logger: configuration.logger)
        session.share = share
        services.append(Task { try? await share.run() })
        inbox = posts
    }
    defer { for service in services { service.cancel() } }
    var runner = try ScriptRunner(
        session: session, display: display, snapshots: snapshots,
        startingAt: configuration.clock.uptimeMilliseconds, clock: configuration.clock, inbox: inbox)
    if sync != nil { runner.awaitFirstPost(seconds: 10) }
    try runner.run(script)
    return runner.written
}
