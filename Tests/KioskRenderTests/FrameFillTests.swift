import CSDL2
import HyzerKit
import KioskCore
import Testing

@testable import KioskRender

/// Issue 34: the clear and the opaque fills of the frame in memory are written by the kiosk
/// itself (SDL's fill is a plain C loop on arm64), and must leave exactly SDL's pixels.
/// ScreenFingerprintTests holds every screen, drawn this way, to the fingerprints of frames
/// SDL filled; this compares the two fills rectangle by rectangle, on the cases a layout
/// rarely makes: fractions, sizes under a pixel, rectangles off the frame, clips.
@Suite struct FrameFillTests {
    /// A frame in memory with SDL's software renderer on it, as `Display` makes them;
    /// `padding` pixels past each row's end (a pitch wider than the row).
    final class Frame {
        let surface: UnsafeMutablePointer<SDL_Surface>
        let renderer: OpaquePointer
        let storage: UnsafeMutableRawPointer
        let byteCount: Int

        init(width: Int32, height: Int32, padding: Int32) throws {
            let pitch = Int((width + padding) * 4)
            byteCount = pitch * Int(height)
            storage = .allocate(byteCount: byteCount, alignment: 16)
            storage.initializeMemory(as: UInt8.self, repeating: 0x5A, count: byteCount)
            surface = try #require(
                SDL_CreateRGBSurfaceWithFormatFrom(
                    storage, width, height, 32, Int32(pitch), UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue)))
            renderer = try #require(SDL_CreateSoftwareRenderer(surface))
            SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE)
        }

        deinit {
            SDL_DestroyRenderer(renderer)
            SDL_FreeSurface(surface)
            storage.deallocate()
        }

        /// Every byte, the padding's too (a fill past a row's end would show there).
        var bytes: [UInt8] {
            SDL_RenderFlush(renderer)
            return Array(UnsafeRawBufferPointer(start: storage, count: byteCount))
        }

        /// SDL's fill, as `Canvas.fill` asked for it before.
        func sdlFill(_ r: SDL_FRect, _ color: RGB, clip: SDL_Rect?) {
            var clip = clip
            if clip != nil { SDL_RenderSetClipRect(renderer, &clip!) } else { SDL_RenderSetClipRect(renderer, nil) }
            SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, 255)
            var r = r
            SDL_RenderFillRectF(renderer, &r)
        }
    }

    /// Rectangles of every kind on a 61×37 frame: inside, fractional, under a pixel, across
    /// each edge, wholly off it, and huge; with and without a clip.
    static func cases() -> [(SDL_FRect, SDL_Rect?)] {
        var rects: [SDL_FRect] = [
            SDL_FRect(x: 3, y: 4, w: 10, h: 6), SDL_FRect(x: 3.7, y: 4.2, w: 10.9, h: 6.5),
            SDL_FRect(x: 0.5, y: 0.5, w: 0.4, h: 0.3), SDL_FRect(x: 20, y: 20, w: 0, h: 0),
            SDL_FRect(x: -5.5, y: -2.25, w: 12.75, h: 9.5), SDL_FRect(x: 55.5, y: 30.6, w: 20, h: 20),
            SDL_FRect(x: -30, y: 5, w: 10, h: 5), SDL_FRect(x: 70, y: 50, w: 5, h: 5),
            SDL_FRect(x: -0.9, y: -0.9, w: 1.8, h: 1.8), SDL_FRect(x: -1000, y: -1000, w: 5000, h: 5000),
            SDL_FRect(x: 0, y: 0, w: 61, h: 37), SDL_FRect(x: 60.99, y: 36.99, w: 1, h: 1),
        ]
        // And a deterministic spread of fractional ones.
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ range: Float) -> Float {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Float(seed >> 40) / Float(1 << 24) * range
        }
        for _ in 0..<60 {
            rects.append(SDL_FRect(x: next(80) - 10, y: next(50) - 6, w: next(30), h: next(20)))
        }
        let clips: [SDL_Rect?] = [
            nil, SDL_Rect(x: 10, y: 8, w: 30, h: 15), SDL_Rect(x: -4, y: 30, w: 20, h: 20),
            SDL_Rect(x: 12, y: 12, w: 0, h: 5),
        ]
        return clips.flatMap { clip in rects.map { ($0, clip) } }
    }

    /// Fills every case on two frames, SDL on one and `fill` on the other, and counts the
    /// cases after which they differ.
    static func mismatches(padding: Int32, fill: (FrameFill, SDL_FRect, SDL_Rect?, RGB) -> Void) throws -> Int {
        let sdl = try Frame(width: 61, height: 37, padding: padding)
        let own = try Frame(width: 61, height: 37, padding: padding)
        let direct = FrameFill(surface: own.surface)
        var differing = 0
        for (n, (rect, clip)) in cases().enumerated() {
            let color = RGB(UInt32(truncatingIfNeeded: (n &* 2_654_435_761) & 0xFFFFFF))
            sdl.sdlFill(rect, color, clip: clip)
            fill(direct, rect, clip, color)
            if sdl.bytes != own.bytes { differing += 1 }
        }
        return differing
    }

    static func ownFill(_ direct: FrameFill, _ r: SDL_FRect, _ clip: SDL_Rect?, _ color: RGB) {
        guard let pixels = FrameFill.pixelRect(x: r.x, y: r.y, w: r.w, h: r.h) else { return }
        direct.fill(pixels, clip: clip, value: FrameFill.pixel(color))
    }

    @Test(arguments: [0, 3] as [Int32])
    func theOwnFillLeavesSDLsPixels(padding: Int32) throws {
        #expect(try Self.mismatches(padding: padding, fill: Self.ownFill) == 0)
    }

    /// The clear: the whole frame, whatever the clip.
    @Test func theClearIsSDLs() throws {
        let sdl = try Frame(width: 61, height: 37, padding: 2)
        let own = try Frame(width: 61, height: 37, padding: 2)
        var clip = SDL_Rect(x: 5, y: 5, w: 10, h: 10)
        SDL_RenderSetClipRect(sdl.renderer, &clip)
        SDL_SetRenderDrawColor(sdl.renderer, 0x12, 0x34, 0x56, 255)
        SDL_RenderClear(sdl.renderer)
        FrameFill(surface: own.surface).clear(RGB(0x123456))
        #expect(sdl.bytes == own.bytes)
        #expect(own.bytes.contains(0x5A), "the padding past each row is left as it was")
    }

    /// Negative control: rounding the rectangle (where SDL truncates) is seen, as is a fill
    /// that ignores the clip: the comparison can fail.
    @Test func negativeControlsAnotherRoundingOrNoClipDiffer() throws {
        let rounded = try Self.mismatches(padding: 0) { direct, r, clip, color in
            let pixels = SDL_Rect(
                x: Int32(r.x.rounded()), y: Int32(r.y.rounded()), w: max(Int32(r.w.rounded()), 1),
                h: max(Int32(r.h.rounded()), 1))
            direct.fill(pixels, clip: clip, value: FrameFill.pixel(color))
        }
        #expect(rounded > 20)
        let unclipped = try Self.mismatches(padding: 0) { direct, r, _, color in
            Self.ownFill(direct, r, nil, color)
        }
        #expect(unclipped > 20)
    }

    /// Through the display: every screen of a 12-player round (rows, a clipped history, a
    /// QR code) drawn with the kiosk's own fills and with SDL's is the same frame, and the
    /// own fills are the ones a headless display uses.
    @Test func everyScreenIsTheSameFrameEitherWay() throws {
        let size = Viewport(width: 1024, height: 600)
        let display = try TextCacheTests.display(size.width, size.height)
        display.fontFallback = false
        #expect(display.canvas.directFills)
        let world = try FingerprintWorld(players: 12, viewport: size, lexicon: NameLexicon(tsv: "Ada\t1\nNate\t1"))
        var differing: [String] = []
        let screens = try world.screens()
        for (screen, state) in screens {
            var frames: [[UInt8]] = []
            for direct in [true, false] {
                display.canvas.directFills = direct
                display.draw(state, now: FingerprintWorld.drawn, wallClock: FingerprintWorld.wallClock)
                frames.append(try display.capture().rgb)
            }
            if frames[0] != frames[1] { differing.append(screen) }
        }
        #expect(screens.count > 15)
        #expect(differing.isEmpty)
    }
}
