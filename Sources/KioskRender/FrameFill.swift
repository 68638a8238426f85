import CSDL2
import KioskCore

/// Opaque fills written straight into the frame in memory (the console's and the headless
/// kiosk's surface), instead of through SDL's software renderer.
///
/// Why: on arm64, SDL fills with a plain C loop of about two instructions a pixel (its SSE
/// fill is x86-only), so the clear of a 1920×1080 frame alone cost 4.2 M of the 10.5 M
/// instructions of a reshuffle frame, and the rows' opaque fills another 2.5 M (callgrind,
/// docs/benchmarks.md, twenty-second session). The loop below is one the compiler
/// vectorizes on both machines (NEON and SSE stores of 16 bytes and more).
///
/// The pixels are SDL's own, exactly: the same rectangle (SDL's software renderer truncates
/// each of a float rectangle's x, y, w and h, keeping w and h at least 1), the same clip,
/// the same colour value. `FrameFillTests` compares the two on rectangles of every kind.
struct FrameFill {
    let surface: UnsafeMutablePointer<SDL_Surface>

    /// The ARGB8888 value of an opaque colour (the frame's format, see `Display.offscreenRenderer`).
    static func pixel(_ color: RGB) -> UInt32 {
        0xFF00_0000 | UInt32(color.r) << 16 | UInt32(color.g) << 8 | UInt32(color.b)
    }

    /// The pixels SDL's software renderer fills for a float rectangle: each coordinate
    /// truncated toward zero, the size at least one pixel. Nil for one off any frame
    /// (NaN, or beyond ±2³⁰: nothing a layout makes).
    static func pixelRect(x: Float, y: Float, w: Float, h: Float) -> SDL_Rect? {
        let limit: Float = 0x1p30
        for v in [x, y, w, h] where !(v.magnitude < limit) { return nil }
        return SDL_Rect(x: Int32(x), y: Int32(y), w: max(Int32(w), 1), h: max(Int32(h), 1))
    }

    /// Fills `rect`, cut to `clip` (when set) and to the frame, with `value`.
    func fill(_ rect: SDL_Rect, clip: SDL_Rect?, value: UInt32) {
        let frame = surface.pointee
        guard let base = frame.pixels else { return }
        var x0 = max(rect.x, 0)
        var y0 = max(rect.y, 0)
        var x1 = min(Int64(rect.x) + Int64(rect.w), Int64(frame.w))
        var y1 = min(Int64(rect.y) + Int64(rect.h), Int64(frame.h))
        if let clip {
            x0 = max(x0, clip.x)
            y0 = max(y0, clip.y)
            x1 = min(x1, Int64(clip.x) + Int64(clip.w))
            y1 = min(y1, Int64(clip.y) + Int64(clip.h))
        }
        guard Int64(x0) < x1, Int64(y0) < y1 else { return }
        let pitch = Int(frame.pitch)
        let width = Int(x1) - Int(x0)
        let rows = Int(y1) - Int(y0)
        if width * 4 == pitch {
            // Whole rows (the clear): one run over the block.
            Self.run(base + Int(y0) * pitch, pixels: width * rows, value: value)
            return
        }
        var row = base + Int(y0) * pitch + Int(x0) * 4
        for _ in 0..<rows {
            Self.run(row, pixels: width, value: value)
            row += pitch
        }
    }

    /// `pixels` copies of `value` from `start`, 16 pixels (64 bytes) a store where it can:
    /// the compiler's loop over single pixels stayed scalar, about one instruction a pixel
    /// (callgrind); a SIMD16 store is four SSE stores on x86-64, two NEON pair stores on arm64.
    static func run(_ start: UnsafeMutableRawPointer, pixels: Int, value: UInt32) {
        let wide = SIMD16<UInt32>(repeating: value)
        var at = start
        var left = pixels
        while left >= 16 {
            at.storeBytes(of: wide, as: SIMD16<UInt32>.self)
            at += 64
            left -= 16
        }
        let tail = at.assumingMemoryBound(to: UInt32.self)
        for i in 0..<left { tail[i] = value }
    }

    /// The whole frame in `color` (SDL's clear ignores the clip, and so does this).
    func clear(_ color: RGB) {
        let frame = surface.pointee
        fill(SDL_Rect(x: 0, y: 0, w: frame.w, h: frame.h), clip: nil, value: Self.pixel(color))
    }
}
