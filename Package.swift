// swift-tools-version: 6.1
// Hyzer Kiosk: the clubhouse scoring board, its group server and tools.
// Dependencies point inward: HyzerKit (pure domain) <- HyzerStore (SQL) <- executables.
import PackageDescription

let package = Package(
    name: "Hyzer",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "hyzer", targets: ["hyzer"]),
        .executable(name: "hyzer-bench", targets: ["hyzer-bench"]),
        .library(name: "HyzerKit", targets: ["HyzerKit"]),
        .library(name: "HyzerStore", targets: ["HyzerStore"]),
        .library(name: "KioskHardware", targets: ["KioskHardware"]),
    ],
    dependencies: [
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        // The pure domain: Foundation only, no I/O.
        .target(name: "HyzerKit"),
        // SQLite through GRDB; the only module that writes SQL.
        .target(
            name: "HyzerStore",
            dependencies: [
                "HyzerKit",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // libgpiod v1 (Debian 12 / Raspberry Pi OS bookworm), as a bare modulemap + header.
        .systemLibrary(
            name: "CGpiod",
            pkgConfig: "libgpiod",
            providers: [.apt(["libgpiod-dev"])]
        ),
        // The knob: quadrature decoding, button, buzzer, and their backends.
        .target(
            name: "KioskHardware",
            dependencies: [
                "CGpiod",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hyzer",
            dependencies: [
                "HyzerKit", "HyzerStore", "KioskHardware",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "hyzer-bench",
            dependencies: [
                "HyzerKit", "HyzerStore", "KioskHardware",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(name: "HyzerKitTests", dependencies: ["HyzerKit"]),
        .testTarget(
            name: "HyzerStoreTests",
            dependencies: ["HyzerStore", "HyzerKit", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        .testTarget(name: "KioskHardwareTests", dependencies: ["KioskHardware"]),
        // Runs the built `hyzer` binary against the scenario examples, from outside.
        .testTarget(name: "HyzerCLITests", dependencies: ["HyzerKit"], resources: [.copy("Scenarios")]),
    ]
)
