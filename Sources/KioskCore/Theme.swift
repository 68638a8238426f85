import Foundation
import HyzerKit

/// An sRGB colour, 8 bits per channel.
public struct RGB: Sendable, Hashable {
    public var r, g, b: UInt8
    public init(_ hex: UInt32) {
        r = UInt8((hex >> 16) & 0xFF)
        g = UInt8((hex >> 8) & 0xFF)
        b = UInt8(hex & 0xFF)
    }

    /// WCAG 2 relative luminance.
    public var luminance: Double {
        func channel(_ c: UInt8) -> Double {
            let v = Double(c) / 255
            return v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)
    }

    /// WCAG 2 contrast ratio against another colour (1…21).
    public func contrast(with other: RGB) -> Double {
        let (a, b) = (luminance, other.luminance)
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }
}

/// The design tokens of the product's UX specification (story 1.1), dark palette only.
public enum Palette {
    public static let background = RGB(0x0A0A0C)
    public static let elevated = RGB(0x1C1C1E)
    public static let tertiary = RGB(0x2C2C2E)
    public static let textPrimary = RGB(0xF5F5F7)
    public static let textSecondary = RGB(0x8E8E93)
    public static let accent = RGB(0x30D5C8)
    public static let underPar = RGB(0x34C759)
    public static let overPar = RGB(0xFF9F0A)
    public static let atPar = RGB(0xF5F5F7)
    public static let wayOver = RGB(0xFF453A)
    public static let destructive = RGB(0xFF3B30)

    /// Every text colour the kiosk draws on each background it draws it on. A test holds
    /// each pair to NFR13's 4.5:1.
    public static let textPairs: [(name: String, text: RGB, background: RGB)] = {
        let texts: [(String, RGB)] = [
            ("text.primary", textPrimary), ("text.secondary", textSecondary),
            ("accent", accent), ("score.underPar", underPar), ("score.overPar", overPar),
            ("score.atPar", atPar), ("score.wayOver", wayOver),
        ]
        // `tertiary` is never a text background: secondary grey and red fall to ~4.2:1
        // on it, so selection is drawn as `elevated` with an accent outline instead.
        let backgrounds: [(String, RGB)] = [("background", background), ("elevated", elevated)]
        return backgrounds.flatMap { bg in texts.map { ("\($0.0) on \(bg.0)", $0.1, bg.1) } }
            + [("background on accent", background, accent)]  // selected-button label
    }()

    /// The colour of a to-par figure: green under, white at, amber over. The number and
    /// its sign always carry the meaning too (NFR18).
    public static func toPar(_ value: Int) -> RGB {
        value < 0 ? underPar : value == 0 ? atPar : overPar
    }

    /// The colour of one hole's strokes against its par: red from double bogey.
    public static func strokes(_ strokes: Int, par: Int) -> RGB {
        let delta = strokes - par
        return delta < 0 ? underPar : delta == 0 ? atPar : delta == 1 ? overPar : wayOver
    }
}

/// Typography roles; the layout gives each a pixel size for the screen at hand.
public enum FontRole: String, Sendable, Hashable, CaseIterable {
    /// Rounded sans, bold: headlines, positions, names.
    case title
    /// Rounded sans, medium: labels, captions.
    case body
    /// Monospaced bold: every score figure, so columns of numbers line up.
    case score
}
