import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Logging
import ServiceLifecycle
import Synchronization

/// Joining a group from the kiosk's screen (RFC 8628 device authorization): on each
/// request (the menu's "Join a group", or a press for a new code) it asks the server for a
/// code, reports it to the screen, polls at the server's interval on the injected clock,
/// and on approval saves the link as `hyzer device enroll` does and runs the sync service
/// itself. The machine only shows what it is told (`.joinChanged`).
public struct JoinService: Service {
    /// What the join screen says when the kiosk was started without `--server`.
    public static let noServer = "No group server address: start the kiosk with --server URL"
    static let alreadyInAGroup = "This kiosk is already in a group and syncs with it (see Menu → Status)"

    let server: String
    /// The server's private CA (`--ca`), for the join's requests and kept in the link.
    let ca: String?
    let store: HyzerDatabase
    let inbox: KioskInbox
    let clock: any HyzerClock
    let sync: SyncSlot
    let logger: Logger
    private let requests: AsyncStream<Void>
    private let requestSink: AsyncStream<Void>.Continuation

    public init(
        server: String, store: HyzerDatabase, inbox: KioskInbox, clock: any HyzerClock, sync: SyncSlot, logger: Logger,
        ca: String? = nil
    ) {
        self.server = ServerLink.normalize(server)
        self.ca = ca
        self.store = store
        self.inbox = inbox
        self.clock = clock
        self.sync = sync
        self.logger = logger
        (requests, requestSink) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    }

    /// Ask for a new code; one still waiting is dropped.
    public func requestCode() { requestSink.yield() }

    /// How the admin sees this kiosk in `hyzer-server device list`.
    var deviceName: String { String("Kiosk \(ProcessInfo.processInfo.hostName)".prefix(80)) }

    public func run() async throws {
        var attempt: Task<Void, Never>?
        for await _ in requests.cancelOnGracefulShutdown() {
            // In a group already (the menu offered joining before sync's first report):
            // there is nothing to ask for, and the screen must not wait for a code.
            if sync.isSet {
                report(.failed(Self.alreadyInAGroup))
                continue
            }
            attempt?.cancel()
            attempt = Task { await join() }
        }
        attempt?.cancel()
        await attempt?.value
    }

    private func report(_ progress: JoinProgress) { inbox.post(.event(.joinChanged(progress))) }

    /// One code, from asking to joining (or to its end).
    func join() async {
        report(.requesting)
        let codes: DeviceAuthorizationResponse
        do {
            codes = try await SyncClient.authorizeDevice(server: server, deviceID: store.deviceID, name: deviceName, ca: ca)
        } catch {
            logger.warning("asking \(server) for a join code failed: \(error)")
            return report(.failed("Cannot get a code from \(server): \(error)"))
        }
        // In the journal too: the admin may read the code there rather than walk to the tee.
        logger.notice(
            "join: showing code \(codes.userCode) for \(server), \(codes.expiresIn) s to approve it (hyzer-server device approve \(codes.userCode) --group GROUP)"
        )
        report(.waiting(code: codes.userCode, server: server, expiresIn: codes.expiresIn))
        var interval = Duration.seconds(max(1, codes.interval))
        let deadline = clock.uptime + .seconds(codes.expiresIn)
        while !Task.isCancelled {
            do { try await clock.sleep(for: interval) } catch { return }
            if Task.isCancelled { return }
            let poll: DeviceTokenPoll
            do {
                poll = try await SyncClient.pollDeviceToken(server: server, deviceCode: codes.deviceCode, ca: ca)
            } catch .unreachable(let why) {
                // A blip on the way: keep polling until the code would have expired anyway.
                logger.notice("join poll: \(why)")
                if clock.uptime >= deadline { return report(.expired) }
                continue
            } catch {
                return report(.failed("\(error)"))
            }
            switch poll {
            case .enrolled(let answer):
                return await joined(answer)
            case .refused(.authorizationPending, _):
                continue
            case .refused(.slowDown, _):
                // RFC 8628 §3.5: every later poll waits 5 s longer.
                interval += .seconds(5)
            case .refused(.expiredToken, _), .refused(.invalidGrant, _):
                return report(.expired)
            case .refused(.accessDenied, _):
                return report(.failed("The group's admin refused this kiosk"))
            }
        }
    }

    /// Saves the link where `SyncService` reads it, then syncs until the kiosk stops.
    private func joined(_ answer: EnrollResponse) async {
        let service: SyncService
        do {
            guard let directory = store.directory else { throw KioskError("an in-memory kiosk cannot keep a group link") }
            try ServerLink(server: server, enrolled: answer, deviceName: deviceName, at: clock.date, caFile: ca).save(
                to: directory)
            guard let loaded = try SyncService(store: store, inbox: inbox, clock: clock) else {
                throw KioskError("the saved link was not found")
            }
            service = loaded
        } catch {
            logger.error("joining failed after the approval: \(error)")
            return report(.failed("Approved, but the link could not be saved: \(error)"))
        }
        sync.set(service)
        logger.info("joined group \(answer.groupName) (\(answer.groupID)) at \(server)")
        report(.joined(group: answer.groupName))
        // Until the kiosk stops (this task is cancelled then), as the sync service started
        // with an enrolled kiosk runs.
        do { try await service.run() } catch { logger.notice("sync after joining ended: \(error)") }
    }
}
