import Foundation
import KioskCore
import KioskRender

@testable import KioskApp

extension KioskConfiguration {
    /// A kiosk on SDL's dummy driver at 800×480, the keyboard as its knob, over a fresh data
    /// directory under the temporary folder (named by `label`; the caller removes it).
    static func headlessTest(_ label: String) -> KioskConfiguration {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-\(label)-\(UUID())")
        var configuration = KioskConfiguration(dataDirectory: dir)
        configuration.display = .headless
        configuration.size = Viewport(width: 800, height: 480)
        configuration.knob = .keyboard
        return configuration
    }
}
