import Foundation
import GRDB
import HyzerServer
import HyzerStore
import Logging

/// Freshly migrated, empty databases, made once for many runs and copied into each run's
/// directories: the migrations are the same for every device and every server, and in a
/// debug build running them was half of a run's time. Each copy is then opened by the real
/// code (`HyzerDatabase(directory:)`, `SQLiteStorage(directory:)`), which finds it migrated.
struct Templates: Sendable {
    let directory: URL
    var device: URL { directory.appendingPathComponent("device", isDirectory: true) }
    var server: URL { directory.appendingPathComponent("server", isDirectory: true) }

    static func make(in base: URL) throws -> Templates {
        let templates = Templates(
            directory: base.appendingPathComponent("hyzer-sim-templates-\(UUID().uuidString.prefix(8))", isDirectory: true))
        let logger = Logger(label: "hyzer.sim") { _ in SwiftLogNoOpLogHandler() }
        try HyzerDatabase(directory: templates.device, logger: logger).close()
        // A device makes its id the first time its store opens; the template's must go, or
        // every copy would be the same device (which the server then refuses to enroll
        // twice: a mistake here fails every run loudly, it cannot pass one silently).
        let domain = try DatabaseQueue(path: templates.device.appendingPathComponent(HyzerDatabase.domainFileName).path)
        try domain.write { db in try db.execute(sql: "DELETE FROM meta WHERE key = 'device_id'") }
        try domain.close()
        try SQLiteStorage(directory: templates.server, logger: logger).close()
        return templates
    }

    /// A copy of `template` at `destination` (which must not exist yet).
    func copy(_ template: URL, to destination: URL) throws {
        try FileManager.default.copyItem(at: template, to: destination)
    }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}
