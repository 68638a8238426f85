import Foundation
import HyzerKit
import HyzerSyncProtocol
import Logging
import ServiceLifecycle

/// Who a request is, from its bearer token.
public struct Principal: Sendable, Hashable {
    public enum Role: String, Sendable { case admin, device }
    public var groupID: String
    public var role: Role
    /// Set for device tokens.
    public var deviceID: String?
}

extension Principal {
    /// A stored credential's principal (both backends' token lookups); nil for a role this
    /// server does not know, which grants nothing.
    init?(groupID: String, storedRole: String, deviceID: String?) {
        guard let role = Role(rawValue: storedRole) else { return nil }
        self.init(groupID: groupID, role: role, deviceID: deviceID)
    }
}

public struct GroupInfo: Sendable, Hashable {
    public var id: String
    public var name: String
    /// Seconds after its finish a round of the group can be reopened (issue 35).
    public var reopenWindow: Double

    public init(id: String, name: String, reopenWindow: Double = Round.defaultReopenWindow) {
        self.id = id
        self.name = name
        self.reopenWindow = reopenWindow
    }

    /// The longest window a group may set: a season's worth of corrections is a reopen a
    /// week later at most; a year keeps the number sane.
    public static let maxReopenWindow: Double = 365 * 86_400

    /// Refuses a window no group may set; both backends' `setReopenWindow` ask it first.
    static func checkReopenWindow(_ seconds: Double) throws {
        guard seconds.isFinite, (0...maxReopenWindow).contains(seconds) else {
            throw StorageError.invalid("a reopen window is 0 to \(Int(maxReopenWindow / 3600)) hours")
        }
    }
}

/// Refusals a storage backend reports; controllers map them to 4xx answers.
public enum StorageError: Error, Equatable, Sendable, CustomStringConvertible {
    case notFound(String)
    case conflict(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .notFound(let s), .conflict(let s), .invalid(let s): s
        }
    }
}

/// The server's storage, behind a protocol so a PostgreSQL backend can follow. Every
/// method is scoped to one group: nothing here can read or write across groups.
///
/// Every method that touches the database is `async`: route handlers run on Swift
/// concurrency's cooperative pool, which must never wait on a disk (a backend does its
/// I/O on threads of its own, as GRDB's async `read`/`write` do).
///
/// Contract of `push`: each result is decided and the batch is committed durably before
/// the method returns (the caller acks only then); a record already stored under the
/// same (kind, id, version) answers `duplicate` with its original seq.
public protocol SyncStorage: Sendable {
    /// Changes when the database is recreated or restored from a backup.
    var epoch: String { get }

    func createGroup(name: String) async throws -> (group: GroupInfo, adminToken: String)
    func groups() async throws -> [GroupInfo]
    /// nil for an unknown or revoked token.
    func authenticate(token: String) async throws -> Principal?
    func group(id: String) async throws -> GroupInfo?
    /// Sets how long after its finish a round of the group can be reopened (issue 35).
    func setReopenWindow(groupID: String, seconds: Double) async throws -> GroupInfo

    func enroll(groupID: String, deviceID: String, name: String) async throws -> String
    func devices(groupID: String) async throws -> [DeviceInfo]
    func revoke(groupID: String, deviceID: String) async throws
    /// Frees the player an active device plays as (the admin's "release"); returns the
    /// device as it was. `StorageError.notFound` for no such active device, `.conflict`
    /// for one that plays as nobody.
    func releasePlayer(groupID: String, deviceID: String) async throws -> DeviceInfo

    func push(groupID: String, deviceID: String, records: [SyncRecord]) async throws -> PushResponse
    func pull(groupID: String, after: Int64, limit: Int) async throws -> PullResponse
    /// `push`, by the device `claim` names, checked in the push's own transaction; throws
    /// `AccessRefusal` (and writes nothing) when the token is unknown, revoked, not a
    /// device's, or another device's. Unlike `push(groupID:…)` it leaves the bookkeeping
    /// after a commit to the caller (`noteCommitted`), so that pokes go out first.
    func push(as claim: DeviceClaim, records: [SyncRecord]) async throws -> (principal: Principal, response: PushResponse)
    /// What follows a commit and may wait a moment: the head the state file remembers (to
    /// tell a restored database), and a look at the free space.
    func noteCommitted(head: Int64)
    /// `pull`, checked in the read's own transaction like `push(as:records:)`.
    func pull(as claim: DeviceClaim, after: Int64, limit: Int) async throws -> PullResponse
    func head(groupID: String) async throws -> Int64
}

/// Everything the server asks of a backend: sync, joining, the board, backups. SQLite
/// (`SQLiteStorage`, one group's own box, the default) and PostgreSQL (`PostgresStorage`,
/// many groups on several instances) both conform; the routes take either.
public protocol ServerStorage: SyncStorage, DeviceAuthorizationStorage, LiveBoardStorage, InviteStorage, NameRequestStorage {
    /// Where stored timestamps come from.
    var clock: any HyzerClock { get }
    /// A consistent copy of the database, taken while serving.
    func backup(to url: URL) async throws
    /// Records stored, by group id (`/metrics`).
    func recordCounts() async throws -> [String: Int]
    /// What the backend runs beside the HTTP server (PostgreSQL's listener for the other
    /// instances' pushes), poking `hub`.
    func services(hub: PokeHub, logger: Logger) -> [any Service]
    func close() async throws
}

/// Where the server keeps its data: SQLite in `--data` (nil), or PostgreSQL.
public func openServerStorage(
    data directory: URL, database: PostgresLocation?, clock: any HyzerClock = SystemClock(),
    logger: Logger = Logger(label: "hyzer.server.storage")
) async throws -> any ServerStorage {
    if let database { return try await PostgresStorage.open(database, clock: clock, logger: logger) }
    return try SQLiteStorage(directory: directory, clock: clock, logger: logger)
}

extension SQLiteStorage: ServerStorage {
    /// One process serves a SQLite database: nothing else to hear from.
    public func services(hub: PokeHub, logger: Logger) -> [any Service] { [] }
}

extension PostgresStorage: ServerStorage {
    public func services(hub: PokeHub, logger: Logger) -> [any Service] {
        [PostgresFeedListener(storage: self, hub: hub, logger: logger)]
    }
}
