import Foundation
import HyzerKit

/// Which character follows the last few typed, over every name of a list counted once
/// (whatever its frequency: this model is for names on no list, and rare spellings tell more
/// about them than James). Counts in flat arrays, a context's followers side by side: the
/// 97,000 names' 3 million counts take milliseconds to gather, not a dictionary's hundreds.
///
/// Only the contexts that occur have a row: of the 33,825 contexts of up to three codes, the
/// bundled list has about 8,300, so the counts take 1.1 MB where a row for every context took
/// 4.3 MB, all of it written (zeros included) and resident for as long as the kiosk runs.
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

    /// `rows[context]`: the row of the context's counts, or -1 for a context no name has.
    let rows: [Int32]
    /// `counts[row * symbols + code]`: how often `code` followed the row's context.
    let counts: [Float]
    /// `totals[row]`: how often the row's context was followed by anything.
    let totals: [Float]

    init(_ keys: [String]) {
        var rows = [Int32](repeating: -1, count: Self.contexts)
        var counts: [Float] = []
        var totals: [Float] = []
        var codes: [Int] = []
        for key in keys {
            codes.removeAll(keepingCapacity: true)
            codes.append(Self.startCode)
            Self.appendCodes(of: key, to: &codes)
            codes.append(Self.endCode)
            for index in 1..<codes.count {
                for length in 0...min(Self.contextLength, index) {
                    let context = Self.context(codes[(index - length)..<index])
                    if rows[context] < 0 {
                        rows[context] = Int32(totals.count)
                        totals.append(0)
                        counts.append(contentsOf: repeatElement(0, count: Self.symbols))
                    }
                    let row = Int(rows[context])
                    counts[row * Self.symbols + codes[index]] += 1
                    totals[row] += 1
                }
            }
        }
        self.rows = rows
        // Exactly as long as they are: grown by appending, they had up to twice the room.
        self.counts = counts.withUnsafeBufferPointer { Array($0) }
        self.totals = totals.withUnsafeBufferPointer { Array($0) }
    }

    /// The bytes the model's arrays hold.
    var byteCount: Int {
        rows.count * MemoryLayout<Int32>.stride + (counts.count + totals.count) * MemoryLayout<Float>.stride
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
            let row = Int(rows[Self.context(history[(history.count - length)...])])
            guard row >= 0, totals[row] > 0 else { continue }
            let total = Double(totals[row])
            // The longest context that was seen leads; the rest break its ties and cover
            // letters it never saw.
            let weight = length == 0 ? share : share * NameWheel.Tuning.longestContextShare
            for code in 1..<Self.symbols {
                let count = Double(counts[row * Self.symbols + code])
                guard count > 0, let character = code == Self.endCode ? NameLexicon.end : Self.characters[code] else { continue }
                result[character, default: 0] += weight * count / total
            }
            share -= weight
        }
        return result
    }
}
