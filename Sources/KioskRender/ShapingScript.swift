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
