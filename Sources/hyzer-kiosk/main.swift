// hyzer-kiosk: the board at the first tee. Wiring only: the screens are KioskCore, the
// drawing KioskRender, the knob KioskHardware, the composition KioskApp (`buildKiosk`).
import ArgumentParser
import Foundation
import HyzerStore
import HyzerSystem
import KioskApp
import SQLiteFaults

// Before any thread starts: see Allocator for why the kiosk keeps two malloc arenas and
// takes no transparent huge pages.
Allocator.limitArenas()
Allocator.disableTransparentHugePages()
let options = KioskOptions.parseOrExit()
/// A settings mistake exits with EX_CONFIG, which the unit does not restart on
/// (RestartPreventExitStatus=78): a restart would only say it again, every two seconds.
func refuse(_ error: any Error) -> Never {
    FileHandle.standardError.write(Data("hyzer-kiosk: \(error)\n".utf8))
    exit(78)
}
if options.hashCode {
    // The code is read, never echoed or logged; only its hash is printed.
    let code = (readLine(strippingNewline: true) ?? "").trimmingCharacters(in: .whitespaces)
    do { print("code_hash = \"\(try OrganizerCode.hashing(code).encoded)\"") } catch { refuse(error) }
    exit(0)
}
let file: ConfigFile?
do { file = try KioskSettingsFile.read(path: options.config) } catch { refuse(error) }
// Once, before anything logs.
HyzerLogging.bootstrap(level: HyzerLogging.level(flag: options.logLevel, file: file))
if options.checkConfig {
    do { try options.check(try options.configuration(file: file), file: file) } catch { refuse(error) }
    print("\(file?.path ?? "no settings file (\(KioskSettingsFile.defaultPath))"): ok")
    exit(0)
}
do {
    let configuration = try options.configuration(file: file)
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
