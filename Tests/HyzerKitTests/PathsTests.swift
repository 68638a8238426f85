import Foundation
import Testing

@testable import HyzerKit

/// The one data-directory and assets resolver every executable uses.
@Suite struct PathsTests {
    static let nothingWritable: @Sendable (String) -> Bool = { _ in false }

    @Test func explicitDataWinsForEveryOwner() {
        for owner in [HyzerPaths.Owner.device, .server] {
            let url = HyzerPaths.dataDirectory(explicit: "/srv/board", for: owner, isWritable: { _ in true })
            #expect(url.path == "/srv/board")
        }
    }

    @Test func installedMachineUsesTheSystemDirectory() {
        let device = HyzerPaths.dataDirectory(explicit: nil, isWritable: { $0 == "/var/lib/hyzer" })
        #expect(device.path == "/var/lib/hyzer")
        let server = HyzerPaths.dataDirectory(explicit: "", for: .server, isWritable: { $0 == "/var/lib/hyzer-server" })
        #expect(server.path == "/var/lib/hyzer-server")
    }

    @Test func developerDeviceFollowsXDGThenHome() {
        let xdg = HyzerPaths.dataDirectory(
            explicit: nil, environment: ["XDG_DATA_HOME": "/home/ana/data", "HOME": "/home/ana"],
            isWritable: Self.nothingWritable)
        #expect(xdg.path == "/home/ana/data/hyzer")
        let home = HyzerPaths.dataDirectory(
            explicit: nil, environment: ["XDG_DATA_HOME": "", "HOME": "/home/ana"], isWritable: Self.nothingWritable)
        #expect(home.path == "/home/ana/.local/share/hyzer")
    }

    /// hyzer-server's default from before the resolver was shared: relative to where it runs.
    @Test func developerServerUsesAFolderInTheWorkingDirectory() {
        let url = HyzerPaths.dataDirectory(
            explicit: nil, for: .server, environment: ["XDG_DATA_HOME": "/home/ana/data"], isWritable: Self.nothingWritable)
        #expect(url.path == URL(fileURLWithPath: "hyzer-server-data").path)
        #expect(url.lastPathComponent == "hyzer-server-data")
    }

    @Test func assetsFromTheEnvironmentOnlyWhenTheyHoldCourses() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-assets-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(HyzerPaths.assetsDirectory(environment: ["HYZER_ASSETS": dir.path]) == nil)
        try Data("[]".utf8).write(to: dir.appendingPathComponent("courses.json"))
        #expect(HyzerPaths.assetsDirectory(environment: ["HYZER_ASSETS": dir.path])?.path == dir.path)
    }

    @Test func assetsBesideAnInstalledBinaryOrAboveACheckoutBuild() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-install-\(UUID())")
        defer { try? FileManager.default.removeItem(at: root) }
        let fm = FileManager.default
        // An installed layout: PREFIX/bin/hyzer and PREFIX/share/hyzer/assets.
        let shared = root.appendingPathComponent("opt/share/hyzer/assets")
        try fm.createDirectory(at: shared, withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: shared.appendingPathComponent("courses.json"))
        let installed = HyzerPaths.assetsDirectory(
            environment: [:], executable: root.appendingPathComponent("opt/bin/hyzer").path, workingDirectory: "/")
        #expect(installed?.standardizedFileURL.path == shared.standardizedFileURL.path)
        // A checkout: CHECKOUT/.build/debug/hyzer and CHECKOUT/assets.
        let checkout = root.appendingPathComponent("checkout")
        try fm.createDirectory(at: checkout.appendingPathComponent("assets"), withIntermediateDirectories: true)
        try Data("[]".utf8).write(to: checkout.appendingPathComponent("assets/courses.json"))
        let built = HyzerPaths.assetsDirectory(
            environment: [:], executable: checkout.appendingPathComponent(".build/debug/hyzer").path, workingDirectory: "/")
        #expect(built?.standardizedFileURL.path == checkout.appendingPathComponent("assets").standardizedFileURL.path)
    }
}
