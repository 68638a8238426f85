import Foundation
import Testing

@testable import HyzerKit

/// Issue 37 item 4, the reading half: UDisc's export as CSV records, then as rounds.
@Suite struct UDiscReaderTests {
    static let utc = TimeZone(identifier: "UTC")!

    /// Every record of `text`, fed in chunks of `chunk` bytes (a record may straddle two).
    static func records(_ text: String, chunk: Int) -> [[String]] {
        var reader = CSVReader()
        var out: [[String]] = []
        let bytes = Array(text.utf8)
        var start = 0
        while start < bytes.count {
            out += reader.feed(bytes[start..<min(bytes.count, start + chunk)]).map(\.fields)
            start += chunk
        }
        return out + reader.finish().map(\.fields)
    }

    @Test func csvReadsQuotesLineBreaksAndAByteOrderMarkInAnyChunking() {
        let text = "\u{FEFF}a,\"b, c\",\"say \"\"hi\"\"\"\r\n\"two\nlines\",,x\nlast,row"
        let want = [["a", "b, c", "say \"hi\""], ["two\nlines", "", "x"], ["last", "row"]]
        for chunk in [1, 2, 3, 7, 1000] { #expect(Self.records(text, chunk: chunk) == want, "chunk \(chunk)") }
        // The line a record starts on counts the line breaks inside quotes.
        var reader = CSVReader()
        let lines = (reader.feed(Array(text.utf8)) + reader.finish()).map(\.line)
        #expect(lines == [1, 2, 4])
        // Not a byte-order mark: bytes that only begin like one are kept.
        #expect(Self.records("\u{EF}x,y\n", chunk: 1) == [["\u{EF}x", "y"]])
    }

    static func rounds(_ text: String) -> [UDiscReader.Outcome] {
        var reader = UDiscReader(timeZone: utc)
        var out: [UDiscReader.Outcome] = []
        var csv = CSVReader()
        for record in csv.feed(Array(text.utf8)) + csv.finish() { out += reader.add(record.fields, line: record.line) }
        return out + reader.finish()
    }

    @Test func bothHeaderFormsGiveTheSameRound() throws {
        let older = """
            PlayerName,CourseName,LayoutName,Date,Total,+/-,Hole1,Hole2,Hole3
            Par,Maple,Main,2019-06-08 1105,9,,3,3,3
            Nate,Maple,Main,2019-06-08 1105,8,-1,3,2,3
            """
        let newer = """
            LayoutName,PlayerName,CourseName,StartDate,EndDate,Total,+/-,RoundRating,Hole1,Hole2,Hole3
            Main,Par,Maple,2019-06-08 1105,2019-06-08 1230,9,,,3,3,3
            Main,Nate,Maple,2019-06-08 1105,2019-06-08 1230,8,-1,201,3,2,3
            """
        guard case .round(let a) = Self.rounds(older).first, case .round(let b) = Self.rounds(newer).first else {
            Issue.record("not read: \(Self.rounds(older)) \(Self.rounds(newer))")
            return
        }
        #expect(a.pars == [3, 3, 3] && a.players.map(\.strokes) == [[3, 2, 3]])
        #expect(a.start == Date(timeIntervalSince1970: 1_559_991_900))  // 2019-06-08 11:05 UTC
        #expect(a.end == nil && b.end == Date(timeIntervalSince1970: 1_559_997_000))
        #expect(a.key == b.key && a.roundID == b.roundID, "the same round in either form is one round")
        #expect(a.courseName == "Maple · Main")
    }

    /// A bad row refuses its round, with its line; the rounds around it are read.
    @Test func aBadRowRefusesItsRoundWithItsLine() {
        let text = """
            PlayerName,CourseName,LayoutName,Date,Total,+/-,Hole1,Hole2
            Par,Maple,Main,2019-06-08 1105,6,,3,3
            Nate,Maple,Main,2019-06-08 1105,6,0,3,3
            Par,Maple,Main,2019-06-09 1105,6,,3,3
            Nate,Maple,Main,2019-06-09 1105,6,0,3,x
            Mike,Maple,Main,2019-06-09 1105,6,0,3,3
            Nate,Maple,Main,2019-06-10 1105,6,0,3,3
            Par,Maple,Main,not a date,6,,3,3
            Par,Maple,Main,2019-06-12 1105,6,,3,3
            Nate,Maple,Main,2019-06-12 1105,6,0,11,3
            Par,Maple,Main,2019-06-13 1105,6,,3,3
            Nate,Maple,Main,2019-06-13 1105,6,0,3,3
            """
        let outcomes = Self.rounds(text)
        let refused = outcomes.compactMap { if case .refused(let p) = $0 { p } else { nil } }
        let read = outcomes.compactMap { if case .round(let r) = $0 { r.dateText } else { nil } }
        #expect(read == ["2019-06-08 1105", "2019-06-13 1105"])
        #expect(refused.map(\.line) == [5, 7, 8, 10])
        #expect(refused[0].reason.contains("hole 2 is \"x\""))
        #expect(refused[1].reason.contains("no \"Par\" row"))
        #expect(refused[2].reason.contains("not a date"))
        #expect(refused[3].reason.contains("took 11 on hole 1"))
        // Not an export at all: one refusal, line 1, and nothing more.
        #expect(
            Self.rounds("name,score\nNate,3\n") == [
                .refused(
                    UDisc.Problem(line: 1, reason: "not a UDisc export: the header has no PlayerName, CourseName and LayoutName"))
            ])
    }

    @Test func stableIDsAreStable() {
        // Fixed here so a change to the hash (which would make every earlier import new
        // again) fails a test rather than duplicating a group's history.
        // (The value worked out by a separate FNV-1a, in Python, on 29 Nov 2026.)
        #expect(StableID.uuid("udisc").uuidString == "0C6EF8FB-3D5D-89F5-9AF6-411043E0651C")
        #expect(StableID.uuid("a") != StableID.uuid("b"))
        let id = StableID.uuid("round")
        #expect(id.uuid.6 >> 4 == 8 && id.uuid.8 >> 6 == 2, "version 8, the RFC's variant")
    }
}
