import Foundation
import HyzerHarness

/// A real `hyzer-server` for a test: a group made with `hyzer-server group create`, the server
/// started on a free loopback port and waited for until it says it is listening. Kill it when
/// done (`defer { server.process.kill() }`).
public struct GroupServer: Sendable {
    public let process: ChildProcess
    public let url: String
    /// The group's admin token, for `hyzer device enroll --group-token`.
    public let admin: String

    public static func start(group name: String, in directory: URL) async throws -> GroupServer {
        let data = directory.appendingPathComponent("server")
        let created = try await Binary.run("hyzer-server", ["group", "create", name, "--data", data.path])
        guard created.status == 0, let admin = created.stdout.split(separator: "\n").last.map(String.init) else {
            throw GroupServerError("hyzer-server group create: \(created.stderr)")
        }
        let port = try freePort()
        let log = directory.appendingPathComponent("server.log")
        let process = try await Binary.start(
            "hyzer-server", ["--data", data.path, "--port", "\(port)", "--host", "127.0.0.1"], output: .file(log))
        for _ in 0..<300 {
            if (try? String(contentsOf: log, encoding: .utf8))?.contains("listening") == true {
                return GroupServer(process: process, url: "http://127.0.0.1:\(port)", admin: admin)
            }
            try await Task.sleep(nanoseconds: 100_000_000)
        }
        process.kill()
        throw GroupServerError("hyzer-server did not start in 30 s: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
    }
}

public struct GroupServerError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
