import Foundation

/// Sync status for the small indicator on the board (the sync issue feeds it).
public struct SyncIndicator: Sendable, Equatable {
    public enum State: String, Sendable, Equatable { case disabled, idle, syncing, offline, error }
    public var state: State
    public var lastSynced: Date?
    public var detail: String?
    /// Local records the server refused for good (outbox `failed`): a person must look.
    public var refused: Int

    public init(state: State = .disabled, lastSynced: Date? = nil, detail: String? = nil, refused: Int = 0) {
        self.state = state
        self.lastSynced = lastSynced
        self.detail = detail
        self.refused = refused
    }
}
