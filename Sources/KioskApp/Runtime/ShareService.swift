import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol
import KioskCore
import Logging
import ServiceLifecycle
import Synchronization

/// What the kiosk shares with phones through the group server, as QR codes, and the names
/// it learns back from it:
/// - "Add a phone" (the menu): an invite, reported to the screen and reported expired when
///   its time is up, on the injected clock;
/// - a finished round's summary card: a link to its summary page, asked for again every
///   `summaryRetry` for `summaryPatience` while the server cannot be reached, so a kiosk
///   that was offline at the end of a round still gets its code once it is back.
/// - the group's device names, for "from Nate's phone" on the hole card and resolve screen.
/// - a name typed on a phone (issue 32): a code for the name entry on screen, then its
///   answer asked for every `phoneNamePoll` until the name comes, the code expires or the
///   screen is left.
/// The group link is read at each request, so a kiosk that joined a group a minute ago
/// (`JoinService`) shares without a restart.
public struct ShareService: Service {
    static let notInAGroup = "This kiosk is not in a group yet: Menu → Join a group first"
    static let summaryRetry: Duration = .seconds(15)
    static let summaryPatience: Duration = .seconds(300)
    /// How often the answer to a phone's name is asked for: a name appears within a second
    /// of the phone's tap, and a request a second is nothing to the server (and far under
    /// its rate limit) for the few minutes a code lasts.
    static let phoneNamePoll: Duration = .seconds(1)
    /// Past the code's `expiresIn`, how long polls go on before the code is called expired
    /// without the server saying so (offline since it was shown, or a server that never
    /// answers 410): the polling always ends.
    static let phoneNameGrace: Duration = .seconds(5)

    enum Request: Sendable {
        case invite
        case summary(UUID)
        case deviceNames
        /// `generation`: the `PhoneNameTicket` number this request was given.
        case phoneName(label: String, generation: UInt64)
        case cancelPhoneName
    }

    let store: HyzerDatabase
    let inbox: KioskInbox
    let clock: any HyzerClock
    let logger: Logger
    private let requests: AsyncStream<Request>
    private let requestSink: AsyncStream<Request>.Continuation
    /// Which phone-name request is the current one, moved on at once (on the loop's thread)
    /// by every new request and cancel, so a name for a screen already left is never posted.
    let phoneNames = PhoneNameTicket()

    public init(store: HyzerDatabase, inbox: KioskInbox, clock: any HyzerClock, logger: Logger) {
        self.store = store
        self.inbox = inbox
        self.clock = clock
        self.logger = logger
        (requests, requestSink) = AsyncStream<Request>.makeStream(bufferingPolicy: .bufferingNewest(8))
    }

    /// Ask for a new invite; one still on screen is replaced (it stays valid on the server).
    public func requestInvite() { requestSink.yield(.invite) }

    /// Ask for the round's summary link; a request for an earlier round is dropped.
    public func requestSummaryLink(_ roundID: UUID) { requestSink.yield(.summary(roundID)) }

    /// Ask for the group's device names (attribution).
    public func requestDeviceNames() { requestSink.yield(.deviceNames) }

    /// Ask for a code to type a name on a phone with (the name entry just opened); one
    /// still waiting is given up.
    public func requestPhoneName(label: String) {
        requestSink.yield(.phoneName(label: label, generation: phoneNames.next()))
    }

    /// The name entry is gone: nothing more is posted for it from now on, and its polling stops.
    public func cancelPhoneName() {
        _ = phoneNames.next()
        requestSink.yield(.cancelPhoneName)
    }

    public func run() async throws {
        // One attempt of each kind at a time: a newer request replaces an older one.
        var invite: Task<Void, Never>?
        var summary: Task<Void, Never>?
        var names: Task<Void, Never>?
        var phoneName: Task<Void, Never>?
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
            case .phoneName(let label, let generation):
                phoneName?.cancel()
                phoneName = Task { await self.phoneName(label: label, generation: generation) }
            case .cancelPhoneName:
                phoneName?.cancel()
                phoneName = nil
            }
        }
        for task in [invite, summary, names, phoneName] {
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

extension ShareService {
    /// One name typed on a phone: a code from the server, shown, then its answer asked for
    /// every `phoneNamePoll` until the name comes, the code is over (410, or 404: the server
    /// forgot it), the code's time is up, or this request is replaced or cancelled. A poll
    /// that fails (offline for a moment) is tried again a second later.
    func phoneName(label: String, generation: UInt64) async {
        let post = { (event: KioskEvent) in self.phoneNames.post(event, to: self.inbox, for: generation) }
        let link: ServerLink
        switch groupLink() {
        case .success(let found): link = found
        case .failure(let failure): return post(.phoneNameChanged(.failed(failure.message)))
        }
        let client = SyncClient(link: link)
        let request: NameRequest
        do {
            request = try await client.createNameRequest(label: label)
        } catch {
            logger.warning("asking \(link.serverURL) for a phone's name code failed: \(error)")
            return post(.phoneNameChanged(.failed("Cannot get a code from \(link.serverURL): \(error)")))
        }
        post(.phoneNameChanged(.ready(url: link.serverURL + request.path, expiresIn: request.expiresIn)))
        let deadline = clock.uptime + .seconds(request.expiresIn) + Self.phoneNameGrace
        while true {
            do { try await clock.sleep(for: Self.phoneNamePoll) } catch { return }
            do throws(SyncClientError) {
                if let answer = try await client.nameAnswer(code: request.code) {
                    return post(.phoneNameArrived(answer.name))
                }
            } catch .gone {
                return post(.phoneNameChanged(.expired))
            } catch let error where error.isAuthFailure {
                logger.warning("\(link.serverURL) refuses this kiosk's name request: \(error)")
                return post(.phoneNameChanged(.failed("The group server refuses this kiosk: \(error)")))
            } catch {
                logger.notice("asking \(link.serverURL) for the name typed on a phone failed: \(error)")
            }
            if clock.uptime >= deadline { return post(.phoneNameChanged(.expired)) }
        }
    }
}

/// The current phone-name request's number. A new request or a cancel moves it on under
/// the lock, and a request's task posts only under the same lock while its number is still
/// current: once `cancelPhoneName` returns, nothing more is posted for the screen that was
/// left, so a name typed for it can never land in the next name entry (the inbox keeps
/// order, and the machine takes a name only on a screen showing a code).
final class PhoneNameTicket: Sendable {
    private let current = Mutex<UInt64>(0)

    /// A new current number; every earlier one is spent.
    func next() -> UInt64 {
        current.withLock { current in
            current += 1
            return current
        }
    }

    func post(_ event: KioskEvent, to inbox: KioskInbox, for generation: UInt64) {
        current.withLock { current in
            if current == generation { inbox.post(.event(event)) }
        }
    }
}

/// Why the kiosk cannot share: the sentence the screen shows.
struct ShareFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
