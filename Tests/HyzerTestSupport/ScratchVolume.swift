import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A real, small filesystem for storage-fault tests (issue 12): a tmpfs of a few MB that
/// can be filled to the last byte and remounted read-only and back, as an SD card does
/// with `errors=remount-ro`. Mounting needs root; `ScratchVolume.unavailable` says why a
/// test skips when it is not.
public final class ScratchVolume {
    public let root: URL

    /// nil when real faults can be made here, else the reason the root-only cases skip.
    public static var unavailable: String? {
        geteuid() == 0 ? nil : "not root (euid \(geteuid())): real full and read-only filesystems need mount(8)"
    }

    public init(megabytes: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-vol-\(UUID().uuidString)")
        image = nil
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Self.mount(["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0755", "tmpfs", root.path])
    }

    /// An ext4 image on a loop device, mounted with `errors=remount-ro` as a Pi's SD card
    /// is: `triggerError()` makes the kernel take it read-only as after an I/O error.
    /// Throws where loop devices are not available.
    public init(ext4Megabytes megabytes: Int) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-ext4-\(UUID().uuidString)")
        image = root.path + ".img"
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: image!, contents: nil),
            truncate(image!, off_t(megabytes) * 1_048_576) == 0,
            try Self.run("/sbin/mkfs.ext4", ["-q", "-F", image!]) == 0
        else { throw POSIXError(.EIO) }
        try Self.mount(["-o", "loop,errors=remount-ro", image!, root.path])
    }

    /// The ext4 image, for a loop-device volume.
    let image: String?

    /// What ext4 does on an I/O error under `errors=remount-ro`: every write from now on
    /// fails with EROFS (the mount's own flags may still say rw).
    public func triggerError() throws {
        let device = try Self.output("/bin/findmnt", ["-n", "-o", "SOURCE", root.path])
        let trigger = "/sys/fs/ext4/\(URL(fileURLWithPath: device).lastPathComponent)/trigger_fs_error"
        guard FileManager.default.fileExists(atPath: trigger) else { throw POSIXError(.EOPNOTSUPP) }
        try Data("hyzer storage fault test\n".utf8).write(to: URL(fileURLWithPath: trigger))
    }

    /// What a person does after the error: unmount, fsck, mount again. Everything on the
    /// volume must be closed first.
    public func repairAndRemount() throws {
        guard let image else { return try remount(readOnly: false) }
        guard try Self.run("/bin/umount", [root.path]) == 0 else { throw POSIXError(.EBUSY) }
        _ = try Self.run("/sbin/e2fsck", ["-f", "-y", image])
        try Self.mount(["-o", "loop,errors=remount-ro", image, root.path])
    }

    deinit {
        if image == nil { try? Self.mount(["-o", "remount,rw", root.path]) }
        _ = try? Self.run("/bin/umount", ["-l", root.path])
        try? FileManager.default.removeItem(at: root)
        if let image { try? FileManager.default.removeItem(atPath: image) }
    }

    /// Remounts the volume read-only (or writable again). A filesystem with a file open
    /// for writing refuses to become read-only, so stores on it are closed first.
    ///
    /// A refusal as busy is tried again for up to 10 s: a process another test is starting
    /// holds a copy of every open fd, O_CLOEXEC ones too, from its fork until its exec, and
    /// on a loaded machine that gap lasts (`make test-under-load` once refused the remount
    /// just after the store here had closed its files).
    public func remount(readOnly: Bool) throws {
        let deadline = Date().addingTimeInterval(10)
        while true {
            do {
                return try Self.mount(["-o", readOnly ? "remount,ro" : "remount,rw", root.path])
            } catch let error as MountError where error.message.contains("busy") && Date() < deadline {
                usleep(100_000)
            }
        }
    }

    /// Fills the volume to the last byte with one file and returns it (delete it to free
    /// the space): writes shrink from 64 KiB to 1 byte until even one byte is refused.
    ///
    /// On a thread of its own: a whole-system sync can take seconds on a machine busy writing,
    /// and blocking one of the cooperative pool's two threads that long can starve the
    /// in-process servers of other tests into their request deadlines (HyzerHarness's
    /// ChildProcess.swift says more).
    @discardableResult
    public func fill() async throws -> URL {
        let root = self.root
        return try await offThePool { try Self.fill(root) }
    }

    private static func fill(_ root: URL) throws -> URL {
        let filler = root.appendingPathComponent("filler-\(UUID().uuidString)")
        let fd = open(filler.path, O_CREAT | O_WRONLY | O_APPEND, 0o600)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let buffer = [UInt8](repeating: 0xA5, count: 64 * 1024)
        // ext4's delayed allocation can refuse a write (ENOSPC) while blocks are only
        // reserved, and give some back once the file is synced: fill again after each sync
        // until a round writes nothing, or a database write can still find room (seen in CI
        // while other builds ran: "Storage low: 0 MB free", and the write went through).
        // The last sync can itself give reservations back, so it is full only once two rounds
        // in a row, a whole-system sync and a moment apart, write nothing (seen once in CI:
        // one round was not enough, and a fresh database's WAL found room).
        var emptyRounds = 0
        for _ in 0..<32 where emptyRounds < 2 {
            var size = buffer.count
            var wrote = false
            while size > 0 {
                let written = buffer.withUnsafeBytes { write(fd, $0.baseAddress, size) }
                if written < 0 {
                    guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                    size /= 2
                } else if written > 0 {
                    wrote = true
                }
            }
            fsync(fd)
            sync()
            emptyRounds = wrote ? 0 : emptyRounds + 1
            if emptyRounds < 2 { usleep(20_000) }
        }
        return filler
    }

    /// Bytes still free, as statvfs reports them.
    public var freeBytes: Int64 {
        var info = statvfs()
        guard statvfs(root.path, &info) == 0 else { return -1 }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// mount(8) refused, with what it said.
    public struct MountError: Error, CustomStringConvertible {
        public let arguments: [String]
        public let message: String
        public var description: String { "mount \(arguments.joined(separator: " ")) failed: \(message)" }
    }

    private static func mount(_ arguments: [String]) throws {
        let (status, said) = try Command.run("/bin/mount", arguments)
        guard status == 0 else {
            let message = said.trimmingCharacters(in: .whitespacesAndNewlines)
            throw MountError(arguments: arguments, message: message.isEmpty ? "exit \(status)" : message)
        }
    }

    private static func run(_ path: String, _ arguments: [String]) throws -> Int32 {
        try Command.run(path, arguments).status
    }

    private static func output(_ path: String, _ arguments: [String]) throws -> String {
        try Command.run(path, arguments).said.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// Another process holding a database's write lock: the `sqlite3` shell inside
/// `BEGIN EXCLUSIVE`, until `release()`.
public final class LockHolder {
    let shell: Command

    public init(_ path: String) throws {
        shell = try Command("/usr/bin/sqlite3", [path], input: true)
        shell.write("BEGIN EXCLUSIVE;\nSELECT 'locked';\n")
        guard shell.read(until: "locked") else { throw POSIXError(.EIO) }  // sqlite3 exited
    }

    public func release() {
        shell.write("ROLLBACK;\n.quit\n")
        shell.wait()
    }

    deinit { if shell.isRunning { release() } }
}
