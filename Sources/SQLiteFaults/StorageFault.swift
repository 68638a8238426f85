import Foundation
import GRDB

#if canImport(Glibc)
import Glibc
#endif

/// What is wrong with the storage under a database, named from SQLite's result code (and
/// the filesystem's own answer) before anything acts on it. Only `.damaged` ever makes the
/// store move a file aside: a full, read-only, forbidden or locked database is healthy,
/// and moving it would hide a round that is still perfectly readable (issue 12).
///
/// `description` is the one line a person reads on the CLI, in the journal and on the
/// kiosk: what happened and what to do.
public enum StorageFault: Error, Sendable, Equatable, CustomStringConvertible {
    /// SQLITE_FULL or ENOSPC. `freeBytes` is what statvfs reported when it was named.
    case full(directory: String, freeBytes: Int64)
    /// SQLITE_READONLY or EROFS, or a database that must be created on a read-only filesystem.
    case readOnly(directory: String)
    /// EACCES/EPERM or SQLITE_PERM.
    case permission(path: String)
    /// SQLITE_BUSY/SQLITE_LOCKED past the busy timeout: another process holds the database.
    case busy(path: String)
    /// SQLITE_CORRUPT/SQLITE_NOTADB or a failed `PRAGMA quick_check`.
    case damaged(path: String, details: String)

    public var description: String {
        switch self {
        case .full(let directory, let free) where free >= Volume.warnBelow:
            // SQLITE_FULL with room on the card: a page limit or a full temporary directory.
            "The database in \(directory) could not grow although \(free / 1_000_000) MB are free there (a size limit, or the temporary directory is full): scores are not saved. Free space in /tmp and restart."
        case .full(let directory, let free):
            "Storage is full: \(free / 1_000_000) MB free on \(directory). Free some space; scores are saved again as soon as there is room."
        case .readOnly(let directory):
            "Storage is read-only: \(directory) cannot be written, so scores cannot be saved. Check the SD card and remount it read-write; the board keeps showing."
        case .permission(let path):
            "No permission to write \(path): run as the user that owns it, or fix its owner (chown)."
        case .busy(let path):
            "The database \(path) is locked by another program: wait for it to finish (or stop it) and try again."
        case .damaged(let path, let details):
            "The database \(path) is damaged (\(details)): restart to move it aside and salvage what is readable."
        }
    }

    /// A line short enough for the kiosk's notice.
    public var short: String {
        switch self {
        case .full(_, let free) where free >= Volume.warnBelow: "Database size limit reached: not saved"
        case .full(_, let free): "Storage full (\(free / 1_000_000) MB free): not saved"
        case .readOnly: "Storage is read-only: scores cannot be saved"
        case .permission: "No permission to write the database: not saved"
        case .busy: "Database busy (another program): not saved"
        case .damaged: "Database damaged: restart the kiosk to repair"
        }
    }

    package var isReadOnlyOrFull: Bool {
        switch self {
        case .readOnly, .full: true
        default: false
        }
    }

    public var isDamage: Bool {
        if case .damaged = self { return true }
        return false
    }

    /// Names the fault behind `error` for the database at `path`, or nil when it is not a
    /// storage fault (a constraint, a domain rule, a programming error).
    public static func classify(_ error: any Error, path: String) -> StorageFault? {
        if let fault = error as? StorageFault { return fault }
        let directory = (path as NSString).deletingLastPathComponent
        if let error = error as? DatabaseError {
            switch error.resultCode {
            case .SQLITE_CORRUPT, .SQLITE_NOTADB:
                return .damaged(path: path, details: error.message ?? "\(error.resultCode)")
            case .SQLITE_FULL:
                return .full(directory: directory, freeBytes: Volume(directory).freeBytes ?? 0)
            case .SQLITE_READONLY:
                return .readOnly(directory: directory)
            case .SQLITE_PERM, .SQLITE_AUTH:
                return .permission(path: path)
            case .SQLITE_BUSY, .SQLITE_LOCKED:
                return .busy(path: path)
            case .SQLITE_CANTOPEN, .SQLITE_IOERR:
                // SQLite reports what the OS refused only in its own words; ask the
                // filesystem itself which of the named faults it is.
                return fromVolume(path: path, directory: directory)
            default:
                return nil
            }
        }
        let errno = errnoOf(error)
        switch errno {
        case ENOSPC: return .full(directory: directory, freeBytes: Volume(directory).freeBytes ?? 0)
        case EROFS: return .readOnly(directory: directory)
        case EACCES, EPERM: return .permission(path: path)
        default: return nil
        }
    }

    /// One line a person can read for any runtime error, for every executable and the
    /// kiosk's status line: a storage fault's own sentence, Foundation's localized
    /// description instead of its `Error Domain=… UserInfo=…` dump, and never more than
    /// one line of anything else.
    public static func oneLine(for error: any Error) -> String {
        if let fault = error as? StorageFault { return fault.description }
        let text: String
        if error is CocoaError || error is POSIXError || type(of: error) is NSError.Type {
            let path = (error as NSError).userInfo[NSFilePathErrorKey] as? String ?? ""
            if let fault = classify(error, path: path) { return fault.description }
            // The OS's own words and the file it was about, not "The operation could
            // not be completed".
            if let code = errnoOf(error) {
                text = (path.isEmpty ? "" : path + ": ") + String(cString: strerror(code))
            } else {
                text = (error as NSError).localizedDescription
            }
        } else {
            text = "\(error)"
        }
        // One line, and no closing period: callers go on with what to do.
        let line = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.hasSuffix(".") ? String(line.dropLast()) : line
    }

    /// The one line for a store that could not be opened: a storage fault's own
    /// sentence, else what failed, where, and what to do (for every executable).
    public static func cannotOpen(_ what: String, in directory: String, _ error: any Error) -> String {
        if let fault = error as? StorageFault { return fault.description }
        return "Cannot open \(what) in \(directory): \(oneLine(for: error)). Pass --data with a directory this user can write."
    }

    /// For an open or I/O error that says no more: the volume's state decides.
    package static func fromVolume(path: String, directory: String) -> StorageFault? {
        let volume = Volume(directory)
        if volume.isReadOnly { return .readOnly(directory: directory) }
        if let free = volume.freeBytes, free < Volume.fullBelow { return .full(directory: directory, freeBytes: free) }
        if access(directory, W_OK) != 0 || (FileManager.default.fileExists(atPath: path) && access(path, R_OK | W_OK) != 0) {
            return .permission(path: path)
        }
        // statvfs can still say "rw" when the filesystem refuses writes: ext4's emergency
        // read-only after an I/O error keeps the mount's flags. Asking it to create a file
        // gets the errno SQLite saw but did not pass on.
        switch Volume.probeWrite(directory) {
        case EROFS: return .readOnly(directory: directory)
        case ENOSPC, EDQUOT: return .full(directory: directory, freeBytes: volume.freeBytes ?? 0)
        case EACCES, EPERM: return .permission(path: path)
        default: return nil
        }
    }

    private static func errnoOf(_ error: any Error) -> Int32? {
        if let error = error as? POSIXError { return error.code.rawValue }
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return Int32(ns.code) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return Int32(underlying.code)
        }
        // Foundation on Linux names some errno values only by their Cocoa code.
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileWriteOutOfSpace: return ENOSPC
        case .fileWriteVolumeReadOnly: return EROFS
        case .fileWriteNoPermission, .fileReadNoPermission: return EACCES
        case .fileNoSuchFile, .fileReadNoSuchFile: return ENOENT
        default: return nil
        }
    }
}

/// The filesystem under a directory, as statvfs sees it now.
public struct Volume: Sendable, Equatable {
    /// Below this many free bytes the store warns (journal and the kiosk's status line).
    public static let warnBelow: Int64 = 50_000_000
    /// A write that fails with an I/O error while this little is free was a full disk
    /// (SQLite needs a few pages for the WAL and its index).
    package static let fullBelow: Int64 = 256 * 1024

    public var directory: String
    /// Bytes an unprivileged writer may still use; nil when statvfs failed.
    public var freeBytes: Int64?
    public var isReadOnly: Bool

    public init(_ directory: String) {
        self.directory = directory
        var info = statvfs()
        if statvfs(directory, &info) == 0 {
            freeBytes = Int64(info.f_bavail) * Int64(info.f_frsize)
            isReadOnly = info.f_flag & UInt(ST_RDONLY) != 0
        } else {
            freeBytes = nil
            isReadOnly = false
        }
    }

    /// Creates and removes a one-byte file in `directory`; the errno when that fails, else 0.
    package static func probeWrite(_ directory: String) -> Int32 {
        let path = directory + "/.hyzer-write-probe-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(path, O_CREAT | O_EXCL | O_WRONLY, 0o600)
        guard fd >= 0 else { return errno }
        defer {
            close(fd)
            unlink(path)
        }
        var byte: UInt8 = 0
        return write(fd, &byte, 1) == 1 && fsync(fd) == 0 ? 0 : errno
    }

    /// The warning for the journal and the kiosk, or nil when there is room.
    public var warning: String? {
        if isReadOnly { return StorageFault.readOnly(directory: directory).short }
        guard let freeBytes, freeBytes < Self.warnBelow else { return nil }
        return "Storage low: \(freeBytes / 1_000_000) MB free on \(directory)"
    }
}
