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
