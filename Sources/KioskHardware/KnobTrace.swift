import Foundation

/// One line of a knob trace: `{"t_ns": 1000000, "line": "A", "value": 0}`.
/// See docs/knob-trace-format.md.
public struct KnobTraceRecord: Sendable, Hashable {
    public var tNs: UInt64
    public var line: KnobLine
    public var value: Int

    public init(tNs: UInt64, line: KnobLine, value: Int) {
        self.tNs = tNs
        self.line = line
        self.value = value
    }

    public init(_ edge: EdgeEvent) {
        self.init(tNs: edge.timestampNs, line: edge.line, value: edge.level)
    }

    public var edge: EdgeEvent { EdgeEvent(line: line, level: value, timestampNs: tNs) }

    public var jsonLine: String {
        "{\"t_ns\": \(tNs), \"line\": \"\(line.rawValue)\", \"value\": \(value)}"
    }
}

/// A trace line that could not be read, with its 1-based line number.
public struct KnobTraceError: Error, Sendable, Hashable, CustomStringConvertible {
    public var lineNumber: Int
    public var message: String
    /// The file the trace came from, when known.
    public var source: String?

    public init(lineNumber: Int, message: String, source: String? = nil) {
        self.lineNumber = lineNumber
        self.message = message
        self.source = source
    }

    /// "trace.jsonl: line 3: …"; errors about the whole file (unreadable, not UTF-8) have line 0
    /// and no line in the text.
    public var description: String {
        lineNumber > 0 ? "\(source ?? "trace"): line \(lineNumber): \(message)" : "\(source ?? "trace"): \(message)"
    }
}

/// Reading and writing knob traces (JSON lines).
public enum KnobTrace {
    /// Parses a whole trace. Blank lines are skipped; anything else must be one record, and
    /// timestamps must not go backwards (the decoder relies on edges in order).
    public static func parse(_ text: String, source: String? = nil) throws(KnobTraceError) -> [KnobTraceRecord] {
        let decoder = JSONDecoder()
        var records: [KnobTraceRecord] = []
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            do throws(KnobTraceError) {
                guard let record = try parseLine(rawLine, decoder: decoder) else { continue }
                if let last = records.last, record.tNs < last.tNs {
                    throw KnobTraceError(
                        lineNumber: lineNumber,
                        message: "\"t_ns\" goes backwards (\(record.tNs) after \(last.tNs)); traces must be in time order"
                    )
                }
                records.append(record)
            } catch var error {
                error.lineNumber = lineNumber
                error.source = source
                throw error
            }
        }
        return records
    }

    /// Reads a trace file; `-` reads standard input.
    public static func read(path: String) throws -> [KnobTraceRecord] {
        let data: Data
        if path == "-" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            do {
                data = try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw KnobTraceError(lineNumber: 0, message: "cannot read the file: \(error.localizedDescription)", source: path)
            }
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw KnobTraceError(lineNumber: 0, message: "not UTF-8 text", source: path)
        }
        return try parse(text, source: path)
    }

    /// Renders records as JSON lines, one per record, each ending in a newline.
    public static func encode(_ records: some Sequence<KnobTraceRecord>) -> String {
        var out = ""
        for record in records {
            out += record.jsonLine
            out += "\n"
        }
        return out
    }

    /// Any JSON value a field might hold, so a wrong one can be named in the error instead of
    /// JSONDecoder's generic "not valid JSON".
    private enum Scalar: Decodable, CustomStringConvertible {
        case unsigned(UInt64), signed(Int64), number(Double), string(String), bool(Bool), null, composite

        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let value = try? container.decode(UInt64.self) {
                self = .unsigned(value)
            } else if let value = try? container.decode(Int64.self) {
                self = .signed(value)
            } else if let value = try? container.decode(Double.self) {
                self = .number(value)
            } else if let value = try? container.decode(String.self) {
                self = .string(value)
            } else if let value = try? container.decode(Bool.self) {
                self = .bool(value)
            } else {
                self = .composite
            }
        }

        var description: String {
            switch self {
            case .unsigned(let v): "\(v)"
            case .signed(let v): "\(v)"
            case .number(let v): "\(v)"
            case .string(let v): "\"\(v)\""
            case .bool(let v): "\(v)"
            case .null: "null"
            case .composite: "an array or object"
            }
        }
    }

    private struct RawRecord: Decodable {
        // swiftlint:disable:next identifier_name
        let t_ns: Scalar
        let line: Scalar
        let value: Scalar
    }

    /// Parses one line; nil for a blank line. The thrown error's line number is filled in by `parse`.
    static func parseLine(_ line: Substring, decoder: JSONDecoder) throws(KnobTraceError) -> KnobTraceRecord? {
        let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { return nil }
        let raw: RawRecord
        do {
            raw = try decoder.decode(RawRecord.self, from: Data(trimmed.utf8))
        } catch let error as DecodingError {
            throw KnobTraceError(lineNumber: 0, message: explain(error))
        } catch {
            throw KnobTraceError(lineNumber: 0, message: "not valid JSON")
        }
        guard case .unsigned(let t) = raw.t_ns else {
            throw KnobTraceError(lineNumber: 0, message: "\"t_ns\" must be a non-negative integer (nanoseconds), got \(raw.t_ns)")
        }
        guard case .string(let name) = raw.line else {
            throw KnobTraceError(lineNumber: 0, message: "\"line\" must be the string \"A\", \"B\" or \"SW\", got \(raw.line)")
        }
        guard let knobLine = KnobLine(rawValue: name) else {
            throw KnobTraceError(lineNumber: 0, message: "\"line\" must be \"A\", \"B\" or \"SW\", got \"\(name)\"")
        }
        guard case .unsigned(let value) = raw.value, value <= 1 else {
            throw KnobTraceError(lineNumber: 0, message: "\"value\" must be 0 or 1, got \(raw.value)")
        }
        return KnobTraceRecord(tNs: t, line: knobLine, value: Int(value))
    }

    private static let example = "{\"t_ns\": 1000000, \"line\": \"A\", \"value\": 0}"

    private static func explain(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _):
            "missing \"\(key.stringValue)\"; expected an object like \(example)"
        case .typeMismatch(_, let context) where context.codingPath.isEmpty:
            "expected a JSON object like \(example)"
        default:
            "not valid JSON; expected an object like \(example)"
        }
    }
}
