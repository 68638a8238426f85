import CDRM
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The board on a console without SDL's KMSDRM window: frames drawn by SDL's software
/// renderer into memory are copied into two DRM dumb buffers and page-flipped onto the panel.
///
/// Why not SDL's own KMSDRM driver: it needs GBM, EGL and a GL driver even to show a
/// software-rendered frame (under Mesa that loads libLLVM: 63 MB of the kiosk's 152 MB PSS
/// in the appliance test, and seconds of start-up), and it shows a buffer only when the next
/// one is swapped in, so an idle board's first frame stayed black. A dumb buffer needs
/// neither: every KMS driver has them (vc4 on a Pi, bochs and virtio under QEMU).
///
/// The panel may go and come back (a loose HDMI cable, a monitor switched off at the wall):
/// the kernel announces each change as a uevent, and the scanout re-reads its connectors then.
/// A lost panel turns the output off; a panel back gets a fresh mode set and the last frame,
/// without a restart. A panel back at another size gets the old frame centred or cut for a
/// moment, until the display has laid the board out for it (`Display.fitFrameToPanel`).
final class KMSScanout {
    /// What a connector offers, read from the kernel (plain values, so the choice is testable).
    struct Connector: Equatable {
        var id: UInt32
        var connected: Bool
        /// Modes as (width, height, preferred), in the kernel's order.
        var modes: [ModeSize]
        /// The encoder driving it now (0: none) and the ones it can use.
        var currentEncoder: UInt32
        var encoders: [UInt32]
    }

    struct ModeSize: Equatable {
        var width: Int
        var height: Int
        var preferred: Bool
    }

    struct Encoder: Equatable {
        var id: UInt32
        /// The CRTC it drives now (0: none).
        var crtc: UInt32
        /// Bit i set: may drive the resources' i-th CRTC.
        var possibleCrtcs: UInt32
    }

    /// Which connector, mode and CRTC to light.
    struct Choice: Equatable {
        var connector: UInt32
        var mode: Int
        var crtc: UInt32
    }

    /// The first connected connector with modes, its preferred mode (else the first; a panel
    /// that offers `keepSize` keeps it, so a replugged panel shows the frame it had), and a
    /// CRTC: the one its encoder drives now, else the first its encoders may drive.
    static func choose(
        connectors: [Connector], encoders: [Encoder], crtcs: [UInt32], keepSize: (width: Int, height: Int)? = nil,
        connector wanted: UInt32? = nil
    ) -> Choice? {
        let candidates = connectors.filter { $0.connected && !$0.modes.isEmpty && (wanted == nil || $0.id == wanted) }
        for connector in candidates {
            let mode =
                keepSize.flatMap { size in connector.modes.firstIndex { $0.width == size.width && $0.height == size.height } }
                ?? connector.modes.firstIndex { $0.preferred } ?? 0
            if let current = encoders.first(where: { $0.id == connector.currentEncoder }), current.crtc != 0 {
                return Choice(connector: connector.id, mode: mode, crtc: current.crtc)
            }
            for encoder in encoders where connector.encoders.contains(encoder.id) {
                if let index = crtcs.indices.first(where: { encoder.possibleCrtcs & (1 << UInt32($0)) != 0 }) {
                    return Choice(connector: connector.id, mode: mode, crtc: crtcs[index])
                }
            }
        }
        return nil
    }

    /// Whether a kernel uevent (NUL-separated "KEY=value" fields after "action@path") may
    /// mean a DRM device's connectors changed: any "change" of a DRM device. Drivers mark a
    /// hotplug HOTPLUG=1, but a forced connector status or a synthetic uevent
    /// (`echo change > /sys/class/drm/card0/uevent`) carries none, and re-reading the
    /// connectors after a rare event costs little.
    static func announcesConnectorChange(_ message: some Collection<UInt8>) -> Bool {
        let fields = message.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
        return fields.contains("SUBSYSTEM=drm") && fields.contains("ACTION=change")
    }

    /// One dumb buffer: a kernel framebuffer and its mapping.
    private struct Buffer {
        var handle: UInt32
        var framebuffer: UInt32
        var pitch: Int
        var size: Int
        var pixels: UnsafeMutableRawPointer
    }

    let cardPath: String
    private let fd: Int32
    /// The kernel's uevents (netlink), or -1 where they cannot be read: then a panel that
    /// goes and comes back is not noticed (the next start finds it).
    private let uevents: Int32
    private var connectorID: UInt32?
    private var crtcID: UInt32 = 0
    private var mode = drmModeModeInfo()
    private var buffers: [Buffer] = []
    /// The buffer to draw into next (the other one is on the panel).
    private var back = 0
    /// Whether the CRTC shows one of our buffers (a mode set happened since the last change).
    private var lit = false
    private var flipPending = false
    /// The frame last copied out, for a panel that comes back.
    private var lastFrame: (pixels: UnsafeRawPointer, pitch: Int, width: Int, height: Int, rotate: Bool)?
    /// What happened last, for the kiosk's log ("panel lost", "panel back at 1920×1080").
    private(set) var lastChange: String?

    /// The panel's size while one is lit; nil while none is connected.
    private(set) var size: (width: Int, height: Int)?

    init(cardPath: String) throws {
        self.cardPath = cardPath
        fd = open(cardPath, O_RDWR | O_CLOEXEC)
        guard fd >= 0 else { throw RenderError(message: "cannot open \(cardPath): \(String(cString: strerror(errno)))") }
        var dumb: UInt64 = 0
        guard drmGetCap(fd, UInt64(DRM_CAP_DUMB_BUFFER), &dumb) == 0, dumb != 0 else {
            close(fd)
            throw RenderError(message: "\(cardPath) has no dumb buffers (not a display controller)")
        }
        // The first opener of a card is its master; ask in case a console had it.
        _ = drmSetMaster(fd)
        uevents = Self.openUevents()
        _ = connect(keepSize: nil)
    }

    deinit {
        releaseBuffers()
        if uevents >= 0 { close(uevents) }
        close(fd)
    }

    /// The cards under /dev/dri that drive a display (a Pi 5's card0 is its render-only GPU),
    /// in name order.
    static func displayCards(in directory: String = "/dev/dri") -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasPrefix("card") }.sorted().map { "\(directory)/\($0)" }.filter { path in
            let fd = open(path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { return false }
            defer { close(fd) }
            guard let resources = drmModeGetResources(fd) else { return false }
            defer { drmModeFreeResources(resources) }
            return resources.pointee.count_connectors > 0 && resources.pointee.count_crtcs > 0
        }
    }

    // MARK: Frames

    /// Copies a frame (32-bit XRGB rows) to the back buffer and flips it onto the panel; a
    /// portrait frame with `rotate` is turned 90° clockwise. Nothing happens without a panel.
    /// `pixels` must stay valid until the next call (the display's surface): a panel that
    /// comes back is shown it again.
    func present(pixels: UnsafeRawPointer, pitch: Int, width: Int, height: Int, rotate: Bool) {
        lastFrame = (pixels, pitch, width, height, rotate)
        guard let size, buffers.count == 2 else { return }
        awaitFlip()
        let target = buffers[back]
        ScanoutCopy.copy(
            from: pixels, pitch: pitch, width: width, height: height, rotate: rotate,
            to: target.pixels, pitch: target.pitch, width: size.width, height: size.height)
        if lit, drmModePageFlip(fd, crtcID, target.framebuffer, UInt32(DRM_MODE_PAGE_FLIP_EVENT), nil) == 0 {
            flipPending = true
        } else {
            // The first frame, or a flip refused (a mode that changed under us): set the mode.
            lit = setCrtc(target.framebuffer)
        }
        back = 1 - back
    }

    /// Drops the frame kept for a panel that comes back: its pixels are about to be freed
    /// (the display remade its frame). The next `present` keeps a new one.
    func forgetLastFrame() { lastFrame = nil }

    /// Reads the kernel's uevents without blocking; on a DRM hotplug re-reads the panel.
    /// True when the panel's state changed (see `lastChange`).
    func checkHotplug() -> Bool {
        guard uevents >= 0 else { return false }
        var hotplug = false
        var message = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = message.withUnsafeMutableBytes { recv(uevents, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard count > 0 else { break }
            if Self.announcesConnectorChange(message[..<count]) { hotplug = true }
        }
        return hotplug && reconnect()
    }

    /// After a hotplug: lost, back, or the same.
    private func reconnect() -> Bool {
        let previous = size
        guard connect(keepSize: previous) else {
            guard previous != nil else { return false }
            // Off: no scanout from buffers the panel cannot show, and a clean mode set later.
            drmModeSetCrtc(fd, crtcID, 0, 0, 0, nil, 0, nil)
            lit = false
            flipPending = false
            size = nil
            lastChange = "panel lost on \(cardPath)"
            return true
        }
        // Lit still: the same panel and mode, nothing to do.
        guard previous == nil || !lit, let size else { return false }
        lastChange = "panel back on \(cardPath) at \(size.width)×\(size.height)"
        if let frame = lastFrame {
            present(pixels: frame.pixels, pitch: frame.pitch, width: frame.width, height: frame.height, rotate: frame.rotate)
        }
        return true
    }

    /// Finds a connected panel and makes buffers for its mode. False when none is connected.
    private func connect(keepSize: (width: Int, height: Int)?) -> Bool {
        guard let resources = drmModeGetResources(fd) else { return false }
        defer { drmModeFreeResources(resources) }
        let r = resources.pointee
        var connectors: [Connector] = []
        var modeInfos: [UInt32: [drmModeModeInfo]] = [:]
        for index in 0..<Int(r.count_connectors) {
            // drmModeGetConnector probes (reads the EDID): only here, after a hotplug or at start.
            guard let c = drmModeGetConnector(fd, r.connectors[index]) else { continue }
            defer { drmModeFreeConnector(c) }
            let infos = (0..<Int(c.pointee.count_modes)).map { c.pointee.modes[$0] }
            modeInfos[c.pointee.connector_id] = infos
            connectors.append(
                Connector(
                    id: c.pointee.connector_id, connected: c.pointee.connection == DRM_MODE_CONNECTED,
                    modes: infos.map {
                        ModeSize(
                            width: Int($0.hdisplay), height: Int($0.vdisplay),
                            preferred: $0.type & UInt32(DRM_MODE_TYPE_PREFERRED) != 0)
                    },
                    currentEncoder: c.pointee.encoder_id,
                    encoders: (0..<Int(c.pointee.count_encoders)).map { c.pointee.encoders[$0] }))
        }
        let encoders = (0..<Int(r.count_encoders)).compactMap { index -> Encoder? in
            guard let e = drmModeGetEncoder(fd, r.encoders[index]) else { return nil }
            defer { drmModeFreeEncoder(e) }
            return Encoder(id: e.pointee.encoder_id, crtc: e.pointee.crtc_id, possibleCrtcs: e.pointee.possible_crtcs)
        }
        let crtcs = (0..<Int(r.count_crtcs)).map { r.crtcs[$0] }
        // Stay on the connector we had while it is connected; else take any.
        let choice =
            connectorID.flatMap {
                Self.choose(connectors: connectors, encoders: encoders, crtcs: crtcs, keepSize: keepSize, connector: $0)
            }
            ?? Self.choose(connectors: connectors, encoders: encoders, crtcs: crtcs, keepSize: keepSize)
        guard let choice, let info = modeInfos[choice.connector]?[choice.mode] else { return false }
        let newSize = (width: Int(info.hdisplay), height: Int(info.vdisplay))
        let same =
            size.map { $0 == newSize } ?? false && connectorID == choice.connector && crtcID == choice.crtc
            && info.clock == mode.clock
        if same { return true }
        awaitFlip()
        if size.map({ $0 != newSize }) ?? true || buffers.isEmpty {
            releaseBuffers()
            guard makeBuffers(width: newSize.width, height: newSize.height) else { return false }
        }
        connectorID = choice.connector
        crtcID = choice.crtc
        mode = info
        size = newSize
        lit = false
        return true
    }

    private func setCrtc(_ framebuffer: UInt32) -> Bool {
        guard var connector = connectorID else { return false }
        return drmModeSetCrtc(fd, crtcID, framebuffer, 0, 0, &connector, 1, &mode) == 0
    }

    /// Waits (up to 100 ms) for the flip in flight, so the buffer it leaves is free to draw in.
    private func awaitFlip() {
        guard flipPending else { return }
        flipPending = false
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 100) > 0 else { return }
        // The flip's completion event: read and dropped (its timing is not used).
        var event = [UInt8](repeating: 0, count: 1024)
        _ = event.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    }

    private func makeBuffers(width: Int, height: Int) -> Bool {
        for _ in 0..<2 {
            var handle: UInt32 = 0
            var pitch: UInt32 = 0
            var size: UInt64 = 0
            guard drmModeCreateDumbBuffer(fd, UInt32(width), UInt32(height), 32, 0, &handle, &pitch, &size) == 0 else {
                return false
            }
            var framebuffer: UInt32 = 0
            var offset: UInt64 = 0
            guard drmModeAddFB(fd, UInt32(width), UInt32(height), 24, 32, pitch, handle, &framebuffer) == 0,
                drmModeMapDumbBuffer(fd, handle, &offset) == 0
            else {
                drmModeDestroyDumbBuffer(fd, handle)
                return false
            }
            let mapped = mmap(nil, Int(size), PROT_READ | PROT_WRITE, MAP_SHARED, fd, off_t(offset))
            guard let mapped, mapped != MAP_FAILED else {
                drmModeRmFB(fd, framebuffer)
                drmModeDestroyDumbBuffer(fd, handle)
                return false
            }
            memset(mapped, 0, Int(size))
            buffers.append(Buffer(handle: handle, framebuffer: framebuffer, pitch: Int(pitch), size: Int(size), pixels: mapped))
        }
        back = 0
        return true
    }

    private func releaseBuffers() {
        for buffer in buffers {
            munmap(buffer.pixels, buffer.size)
            drmModeRmFB(fd, buffer.framebuffer)
            drmModeDestroyDumbBuffer(fd, buffer.handle)
        }
        buffers = []
    }

    /// A netlink socket on the kernel's uevent group, non-blocking; -1 if refused.
    private static func openUevents() -> Int32 {
        let s = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), NETLINK_KOBJECT_UEVENT)
        guard s >= 0 else { return -1 }
        var address = sockaddr_nl()
        address.nl_family = sa_family_t(AF_NETLINK)
        address.nl_groups = 1  // the kernel's own messages (udev re-broadcasts on group 2)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(s, $0, socklen_t(MemoryLayout<sockaddr_nl>.size)) }
        }
        guard bound == 0 else {
            close(s)
            return -1
        }
        return s
    }
}

/// The copy from the drawn frame to a scanout buffer: row by row, or turned 90° clockwise
/// for a portrait board on a landscape panel; centred where the panel is larger (the rest
/// black), cut where it is smaller. 32-bit pixels on both sides.
enum ScanoutCopy {
    static func copy(
        from source: UnsafeRawPointer, pitch sourcePitch: Int, width: Int, height: Int, rotate: Bool,
        to target: UnsafeMutableRawPointer, pitch targetPitch: Int, width targetWidth: Int, height targetHeight: Int
    ) {
        // The drawn frame as it lands on the panel.
        let (shownWidth, shownHeight) = rotate ? (height, width) : (width, height)
        let left = (targetWidth - shownWidth) / 2
        let top = (targetHeight - shownHeight) / 2
        if left > 0 || top > 0 {
            for y in 0..<targetHeight { memset(target + y * targetPitch, 0, targetWidth * 4) }
        }
        // The part of the panel the frame covers, in panel coordinates.
        let x0 = max(0, left)
        let y0 = max(0, top)
        let x1 = min(targetWidth, left + shownWidth)
        let y1 = min(targetHeight, top + shownHeight)
        guard x0 < x1, y0 < y1 else { return }
        if !rotate {
            for y in y0..<y1 {
                memcpy(target + y * targetPitch + x0 * 4, source + (y - top) * sourcePitch + (x0 - left) * 4, (x1 - x0) * 4)
            }
            return
        }
        // Clockwise: the frame's pixel (sx, sy) lands at (height - 1 - sy, sx).
        let src = source.assumingMemoryBound(to: UInt32.self)
        let sourceStride = sourcePitch / 4
        for y in y0..<y1 {
            let row = (target + y * targetPitch).assumingMemoryBound(to: UInt32.self)
            let sx = y - top
            for x in x0..<x1 {
                let sy = height - 1 - (x - left)
                row[x] = src[sy * sourceStride + sx]
            }
        }
    }
}
