// swift-tools-version: 6.1
// Hyzer Kiosk: the clubhouse scoring board, its group server and tools.
// Dependencies point inward: HyzerKit (pure domain) <- HyzerStore (SQL) <- executables.
import PackageDescription

let package = Package(
    name: "Hyzer",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "hyzer", targets: ["hyzer"]),
        .executable(name: "hyzer-bench", targets: ["hyzer-bench"]),
        .executable(name: "hyzer-kiosk", targets: ["hyzer-kiosk"]),
        .library(name: "HyzerKit", targets: ["HyzerKit"]),
        .library(name: "HyzerStore", targets: ["HyzerStore"]),
        .library(name: "HyzerSyncProtocol", targets: ["HyzerSyncProtocol"]),
        .library(name: "HyzerSync", targets: ["HyzerSync"]),
        .library(name: "HyzerServer", targets: ["HyzerServer"]),
        .executable(name: "hyzer-server", targets: ["hyzer-server"]),
        .library(name: "KioskHardware", targets: ["KioskHardware"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/LebJe/TOMLKit", from: "0.6.0"),
        // Group server and sync (issue 5).
        // Without hummingbird's ConfigurationSupport trait (swift-configuration's readers, which
        // nothing here uses). hummingbird-websocket asks for hummingbird with no traits, and
        // sid's SwiftPM 6.2.3, which cross-builds the kiosk, merges the two requests in a
        // random order and then fails to find swift-configuration's product (hummingbird
        // issue 769): with the trait off in both, there is nothing to find.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-websocket", from: "1.6.2"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        // The server's PostgreSQL backend, for many groups on several instances (issue 10).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        // Child processes in tests and benchmarks, awaited without blocking a pool thread.
        .package(url: "https://github.com/swiftlang/swift-subprocess", from: "1.0.2"),
        // FilePath and FileDescriptor, the types of Subprocess's API on Linux.
        .package(url: "https://github.com/apple/swift-system", from: "1.5.0"),
        // Server operations: TLS for the server and for devices with a private CA, /metrics.
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.37.6"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ],
    targets: [
        // The pure domain: Foundation only, no I/O.
        .target(name: "HyzerKit"),
        // How an installed executable meets the system: its configuration file (TOML, errors
        // naming file, line and key), its logging (swift-log at `--log-level`, to the journal
        // with syslog priorities) and systemd's notify socket and watchdog.
        .target(
            name: "HyzerSystem",
            dependencies: [
                .product(name: "Logging", package: "swift-log"), .product(name: "TOMLKit", package: "TOMLKit"),
            ]),
        // What is wrong with the disk under a SQLite database (full, read-only, forbidden,
        // locked, damaged), named from SQLite's result codes and the filesystem: one
        // classifier for the device store and the server's storage.
        .target(name: "SQLiteFaults", dependencies: [.product(name: "GRDB", package: "GRDB.swift")]),
        // SQLite through GRDB; the only device-side module that writes SQL.
        .target(
            name: "HyzerStore",
            dependencies: [
                "HyzerKit", "SQLiteFaults",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libgpiod 1 (Debian 12, Pi OS bookworm) or 2 (Debian 13, Pi OS trixie), whichever is
        // installed: a bare modulemap and a header whose hyzer_gpio_* functions hide which.
        .systemLibrary(
            name: "CGpiod",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        // The knob: quadrature decoding, button, buzzer, and their backends.
        .target(
            name: "KioskHardware",
            dependencies: [
                "CGpiod", "HyzerKit",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The kiosk's screens as a pure state machine: events in, state and effects out.
        .target(name: "KioskCore", dependencies: ["HyzerKit"]),
        // Sync wire types shared by the device and the server: Foundation + domain only.
        .target(name: "HyzerSyncProtocol", dependencies: ["HyzerKit"]),
        // The device side of sync: the SyncEngine service (outbox, push/pull, poke socket) and
        // the mapping of the store's domain values to wire records.
        .target(
            name: "HyzerSync",
            dependencies: [
                "HyzerKit", "HyzerStore", "HyzerSyncProtocol",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "WSClient", package: "swift-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The group server: Hummingbird 2 app, its own SQLite storage, pokes over WebSocket.
        .target(
            name: "HyzerServer",
            dependencies: [
                "HyzerKit", "HyzerSyncProtocol", "SQLiteFaults", "HyzerSystem",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
            ]
        ),
        // The deterministic simulation of sync under faults: the real engine and the real
        // server storage over a simulated network and clock (tests and `hyzer-bench sync-sim`).
        .target(
            name: "HyzerSyncSimulation",
            dependencies: [
                "HyzerKit", "HyzerStore", "HyzerSync", "HyzerSyncProtocol", "HyzerServer",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hyzer-server",
            dependencies: [
                "HyzerSystem",
                "HyzerServer", "HyzerKit", "SQLiteFaults",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // SDL2, SDL2_ttf, zlib and fontconfig, each a bare modulemap + header.
        .systemLibrary(name: "CSDL2", pkgConfig: "sdl2", providers: [.apt(["libsdl2-dev"])]),
        .systemLibrary(name: "CSDL2TTF", pkgConfig: "SDL2_ttf", providers: [.apt(["libsdl2-ttf-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // libdrm: the board's own scanout on a console (dumb buffers, page flips), no GL.
        .systemLibrary(name: "CDRM", pkgConfig: "libdrm", providers: [.apt(["libdrm-dev"])]),
        // glibc's <malloc.h> (mallopt, malloc_info), as a bare modulemap + header.
        .systemLibrary(name: "CMalloc"),
        // Callgrind's client requests for `hyzer-bench render-instructions`: a modulemap + header.
        .systemLibrary(name: "CValgrind"),
        // fontconfig: fallback faces for names in scripts the bundled fonts lack.
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig1-dev"])]),
        // libqrencode: the QR codes a phone scans to join, or to open a round's summary.
        .systemLibrary(name: "CQRencode", pkgConfig: "libqrencode", providers: [.apt(["libqrencode-dev"])]),
        // Draws a KioskState with SDL2 + SDL2_ttf: windowed, full-screen or headless.
        .target(
            name: "KioskRender",
            dependencies: ["KioskCore", "HyzerKit", "CSDL2", "CSDL2TTF", "CZlib", "CFontconfig", "CQRencode", "CDRM"]),
        // The kiosk's glue: store <-> state machine <-> display <-> knob, and the loops.
        .target(
            name: "KioskApp",
            dependencies: [
                "KioskCore", "KioskRender", "KioskHardware", "HyzerStore", "HyzerKit", "HyzerSync", "SQLiteFaults", "CMalloc",
                "HyzerSystem", .product(name: "Logging", package: "swift-log"),
                // The organizer code's hash (PBKDF2): Crypto's, not a hand-made one.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "hyzer-kiosk",
            dependencies: [
                "HyzerSystem",
                "KioskApp", "KioskCore", "KioskRender", "KioskHardware", "HyzerStore", "HyzerKit", "SQLiteFaults",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // The board's memory (issue 33, docs/benchmarks.md): lld packs the relative
            // relocations (DT_RELR, glibc 2.36: Debian 12, Raspberry Pi OS bookworm), which
            // the loader otherwise reads whole at every start (3.1 MB of the Swift-runtime-in
            // binary, resident for good), and the binary exports no symbols of its own (the
            // static runtime's link arguments ask for -export-dynamic; nothing looks the
            // kiosk's symbols up, and the tables were 2.3 MB, mostly read by the loader). The
            // functions a start, an idle board and the screens run go first and together
            // (board/kiosk-symbol-order.txt, from .ci/kiosk-symbol-order): the kernel maps code
            // 64 KB around each page that runs, and scattered they kept 13.6 of the 28.5 MB
            // .text resident, together 8.3 MB.
            linkerSettings: [
                .unsafeFlags(
                    [
                        "-use-ld=lld", "-Xlinker", "-z", "-Xlinker", "pack-relative-relocs", "-Xlinker", "--no-export-dynamic",
                        "-Xlinker", "--symbol-ordering-file=\(Context.packageDirectory)/board/kiosk-symbol-order.txt",
                        "-Xlinker", "--no-warn-symbol-ordering",
                    ],
                    .when(platforms: [.linux], configuration: .release))
            ]
        ),
        .executableTarget(
            name: "hyzer",
            dependencies: [
                "HyzerSystem",
                "HyzerKit", "HyzerStore", "KioskHardware", "HyzerSync", "HyzerSyncProtocol", "SQLiteFaults",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hyzer-bench",
            dependencies: [
                "CValgrind",
                "HyzerSystem",
                "HyzerKit", "HyzerStore", "KioskHardware", "HyzerSync", "HyzerSyncProtocol", "HyzerServer",
                "KioskCore", "KioskRender", "KioskApp", "HyzerHarness", "HyzerSyncSimulation",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Running the project from outside, for the benchmarks and the end-to-end tests: the
        // built executables as child processes awaited without blocking Swift concurrency's
        // pool, a group server in this process, a throwaway PostgreSQL.
        .target(
            name: "HyzerHarness",
            dependencies: [
                "HyzerServer",
                "HyzerSyncSimulation",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Subprocess", package: "swift-subprocess"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // What only the tests share: the repository's root, scratch volumes, test
        // certificates, a notify socket, a Prometheus text reader, work kept off the pool,
        // children run synchronously (Command), a started round in a store.
        .target(
            name: "HyzerTestSupport",
            dependencies: ["HyzerSystem", "HyzerHarness", "HyzerStore", "HyzerKit"],
            path: "Tests/HyzerTestSupport"
        ),
        .testTarget(name: "HyzerKitTests", dependencies: ["HyzerKit", "HyzerTestSupport", "HyzerHarness"]),
        .testTarget(
            name: "HyzerStoreTests",
            dependencies: ["HyzerStore", "HyzerKit", "HyzerTestSupport", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(
            name: "KioskHardwareTests",
            dependencies: [
                "KioskHardware", "HyzerKit",
                .product(name: "ServiceLifecycleTestKit", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(name: "KioskCoreTests", dependencies: ["KioskCore", "HyzerKit", "HyzerTestSupport"]),
        .testTarget(
            name: "KioskAppTests",
            dependencies: [
                "KioskApp", "KioskCore", "KioskRender", "KioskHardware", "HyzerStore", "HyzerKit", "HyzerSync",
                "SQLiteFaults", "HyzerServer", "HyzerTestSupport", "HyzerHarness", "HyzerSystem",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // Drawing, with KioskRender alone: every screen's pixels against
        // Tests/Fixtures/screens.sha256, the text cache, names in any script, the console's
        // scanout, the display's wait. HyzerTestSupport for its off-the-pool waits.
        .testTarget(
            name: "KioskRenderTests",
            dependencies: [
                "KioskRender", "KioskCore", "HyzerKit", "HyzerTestSupport", "CSDL2",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "HyzerServerTests",
            dependencies: [
                "HyzerServer", "HyzerSyncProtocol", "HyzerKit", "SQLiteFaults", "HyzerTestSupport", "HyzerHarness",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // Devices against a real server on loopback: convergence, offline, crashes, epochs.
        .testTarget(
            name: "HyzerSyncTests",
            dependencies: [
                "HyzerSync", "HyzerSyncProtocol", "HyzerServer", "HyzerStore", "HyzerKit", "HyzerTestSupport", "HyzerHarness",
                "SQLiteFaults",
                "HyzerSyncSimulation",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ]
        ),
        // Runs the built `hyzer` binary against the scenario examples, from outside.
        .testTarget(
            name: "HyzerCLITests",
            dependencies: ["HyzerSystem", "HyzerKit", "HyzerStore", "SQLiteFaults", "CZlib", "HyzerTestSupport", "HyzerHarness"],
            resources: [.copy("Scenarios")]
        ),
    ]
)

// Every module a file uses is imported by that file, and every import is a declared
// dependency (issue 33): with MemberImportVisibility a member (an extension's method, an
// operator) is visible only where its module is imported, not wherever some other import
// happened to bring it in. `make test` builds with SwiftPM's explicit import check, which
// fails on an `import` of one of this package's targets that is not among the importer's
// dependencies (it does not check products of other packages; the compiler does: a module
// that is not a dependency is not found).
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
