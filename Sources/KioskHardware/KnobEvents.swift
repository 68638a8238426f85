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

public enum RotationDirection: String, Sendable, Hashable, Codable {
    case clockwise = "cw", counterClockwise = "ccw"

    /// +1 for clockwise, −1 for counter-clockwise: one stroke per detent.
    public var step: Int { self == .clockwise ? 1 : -1 }
}
