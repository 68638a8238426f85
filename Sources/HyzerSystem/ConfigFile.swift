import Foundation
import TOMLKit

/// One key a configuration file may hold: its dotted name (`display.rotation`) and what it
/// takes. The schema is the whole list: a key not on it stops the start.
public struct ConfigKey: Sendable {
    public enum Kind: Sendable {
        case boolean
        case integer(ClosedRange<Int>)
        case number(ClosedRange<Double>)
        /// One of these words.
        case choice([String])
        /// A whole number from this list (a rotation in degrees).
        case integerChoice([Int])
        /// A string checked by `check`: nil when good, else what is wrong with it.
        /// `expects` says what it takes, for the message.
        case text(expects: String, check: @Sendable (String) -> String?)
    }

    public var name: String
    public var kind: Kind

    public init(_ name: String, _ kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// What the key takes, in the words of an error message.
    public var expectation: String {
        switch kind {
        case .boolean: "true or false"
        case .integer(let range): "a whole number from \(range.lowerBound) to \(range.upperBound)"
        case .number(let range): "a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        case .choice(let words): "one of " + words.map { "\"\($0)\"" }.joined(separator: ", ")
        case .integerChoice(let numbers): "one of " + numbers.map(String.init).joined(separator: ", ")
        case .text(let expects, _): expects
        }
    }

    static func format(_ number: Double) -> String {
        number == number.rounded() ? String(Int(number)) : String(number)
    }
}

extension ConfigKey.Kind {
    /// A directory or file named from the root (`data = "/var/lib/hyzer"`): a relative one
    /// would depend on the working directory systemd happens to give.
    public static let absolutePath = Self.text(
        expects: "an absolute path", check: { $0.hasPrefix("/") ? nil : "not an absolute path" })
}

/// A value read from a configuration file, checked against its key.
public enum ConfigValue: Sendable, Equatable {
    case string(String)
    case boolean(Bool)
    case integer(Int)
    case number(Double)
}

/// What is wrong with a configuration file, said so the fix is obvious: the file, the line,
/// the key, and what the key takes (`/etc/hyzer/kiosk.conf:12: display.rotation: 45 is not
/// allowed; it takes one of 0, 90`).
public struct ConfigError: Error, CustomStringConvertible, Equatable {
    public var file: String
    public var line: Int?
    public var key: String?
    public var problem: String

    public init(file: String, line: Int?, key: String?, problem: String) {
        (self.file, self.line, self.key, self.problem) = (file, line, key, problem)
    }

    public var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.map { "\(place): \($0): \(problem)" } ?? "\(place): \(problem)"
    }
}

/// A configuration file (`/etc/hyzer/kiosk.conf`, `/etc/hyzer/server.conf`): TOML (parsed by
/// TOMLKit, the maintained toml++ binding), read against a schema. Every key is checked when
/// the file is read, so a mistake stops the start at once, with its line, instead of
/// surfacing hours later; nothing unknown is ignored (a misspelt key would silently keep
/// the default).
public struct ConfigFile: Sendable {
    public let path: String
    /// Dotted key to its checked value.
    public let values: [String: ConfigValue]
    /// Dotted key to the line it is written on.
    public let lines: [String: Int]

    /// Reads `path`; a missing file is nil when `required` is false (the defaults apply).
    public static func read(path: String, schema: [ConfigKey], required: Bool) throws(ConfigError) -> ConfigFile? {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            let missing = !FileManager.default.fileExists(atPath: path)
            if missing, !required { return nil }
            throw ConfigError(
                file: path, line: nil, key: nil,
                problem: missing ? "no such file" : "cannot be read (\(error.localizedDescription))")
        }
        return try ConfigFile(path: path, text: text, schema: schema)
    }

    public init(path: String, text: String, schema: [ConfigKey]) throws(ConfigError) {
        self.path = path
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            throw ConfigError(
                file: path, line: error.source.begin.line, key: nil, problem: "not valid TOML: \(error.description)")
        } catch {
            throw ConfigError(file: path, line: nil, key: nil, problem: "not valid TOML: \(error)")
        }
        let lines = Self.keyLines(text)
        let known = Dictionary(schema.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        var values: [String: ConfigValue] = [:]
        for (name, value) in Self.flatten(table) {
            // A key inside an inline table has no line of its own: its table's line.
            var parts = name.split(separator: ".")
            var line = lines[name]
            while line == nil, parts.count > 1 {
                parts.removeLast()
                line = lines[parts.joined(separator: ".")]
            }
            guard let key = known[name] else {
                throw ConfigError(file: path, line: line, key: name, problem: Self.unknown(name, schema: schema))
            }
            switch Self.check(value, against: key) {
            case .success(let checked): values[name] = checked
            case .failure(let problem): throw ConfigError(file: path, line: line, key: name, problem: problem.text)
            }
        }
        self.values = values
        self.lines = lines
    }

    /// A problem found with `key`'s value after reading (a path that does not exist on
    /// this machine), said like the file's own errors.
    public func error(_ key: String, _ problem: String) -> ConfigError {
        ConfigError(file: path, line: lines[key], key: key, problem: problem)
    }

    public func string(_ key: String) -> String? {
        if case .string(let value) = values[key] { value } else { nil }
    }

    public func bool(_ key: String) -> Bool? {
        if case .boolean(let value) = values[key] { value } else { nil }
    }

    public func int(_ key: String) -> Int? {
        if case .integer(let value) = values[key] { value } else { nil }
    }

    /// A number key; a whole number written without a point counts.
    public func double(_ key: String) -> Double? {
        switch values[key] {
        case .number(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }

    // MARK: Checking

    /// An unknown key, with the keys its table does know (a misspelling is then plain).
    static func unknown(_ name: String, schema: [ConfigKey]) -> String {
        let table = name.split(separator: ".").dropLast().joined(separator: ".")
        let siblings = schema.map(\.name).filter { $0.split(separator: ".").dropLast().joined(separator: ".") == table }
        let known = siblings.map { $0.split(separator: ".").last.map(String.init) ?? $0 }
        let tables = Set(
            schema.compactMap { $0.name.split(separator: ".").count > 1 ? String($0.name.split(separator: ".")[0]) : nil })
        if siblings.isEmpty {
            return "unknown key; the tables are " + tables.sorted().map { "[\($0)]" }.joined(separator: ", ")
        }
        let place = table.isEmpty ? "at the top" : "in [\(table)]"
        return "unknown key; known keys \(place): " + known.sorted().joined(separator: ", ")
    }

    static func check(_ value: TOMLValueConvertible, against key: ConfigKey) -> Result<ConfigValue, ConfigErrorText> {
        let shown = value.tomlValue.debugDescription
        func wrong() -> Result<ConfigValue, ConfigErrorText> {
            .failure(ConfigErrorText("\(shown) is not allowed; it takes \(key.expectation)"))
        }
        switch key.kind {
        case .boolean:
            guard let bool = value.tomlValue.bool else { return wrong() }
            return .success(.boolean(bool))
        case .integer(let range):
            guard let int = value.tomlValue.int, range.contains(int) else { return wrong() }
            return .success(.integer(int))
        case .number(let range):
            let number = value.tomlValue.double ?? value.tomlValue.int.map(Double.init)
            guard let number, range.contains(number) else { return wrong() }
            return .success(.number(number))
        case .choice(let words):
            guard let string = value.tomlValue.string, words.contains(string) else { return wrong() }
            return .success(.string(string))
        case .integerChoice(let numbers):
            guard let int = value.tomlValue.int, numbers.contains(int) else { return wrong() }
            return .success(.integer(int))
        case .text(_, let validate):
            guard let string = value.tomlValue.string else { return wrong() }
            if let problem = validate(string) {
                return .failure(ConfigErrorText("\(shown): \(problem); it takes \(key.expectation)"))
            }
            return .success(.string(string))
        }
    }

    struct ConfigErrorText: Error {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// Every leaf of `table` by its dotted name; a table's own entry is its leaves.
    static func flatten(_ table: TOMLTable, prefix: String = "") -> [(String, TOMLValueConvertible)] {
        var leaves: [(String, TOMLValueConvertible)] = []
        for key in table.keys.sorted() {
            guard let value = table[key] else { continue }
            let name = prefix.isEmpty ? key : "\(prefix).\(key)"
            if let inner = value.tomlValue.table {
                leaves += flatten(inner, prefix: name)
            } else {
                leaves.append((name, value))
            }
        }
        return leaves
    }

    /// The line each dotted key is written on (1-based). toml++ keeps source positions but
    /// TOMLKit does not pass them on, so the lines are found here: `[table]` headers and
    /// `key =` lines, which is all a configuration file needs (no multi-line strings).
    static func keyLines(_ text: String) -> [String: Int] {
        var lines: [String: Int] = [:]
        var table = ""
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty, !line.hasPrefix("#") else { continue }
            if line.hasPrefix("[") {
                let name = line.dropFirst().prefix { $0 != "]" }
                table = Self.unquoted(String(name))
                lines[table] = index + 1
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = Self.unquoted(String(line[..<equals]))
            let name = table.isEmpty ? key : "\(table).\(key)"
            if lines[name] == nil { lines[name] = index + 1 }
        }
        return lines
    }

    /// `display . "card"` as `display.card`.
    static func unquoted(_ key: String) -> String {
        key.split(separator: ".").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }
        .joined(separator: ".")
    }
}
