import Foundation

/// The DRM card SDL's KMSDRM backend should open, from a stable path. Card numbers follow
/// probe order, which changes across reboots on a Pi 5 (the RP1's card and the V3D's swap),
/// while `/dev/dri/by-path/platform-…-card` names the same hardware every boot. SDL takes a
/// card number (`SDL_KMSDRM_DEVICE_INDEX`), so the path is resolved at each start.
public enum DRMCard {
    /// The index of the card `path` leads to (`/dev/dri/by-path/…-card` → `../card1` → 1), or
    /// an error that lists the stable paths that do exist.
    public static func deviceIndex(of path: String) throws -> Int {
        let resolved = URL(fileURLWithPath: path).resolvingSymlinksInPath()
        let name = resolved.lastPathComponent
        guard FileManager.default.fileExists(atPath: resolved.path) else {
            throw KioskError("display.card \(path) does not exist; \(available(near: path))")
        }
        guard name.hasPrefix("card"), let index = Int(name.dropFirst(4)) else {
            throw KioskError("display.card \(path) is \(resolved.path), not a DRM card (cardN); \(available(near: path))")
        }
        return index
    }

    /// What a person could write instead: the by-path entries that end in `-card`.
    static func available(near path: String) -> String {
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        let cards = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix("-card") }
            .sorted()
        return cards.isEmpty
            ? "no cards in \(directory) (is the display driver loaded?)"
            : "cards here: " + cards.map { "\(directory)/\($0)" }.joined(separator: ", ")
    }
}
