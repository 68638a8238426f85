import Foundation
import HyzerStore
import HyzerSync
import KioskCore
import KioskRender

/// Runs the device's `SyncEngine` beside the kiosk's loop and hands its news to the loop
/// thread: the sync state for the board's indicator, and "remote data arrived" (which
/// the loop then reads through the store, trigger `remoteSync`, so reshuffles animate).
public final class SyncBridge: @unchecked Sendable {
    // @unchecked: the mailbox is only touched under `lock`.
    private let engine: SyncEngine
    private let lock = NSLock()
    private var indicator: SyncIndicator?
    private var dataArrived = false
    private var tasks: [Task<Void, Never>] = []

    /// Nil when this kiosk is not enrolled with a group server (`hyzer device enroll`).
    public init?(store: HyzerDatabase) throws {
        guard let directory = store.directory, let link = try ServerLink.load(from: directory) else { return nil }
        engine = SyncEngine(database: store, link: link)
    }

    public var serverURL: String { engine.link.serverURL }

    public func start() {
        let engine = engine
        tasks.append(Task { try? await engine.run() })
        tasks.append(Task { [weak self] in
            for await state in engine.stateUpdates() { self?.post(state) }
        })
        tasks.append(Task { [weak self] in
            for await _ in engine.changes() { self?.postDataArrived() }
        })
    }

    /// After every local write: push now rather than at the next timer.
    public func localWrite() { engine.localDataChanged() }

    /// What arrived since the last call.
    func take() -> (indicator: SyncIndicator?, dataArrived: Bool) {
        lock.lock()
        defer { indicator = nil; dataArrived = false; lock.unlock() }
        return (indicator, dataArrived)
    }

    /// Stops the engine, waiting at most `timeout` seconds (the kiosk is shutting down).
    public func stop(timeout: Double = 3) {
        let engineRun = tasks.first
        let done = DispatchSemaphore(value: 0)
        Task {
            engineRun?.cancel()
            await engineRun?.value
            done.signal()
        }
        _ = done.wait(timeout: .now() + timeout)
        tasks.forEach { $0.cancel() }
    }

    private func post(_ state: SyncState) {
        let mapped: SyncIndicator
        switch state.status {
        case .idle: mapped = SyncIndicator(state: .idle, lastSynced: state.lastSyncedAt)
        case .syncing: mapped = SyncIndicator(state: .syncing, lastSynced: state.lastSyncedAt)
        case .offline: mapped = SyncIndicator(state: .offline, lastSynced: state.lastSyncedAt)
        case .error(let message): mapped = SyncIndicator(state: .error, lastSynced: state.lastSyncedAt, detail: message)
        }
        var withRefused = mapped
        withRefused.refused = state.failed
        lock.lock()
        indicator = withRefused
        lock.unlock()
        Display.wake()
    }

    private func postDataArrived() {
        lock.lock()
        dataArrived = true
        lock.unlock()
        Display.wake()
    }
}
