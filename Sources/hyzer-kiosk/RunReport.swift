import Foundation
import HyzerKit
import KioskApp
import KioskRender

/// The JSON lines `hyzer-bench render` and the tests read: launch to first frame, and the
/// CPU and memory a `--run-for` run used.
final class RunReport {
    struct FirstFrame: Encodable {
        var event = "first-frame"
        var renderer: String
        var driver: String
        var ms: Int64
    }

    struct Exit: Encodable {
        var event = "exit"
        var cpuSeconds: Double
        var cpuAfterFirstFrame: Double
        var maxRssMb: Double
        var rssMb: Double
        var frames: Int
        /// glibc malloc arenas in use (nil elsewhere): two at most (`Allocator`).
        var mallocArenas: Int?
        /// Opted out of transparent huge pages (`Allocator`); nil where the kernel cannot say.
        var transparentHugePagesDisabled: Bool?
        /// malloc's bytes in use and free inside its heaps, in MB (mallinfo2; nil elsewhere).
        var mallocInUseMb: Double?
        var mallocFreeMb: Double?
    }

    let kiosk: Kiosk
    let clock: any HyzerClock
    let launchedAt: Int64
    private var cpuAtFirstFrame = 0.0
    private let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        encoder.outputFormatting = .sortedKeys
        return encoder
    }()

    /// `launchedAt` is process start as the clock saw it when the report was made, just
    /// after start-up: the benchmark times process start to this line itself.
    init(kiosk: Kiosk, clock: any HyzerClock) {
        self.kiosk = kiosk
        self.clock = clock
        launchedAt = clock.uptimeMilliseconds
    }

    func firstFrame() {
        cpuAtFirstFrame = ResourceUsage.current().cpuSeconds
        write(
            FirstFrame(
                renderer: kiosk.display.rendererName, driver: kiosk.display.videoDriver,
                ms: clock.uptimeMilliseconds - launchedAt))
    }

    func exit() {
        let usage = ResourceUsage.current()
        let heap = Allocator.usage()
        // CPU after the first frame is what the board costs while it sits there.
        write(
            Exit(
                cpuSeconds: usage.cpuSeconds, cpuAfterFirstFrame: usage.cpuSeconds - cpuAtFirstFrame,
                maxRssMb: usage.maxRSSMegabytes, rssMb: ResourceUsage.currentRSSMegabytes() ?? usage.maxRSSMegabytes,
                frames: kiosk.frames, mallocArenas: Allocator.arenaCount(),
                transparentHugePagesDisabled: Allocator.transparentHugePagesDisabled(),
                mallocInUseMb: heap.map { Double($0.inUse) / 1_048_576 }, mallocFreeMb: heap.map { Double($0.free) / 1_048_576 }))
    }

    /// Unbuffered: a reader may be timing the line.
    private func write(_ value: some Encodable) {
        guard let data = try? encoder.encode(value) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }
}
