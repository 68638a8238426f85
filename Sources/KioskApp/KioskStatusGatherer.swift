import Foundation
import HyzerStore
import HyzerSync
import KioskCore
import KioskHardware
import SQLiteFaults
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Collects the status screen's facts from where they already live: the enrollment file
/// and the outbox (what `hyzer device show` prints), the store's files and volume, the
/// knob and display chosen at start-up, the frame ring and the network interfaces.
///
/// Called only when the status screen asks (`.refreshStatus`, every 2 s while it is up):
/// nothing here runs while the board is idle.
public struct KioskStatusGatherer: Sendable {
    /// The kiosk's release; shown on the status screen so a maintainer can tell which build runs.
    public static let version = "0.9.0"

    public let store: HyzerDatabase
    /// Set by `buildKiosk` once the knob is chosen, and by the knob service when the knob
    /// fails mid-run; a kiosk without one uses the keyboard.
    public let knob = KnobReport()
    /// The SDL video driver and renderer, once a display is open.
    public var display: (driver: String, renderer: String)?

    public init(store: HyzerDatabase) { self.store = store }

    /// The facts now. `viewport` is the screen's current size; `frames` the recent drawing times.
    public func gather(viewport: Viewport, frames: FrameTimes) -> KioskStatus {
        var status = KioskStatus(knob: knob.current, version: Self.version, addresses: Self.addresses())
        status.group = group()
        if let display {
            let (p50, p99) = (frames.percentile(0.5), frames.percentile(0.99))
            status.display = KioskStatus.Display(
                driver: display.driver, renderer: display.renderer, width: viewport.width, height: viewport.height,
                drawP50: p50, drawP99: p99, frames: frames.count)
        }
        if let directory = store.directory {
            status.storage = KioskStatus.Storage(
                directory: directory.path, databaseBytes: Self.databaseBytes(in: directory),
                freeBytes: Volume(directory.path).freeBytes, warnBelow: Volume.warnBelow)
        }
        return status
    }

    /// The enrollment and the outbox; nil when this kiosk is not in a group.
    func group() -> KioskStatus.Group? {
        guard let directory = store.directory, let link = try? ServerLink.load(from: directory) else { return nil }
        // A store that cannot be read right now still shows what it is enrolled with.
        let cursor = try? store.read(.syncCursor)
        return KioskStatus.Group(
            server: link.serverURL, group: link.groupName, deviceName: link.deviceName,
            pending: (try? store.read(.pendingSyncCount)) ?? 0, refused: (try? store.read(.outboxCounts))?[.failed] ?? 0,
            epoch: cursor?.epoch)
    }

    /// Both databases with their WAL and shared-memory files: what they take on the card now
    /// (a stat of each, no checkpoint: this must not write).
    static func databaseBytes(in directory: URL) -> Int64? {
        var total: Int64 = 0
        var found = false
        for name in [HyzerDatabase.domainFileName, HyzerDatabase.operationalFileName] {
            for suffix in ["", "-wal", "-shm"] {
                var info = stat()
                guard stat(directory.appendingPathComponent(name + suffix).path, &info) == 0 else { continue }
                total += Int64(info.st_size)
                found = true
            }
        }
        return found ? total : nil
    }

    /// The addresses a maintainer can reach this kiosk on: IPv4 first, no loopback, no
    /// IPv6 link-local (unusable without naming the interface).
    static func addresses() -> [String] {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return [] }
        defer { freeifaddrs(list) }
        var v4: [String] = []
        var v6: [String] = []
        for entry in sequence(first: first, next: { $0.pointee.ifa_next }) {
            let flags = Int32(entry.pointee.ifa_flags)
            guard let address = entry.pointee.ifa_addr, flags & Int32(IFF_UP) != 0, flags & Int32(IFF_LOOPBACK) == 0
            else { continue }
            let family = Int32(address.pointee.sa_family)
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            if family == AF_INET {
                var sin = UnsafeRawPointer(address).load(as: sockaddr_in.self).sin_addr
                guard inet_ntop(AF_INET, &sin, &buffer, socklen_t(buffer.count)) != nil else { continue }
                v4.append(String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self))
            } else if family == AF_INET6 {
                var sin6 = UnsafeRawPointer(address).load(as: sockaddr_in6.self).sin6_addr
                guard inet_ntop(AF_INET6, &sin6, &buffer, socklen_t(buffer.count)) != nil else { continue }
                let text = String(decoding: buffer.prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
                if !text.lowercased().hasPrefix("fe80") { v6.append(text) }
            }
        }
        return v4 + v6
    }
}
