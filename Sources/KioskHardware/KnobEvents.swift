/// The knob reports only what happened (LVGL-style input driver): steps and presses.
/// Everything that interprets them (score entry, navigation) lives in KioskCore.

/// One of the encoder's three input lines.
public enum KnobLine: String, Sendable, Hashable, Codable, CaseIterable {
    case a = "A", b = "B", sw = "SW"
}

/// A level change on one line, stamped by the kernel (CLOCK_MONOTONIC ns) or the trace.
public struct EdgeEvent: Sendable, Hashable {
    public var line: KnobLine
    public var level: Int
    public var timestampNs: UInt64

    public init(line: KnobLine, level: Int, timestampNs: UInt64) {
        self.line = line
        self.level = level
        self.timestampNs = timestampNs
    }
}

public enum RotationDirection: String, Sendable, Hashable, Codable, CaseIterable {
    case clockwise = "cw", counterClockwise = "ccw"

    /// +1 for clockwise, −1 for counter-clockwise: one stroke per detent.
    public var step: Int { self == .clockwise ? 1 : -1 }

    public var reversed: RotationDirection { self == .clockwise ? .counterClockwise : .clockwise }
}

/// What the knob tells the rest of the kiosk.
///
/// A long press arrives as `press`, `longPress`, `release(afterLongPress: true)`; a click as
/// `press`, `release(afterLongPress: false)`. Consumers act on the release (confirm) or on
/// `longPress` (back/cancel) so that a long press never also confirms.
public enum KnobEvent: Sendable, Hashable {
    /// One detent, stamped with the edge that completed it.
    case detent(RotationDirection, timestampNs: UInt64)
    /// The switch closed and stayed closed for the debounce interval; stamped when that became certain.
    case press(timestampNs: UInt64)
    /// The switch has been held for the long-press duration (back/cancel); fires while still held.
    case longPress(timestampNs: UInt64)
    /// The switch opened and stayed open for the debounce interval.
    case release(timestampNs: UInt64, afterLongPress: Bool)

    public var timestampNs: UInt64 {
        switch self {
        case .detent(_, let t), .press(let t), .longPress(let t), .release(let t, _): t
        }
    }

    /// The direction if this is a detent.
    public var detentDirection: RotationDirection? {
        if case .detent(let direction, _) = self { direction } else { nil }
    }

    /// One JSON object on one line, the form `hyzer knob decode` prints.
    public var jsonLine: String {
        switch self {
        case .detent(let direction, let t):
            "{\"event\": \"detent\", \"direction\": \"\(direction.rawValue)\", \"t_ns\": \(t)}"
        case .press(let t):
            "{\"event\": \"press\", \"t_ns\": \(t)}"
        case .longPress(let t):
            "{\"event\": \"longPress\", \"t_ns\": \(t)}"
        case .release(let t, let afterLongPress):
            "{\"event\": \"release\", \"t_ns\": \(t), \"afterLongPress\": \(afterLongPress)}"
        }
    }
}

/// Counts of decoded events; the last line of `hyzer knob decode`, and the generator's ground truth.
///
/// `presses` counts every debounced press, including the ones that went on to become long presses.
public struct KnobSummary: Sendable, Hashable, Codable {
    public var cw = 0
    public var ccw = 0
    public var presses = 0
    public var longPresses = 0

    public init(cw: Int = 0, ccw: Int = 0, presses: Int = 0, longPresses: Int = 0) {
        self.cw = cw
        self.ccw = ccw
        self.presses = presses
        self.longPresses = longPresses
    }

    public init(_ events: some Sequence<KnobEvent>) {
        self.init()
        for event in events { record(event) }
    }

    public mutating func record(_ event: KnobEvent) {
        switch event {
        case .detent(.clockwise, _): cw += 1
        case .detent(.counterClockwise, _): ccw += 1
        case .press: presses += 1
        case .longPress: longPresses += 1
        case .release: break
        }
    }

    /// Net strokes: clockwise minus counter-clockwise.
    public var net: Int { cw - ccw }

    public var jsonLine: String {
        "{\"cw\": \(cw), \"ccw\": \(ccw), \"presses\": \(presses), \"longPresses\": \(longPresses)}"
    }
}
