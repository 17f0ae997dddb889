// swift-tools-version:6.1
import PackageDescription

// Who imports what (see README "Modules"):
// EcodexCore is pure Swift and links no C library; EcodexStore owns SQLite (and zlib, for its records),
// EcodexVision owns Leptonica, Tesseract and ZBar; EcodexOnline is the only one that
// uses the network stack (libcurl, loaded on first use); `scan` only wires them.
let package = Package(
    name: "Ecodex",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "scan", targets: ["scan"]),
        .library(name: "EcodexCore", targets: ["EcodexCore"]),
        // For the package-benchmark suites in Benchmarks/ (a separate package that can only
        // import products); `scan` uses the targets directly, so its build is unchanged.
        .library(name: "EcodexStore", targets: ["EcodexStore"]),
        .library(name: "EcodexVision", targets: ["EcodexVision"]),
        // The optional backend; a product of its own so `swift build --product scan`
        // never compiles the server stack.
        .executable(name: "ecodex-server", targets: ["EcodexServer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.12.3"),
        // Server only (EcodexServer); swift-configuration support is left out to keep the build short.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(name: "CTesseract", path: "Sources/CTesseract"),
        .systemLibrary(name: "CLeptonica", path: "Sources/CLeptonica"),
        .systemLibrary(name: "CZBar", path: "Sources/CZBar"),
        .systemLibrary(name: "CSQLite3", path: "Sources/CSQLite3"),
        // Leptonica, Tesseract and ZBar are not linked: their functions are trampolines that
        // this target fills in with dlopen on the first photo (see its vision_libs.c).
        .target(name: "CVisionLibs", linkerSettings: [.linkedLibrary("dl")]),
        .systemLibrary(name: "CZlib", path: "Sources/CZlib"),
        .target(name: "EcodexCore", dependencies: [.product(name: "Crypto", package: "swift-crypto")],
                resources: [.copy("Resources/label-knowledge.json")]),
        .target(
            name: "EcodexStore",
            dependencies: ["EcodexCore", "CSQLite3", "CZlib"],
            resources: [.copy("Resources/base-pack.json")]
        ),
        // The gold-set bench (`scan bench`): truth files, scores, the baseline and the report.
        .target(name: "EcodexBench", dependencies: ["EcodexCore"]),
        .target(name: "EcodexVision", dependencies: ["EcodexCore", "CTesseract", "CLeptonica", "CZBar", "CVisionLibs"]),
        // The only target that links the network stack: one HTTP GET with the download rules,
        // the Open Food Facts client and the pack fetcher.
        .target(name: "EcodexOnline", dependencies: ["EcodexCore", "CNetLibs"]),
        // libcurl, loaded with dlopen on the first request (no FoundationNetworking: see its net_libs.c).
        .target(name: "CNetLibs", linkerSettings: [.linkedLibrary("dl")]),
        .executableTarget(
            name: "scan",
            dependencies: [
                "EcodexCore", "EcodexStore", "EcodexVision", "EcodexOnline", "EcodexBench",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "EcodexServer",
            dependencies: [
                "EcodexCore", "EcodexStore",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
            ]
        ),
        .testTarget(name: "EcodexCoreTests", dependencies: ["EcodexCore"], exclude: ["Fixtures"]),
        .testTarget(name: "EcodexBenchTests", dependencies: ["EcodexBench", "EcodexCore"]),
        .testTarget(name: "EcodexStoreTests", dependencies: ["EcodexStore", "EcodexOnline", "EcodexCore"]),
        .testTarget(name: "EcodexVisionTests", dependencies: ["EcodexVision", "EcodexCore"], exclude: ["Fixtures"]),
        .testTarget(
            name: "ScanTests",
            dependencies: ["scan", "EcodexCore", "EcodexStore", "EcodexOnline", "EcodexVision", "EcodexBench"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
