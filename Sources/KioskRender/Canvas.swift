import CSDL2
import CSDL2TTF
import Foundation
import KioskCore

/// Drawing primitives over one SDL renderer, with the text-texture cache.
///
/// Text is rasterized once per (face, size, string, colour): a colour baked in keeps SDL's
/// software renderer on its fast alpha blit (a colour modulation at draw time cost four
/// fifths of a 1080p board frame). Fades stay an alpha modulation at draw time, so a text
/// that fades is never rasterized again.
///
/// Both caches are bounded, with least-recently-used eviction: a kiosk runs for weeks and
/// meets strings (player names, rounds, counts) and sizes (window resizes) without end.
/// Text is bounded by count and by pixel bytes, since one long name at title size weighs
/// as much as a hundred score digits; fonts by count (each open face holds a descriptor and
/// FreeType's glyph caches).
final class Canvas {
    private(set) var renderer: OpaquePointer
    private let fontsDirectory: URL
    private var fonts: [FontKey: CachedFont] = [:]
    private var texts: [TintedKey: CachedText] = [:]
    /// Drawn widths by text, whatever its colour: measuring answers from here.
    private var widths: [TextKey: Int32] = [:]
    private var fits: [FitKey: String] = [:]
    /// The QR code on screen and its text (one at a time: add a phone, the summary card).
    private var lastQR: (text: String, code: QRCode?)?
    /// Installed faces for characters the bundled ones lack (see TextRuns.swift).
    let fallback = FontFallback()
    /// Off only to show what a name looks like without fallback (the tests' negative control).
    var fallbackEnabled = true
    /// The frame in memory when the renderer draws into one (console, headless): opaque fills
    /// and the clear go straight into its pixels (see FrameFill.swift). Nil in a window.
    private var frameFill: FrameFill?
    /// Off only to draw every fill through SDL (the tests' comparison).
    var directFills = true
    /// The clip `clipped(to:)` set, which SDL applies to its draws and `frameFill` to its own.
    private var clip: SDL_Rect?
    private var useCounter: UInt64 = 0
    /// Pixel bytes (4 per pixel) of the cached text textures.
    private(set) var cachedTextBytes = 0
    /// Rasterizations so far: the cache's effectiveness, for the benchmark and tests.
    private(set) var rasterizations = 0
    var cachedTexts: Int { texts.count }
    var cachedFonts: Int { fonts.count }
    /// A 20-row board at 1920×1080 draws about 110 distinct texts (8 MB of pixels); the
    /// bounds leave room for every screen at once and for a resize.
    static let maxCachedTexts = 600
    static let maxCachedTextBytes = 24 << 20
    /// Fonts: three roles at a few sizes, plus the fallback faces a board of names from many
    /// scripts opens (Arabic, Hebrew, Devanagari, CJK, emoji... each at the sizes in use).
    static let maxCachedFonts = 40

    struct FontKey: Hashable {
        var face: FaceID
        var size: Int
    }
    struct TextKey: Hashable {
        var role: FontRole
        var size: Int
        var text: String
    }
    struct FitKey: Hashable {
        var text: TextKey
        var width: Int
    }
    /// A text drawn in its colour: the cache holds each text in each colour it is shown in.
    struct TintedKey: Hashable {
        var text: TextKey
        var tint: RGB
    }
    static let white = RGB(0xFFFFFF)
    final class CachedText {
        let texture: OpaquePointer
        let width: Int32
        let height: Int32
        var lastUse: UInt64
        init(texture: OpaquePointer, width: Int32, height: Int32, lastUse: UInt64) {
            (self.texture, self.width, self.height, self.lastUse) = (texture, width, height, lastUse)
        }
        var bytes: Int { Int(width) * Int(height) * 4 }
    }
    final class CachedFont {
        let font: OpaquePointer
        var lastUse: UInt64
        init(font: OpaquePointer, lastUse: UInt64) { (self.font, self.lastUse) = (font, lastUse) }
    }

    /// - Parameter frame: the surface `renderer` draws into, when it is SDL's software
    ///   renderer on a surface of its own (`SDL_CreateSoftwareRenderer`).
    init(renderer: OpaquePointer, frame: UnsafeMutablePointer<SDL_Surface>? = nil, fontsDirectory: URL) throws {
        self.renderer = renderer
        self.frameFill = frame.map(FrameFill.init)
        self.fontsDirectory = fontsDirectory
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
        // Fail at start-up, not at the first frame, when a font file is missing.
        for role in FontRole.allCases { _ = try font(role, size: 24) }
    }

    deinit { releaseAll() }

    /// Draws on `renderer` from now on (a console's frame remade at a new panel size). The
    /// text textures belong to the old renderer and go with it, so call this before it is
    /// destroyed; the fonts and the measured widths hold for any renderer and stay.
    func move(to renderer: OpaquePointer, frame: UnsafeMutablePointer<SDL_Surface>?) {
        for text in texts.values { SDL_DestroyTexture(text.texture) }
        texts.removeAll()
        cachedTextBytes = 0
        self.renderer = renderer
        frameFill = frame.map(FrameFill.init)
        SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND)
    }

    /// Frees every texture and font. Must run before the renderer is destroyed and
    /// before TTF_Quit, so the display calls it first in its own teardown.
    func releaseAll() {
        for text in texts.values { SDL_DestroyTexture(text.texture) }
        MediaLibraries.faces { for font in fonts.values { TTF_CloseFont(font.font) } }
        texts.removeAll()
        widths.removeAll()
        fits.removeAll()
        fonts.removeAll()
        cachedTextBytes = 0
    }

    static func fileName(_ role: FontRole) -> String {
        switch role {
        case .title: "Quicksand-Bold.ttf"
        case .body: "Quicksand-Medium.ttf"
        case .score: "JetBrainsMono-Bold.ttf"
        }
    }

    func font(_ role: FontRole, size: Int) throws -> OpaquePointer {
        guard let font = font(.bundled(role), size: size) else {
            throw RenderError("cannot open font \(fontsDirectory.appendingPathComponent(Self.fileName(role)).path)")
        }
        return font
    }

    /// The face at `size`, opened once and kept (bounded, least recently used out); nil when
    /// its file cannot be opened (a fallback font removed since fontconfig listed it).
    func font(_ face: FaceID, size: Int) -> OpaquePointer? {
        useCounter += 1
        let key = FontKey(face: face, size: size)
        if let hit = fonts[key] {
            hit.lastUse = useCounter
            return hit.font
        }
        let (path, index) =
            switch face {
            case .bundled(let role): (fontsDirectory.appendingPathComponent(Self.fileName(role)).path, 0)
            case .installed(let path, let index): (path, index)
            }
        guard let font = MediaLibraries.faces({ TTF_OpenFontIndex(path, Int32(size), index) }) else { return nil }
        if fonts.count >= Self.maxCachedFonts, let oldest = fonts.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            // Textures already made from it stay valid: they hold pixels, not the face.
            MediaLibraries.faces { TTF_CloseFont(oldest.value.font) }
            fonts[oldest.key] = nil
        }
        fonts[key] = CachedFont(font: font, lastUse: useCounter)
        return font
    }

    // MARK: Shapes

    /// The frame's pixels to fill directly: there is a frame in memory and the renderer draws
    /// on it now (not on a target texture: the warm-up's, the window's rotation). SDL's
    /// draws still queued go in first, so what is filled lies over them as it would in SDL.
    private var directFrame: FrameFill? {
        guard directFills, let frameFill, SDL_GetRenderTarget(renderer) == nil else { return nil }
        SDL_RenderFlush(renderer)
        return frameFill
    }

    /// Draws `body` with everything outside `rect` left untouched (rows scrolling under a header).
    func clipped(to rect: Rect, _ body: () -> Void) {
        var area = SDL_Rect(x: Int32(rect.x.rounded()), y: Int32(rect.y.rounded()), w: Int32(rect.w), h: Int32(rect.h))
        SDL_RenderSetClipRect(renderer, &area)
        // SDL clips to an empty rectangle, and not at all for a negative size.
        clip = area.w >= 0 && area.h >= 0 ? area : nil
        body()
        SDL_RenderSetClipRect(renderer, nil)
        clip = nil
    }

    func clear(_ color: RGB) {
        if let direct = directFrame { return direct.clear(color) }
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, 255)
        SDL_RenderClear(renderer)
    }

    func fill(_ rect: Rect, _ color: RGB, alpha: Double = 1) {
        // Opaque fills skip blending: on the software renderer that is a plain copy.
        let opaque = alpha >= 1
        var r = SDL_FRect(x: Float(rect.x), y: Float(rect.y), w: Float(rect.w), h: Float(rect.h))
        if opaque, let direct = directFrame {
            if let pixels = FrameFill.pixelRect(x: r.x, y: r.y, w: r.w, h: r.h) {
                direct.fill(pixels, clip: clip, value: FrameFill.pixel(color))
            }
            return
        }
        if opaque { SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_NONE) }
        SDL_SetRenderDrawColor(renderer, color.r, color.g, color.b, UInt8(clamping: Int(alpha * 255)))
        SDL_RenderFillRectF(renderer, &r)
        if opaque { SDL_SetRenderDrawBlendMode(renderer, SDL_BLENDMODE_BLEND) }
    }

    /// A filled rounded rectangle. Opaque ones are two plain rectangles plus four small
    /// corner fans, so the software renderer rasterizes triangles only in the corners;
    /// translucent ones are one fan (overlapping rectangles would blend twice).
    func fillRounded(_ rect: Rect, radius: Double, _ color: RGB, alpha: Double = 1) {
        let r = min(radius, rect.w / 2, rect.h / 2).rounded()
        guard r > 1 else { return fill(rect, color, alpha: alpha) }
        let c = SDL_Color(r: color.r, g: color.g, b: color.b, a: UInt8(clamping: Int(alpha * 255)))
        let segments = 6
        if alpha >= 1 {
            fill(Rect(x: rect.x + r, y: rect.y, w: rect.w - 2 * r, h: rect.h), color)
            fill(Rect(x: rect.x, y: rect.y + r, w: r, h: rect.h - 2 * r), color)
            fill(Rect(x: rect.maxX - r, y: rect.y + r, w: r, h: rect.h - 2 * r), color)
            var vertices: [SDL_Vertex] = []
            vertices.reserveCapacity(4 * segments * 3)
            let corners: [(Double, Double, Double)] = [
                (rect.maxX - r, rect.y + r, -Double.pi / 2), (rect.maxX - r, rect.maxY - r, 0),
                (rect.x + r, rect.maxY - r, Double.pi / 2), (rect.x + r, rect.y + r, Double.pi),
            ]
            for (cx, cy, start) in corners {
                let center = SDL_FPoint(x: Float(cx), y: Float(cy))
                for i in 0..<segments {
                    let a0 = start + Double(i) / Double(segments) * Double.pi / 2
                    let a1 = start + Double(i + 1) / Double(segments) * Double.pi / 2
                    for p in [
                        center, SDL_FPoint(x: Float(cx + r * cos(a0)), y: Float(cy + r * sin(a0))),
                        SDL_FPoint(x: Float(cx + r * cos(a1)), y: Float(cy + r * sin(a1))),
                    ] {
                        vertices.append(SDL_Vertex(position: p, color: c, tex_coord: SDL_FPoint(x: 0, y: 0)))
                    }
                }
            }
            SDL_RenderGeometry(renderer, nil, vertices, Int32(vertices.count), nil, 0)
            return
        }
        let corners: [(Double, Double, Double)] = [
            (rect.maxX - r, rect.y + r, -Double.pi / 2), (rect.maxX - r, rect.maxY - r, 0),
            (rect.x + r, rect.maxY - r, Double.pi / 2), (rect.x + r, rect.y + r, Double.pi),
        ]
        var outline: [SDL_FPoint] = []
        for (cx, cy, start) in corners {
            for i in 0...segments {
                let a = start + Double(i) / Double(segments) * Double.pi / 2
                outline.append(SDL_FPoint(x: Float(cx + r * cos(a)), y: Float(cy + r * sin(a))))
            }
        }
        let center = SDL_FPoint(x: Float(rect.midX), y: Float(rect.midY))
        var vertices: [SDL_Vertex] = []
        vertices.reserveCapacity(outline.count * 3)
        for i in 0..<outline.count {
            for p in [center, outline[i], outline[(i + 1) % outline.count]] {
                vertices.append(SDL_Vertex(position: p, color: c, tex_coord: SDL_FPoint(x: 0, y: 0)))
            }
        }
        SDL_RenderGeometry(renderer, nil, vertices, Int32(vertices.count), nil, 0)
    }

    /// A rounded outline of `width` pixels (selection ring).
    func strokeRounded(_ rect: Rect, radius: Double, width: Double, _ color: RGB, inner: RGB) {
        fillRounded(rect, radius: radius, color)
        fillRounded(rect.inset(width, width), radius: max(0, radius - width), inner)
    }

    /// ▲ (up) or ▼ centred in `rect`.
    func triangle(in rect: Rect, up: Bool, _ color: RGB, alpha: Double) {
        let c = SDL_Color(r: color.r, g: color.g, b: color.b, a: UInt8(clamping: Int(alpha * 255)))
        let (top, bottom) = (Float(rect.y), Float(rect.maxY))
        let points =
            up
            ? [
                SDL_FPoint(x: Float(rect.midX), y: top), SDL_FPoint(x: Float(rect.maxX), y: bottom),
                SDL_FPoint(x: Float(rect.x), y: bottom),
            ]
            : [
                SDL_FPoint(x: Float(rect.x), y: top), SDL_FPoint(x: Float(rect.maxX), y: top),
                SDL_FPoint(x: Float(rect.midX), y: bottom),
            ]
        let vertices = points.map { SDL_Vertex(position: $0, color: c, tex_coord: SDL_FPoint(x: 0, y: 0)) }
        SDL_RenderGeometry(renderer, nil, vertices, 3, nil, 0)
    }

    // MARK: Text

    enum Align { case left, center, right }

    /// Draws `text` with its vertical centre at `midY`. Returns the drawn width.
    @discardableResult
    func text(
        _ string: String, _ role: FontRole, size: Int, _ color: RGB, x: Double, midY: Double,
        align: Align = .left, alpha: Double = 1, maxWidth: Double? = nil
    ) -> Double {
        guard !string.isEmpty, let cached = cachedText(string, role, size, tint: color) else { return 0 }
        var w = Double(cached.width)
        var h = Double(cached.height)
        if let maxWidth, w > maxWidth, maxWidth > 0 {
            // Too long for its column: scale down rather than overflow into the next one.
            let k = maxWidth / w
            w *= k
            h *= k
        }
        let left: Double
        switch align {
        case .left: left = x
        case .center: left = x - w / 2
        case .right: left = x - w
        }
        // Invisible (a fade's first frame): nothing to copy.
        guard alpha * 255 >= 1 else { return w }
        // The texture is in its colour already: a colour modulation would send SDL's software
        // renderer to its generic per-pixel blit, four fifths of a 1080p board frame's
        // instructions (callgrind), where a plain alpha blit skips the clear pixels.
        SDL_SetTextureAlphaMod(cached.texture, UInt8(clamping: Int(alpha * 255)))
        var dst = SDL_FRect(x: Float(left.rounded()), y: Float((midY - h / 2).rounded()), w: Float(w), h: Float(h))
        SDL_RenderCopyF(renderer, cached.texture, nil, &dst)
        return w
    }

    /// The width `string` is drawn at. A text already drawn answers from the cache; one in
    /// the bundled face alone is measured by SDL_ttf without being drawn (the same shaping
    /// and the same width as the surface it would draw); only a text that needs other faces
    /// is drawn to be measured. Ellipsizing measures a handful of candidates of which one is
    /// drawn: drawing each cost a history page of long captions 20-40 ms and filled the
    /// cache with prefixes nobody sees.
    func measure(_ string: String, _ role: FontRole, size: Int) -> Double {
        guard !string.isEmpty else { return 0 }
        if let width = widths[TextKey(role: role, size: size, text: string)] { return Double(width) }
        if let plain = plainFont(string, role, size: size) {
            setShaping(plain, .plain)
            var w: Int32 = 0
            var h: Int32 = 0
            if TTF_SizeUTF8(plain, string, &w, &h) == 0 { return Double(w) }
        }
        guard let cached = cachedText(string, role, size) else { return 0 }
        return Double(cached.width)
    }

    func drawnWidth(_ string: String, _ role: FontRole, size: Int) -> Double {
        guard !string.isEmpty, let cached = cachedText(string, role, size) else { return 0 }
        return Double(cached.width)
    }

    /// `text` as a QR code, encoded once while it stays on screen: a screen with a code
    /// redraws each second (its clock, its expiry countdown) and the code does not change.
    func qrCode(_ text: String) -> QRCode? {
        if let lastQR, lastQR.text == text { return lastQR.code }
        let code = QRCode(text)
        lastQR = (text, code)
        return code
    }

    /// `text` ellipsized to `width` (see `fittedUncached`), remembered: a list redraws the
    /// same rows each frame while it scrolls. Bounded like the text cache; when full it
    /// starts again (entries are a few strings each, and refilling costs measurements only).
    func fitted(_ text: String, _ role: FontRole, size: Int, width: Double) -> String {
        let key = FitKey(text: TextKey(role: role, size: size, text: text), width: Int(width.rounded(.down)))
        if let known = fits[key] { return known }
        if fits.count >= Self.maxCachedTexts * 4 { fits.removeAll(keepingCapacity: true) }
        let result = fittedUncached(text, role, size: size, width: Double(key.width))
        fits[key] = result
        return result
    }

    private func cachedText(_ string: String, _ role: FontRole, _ size: Int, tint: RGB = Canvas.white) -> CachedText? {
        useCounter += 1
        let key = TintedKey(text: TextKey(role: role, size: size, text: string), tint: tint)
        if let hit = texts[key] {
            hit.lastUse = useCounter
            return hit
        }
        guard let surface = rasterize(string, role, size: size) else { return nil }
        defer { SDL_FreeSurface(surface) }
        if tint != Canvas.white { Self.tint(surface, tint) }
        if widths.count >= Self.maxCachedTexts * 4 { widths.removeAll(keepingCapacity: true) }
        widths[key.text] = surface.pointee.w
        guard let texture = SDL_CreateTextureFromSurface(renderer, surface) else { return nil }
        SDL_SetTextureBlendMode(texture, SDL_BLENDMODE_BLEND)
        rasterizations += 1
        let entry = CachedText(texture: texture, width: surface.pointee.w, height: surface.pointee.h, lastUse: useCounter)
        if texts.count >= Self.maxCachedTexts || cachedTextBytes + entry.bytes > Self.maxCachedTextBytes {
            evictOldest(toFit: entry.bytes)
        }
        texts[key] = entry
        cachedTextBytes += entry.bytes
        return entry
    }

    /// Multiplies a white text surface (32-bit ARGB) by `tint`, as SDL's colour modulation
    /// would at every draw: glyphs take the colour, colour emoji are tinted the same way.
    static func tint(_ surface: UnsafeMutablePointer<SDL_Surface>, _ tint: RGB) {
        guard SDL_LockSurface(surface) == 0 else { return }
        defer { SDL_UnlockSurface(surface) }
        let s = surface.pointee
        let (r, g, b) = (UInt32(tint.r), UInt32(tint.g), UInt32(tint.b))
        for y in 0..<Int(s.h) {
            let row = (s.pixels + y * Int(s.pitch)).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(s.w) {
                let p = row[x]
                guard p >> 24 != 0 else { continue }
                let pr = (p >> 16 & 0xFF) * r / 255
                let pg = (p >> 8 & 0xFF) * g / 255
                let pb = (p & 0xFF) * b / 255
                row[x] = p & 0xFF00_0000 | pr << 16 | pg << 8 | pb
            }
        }
    }

    /// Drops the least recently used quarter of the entries (names of old rounds, stale
    /// counts), and more if that still leaves no room for `bytes`. One sort per eviction
    /// rather than an ordered structure per use: a use is the hot path, an eviction rare.
    private func evictOldest(toFit bytes: Int) {
        var victims = texts.sorted { $0.value.lastUse < $1.value.lastUse }[...]
        var dropped = 0
        while let (key, value) = victims.first,
            dropped < Self.maxCachedTexts / 4 || cachedTextBytes + bytes > Self.maxCachedTextBytes
        {
            victims = victims.dropFirst()
            SDL_DestroyTexture(value.texture)
            texts[key] = nil
            cachedTextBytes -= value.bytes
            dropped += 1
        }
    }
}
