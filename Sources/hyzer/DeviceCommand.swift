import ArgumentParser
import Foundation
import HyzerKit
import HyzerStore
import HyzerSync
import HyzerSyncProtocol

struct Device: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "This device's link to a group server.", subcommands: [Enroll.self, Show.self])

    struct Enroll: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Enroll this data directory as a device of a group (needs the group's admin token).")

        @Option(help: "Server URL, e.g. http://127.0.0.1:8630.") var server: String
        @Option(name: .customLong("group-token"), help: "The group's admin token (hyzer-server group create prints it).")
        var groupToken: String
        @Option(help: "A name for this device, e.g. \"Clubhouse kiosk\".") var name: String
        @Option(
            help: ArgumentHelp(
                "The private CA (PEM) an https server's certificate is issued by; kept with the link for every later sync.",
                valueName: "file"))
        var ca: String?
        @OptionGroup var data: DataOptions

        func validate() throws {
            guard server.hasPrefix("http://") || server.hasPrefix("https://") else {
                throw ValidationError("--server must start with http:// or https://")
            }
        }

        func run() async throws {
            let db = try data.open()
            let answer: EnrollResponse
            let caFile: String?
            do {
                caFile = try ca.map(ServerTrust.checkCAFile)
                answer = try await SyncClient.enroll(
                    server: server, groupToken: groupToken, deviceID: db.deviceID, name: name, ca: caFile)
            } catch {
                throw CommandFailure(message: "enrollment failed: \(error)")
            }
            let link = ServerLink(server: server, enrolled: answer, deviceName: name, at: db.clock.date, caFile: caFile)
            try link.save(to: db.files)
            print("enrolled \"\(name)\" (device \(db.deviceID)) in group \"\(answer.groupName)\" at \(link.serverURL)")
            print(
                "credentials saved to \(db.files.appendingPathComponent(ServerLink.fileName).path); run `hyzer sync` to sync now")
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the enrollment and the outbox.")
        @OptionGroup var data: DataOptions

        func run() async throws {
            let db = try data.open()
            print("device id: \(db.deviceID)")
            guard let link = try ServerLink.load(from: db.files) else {
                print("not enrolled (hyzer device enroll --server URL --group-token T --name NAME)")
                return
            }
            let cursor = try await db.read(.syncCursor)
            let counts = try await db.read(.outboxCounts)
            print("server: \(link.serverURL), group \"\(link.groupName)\" (\(link.groupID)), device name \"\(link.deviceName)\"")
            if let caFile = link.caFile { print("trusts the server's certificate through the CA in \(caFile)") }
            print("cursor: \(cursor.cursor) (epoch \(cursor.epoch ?? "none yet"))")
            print(
                "not yet on the server: \(try await db.read(.pendingSyncCount)); outbox: "
                    + OutboxStatus.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", "))
            for failed in try await db.read(.failedOutbox(limit: 20)) {
                print("  failed \(failed.kind.rawValue) \(failed.id): \(failed.reason)")
            }
        }
    }
}
