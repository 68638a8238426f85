import Foundation

/// The checkout's root, where Package.swift is, found from this file: what a test reads of
/// the repository's own files (assets, docs/openapi.yaml, Tests/Fixtures, the systemd units)
/// is a path under it. The one copy of the walk up (issue 33).
public let repositoryRoot: URL = {
    var dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    while !FileManager.default.fileExists(atPath: dir.appendingPathComponent("Package.swift").path) {
        let parent = dir.deletingLastPathComponent()
        precondition(parent.path != dir.path, "no Package.swift above \(#filePath)")
        dir = parent
    }
    return dir
}()
