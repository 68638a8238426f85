// hyzer-kiosk: the board at the first tee. Wiring only; the screens are KioskCore,
// the drawing KioskRender, the knob KioskHardware, the glue KioskApp.
import Foundation
import KioskApp

let options = KioskOptions.parseOrExit()
do {
    try KioskLauncher(options: options).run()
} catch {
    FileHandle.standardError.write(Data("hyzer-kiosk: \(error)\n".utf8))
    exit(1)
}
