import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Logging
import ServiceLifecycle

/// What the kiosk shares with phones through the group server, as QR codes, and the names
/// it learns back from it:
/// - "Add a phone" (the menu): an invite, reported to the screen and reported expired when
///   its time is up, on the injected clock;
/// - a finished round's summary card: a link to its summary page, asked for again every
///   `summaryRetry` for `summaryPatience` while the server cannot be reached, so a kiosk
///   that was offline at the end of a round still gets its code once it is back.
/// - the group's device names, for "from Nate's phone" on the hole card and resolve screen.
/// The group link is read at each request, so a kiosk that joined a group a minute ago
/// (`JoinService`) shares without a restart.
public struct ShareService: Service {
    static let notInAGroup = "This kiosk is not in a group yet: Menu → Join a group first"
    static let summaryRetry: Duration = .seconds(15)
    static let summaryPatience: Duration = .seconds(300)

    enum Request: Sendable {
        case invite
        case summary(UUID)
        case deviceNames
    }

    let store: HyzerDatabase
    let inbox: KioskInbox
    let clock: any HyzerClock
    let logger: Logger
    private let requests: AsyncStream<Request>
    private let requestSink: AsyncStream<Request>.Continuation

    public init(store: HyzerDatabase, inbox: KioskInbox, clock: any HyzerClock, logger: Logger) {
        self.store = store
        self.inbox = inbox
        self.clock = clock
        self.logger = logger
        (requests, requestSink) = AsyncStream<Request>.makeStream(bufferingPolicy: .bufferingNewest(4))
    }

    /// Ask for a new invite; one still on screen is replaced (it stays valid on the server).
    public func requestInvite() { requestSink.yield(.invite) }

    /// Ask for the round's summary link; a request for an earlier round is dropped.
    public func requestSummaryLink(_ roundID: UUID) { requestSink.yield(.summary(roundID)) }

    /// Ask for the group's device names (attribution).
    public func requestDeviceNames() { requestSink.yield(.deviceNames) }

    public func run() async throws {
        // One attempt of each kind at a time: a newer request replaces an older one.
        var invite: Task<Void, Never>?
        var summary: Task<Void, Never>?
        var names: Task<Void, Never>?
        for await request in requests.cancelOnGracefulShutdown() {
            switch request {
            case .invite:
                invite?.cancel()
                invite = Task { await self.invite() }
            case .summary(let roundID):
                summary?.cancel()
                summary = Task { await self.summaryLink(roundID) }
            case .deviceNames:
                names?.cancel()
                names = Task { await self.deviceNames() }
            }
        }
        for task in [invite, summary, names] {
            task?.cancel()
            await task?.value
        }
    }

    /// The group link of this kiosk, or why there is none.
    private func groupLink() -> Result<ServerLink, ShareFailure> {
        do {
            guard let directory = store.directory, let link = try ServerLink.load(from: directory) else {
                return .failure(ShareFailure(Self.notInAGroup))
            }
            return .success(link)
        } catch {
            return .failure(ShareFailure("Cannot read this kiosk's group link: \(error)"))
        }
    }

    private func report(_ progress: InviteProgress) { inbox.post(.event(.inviteChanged(progress))) }

    /// One invite, from asking to its expiry.
    func invite() async {
        report(.requesting)
        let link: ServerLink
        switch groupLink() {
        case .success(let found): link = found
        case .failure(let failure): return report(.failed(failure.message))
        }
        let invite: Invite
        do {
            invite = try await SyncClient(link: link).createInvite()
        } catch {
            logger.warning("asking \(link.serverURL) for a phone's invite failed: \(error)")
            return report(.failed("Cannot get an invite from \(link.serverURL): \(error)"))
        }
        report(.ready(url: link.serverURL + invite.path, expiresIn: invite.expiresIn))
        do { try await clock.sleep(for: .seconds(invite.expiresIn)) } catch { return }
        report(.expired)
    }

    /// One round's summary link, asked for until it comes or patience runs out.
    func summaryLink(_ roundID: UUID) async {
        var waited: Duration = .zero
        while !Task.isCancelled {
            guard case .success(let link) = groupLink() else { return }
            do {
                let summary = try await SyncClient(link: link).createSummaryLink(roundID: roundID)
                inbox.post(.event(.summaryLinkChanged(roundID: roundID, url: link.serverURL + summary.path)))
                return
            } catch {
                logger.notice("asking \(link.serverURL) for round \(roundID)'s summary link failed: \(error)")
            }
            guard waited < Self.summaryPatience else { return }
            do { try await clock.sleep(for: Self.summaryRetry) } catch { return }
            waited += Self.summaryRetry
        }
    }
}

extension ShareService {
    /// The group's device names, once (the machine asks again when another unknown device
    /// shows up). Offline, nothing is reported: the screens show short ids meanwhile.
    func deviceNames() async {
        guard case .success(let link) = groupLink() else { return }
        do {
            let list = try await SyncClient(link: link).devices()
            let names = Dictionary(list.devices.map { ($0.deviceID, $0.name) }, uniquingKeysWith: { _, last in last })
            inbox.post(.event(.deviceNamesChanged(names)))
        } catch {
            logger.notice("asking \(link.serverURL) for its devices' names failed: \(error)")
        }
    }
}

/// Why the kiosk cannot share: the sentence the screen shows.
struct ShareFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
