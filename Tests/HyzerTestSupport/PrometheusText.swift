import Foundation

/// A strict reader of Prometheus' text exposition format (0.0.4), for tests of
/// `GET /metrics`: anything a scraper could stumble on is an error, not skipped. Checks
/// HELP and TYPE lines (each once, before the family's samples), metric and label name
/// syntax, label value escapes, numbers, one series per name and label set, families in
/// one piece, and histograms (a `le` on every bucket, buckets cumulative in `le` order,
/// the `+Inf` bucket equal to `_count`, and a `_sum`).
public struct PrometheusText: Sendable {
    public struct Sample: Sendable, Equatable {
        public var name: String
        public var labels: [String: String]
        public var value: Double
    }

    public struct Family: Sendable, Equatable {
        public var type: String
        public var help: String?
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    public private(set) var families: [String: Family] = [:]
    public private(set) var samples: [Sample] = []

    /// The value of the one sample with this name and these labels (all of them).
    public func value(_ name: String, _ labels: [String: String] = [:]) -> Double? {
        samples.first { $0.name == name && $0.labels == labels }?.value
    }

    public init(_ text: String) throws {
        guard text.isEmpty || text.hasSuffix("\n") else { throw Failure(description: "the text does not end with a newline") }
        var finished: Set<String> = []
        var current: String?
        var seen: Set<String> = []
        var helps: Set<String> = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().enumerated() {
            let line = String(raw)
            let number = index + 1
            func fail(_ why: String) -> Failure { Failure(description: "line \(number): \(why): \(line)") }
            if line.isEmpty { throw fail("empty line") }
            if line.hasPrefix("#") {
                let parts = line.split(separator: " ", maxSplits: 3, omittingEmptySubsequences: false).map(String.init)
                guard parts.count >= 3, parts[0] == "#", ["HELP", "TYPE"].contains(parts[1]) else {
                    throw fail("a comment other than HELP or TYPE")
                }
                let name = parts[2]
                guard Self.isMetricName(name) else { throw fail("bad metric name") }
                if current != name {
                    if let current { finished.insert(current) }
                    guard !finished.contains(name) else { throw fail("family \(name) is split") }
                    current = name
                }
                if parts[1] == "HELP" {
                    guard helps.insert(name).inserted else { throw fail("second HELP") }
                    families[name, default: Family(type: "untyped")].help = parts.count > 3 ? parts[3] : ""
                } else {
                    guard parts.count == 4, ["counter", "gauge", "histogram", "summary", "untyped"].contains(parts[3]) else {
                        throw fail("bad TYPE")
                    }
                    guard families[name]?.type ?? "untyped" == "untyped", !seen.contains(name) else {
                        throw fail("TYPE after samples or twice")
                    }
                    families[name, default: Family(type: parts[3])].type = parts[3]
                    seen.insert(name)
                }
                continue
            }
            let sample = try Self.sample(line, fail: fail)
            let family = Self.family(of: sample.name, in: families)
            guard let family, seen.contains(family) else { throw fail("a sample without a TYPE line") }
            if current != family {
                if let current { finished.insert(current) }
                guard !finished.contains(family) else { throw fail("family \(family) is split") }
                current = family
            }
            guard !samples.contains(where: { $0.name == sample.name && $0.labels == sample.labels }) else {
                throw fail("a second sample of one series")
            }
            samples.append(sample)
        }
        try checkHistograms()
    }

    static func isMetricName(_ name: String) -> Bool {
        name.range(of: "^[a-zA-Z_:][a-zA-Z0-9_:]*$", options: .regularExpression) != nil
    }

    static func isLabelName(_ name: String) -> Bool {
        name.range(of: "^[a-zA-Z_][a-zA-Z0-9_]*$", options: .regularExpression) != nil && !name.hasPrefix("__")
    }

    /// The family a sample belongs to: itself, or a histogram's or summary's base name.
    static func family(of name: String, in families: [String: Family]) -> String? {
        if families[name] != nil { return name }
        for suffix in ["_bucket", "_sum", "_count"] where name.hasSuffix(suffix) {
            let base = String(name.dropLast(suffix.count))
            if let type = families[base]?.type, type == "histogram" || (type == "summary" && suffix != "_bucket") {
                return base
            }
        }
        return nil
    }

    static func sample(_ line: String, fail: (String) -> Failure) throws -> Sample {
        var rest = Substring(line)
        let name = String(rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" })
        guard isMetricName(name) else { throw fail("bad metric name") }
        rest = rest.dropFirst(name.count)
        var labels: [String: String] = [:]
        if rest.first == "{" {
            rest = rest.dropFirst()
            while rest.first != "}" {
                let label = String(rest.prefix { $0 != "=" })
                guard isLabelName(label) else { throw fail("bad label name \"\(label)\"") }
                rest = rest.dropFirst(label.count)
                guard rest.hasPrefix("=\"") else { throw fail("a label without =\"") }
                rest = rest.dropFirst(2)
                var value = ""
                while true {
                    guard let c = rest.first else { throw fail("an unterminated label value") }
                    rest = rest.dropFirst()
                    if c == "\"" { break }
                    if c == "\\" {
                        guard let e = rest.first else { throw fail("a dangling escape") }
                        rest = rest.dropFirst()
                        switch e {
                        case "\\": value.append("\\")
                        case "\"": value.append("\"")
                        case "n": value.append("\n")
                        default: throw fail("an unknown escape \\\(e)")
                        }
                    } else {
                        value.append(c)
                    }
                }
                guard labels.updateValue(value, forKey: label) == nil else { throw fail("label \(label) twice") }
                if rest.first == "," {
                    rest = rest.dropFirst()
                } else if rest.first != "}" {
                    throw fail("labels not separated by ,")
                }
            }
            rest = rest.dropFirst()
        }
        guard rest.first == " " else { throw fail("no space before the value") }
        let fields = rest.dropFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard (1...2).contains(fields.count), let value = number(String(fields[0])) else { throw fail("bad value") }
        if fields.count == 2, Int64(fields[1]) == nil { throw fail("bad timestamp") }
        return Sample(name: name, labels: labels, value: value)
    }

    static func number(_ text: String) -> Double? {
        switch text {
        case "+Inf": return .infinity
        case "-Inf": return -.infinity
        case "NaN": return .nan
        default:
            guard text.range(of: "^[-+]?([0-9]+\\.?[0-9]*|\\.[0-9]+)([eE][-+]?[0-9]+)?$", options: .regularExpression) != nil
            else { return nil }
            return Double(text)
        }
    }

    private func checkHistograms() throws {
        for (name, family) in families where family.type == "histogram" {
            let buckets = samples.filter { $0.name == name + "_bucket" }
            var series: [[String: String]: [(le: Double, count: Double)]] = [:]
            for bucket in buckets {
                guard let le = bucket.labels["le"].flatMap(Self.number) else {
                    throw Failure(description: "\(name): a bucket without a numeric le")
                }
                var others = bucket.labels
                others["le"] = nil
                series[others, default: []].append((le, bucket.value))
            }
            for (labels, list) in series {
                let sorted = list.sorted { $0.le < $1.le }
                for (a, b) in zip(sorted, sorted.dropFirst()) where b.count < a.count {
                    throw Failure(
                        description: "\(name)\(labels): buckets not cumulative (le \(a.le): \(a.count), le \(b.le): \(b.count))")
                }
                guard let last = sorted.last, last.le == .infinity else {
                    throw Failure(description: "\(name)\(labels): no +Inf bucket")
                }
                guard let count = value(name + "_count", labels), count == last.count else {
                    throw Failure(description: "\(name)\(labels): _count is not the +Inf bucket (\(last.count))")
                }
                guard value(name + "_sum", labels) != nil else { throw Failure(description: "\(name)\(labels): no _sum") }
            }
        }
    }
}
