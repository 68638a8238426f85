import Foundation
import HyzerKit

/// Which character follows the last few typed, over every name of a list counted once
/// (whatever its frequency: this model is for names on no list, and rare spellings tell more
/// about them than James). Counts in flat arrays, a context's followers side by side: the
/// 97,000 names' 3 million counts take milliseconds to gather, not a dictionary's hundreds.
struct LetterModel: Sendable {
    /// The longest context, in characters (the start of a name counts as one).
    static let contextLength = 3
    /// Codes: 0 any character the wheel lacks, then the wheel's characters, the start, the end.
    static let symbols = 32
    static let startCode = 30
    static let endCode = 31
    /// The wheel's character of each code (nil for 0, the start and the end).
    static let characters: [Character?] = [nil] + NameWheel.characters.map(Optional.some) + [nil, nil]
    /// The code of each ASCII byte.
    static let asciiCodes: [UInt8] = (0..<128).map { byte in
        UInt8(NameWheel.characters.firstIndex(of: Character(Unicode.Scalar(UInt8(byte)))).map { $0 + 1 } ?? 0)
    }
    /// The first context index of each context length: 1 of length 0, 32 of 1, 32² of 2, 32³ of 3.
    static let offsets = [0, 1, 1 + 32, 1 + 32 + 32 * 32]
    static let contexts = 1 + 32 + 32 * 32 + 32 * 32 * 32

    /// `counts[context * symbols + code]`: how often `code` followed `context`.
    let counts: [Float]
    let totals: [Float]

    init(_ keys: [String]) {
        var counts = [Float](repeating: 0, count: Self.contexts * Self.symbols)
        var totals = [Float](repeating: 0, count: Self.contexts)
        var codes: [Int] = []
        for key in keys {
            codes.removeAll(keepingCapacity: true)
            codes.append(Self.startCode)
            Self.appendCodes(of: key, to: &codes)
            codes.append(Self.endCode)
            for index in 1..<codes.count {
                for length in 0...min(Self.contextLength, index) {
                    let context = Self.context(codes[(index - length)..<index])
                    counts[context * Self.symbols + codes[index]] += 1
                    totals[context] += 1
                }
            }
        }
        self.counts = counts
        self.totals = totals
    }

    static func appendCodes(of key: String, to codes: inout [Int]) {
        for scalar in key.unicodeScalars {
            codes.append(scalar.isASCII ? Int(asciiCodes[Int(scalar.value)]) : 0)
        }
    }

    /// The index of a context of at most `contextLength` codes.
    static func context(_ codes: ArraySlice<Int>) -> Int {
        offsets[codes.count] + codes.reduce(0) { $0 * symbols + $1 }
    }

    /// How likely each character is to follow `key`: the longest contexts that were seen,
    /// each shorter one mixed in with a smaller share.
    func next(after key: String) -> [Character: Double] {
        var history = [Self.startCode]
        Self.appendCodes(of: key, to: &history)
        var result: [Character: Double] = [:]
        var share = 1.0
        for length in stride(from: min(Self.contextLength, history.count), through: 0, by: -1) {
            let context = Self.context(history[(history.count - length)...])
            let total = Double(totals[context])
            guard total > 0 else { continue }
            // The longest context that was seen leads; the rest break its ties and cover
            // letters it never saw.
            let weight = length == 0 ? share : share * NameWheel.Tuning.longestContextShare
            for code in 1..<Self.symbols {
                let count = Double(counts[context * Self.symbols + code])
                guard count > 0, let character = code == Self.endCode ? NameLexicon.end : Self.characters[code] else { continue }
                result[character, default: 0] += weight * count / total
            }
            share -= weight
        }
        return result
    }
}
