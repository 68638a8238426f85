import Foundation
import HyzerHarness
import Testing

/// Issue 12: the kiosk keeps glibc's malloc to two arenas (`Allocator`), which is what kept
/// its resident memory flat in the soak. Checked on the real process: a headless kiosk with a
/// 12-player demo round runs its threads (display, knob, store queues, Swift's executors),
/// and its `--run-for` report counts the arenas it ended with.
///
/// Negative control: with `Allocator.limitArenas()` taken out of hyzer-kiosk's main.swift,
/// this fails: the same run ends with 8 arenas (one per thread that allocated, up to glibc's
/// eight per core).
///
/// The same run checks the kiosk opted out of transparent huge pages (`Allocator`), which the
/// kernel reports per process (PR_GET_THP_DISABLE) whatever the system's setting. Negative
/// control: with `Allocator.disableTransparentHugePages()` taken out of main.swift, the report
/// says false and this fails.
@Suite struct KioskAllocatorTests {
    @Test func theKioskRunsOnTwoMallocArenas() async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-kiosk-arenas-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        let demo = try await Binary.run("hyzer", ["demo", "--data", dir.path, "--players", "12"])
        #expect(demo.status == 0, "\(demo.stderr)")
        let run = try await Binary.run("hyzer-kiosk", ["--data", dir.path, "--headless", "--run-for", "3"])
        #expect(run.status == 0, "\(run.stderr)")
        struct Exit: Decodable {
            var event: String
            var frames: Int
            var malloc_arenas: Int?
            var transparent_huge_pages_disabled: Bool?
        }
        let exit = try #require(
            run.stdout.split(separator: "\n").compactMap { try? JSONDecoder().decode(Exit.self, from: Data($0.utf8)) }
                .first { $0.event == "exit" }, "no exit report in: \(run.stdout)")
        #expect(exit.frames > 0, "the board was drawn")
        let arenas = try #require(exit.malloc_arenas, "glibc's malloc_info gave no answer")
        #expect(arenas >= 1 && arenas <= 2, "the kiosk ended with \(arenas) malloc arenas")
        let hugePagesOff = try #require(exit.transparent_huge_pages_disabled, "the kernel gave no PR_GET_THP_DISABLE")
        #expect(hugePagesOff, "the kiosk may still get transparent huge pages")
    }
}
