import HyzerKit
import HyzerStore
import HyzerSync
import KioskCore
import ServiceLifecycle

/// The kiosk as one more device of its group: runs the `SyncEngine` and forwards what it
/// reports to the inbox. The sync state becomes the board's indicator; "records arrived"
/// makes the loop read the store again, so the reshuffle animates as a remote change.
public struct SyncService: Service {
    let engine: SyncEngine
    let inbox: KioskInbox

    /// Nil when this kiosk is not enrolled with a group server (`hyzer device enroll`).
    /// `clock`: the kiosk's (`KioskConfiguration.clock`, which its store keeps time on too),
    /// for the engine's backoff, polls, socket reconnects and "last synced".
    public init?(store: HyzerDatabase, inbox: KioskInbox, clock: any HyzerClock) throws {
        guard let directory = store.directory, let link = try ServerLink.load(from: directory) else { return nil }
        engine = SyncEngine(database: store, link: link, clock: clock)
        self.inbox = inbox
    }

    public var serverURL: String { engine.link.serverURL }

    /// After every local write: push now rather than at the next timer.
    public func localWrite() { engine.localDataChanged() }

    public func run() async throws {
        let (engine, inbox) = (engine, inbox)
        // Subscribe before the engine starts so its first state is not missed; both
        // streams end when the engine's run returns (graceful shutdown or cancellation).
        let states = engine.stateUpdates()
        // Only "something arrived" matters here (the loop reads the store itself): a
        // buffer of one cannot grow however long a burst outpaces the loop.
        let changes = engine.changes(bufferingNewest: 1)
        try await withThrowingDiscardingTaskGroup { group in
            group.addTask {
                for await state in states { inbox.post(.event(.syncChanged(Self.indicator(for: state)))) }
            }
            group.addTask {
                for await _ in changes { inbox.post(.storeChanged(.remote)) }
            }
            try await engine.run()
        }
    }

    static func indicator(for state: SyncState) -> SyncIndicator {
        var indicator: SyncIndicator
        switch state.status {
        case .idle: indicator = SyncIndicator(state: .idle, lastSynced: state.lastSyncedAt)
        case .syncing: indicator = SyncIndicator(state: .syncing, lastSynced: state.lastSyncedAt)
        case .offline: indicator = SyncIndicator(state: .offline, lastSynced: state.lastSyncedAt)
        case .error(let message): indicator = SyncIndicator(state: .error, lastSynced: state.lastSyncedAt, detail: message)
        }
        indicator.refused = state.failed
        return indicator
    }
}
