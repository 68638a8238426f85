import Foundation
import Testing

@testable import KioskHardware

@Suite("Trace format")
struct KnobTraceTests {
    @Test func roundTripsThroughJSONLines() throws {
        let records = [
            KnobTraceRecord(tNs: 1_000_000, line: .a, value: 0),
            KnobTraceRecord(tNs: 1_250_000, line: .b, value: 0),
            KnobTraceRecord(tNs: 9_000_000, line: .sw, value: 1),
        ]
        let text = KnobTrace.encode(records)
        #expect(text.hasPrefix("{\"t_ns\": 1000000, \"line\": \"A\", \"value\": 0}\n"))
        #expect(try KnobTrace.parse(text) == records)
    }

    @Test func acceptsAnyKeyOrderSpacingExtraKeysAndBlankLines() throws {
        let text = """
            {"value":1,"line":"SW","t_ns":5}

              {"t_ns": 7, "line": "B", "value": 0, "note": "bounce"}\r
            """
        #expect(
            try KnobTrace.parse(text) == [
                KnobTraceRecord(tNs: 5, line: .sw, value: 1),
                KnobTraceRecord(tNs: 7, line: .b, value: 0),
            ])
    }

    /// Each malformed line is reported with its 1-based number and what is wrong with it.
    @Test(arguments: [
        ("{\"t_ns\": 1, \"line\": \"A\", \"value\": 0", "not valid JSON"),
        ("{\"line\": \"A\", \"value\": 0}", "missing \"t_ns\""),
        ("{\"t_ns\": 1, \"value\": 0}", "missing \"line\""),
        ("{\"t_ns\": 1, \"line\": \"A\"}", "missing \"value\""),
        ("{\"t_ns\": -5, \"line\": \"A\", \"value\": 0}", "\"t_ns\" must be a non-negative integer"),
        ("{\"t_ns\": 1.5, \"line\": \"A\", \"value\": 0}", "\"t_ns\" must be a non-negative integer"),
        ("{\"t_ns\": \"1\", \"line\": \"A\", \"value\": 0}", "\"t_ns\" must be a non-negative integer"),
        ("{\"t_ns\": 1, \"line\": \"C\", \"value\": 0}", "\"line\" must be \"A\", \"B\" or \"SW\", got \"C\""),
        ("{\"t_ns\": 1, \"line\": 7, \"value\": 0}", "\"line\" must be the string"),
        ("{\"t_ns\": 1, \"line\": \"A\", \"value\": 2}", "\"value\" must be 0 or 1, got 2"),
        ("{\"t_ns\": 1, \"line\": \"A\", \"value\": true}", "\"value\" must be 0 or 1"),
        ("{\"t_ns\": 1, \"line\": \"A\", \"value\": null}", "\"value\" must be 0 or 1"),
        ("[1, \"A\", 0]", "expected a JSON object"),
        ("# t_ns line value", "not valid JSON"),
    ])
    func malformedLineIsReportedWithItsNumber(line: String, message: String) {
        let text = "{\"t_ns\": 0, \"line\": \"A\", \"value\": 0}\n\n" + line + "\n{\"t_ns\": 9, \"line\": \"A\", \"value\": 1}\n"
        #expect {
            try KnobTrace.parse(text, source: "t.jsonl")
        } throws: { error in
            guard let error = error as? KnobTraceError else { return false }
            return error.lineNumber == 3 && error.message.contains(message)
                && error.description.hasPrefix("t.jsonl: line 3: ")
        }
    }

    @Test func timestampsGoingBackwardsIsAnError() {
        let text = "{\"t_ns\": 10, \"line\": \"A\", \"value\": 0}\n{\"t_ns\": 9, \"line\": \"B\", \"value\": 0}\n"
        #expect(
            throws: KnobTraceError(lineNumber: 2, message: "\"t_ns\" goes backwards (9 after 10); traces must be in time order")
        ) {
            try KnobTrace.parse(text)
        }
    }

    @Test func readsFilesAndReportsMissingOnes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("knob-\(UUID()).jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        try KnobTrace.encode([KnobTraceRecord(tNs: 3, line: .a, value: 0)]).write(to: url, atomically: true, encoding: .utf8)
        #expect(try KnobTrace.read(path: url.path) == [KnobTraceRecord(tNs: 3, line: .a, value: 0)])
        #expect(throws: KnobTraceError.self) { try KnobTrace.read(path: url.path + ".missing") }
    }

    @Test func decodedEventsAndSummaryPrintAsJSONLines() throws {
        let events: [KnobEvent] = [
            .detent(.clockwise, timestampNs: 5), .press(timestampNs: 6),
            .longPress(timestampNs: 7), .release(timestampNs: 8, afterLongPress: true),
        ]
        for event in events {
            let object = try JSONSerialization.jsonObject(with: Data(event.jsonLine.utf8)) as? [String: Any]
            #expect(object?["t_ns"] as? Int == Int(event.timestampNs))
        }
        #expect(events[0].jsonLine == "{\"event\": \"detent\", \"direction\": \"cw\", \"t_ns\": 5}")
        #expect(KnobSummary(events).jsonLine == "{\"cw\": 1, \"ccw\": 0, \"presses\": 1, \"longPresses\": 1}")
        let decoded = try JSONDecoder().decode(KnobSummary.self, from: Data(KnobSummary(events).jsonLine.utf8))
        #expect(decoded == KnobSummary(cw: 1, presses: 1, longPresses: 1))
    }
}
