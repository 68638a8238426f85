import HyzerSyncProtocol

/// The two requests the engine's push and pull make, behind a protocol so that something
/// other than HTTP can carry them: `SyncClient` in the kiosk and the CLI, a simulated
/// network (HyzerSyncSimulation) that loses, delays, duplicates and reorders them.
///
/// The contract is HTTP's: one answer per request, or an error. `unreachable` means no
/// answer arrived, which says nothing about whether the server committed the request
/// (a lost reply); 401/403 arrive as `http`.
public protocol SyncTransport: Sendable {
    func push(_ records: [SyncRecord]) async throws(SyncClientError) -> PushResponse
    func pull(after: Int64, limit: Int) async throws(SyncClientError) -> PullResponse
}

extension SyncClient: SyncTransport {}
