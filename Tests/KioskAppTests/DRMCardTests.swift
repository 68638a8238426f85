import Foundation
import Testing

@testable import KioskApp

/// Issue 13 item 4: the DRM card by a stable path, mapped to the card number SDL's KMSDRM
/// backend takes. A directory shaped like /dev/dri stands in for it.
@Suite struct DRMCardTests {
    @Test func aByPathLinkLeadsToItsCardNumber() throws {
        let dri = FileManager.default.temporaryDirectory.appendingPathComponent("dri-\(UUID())")
        let byPath = dri.appendingPathComponent("by-path")
        try FileManager.default.createDirectory(at: byPath, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dri) }
        for name in ["card0", "card1", "renderD128"] {
            FileManager.default.createFile(atPath: dri.appendingPathComponent(name).path, contents: nil)
        }
        // As udev makes them on a Pi 5 after a boot that probed the V3D first.
        let links = [
            "platform-gpu-card": "../card1", "platform-axi:gpu-card": "../card0", "platform-gpu-render": "../renderD128",
        ]
        for (name, target) in links {
            try FileManager.default.createSymbolicLink(
                atPath: byPath.appendingPathComponent(name).path, withDestinationPath: target)
        }
        #expect(try DRMCard.deviceIndex(of: byPath.appendingPathComponent("platform-gpu-card").path) == 1)
        #expect(try DRMCard.deviceIndex(of: byPath.appendingPathComponent("platform-axi:gpu-card").path) == 0)
        #expect(try DRMCard.deviceIndex(of: dri.appendingPathComponent("card1").path) == 1, "a plain card path too")

        let render = #expect(throws: KioskError.self) {
            try DRMCard.deviceIndex(of: byPath.appendingPathComponent("platform-gpu-render").path)
        }
        #expect(render?.description.contains("not a DRM card") == true)
        let missing = #expect(throws: KioskError.self) {
            try DRMCard.deviceIndex(of: byPath.appendingPathComponent("platform-hdmi-card").path)
        }
        // The message lists what could be written instead.
        #expect(missing?.description.contains("does not exist") == true)
        #expect(missing?.description.contains("\(byPath.path)/platform-axi:gpu-card, \(byPath.path)/platform-gpu-card") == true)
    }
}
