import Foundation
import HyzerKit
import HyzerSyncProtocol

/// Where this device syncs and with which credentials: `DIR/sync-server.json`, mode
/// 0600, written by `hyzer device enroll`. Kept outside both databases on purpose: a
/// recreated sync.sqlite or a moved-aside hyzer.sqlite must not cost the enrollment.
public struct ServerLink: Codable, Sendable, Equatable {
    public static let fileName = "sync-server.json"

    /// e.g. `http://127.0.0.1:8630`, no trailing slash.
    public var serverURL: String
    public var groupID: String
    public var groupName: String
    public var deviceID: String
    public var deviceName: String
    public var deviceToken: String
    public var enrolledAt: Date
    /// The private CA's PEM file (absolute) that the server's https certificate must chain
    /// to (`--ca` at enrollment, `ServerTrust`); nil trusts the system's CAs. Absent from
    /// links written before it existed, which decode as nil.
    public var caFile: String?

    public init(
        serverURL: String, groupID: String, groupName: String, deviceID: String, deviceName: String,
        deviceToken: String, enrolledAt: Date, caFile: String? = nil
    ) {
        self.serverURL = Self.normalize(serverURL)
        self.groupID = groupID
        self.groupName = groupName
        self.deviceID = deviceID
        self.deviceName = deviceName
        self.deviceToken = deviceToken
        self.enrolledAt = enrolledAt
        self.caFile = caFile
    }

    /// The change feed this link reads: one server, one group.
    public var stream: String { "\(serverURL)|\(groupID)" }

    public static func normalize(_ url: String) -> String {
        var url = url.trimmingCharacters(in: .whitespacesAndNewlines)
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    public static func load(from directory: URL) throws -> ServerLink? {
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .hyzerISO8601  // fractional seconds and offsets too
        return try decoder.decode(ServerLink.self, from: data)
    }

    /// The name the device in `directory` enrolled with, which its scores carry (issue 14);
    /// nil while it is in no group (or the link cannot be read: a score is never refused
    /// for want of a name).
    public static func enrolledName(in directory: URL?) -> String? {
        directory.flatMap { try? load(from: $0) }?.deviceName
    }

    public func save(to directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .hyzerISO8601
        let url = directory.appendingPathComponent(Self.fileName)
        try encoder.encode(self).write(to: url, options: .atomic)
        // The device token is a credential.
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: url.path)
    }
}
