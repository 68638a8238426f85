import Dispatch
import Foundation

/// Writes to the domain database's files in a data directory, as the kernel reports them
/// (inotify): what lets the change monitor sleep while nobody writes.
///
/// Another process's commit reaches the files through `write()` calls on the WAL (and
/// on the database itself when a checkpoint runs), and each is an event here. An event
/// says a commit may be under way, not that it is visible: the WAL index that makes it
/// visible is updated after the commit's fsync, through shared memory, which the kernel
/// does not report. So the monitor keeps asking `PRAGMA data_version` for a while after
/// the last write (see `ChangeMonitorService`).
///
/// No thread waits here: Dispatch watches the descriptor with the rest of its event loop
/// and runs the handler only when the kernel has something to say.
///
/// Owned by the task that waits on `writes` (the Dispatch source is not `Sendable`);
/// releasing it stops the watch and closes the descriptor.
final class StoreFileWatch {
    /// One element per burst of writes (a write noticed before the previous one was taken
    /// is the same news).
    let writes: AsyncStream<Void>
    private let source: any DispatchSourceRead
    private let continuation: AsyncStream<Void>.Continuation

    /// Nil when the directory cannot be watched (no inotify, or the per-user watch limit
    /// is reached); the monitor then polls.
    init?(directory: URL, fileNames: Set<String>) {
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory.path, UInt32(IN_MODIFY | IN_CREATE | IN_MOVED_TO)) >= 0 else {
            close(fd)
            return nil
        }
        let (writes, continuation) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        self.writes = writes
        self.continuation = continuation
        source = DispatchSource.makeReadSource(fileDescriptor: fd, queue: DispatchQueue(label: "hyzer.store-watch"))
        source.setEventHandler {
            if Self.drain(fd, mentioning: fileNames) { continuation.yield() }
        }
        source.setCancelHandler { close(fd) }
        source.resume()
    }

    deinit {
        source.cancel()
        continuation.finish()
    }

    /// Reads every pending event; true when one names a watched file (or events were lost,
    /// which may have hidden one).
    private static func drain(_ fd: Int32, mentioning names: Set<String>) -> Bool {
        var relevant = false
        let headerSize = MemoryLayout<inotify_event>.size
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let length = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard length > 0 else { return relevant }
            buffer.withUnsafeBytes { bytes in
                var offset = 0
                while offset + headerSize <= length {
                    let event = bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self)
                    let nameLength = Int(event.len)
                    if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                        relevant = true
                    } else if nameLength > 0 {
                        let start = offset + headerSize
                        let raw = bytes[start..<min(start + nameLength, length)]
                        let name = String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
                        if names.contains(name) { relevant = true }
                    }
                    offset += headerSize + nameLength
                }
            }
        }
    }
}
