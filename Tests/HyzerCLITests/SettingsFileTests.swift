import Foundation
import HyzerHarness
import HyzerSystem
import HyzerTestSupport
import Testing

/// Issue 13 item 2: `/etc/hyzer/kiosk.conf` and `/etc/hyzer/server.conf`. Every kind of
/// mistake stops the start with the file, the line, the key and what the key takes; the
/// flags override the file; the unit does not restart on a mistake (exit 78, EX_CONFIG).
@Suite struct SettingsFileTests {
    static let schema: [ConfigKey] = [
        ConfigKey("data", .text(expects: "an absolute path", check: { $0.hasPrefix("/") ? nil : "not an absolute path" })),
        ConfigKey("log_level", .choice(HyzerLogging.levels)),
        ConfigKey("display.rotation", .integerChoice([0, 90])),
        ConfigKey("display.reduce_motion", .boolean),
        ConfigKey("board.page_seconds", .number(3...120)),
        ConfigKey("board.rows_per_page", .integer(1...100)),
    ]

    func error(_ text: String) -> ConfigError? {
        do {
            _ = try ConfigFile(path: "/etc/hyzer/kiosk.conf", text: text, schema: Self.schema)
            return nil
        } catch {
            return error
        }
    }

    @Test func aGoodFileReadsEveryKind() throws {
        let file = try ConfigFile(
            path: "k.conf",
            text: """
                # comment
                data = "/var/lib/hyzer"
                log_level = "debug"
                [display]
                rotation = 90
                reduce_motion = true
                [board]
                page_seconds = 8
                rows_per_page = 12
                """, schema: Self.schema)
        #expect(file.string("data") == "/var/lib/hyzer")
        #expect(file.string("log_level") == "debug")
        #expect(file.int("display.rotation") == 90)
        #expect(file.bool("display.reduce_motion") == true)
        #expect(file.double("board.page_seconds") == 8, "a whole number is a number")
        #expect(file.int("board.rows_per_page") == 12)
        #expect(file.lines["display.rotation"] == 5)
    }

    /// Each kind of mistake, with its line and key and what the key takes.
    @Test func eachKindOfMistakeNamesTheFileLineAndKey() throws {
        let cases: [(String, String)] = [
            // A misspelt key would silently keep the default: it is refused, with its neighbours.
            (
                "log_level = \"info\"\n[display]\nrotaton = 90\n",
                "/etc/hyzer/kiosk.conf:3: display.rotaton: unknown key; known keys in [display]: reduce_motion, rotation"
            ),
            ("lgo_level = \"info\"\n", "/etc/hyzer/kiosk.conf:1: lgo_level: unknown key; known keys at the top: data, log_level"),
            ("[screen]\nsize = 1\n", "/etc/hyzer/kiosk.conf:2: screen.size: unknown key; the tables are [board], [display]"),
            // A value of the wrong kind, out of range, or not among the choices.
            (
                "[display]\nrotation = 45\n",
                "/etc/hyzer/kiosk.conf:2: display.rotation: 45 is not allowed; it takes one of 0, 90"
            ),
            (
                "[display]\nrotation = \"90\"\n",
                "/etc/hyzer/kiosk.conf:2: display.rotation: \"90\" is not allowed; it takes one of 0, 90"
            ),
            (
                "\n\n[board]\npage_seconds = 1\n",
                "/etc/hyzer/kiosk.conf:4: board.page_seconds: 1 is not allowed; it takes a number from 3 to 120"
            ),
            (
                "[board]\nrows_per_page = 2.5\n",
                "/etc/hyzer/kiosk.conf:2: board.rows_per_page: 2.5 is not allowed; it takes a whole number from 1 to 100"
            ),
            (
                "[display]\nreduce_motion = \"yes\"\n",
                "/etc/hyzer/kiosk.conf:2: display.reduce_motion: \"yes\" is not allowed; it takes true or false"
            ),
            (
                "log_level = \"loud\"\n",
                "/etc/hyzer/kiosk.conf:1: log_level: \"loud\" is not allowed; it takes one of \"trace\", \"debug\", \"info\", \"notice\", \"warning\", \"error\", \"critical\""
            ),
            (
                "data = \"var/lib\"\n",
                "/etc/hyzer/kiosk.conf:1: data: \"var/lib\": not an absolute path; it takes an absolute path"
            ),
            // Not TOML at all: the parser's line.
            ("log_level = \"info\"\n[display\nrotation = 0\n", "/etc/hyzer/kiosk.conf:2: not valid TOML"),
            // A key inside an inline table: the table's line.
            (
                "\ndisplay = { rotation = 7 }\n",
                "/etc/hyzer/kiosk.conf:2: display.rotation: 7 is not allowed; it takes one of 0, 90"
            ),
        ]
        for (text, expected) in cases {
            let error = try #require(self.error(text), "accepted: \(text)")
            #expect(error.description.hasPrefix(expected), "\(text)")
        }
    }

    @Test func aMissingFileIsTheDefaultsUnlessItWasNamed() throws {
        let path = "/nonexistent/hyzer-\(UUID()).conf"
        #expect(try ConfigFile.read(path: path, schema: Self.schema, required: false) == nil)
        #expect(throws: ConfigError(file: path, line: nil, key: nil, problem: "no such file")) {
            try ConfigFile.read(path: path, schema: Self.schema, required: true)
        }
    }

    // MARK: the executables

    func write(_ text: String, name: String = "kiosk.conf") throws -> (dir: URL, file: URL) {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("hyzer-conf-\(UUID())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let file = dir.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return (dir, file)
    }

    /// The shipped default file is good as it stands (every key commented out) and with
    /// every key uncommented (the values it shows are valid).
    @Test(arguments: [("hyzer-kiosk", "kiosk.conf", [String]()), ("hyzer-server", "server.conf", ["serve"])])
    func theShippedFileChecksOkAndSoDoesEveryValueItShows(executable: String, name: String, prefix: [String]) async throws {
        let shipped = try String(contentsOf: repositoryRoot.appendingPathComponent("systemd/\(name)"), encoding: .utf8)
        let uncommented = shipped.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            // "#key = value" lines are settings; "# text" lines are prose.
            line.hasPrefix("#") && !line.hasPrefix("# ") && line != "#" ? String(line.dropFirst()) : String(line)
        }.joined(separator: "\n")
        #expect(uncommented != shipped, "the shipped file shows no settings")
        for text in [shipped, uncommented] {
            let (dir, file) = try write(text, name: name)
            defer { try? FileManager.default.removeItem(at: dir) }
            let run = try await Binary.run(executable, prefix + ["--config", file.path, "--check-config"])
            #expect(run.status == 0, "\(run.stderr)\n\(text)")
            #expect(run.stdout.contains("\(file.path): ok"), "\(run.stdout)")
        }
    }

    /// Issue 35: `hyzer-kiosk --hash-code` turns a code typed on its input into kiosk.conf's
    /// `lock.code_hash` line (the digits never printed), which the file check takes; a
    /// code that is not 4 to 8 digits, or a hash that is not one, is refused with a sentence.
    @Test func theHashCodeLineIsTakenByTheFileAndABadCodeOrHashIsRefused() async throws {
        let kiosk = try Binary.url("hyzer-kiosk").path
        let sh = URL(fileURLWithPath: "/bin/sh")
        let made = try await Binary.run(executable: sh, ["-c", "printf '13579\\n' | '\(kiosk)' --hash-code"])
        #expect(made.status == 0, "\(made.stderr)")
        let line = made.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(line.hasPrefix("code_hash = \"hyzer-code-v1$5$") && !line.contains("13579"), "\(line)")
        let (dir, file) = try write("[lock]\nenabled = true\n\(line)\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let checked = try await Binary.run("hyzer-kiosk", ["--config", file.path, "--check-config"])
        #expect(checked.status == 0, "\(checked.stderr)")

        let short = try await Binary.run(executable: sh, ["-c", "printf '123\\n' | '\(kiosk)' --hash-code"])
        #expect(short.status == 78 && short.stderr.contains("4 to 8 digits") && short.stdout.isEmpty, "\(short.stderr)")
        let (badDir, bad) = try write("[lock]\ncode_hash = \"2468\"\n")
        defer { try? FileManager.default.removeItem(at: badDir) }
        let refused = try await Binary.run("hyzer-kiosk", ["--config", bad.path, "--check-config"])
        #expect(refused.status == 78 && refused.stderr.contains("lock.code_hash"), "\(refused.stderr)")
        #expect(refused.stderr.contains("hyzer-kiosk --hash-code"), "the refusal says how to make one: \(refused.stderr)")
    }

    @Test func theKioskRefusesABadFileWithExitCode78() async throws {
        let (dir, file) = try write("[knob]\nmode = \"quarter\"\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        for arguments in [["--check-config"], ["--headless", "--run-for", "1"]] {
            let run = try await Binary.run("hyzer-kiosk", ["--config", file.path] + arguments)
            #expect(run.status == 78, "\(arguments): \(run.stderr)")
            #expect(
                run.stderr.contains("\(file.path):2: knob.mode: \"quarter\" is not allowed; it takes one of \"full\", \"half\""),
                "\(run.stderr)")
        }
        let missing = try await Binary.run(
            "hyzer-kiosk", ["--config", dir.appendingPathComponent("none.conf").path, "--check-config"])
        #expect(missing.status == 78 && missing.stderr.contains("none.conf: no such file"), "\(missing.stderr)")
    }

    /// A card path that leads nowhere is refused by `--check-config`, naming the cards that exist.
    @Test func aDRMCardThatDoesNotExistIsRefused() async throws {
        let (dir, file) = try write("[display]\ncard = \"/dev/dri/by-path/nowhere-card\"\n")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await Binary.run("hyzer-kiosk", ["--config", file.path, "--check-config"])
        #expect(run.status == 78)
        #expect(run.stderr.contains("\(file.path):2: display.card: "), "\(run.stderr)")
        #expect(run.stderr.contains("/dev/dri/by-path/nowhere-card does not exist"), "\(run.stderr)")
    }

    /// The file's data directory is used, and `--data` overrides it.
    @Test func theFlagsOverrideTheFile() async throws {
        let (dir, file) = try write("")
        defer { try? FileManager.default.removeItem(at: dir) }
        let fromFile = dir.appendingPathComponent("from-file")
        let fromFlag = dir.appendingPathComponent("from-flag")
        try "data = \"\(fromFile.path)\"\n[display]\nsize = \"800x480\"\n".write(to: file, atomically: true, encoding: .utf8)
        let first = try await Binary.run("hyzer-kiosk", ["--config", file.path, "--headless", "--run-for", "0.5"])
        #expect(first.status == 0, "\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: fromFile.appendingPathComponent("hyzer.sqlite").path))
        #expect(first.stderr.contains("size=800x480"), "the file's display size: \(first.stderr)")
        let second = try await Binary.run(
            "hyzer-kiosk",
            ["--config", file.path, "--data", fromFlag.path, "--size", "1024x600", "--headless", "--run-for", "0.5"])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(FileManager.default.fileExists(atPath: fromFlag.appendingPathComponent("hyzer.sqlite").path))
        #expect(second.stderr.contains("size=1024x600"), "the flag's display size: \(second.stderr)")
    }

    @Test func theServerRefusesABadFileWithExitCode78() async throws {
        let (dir, file) = try write("port = 70000\n", name: "server.conf")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try await Binary.run("hyzer-server", ["serve", "--config", file.path, "--check-config"])
        #expect(run.status == 78, "\(run.stderr)")
        #expect(
            run.stderr.contains("\(file.path):1: port: 70000 is not allowed; it takes a whole number from 1 to 65535"),
            "\(run.stderr)")
    }
}
