import CMalloc
import Foundation

/// The kiosk's allocator settings: at most two glibc malloc arenas, and no transparent huge
/// pages.
///
/// glibc gives a thread that meets a busy arena a new one, up to eight per core. A kiosk
/// runs about twenty threads (SDL, the knob, GRDB's queues, NIO, Swift's executors), so
/// its small allocations spread over up to 16 arenas. Memory freed in one arena serves only
/// that arena's next requests, and each arena grows its heap by its own high-water mark:
/// resident memory creeps up by an arena step at a time for many minutes, though almost
/// nothing stays allocated. Measured with `hyzer-bench soak` (two 15-minute X11 runs side
/// by side, same load): 8.7 MB/h of growth after the first 5 minutes with glibc's default,
/// 0.87 MB/h and 2.3 MB less resident memory with two arenas, at the same CPU (21.0% and
/// 21.1% of a core). heaptrack over the same soak found no allocation site growing
/// beyond the text cache filling to its bound. Two, not one: the knob's realtime thread
/// then rarely waits on the display thread's allocations.
///
/// Huge pages: Debian's kernel is built with transparent huge pages "always", so any
/// anonymous range that spans an aligned 2 MB gets a whole 2 MB page at its first touch. On the
/// emulated appliance that made a thread's 8 MB stack count 2 MB resident for the few KB it
/// uses, and a malloc arena's 64 MB reservation count whole huge pages for small heaps.
/// The kiosk touches its memory sparsely and gains nothing from fewer TLB misses, so it
/// opts out for itself (PR_SET_THP_DISABLE), whatever the system's setting.
public enum Allocator {
    public static let maximumArenas: Int32 = 2

    /// Call first thing in the process, before its threads start allocating: arenas that
    /// already exist stay.
    public static func limitArenas() {
        #if canImport(Glibc)
        _ = mallopt(M_ARENA_MAX, maximumArenas)
        #endif
    }

    /// Call first thing in the process: pages faulted in before stay huge.
    public static func disableTransparentHugePages() {
        #if canImport(Glibc)
        _ = hyzer_disable_transparent_huge_pages()
        #endif
    }

    /// Whether this process is opted out of transparent huge pages (PR_GET_THP_DISABLE), for
    /// the run report; nil where the kernel cannot say.
    public static func transparentHugePagesDisabled() -> Bool? {
        #if canImport(Glibc)
        let state = hyzer_transparent_huge_pages_disabled()
        return state < 0 ? nil : state != 0
        #else
        return nil
        #endif
    }

    /// Returns malloc's free pages to the kernel, in every arena (malloc_trim), where glibc
    /// would keep them for later requests. For after a large structure was let go, not a
    /// loop: it walks every free chunk (about a millisecond for the kiosk's heap).
    public static func returnFreeMemory() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }

    /// What malloc holds, over every arena (mallinfo2): bytes handed out and still in use,
    /// and bytes free inside the arenas' heaps, which are still resident unless trimmed.
    public static func usage() -> (inUse: Int, free: Int)? {
        #if canImport(Glibc)
        let info = mallinfo2()
        return (Int(info.uordblks + info.hblkhd), Int(info.fordblks))
        #else
        return nil
        #endif
    }

    /// How many arenas the process has now (`malloc_info`'s heaps), for the run report.
    /// Nil where glibc's malloc_info is not available.
    public static func arenaCount() -> Int? {
        #if canImport(Glibc)
        var buffer: UnsafeMutablePointer<CChar>?
        var size = 0
        guard let stream = open_memstream(&buffer, &size) else { return nil }
        let status = malloc_info(0, stream)
        fclose(stream)
        defer { free(buffer) }
        guard status == 0, let buffer else { return nil }
        let xml = String(cString: buffer)
        return xml.components(separatedBy: "<heap nr=").count - 1
        #else
        return nil
        #endif
    }
}
