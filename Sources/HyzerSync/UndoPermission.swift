import Foundation
import HyzerKit
import HyzerStore
import HyzerSyncProtocol

/// What the group server said it can take (issue 35), kept from its last pull answer.
public struct ServerCapabilities: Sendable, Hashable {
    public var protocolVersion: Int
    /// Seconds after its finish a round can be reopened, as the group set it.
    public var reopenWindow: TimeInterval

    public init(protocolVersion: Int, reopenWindow: TimeInterval) {
        self.protocolVersion = protocolVersion
        self.reopenWindow = reopenWindow
    }

    /// From a pull answer; a v1 server says neither.
    public init(_ page: PullResponse) {
        self.init(
            protocolVersion: page.protocolVersion ?? 1, reopenWindow: page.reopenWindow ?? Round.defaultReopenWindow)
    }
}

/// Whether this device may reopen, correct, restore, remove or merge now, and in what
/// window. A device in a group makes those records only once its server has said it is
/// at protocol 2: a v1 server would store them without their new fields, and every score
/// entered in a round reopened here would be refused there as "round completed".
public struct UndoPermission: Sendable, Hashable {
    /// Nil when allowed; else why not, in words for a screen.
    public var refusal: String?
    public var reopenWindow: TimeInterval

    public var allowed: Bool { refusal == nil }

    public static let olderServer =
        "the group server is older than undo: update hyzer-server, then try again"
    public static let notHeardYet = "this device has not heard from its group server yet: let it sync, then try again"
}

extension ChangeLedger {
    func setServerCapabilities(_ capabilities: ServerCapabilities) throws {
        try setCursorValue(String(capabilities.protocolVersion), for: "server_protocol")
        try setCursorValue(String(capabilities.reopenWindow), for: "reopen_window")
    }
}

extension StoreRead where Value == UndoPermission {
    /// `inGroup`: the device is enrolled with a group server (it has a `ServerLink`).
    public static func undoPermission(inGroup: Bool) -> Self {
        .changeLedger { ledger in
            let window = Double(try ledger.cursorValue("reopen_window") ?? "") ?? Round.defaultReopenWindow
            // Not in a group: nothing else has to understand the records.
            guard inGroup else { return UndoPermission(refusal: nil, reopenWindow: window) }
            // The version is the one heard on this link's stream: a device that moved to
            // another group asks again.
            guard try ledger.cursorValue("stream") != nil, let version = Int(try ledger.cursorValue("server_protocol") ?? "")
            else {
                return UndoPermission(refusal: UndoPermission.notHeardYet, reopenWindow: window)
            }
            return UndoPermission(
                refusal: version >= 2 ? nil : UndoPermission.olderServer, reopenWindow: window)
        }
    }
}
