import CSDL2
import CSDL2TTF
import Foundation
import KioskCore

/// A stretch of text drawn with one face and one shaping setting.
struct TextRun: Equatable {
    var text: String
    var face: FaceID
    var script: ShapingScript
}

/// Names in any script: a string the bundled face cannot draw whole is cut into runs, each
/// drawn with a face that has its glyphs (the bundled one first, then what fontconfig finds)
/// and shaped by HarfBuzz with its script and direction, then the runs are put side by side
/// on a common baseline in visual order. The result is one surface, cached like any text,
/// so measuring, ellipsizing and drawing treat it as a single string.
extension Canvas {
    /// The white text surface for `string` (the caller frees it).
    func rasterize(_ string: String, _ role: FontRole, size: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        if let plain = plainFont(string, role, size: size) { return render(string, with: plain, script: .plain) }
        return compose(runs(string, role, size: size), role, size: size)
    }

    /// The bundled face when it draws every glyph of `string` and nothing needs special
    /// shaping: the common case, one pass over the scalars and a single SDL_ttf call.
    func plainFont(_ string: String, _ role: FontRole, size: Int) -> OpaquePointer? {
        guard let bundled = try? font(role, size: size) else { return nil }
        let plain = string.unicodeScalars.allSatisfy {
            ShapingScript.of($0.value) == nil && TTF_GlyphIsProvided32(bundled, $0.value) != 0
        }
        return plain ? bundled : nil
    }

    /// Shaping settings live on the face, which runs of other scripts share: set them
    /// before every use.
    func setShaping(_ font: OpaquePointer, _ script: ShapingScript) {
        TTF_SetFontScriptName(font, script.tag)
        TTF_SetFontDirection(font, script.rightToLeft ? TTF_DIRECTION_RTL : TTF_DIRECTION_LTR)
    }

    /// `string` cut into runs, in visual (left to right) order.
    func runs(_ string: String, _ role: FontRole, size: Int) -> [TextRun] {
        let bundled = FaceID.bundled(role)
        var logical: [(text: String, face: FaceID, script: ShapingScript?)] = []
        var used: [FaceID] = [bundled]
        var previous = bundled
        for character in string {
            // Joiners and variation selectors have no glyph of their own: the face must
            // have the characters they bind, not them.
            var scalars = character.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }.map(\.value)
            if scalars.isEmpty { scalars = character.unicodeScalars.map(\.value) }
            let letter =
                character.unicodeScalars.contains { $0.properties.isAlphabetic || $0.properties.isEmoji }
                && !character.isNumber
            // Punctuation stays in the face around it (an Arabic name's own ellipsis and
            // commas); letters and spaces go to the bundled face whenever it can draw them:
            // a space in a colour emoji face is a whole bitmap cell wide.
            let preferred = letter || character.isWhitespace ? used : [previous] + used
            var face = preferred.first { provides($0, scalars, size: size) }
            if face == nil, fallbackEnabled,
                let found = fallback.face(for: scalars, bold: role != .body),
                provides(found, scalars, size: size)
            {
                face = found
                used.append(found)
            }
            let chosen = face ?? bundled  // no face has it: the bundled face's box, never a crash
            previous = chosen
            let script = character.unicodeScalars.lazy.compactMap { ShapingScript.of($0.value) }.first
            logical.append((String(character), chosen, script ?? (letter ? .plain : nil)))
        }
        // Neutral characters take the script of the letters before them (after them at the start).
        let firstStrong = logical.lazy.compactMap(\.script).first ?? .plain
        var current = firstStrong
        var runs: [TextRun] = []
        for item in logical {
            current = item.script ?? current
            if let last = runs.last, last.face == item.face, last.script == current {
                runs[runs.count - 1].text += item.text
            } else {
                runs.append(TextRun(text: item.text, face: item.face, script: current))
            }
        }
        return visualOrder(runs, rightToLeft: firstStrong.rightToLeft)
    }

    /// The two-level case of the Unicode bidi reordering: consecutive right-to-left runs are
    /// reversed among themselves (HarfBuzz reverses the glyphs inside each), and in a
    /// paragraph that starts right to left the groups are reversed too.
    private func visualOrder(_ runs: [TextRun], rightToLeft paragraph: Bool) -> [TextRun] {
        var groups: [[TextRun]] = []
        for run in runs {
            if let last = groups.last?.last, last.script.rightToLeft == run.script.rightToLeft {
                groups[groups.count - 1].append(run)
            } else {
                groups.append([run])
            }
        }
        let ordered = groups.map { $0.first!.script.rightToLeft ? Array($0.reversed()) : $0 }
        return Array((paragraph ? ordered.reversed() : ordered).joined())
    }

    private func provides(_ face: FaceID, _ scalars: [UInt32], size: Int) -> Bool {
        guard let font = font(face, size: size) else { return false }
        return scalars.allSatisfy { TTF_GlyphIsProvided32(font, $0) != 0 }
    }

    private func render(_ text: String, with font: OpaquePointer, script: ShapingScript) -> UnsafeMutablePointer<SDL_Surface>? {
        setShaping(font, script)
        return TTF_RenderUTF8_Blended(font, text, SDL_Color(r: 255, g: 255, b: 255, a: 255))
    }

    /// The runs side by side on one baseline. A run from a bitmap-only face (a colour emoji
    /// font comes in one large strike) is scaled to the bundled face's line height.
    private func compose(_ runs: [TextRun], _ role: FontRole, size: Int) -> UnsafeMutablePointer<SDL_Surface>? {
        guard let bundled = try? font(role, size: size) else { return nil }
        let lineHeight = Double(TTF_FontHeight(bundled))
        var pieces: [(surface: UnsafeMutablePointer<SDL_Surface>, w: Int32, h: Int32, ascent: Int32)] = []
        defer { for piece in pieces { SDL_FreeSurface(piece.surface) } }
        for run in runs {
            // A face that fails to open or draw leaves the run to the bundled face (boxes).
            let font = font(run.face, size: size) ?? bundled
            guard
                let surface = render(run.text, with: font, script: run.script)
                    ?? render(run.text, with: bundled, script: run.script)
            else { continue }
            let h = Double(surface.pointee.h)
            let k = h > lineHeight * 1.5 ? lineHeight / h : 1
            pieces.append(
                (
                    surface, Int32((Double(surface.pointee.w) * k).rounded()), Int32((h * k).rounded()),
                    Int32((Double(TTF_FontAscent(font)) * k).rounded())
                ))
        }
        guard !pieces.isEmpty else { return nil }
        // Text is placed by its box's centre: make the box symmetric about the centre of the
        // bundled face's line, so a name in a taller face (Devanagari's marks, CJK) sits on
        // the same baseline as a Latin one in the next row rather than riding up.
        let ascent = TTF_FontAscent(bundled)
        let centre = (ascent + TTF_FontDescent(bundled)) / 2  // above the baseline (descent < 0)
        let up = max(ascent, pieces.map(\.ascent).max()!) - centre
        let down = max(-TTF_FontDescent(bundled), pieces.map { $0.h - $0.ascent }.max()!) + centre
        let half = max(up, down)
        let baseline = half + centre
        let width = pieces.reduce(Int32(0)) { $0 + $1.w }
        guard
            let out = SDL_CreateRGBSurfaceWithFormat(
                0, max(1, width), max(1, 2 * half), 32, UInt32(SDL_PIXELFORMAT_ARGB8888.rawValue))
        else { return nil }
        var x: Int32 = 0
        for piece in pieces {
            // Copied, not blended: runs never overlap and the target starts transparent.
            SDL_SetSurfaceBlendMode(piece.surface, SDL_BLENDMODE_NONE)
            var dst = SDL_Rect(x: x, y: baseline - piece.ascent, w: piece.w, h: piece.h)
            if piece.w == piece.surface.pointee.w, piece.h == piece.surface.pointee.h {
                SDL_UpperBlit(piece.surface, nil, out, &dst)
            } else {
                SDL_UpperBlitScaled(piece.surface, nil, out, &dst)
            }
            x += piece.w
        }
        return out
    }
}

/// How one run of a string is drawn (for tests and diagnostics).
public struct TextRunCoverage: Sendable, Equatable {
    public var text: String
    /// The face's file name: a bundled font's or an installed one's.
    public var face: String
    public var rightToLeft: Bool
    /// Scalars (joiners and variation selectors aside) the face has no glyph for: drawn as boxes.
    public var missing: [Unicode.Scalar]
}

extension Canvas {
    /// `text`, or its longest prefix with "…" that fits `width` (by binary search: a handful
    /// of measurements, see `measure`). The prefix is whole Characters, so a
    /// cut never falls inside a grapheme cluster (an emoji sequence, a Devanagari conjunct,
    /// a letter and its accents), and it is measured as drawn: runs of every face together.
    func fittedUncached(_ text: String, _ role: FontRole, size: Int, width: Double) -> String {
        guard measure(text, role, size: size) > width else { return text }
        let characters = Array(text)
        var (low, high) = (0, characters.count - 1)
        while low < high {
            let mid = (low + high + 1) / 2
            let candidate = String(characters[..<mid]).trimmingCharacters(in: .whitespaces) + "…"
            if measure(candidate, role, size: size) <= width { low = mid } else { high = mid - 1 }
        }
        return String(characters[..<low]).trimmingCharacters(in: .whitespaces) + "…"
    }

    func coverage(_ string: String, _ role: FontRole, size: Int) -> [TextRunCoverage] {
        runs(string, role, size: size).map { run in
            let font = font(run.face, size: size)
            let missing = run.text.unicodeScalars.filter { scalar in
                guard !scalar.properties.isDefaultIgnorableCodePoint else { return false }
                guard let font else { return true }
                return TTF_GlyphIsProvided32(font, scalar.value) == 0
            }
            let face: String
            switch run.face {
            case .bundled(let role): face = Self.fileName(role)
            case .installed(let path, _): face = String(path.split(separator: "/").last ?? Substring(path))
            }
            return TextRunCoverage(text: run.text, face: face, rightToLeft: run.script.rightToLeft, missing: Array(missing))
        }
    }
}
