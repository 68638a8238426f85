import CQRencode
import Foundation
import HyzerKit
import KioskCore

/// A QR code's modules, encoded by libqrencode (the maintained library Debian ships, through
/// a C shim like SDL's). Error correction M (15 %): a phone held at an angle, a little glare
/// on the panel, still scans.
public struct QRCode: Sendable, Equatable {
    /// Modules a side (21 for version 1, up to 177).
    public let size: Int
    /// Row by row, true where the module is dark.
    public let dark: [Bool]

    /// nil when the text does not fit any QR version (over ~2,300 bytes at level M).
    public init?(_ text: String) {
        guard let code = QRcode_encodeString(text, 0, QR_ECLEVEL_M, QR_MODE_8, 1) else { return nil }
        defer { QRcode_free(code) }
        let size = Int(code.pointee.width)
        // Bit 0 of each byte is the module's colour; the other bits say what the module is for.
        let bytes = UnsafeBufferPointer(start: code.pointee.data, count: size * size)
        self.size = size
        dark = bytes.map { $0 & 1 == 1 }
    }

    public func isDark(x: Int, y: Int) -> Bool { dark[y * size + x] }

    /// The quiet zone the standard asks for around the code, in modules a side.
    public static let quietZone = 4
}

extension Painter {
    /// Draws `code` as large as fits in `square`, centred along its width and at its top,
    /// black on white with the quiet zone, whatever the kiosk's dark palette. Returns the
    /// rect it took.
    @discardableResult
    func paint(_ code: QRCode, in square: Rect) -> Rect {
        let modules = code.size + 2 * QRCode.quietZone
        // Whole pixels a module: a blurred edge between modules is what makes scans fail.
        let module = max(1, Int(min(square.w, square.h) / Double(modules)))
        let side = Double(module * modules)
        let drawn = Rect(x: (square.x + (square.w - side) / 2).rounded(.down), y: square.y.rounded(.down), w: side, h: side)
        canvas.fill(drawn, Self.qrLight)
        let origin = (x: drawn.x + Double(module * QRCode.quietZone), y: drawn.y + Double(module * QRCode.quietZone))
        for row in 0..<code.size {
            for column in 0..<code.size where code.isDark(x: column, y: row) {
                canvas.fill(
                    Rect(
                        x: origin.x + Double(column * module), y: origin.y + Double(row * module), w: Double(module),
                        h: Double(module)), Self.qrDark)
            }
        }
        return drawn
    }

    /// Pure black on pure white: a QR reader's best contrast (the palette's near-white and
    /// near-black read too, but nothing is gained by leaning on that).
    static let qrDark = RGB(0x000000)
    static let qrLight = RGB(0xFFFFFF)
}
