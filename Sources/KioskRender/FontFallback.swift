import CFontconfig
import KioskCore

/// A face to draw text with: one of the bundled faces, or an installed face that
/// fontconfig found for glyphs the bundled one lacks (a collection file and its index).
enum FaceID: Hashable {
    case bundled(FontRole)
    case installed(path: String, index: Int)
}

/// Asks fontconfig which installed face draws a character the bundled fonts lack.
///
/// fontconfig is what desktop toolkits use for this: it knows every installed face's
/// coverage (its cache holds each face's charset) and ranks them by the wanted style,
/// so the kiosk needs no table of its own from script to font file. The system is opened
/// lazily, on the first character the bundled faces lack: a board of Latin names never
/// loads it.
final class FontFallback {
    private var config: OpaquePointer?
    private var loaded = false
    /// fontconfig's answers, per character (its scalars) and weight: a name redrawn at a new
    /// size or in a new round asks again for nothing. `nil` means no installed face has it.
    private var answers: [AnswerKey: FaceID?] = [:]
    /// Bounded (issue 12: weeks of names from any device). An answer is one FcFontSort
    /// away, so a full memo is simply dropped rather than ordered by use.
    static let maxAnswers = 2048

    struct AnswerKey: Hashable {
        var scalars: [UInt32]
        var bold: Bool
    }

    var cachedAnswers: Int { answers.count }

    deinit {
        if let config { FcConfigDestroy(config) }
    }

    /// The installed face best matching the wanted weight that has every one of `scalars`,
    /// or nil (no such face, or no fontconfig): the caller then draws the bundled face's box.
    func face(for scalars: [UInt32], bold: Bool) -> FaceID? {
        let key = AnswerKey(scalars: scalars, bold: bold)
        if let known = answers[key] { return known }
        let found = lookUp(scalars, bold: bold)
        if answers.count >= Self.maxAnswers { answers.removeAll(keepingCapacity: true) }
        answers[key] = found
        return found
    }

    private func lookUp(_ scalars: [UInt32], bold: Bool) -> FaceID? {
        if !loaded {
            loaded = true
            config = FcInitLoadConfigAndFonts()
        }
        guard let config, !scalars.isEmpty, let pattern = FcPatternCreate() else { return nil }
        defer { FcPatternDestroy(pattern) }
        guard let wanted = FcCharSetCreate() else { return nil }
        for scalar in scalars { FcCharSetAddChar(wanted, scalar) }
        FcPatternAddCharSet(pattern, FC_CHARSET, wanted)
        FcCharSetDestroy(wanted)
        // The bundled faces are rounded sans: ask for a sans of the same weight.
        FcPatternAddString(pattern, FC_FAMILY, "sans-serif")
        FcPatternAddInteger(pattern, FC_WEIGHT, bold ? FC_WEIGHT_BOLD : FC_WEIGHT_MEDIUM)
        FcConfigSubstitute(config, pattern, FcMatchPattern)
        FcDefaultSubstitute(pattern)
        var result = FcResultMatch
        // Sorted best first; trimmed to the faces that add coverage, which is all we walk.
        guard let sorted = FcFontSort(config, pattern, FcTrue, nil, &result) else { return nil }
        defer { FcFontSetDestroy(sorted) }
        for i in 0..<Int(sorted.pointee.nfont) {
            guard let candidate = sorted.pointee.fonts[i] else { continue }
            var charset: OpaquePointer?
            guard FcPatternGetCharSet(candidate, FC_CHARSET, 0, &charset) == FcResultMatch, let charset,
                scalars.allSatisfy({ FcCharSetHasChar(charset, $0) != 0 })
            else { continue }
            var file: UnsafeMutablePointer<FcChar8>?
            guard FcPatternGetString(candidate, FC_FILE, 0, &file) == FcResultMatch, let file else { continue }
            let path = String(cString: file)
            // FreeType (SDL_ttf) opens these; bitmap and Type 1 faces of old X setups are skipped.
            guard [".ttf", ".otf", ".ttc", ".otc"].contains(where: { path.lowercased().hasSuffix($0) }) else { continue }
            var index: Int32 = 0
            _ = FcPatternGetInteger(candidate, FC_INDEX, 0, &index)
            return .installed(path: path, index: Int(index))
        }
        return nil
    }
}

/// Scripts HarfBuzz must be told about to shape right: right-to-left ones, and the
/// Brahmic scripts whose letters join and reorder. Everything else (Latin, Greek,
/// Cyrillic, CJK, Hangul, emoji) shapes the same with HarfBuzz's default shaper, which is
/// what the bundled faces have always been drawn with.
struct ShapingScript: Hashable {
    /// ISO 15924 tag, as TTF_SetFontScriptName takes it.
    var tag: String
    var rightToLeft: Bool

    /// The default: HarfBuzz's "unknown" script, left to right (SDL_ttf's own default).
    static let plain = ShapingScript(tag: "Zzzz", rightToLeft: false)

    private static let ranges: [(ClosedRange<UInt32>, String, Bool)] = [
        (0x0590...0x05FF, "Hebr", true), (0xFB1D...0xFB4F, "Hebr", true),
        (0x0600...0x06FF, "Arab", true), (0x0750...0x077F, "Arab", true), (0x08A0...0x08FF, "Arab", true),
        (0xFB50...0xFDFF, "Arab", true), (0xFE70...0xFEFF, "Arab", true),
        (0x0700...0x074F, "Syrc", true), (0x0780...0x07BF, "Thaa", true),
        (0x0900...0x097F, "Deva", false), (0xA8E0...0xA8FF, "Deva", false),
        (0x0980...0x09FF, "Beng", false), (0x0A00...0x0A7F, "Guru", false), (0x0A80...0x0AFF, "Gujr", false),
        (0x0B00...0x0B7F, "Orya", false), (0x0B80...0x0BFF, "Taml", false), (0x0C00...0x0C7F, "Telu", false),
        (0x0C80...0x0CFF, "Knda", false), (0x0D00...0x0D7F, "Mlym", false), (0x0D80...0x0DFF, "Sinh", false),
        (0x0E00...0x0E7F, "Thai", false), (0x0E80...0x0EFF, "Laoo", false), (0x0F00...0x0FFF, "Tibt", false),
        (0x1000...0x109F, "Mymr", false), (0x1780...0x17FF, "Khmr", false),
    ]

    /// The script a scalar asks for, or nil for one that needs none of the above.
    static func of(_ scalar: UInt32) -> ShapingScript? {
        // Below U+0590 is Latin, Greek, Cyrillic, Armenian: the common case returns at once.
        guard scalar >= 0x0590 else { return nil }
        for (range, tag, rtl) in ranges where range.contains(scalar) {
            return ShapingScript(tag: tag, rightToLeft: rtl)
        }
        return nil
    }
}
