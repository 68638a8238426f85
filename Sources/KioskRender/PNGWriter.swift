import CZlib
import Foundation

/// Writes 8-bit RGB PNG files: enough for the kiosk's headless snapshots without pulling
/// in SDL_image. Rows are filtered with "Up" (cheap, compresses flat UI areas well).
enum PNGWriter {
    struct Failure: Error, CustomStringConvertible { var description: String }

    /// `pixels` are tightly packed RGB rows, `width * 3` bytes each.
    static func encode(width: Int, height: Int, rgb pixels: [UInt8]) throws -> Data {
        precondition(pixels.count == width * height * 3)
        let stride = width * 3
        var filtered = [UInt8]()
        filtered.reserveCapacity((stride + 1) * height)
        for y in 0..<height {
            filtered.append(y == 0 ? 0 : 2)  // None for the first row, then Up
            let row = y * stride
            if y == 0 {
                filtered.append(contentsOf: pixels[row..<row + stride])
            } else {
                for x in 0..<stride { filtered.append(pixels[row + x] &- pixels[row - stride + x]) }
            }
        }
        var compressedSize = compressBound(uLong(filtered.count))
        var compressed = [UInt8](repeating: 0, count: Int(compressedSize))
        let status = compress2(&compressed, &compressedSize, filtered, uLong(filtered.count), 6)
        guard status == Z_OK else { throw Failure(description: "zlib compress2 failed (\(status))") }

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(width))
        header.appendBigEndian(UInt32(height))
        header.append(contentsOf: [8, 2, 0, 0, 0])  // 8-bit, truecolour, deflate, adaptive filters, no interlace
        appendChunk("IHDR", header, to: &png)
        appendChunk("IDAT", Data(compressed[0..<Int(compressedSize)]), to: &png)
        appendChunk("IEND", Data(), to: &png)
        return png
    }

    private static func appendChunk(_ type: String, _ body: Data, to png: inout Data) {
        png.appendBigEndian(UInt32(body.count))
        var typed = Data(type.utf8)
        typed.append(body)
        png.append(typed)
        let crc = typed.withUnsafeBytes { crc32(0, $0.bindMemory(to: UInt8.self).baseAddress, uInt(typed.count)) }
        png.appendBigEndian(UInt32(crc))
    }
}

extension Data {
    mutating func appendBigEndian(_ value: UInt32) {
        append(contentsOf: [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)])
    }
}
