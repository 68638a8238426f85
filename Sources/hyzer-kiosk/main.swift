// hyzer-kiosk: the board at the first tee. Wiring only: the screens are KioskCore, the
// drawing KioskRender, the knob KioskHardware, the composition KioskApp (`buildKiosk`).
import Foundation
import HyzerStore
import KioskApp
import SQLiteFaults

// Before any thread starts: see Allocator for why the kiosk keeps two malloc arenas.
Allocator.limitArenas()
let options = KioskOptions.parseOrExit()
do {
    let configuration = try options.configuration()
    if let script = try options.loadScript(), let snapshots = options.snapshotsDirectory {
        for url in try playKioskScript(configuration, script: script, snapshots: snapshots) { print(url.path) }
    } else {
        let kiosk = try buildKiosk(configuration)
        let report = RunReport(kiosk: kiosk, clock: configuration.clock)
        kiosk.onFirstFrame = { report.firstFrame() }
        // Measured while everything still runs: a report after the services stopped would
        // count neither their memory nor their threads.
        if options.runFor != nil { kiosk.onLoopEnded = { report.exit() } }
        try kiosk.run(seconds: options.runFor)
    }
} catch {
    // One line saying what happened and what to do (a storage fault names both).
    FileHandle.standardError.write(Data("hyzer-kiosk: \(StorageFault.oneLine(for: error))\n".utf8))
    exit(1)
}
