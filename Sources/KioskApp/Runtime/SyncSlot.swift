import Synchronization

/// The kiosk's sync, wherever it comes from: the service started with the kiosk when it
/// was enrolled, or the one `JoinService` starts once it joins. Local writes are pushed by
/// whichever is there, so joining needs no restart.
public final class SyncSlot: Sendable {
    private let service = Mutex<SyncService?>(nil)

    public init() {}

    func set(_ new: SyncService) { service.withLock { $0 = new } }

    var isSet: Bool { service.withLock { $0 != nil } }

    public func localWrite() { service.withLock { $0 }?.localWrite() }
}
