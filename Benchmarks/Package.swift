// swift-tools-version:6.1
import PackageDescription

// package-benchmark suites, kept in their own package so the main build and
// test suite never compile the benchmark framework. Run from this folder:
//   swift package benchmark
let package = Package(
    name: "EcodexBenchmarks",
    platforms: [.macOS(.v13)],
    dependencies: [
        .package(name: "Ecodex", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .executableTarget(
            name: "CoreBenchmarks",
            dependencies: [
                .product(name: "EcodexCore", package: "Ecodex"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/CoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Store lookups (code, name, fuzzy), barcode lookups in a million imported
        // products, product import, pack verify and delta apply.
        .executableTarget(
            name: "StoreBenchmarks",
            dependencies: [
                .product(name: "EcodexCore", package: "Ecodex"),
                .product(name: "EcodexStore", package: "Ecodex"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/StoreBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
        // Preprocessing of a phone-sized photo, step by step, and the text-block search.
        .executableTarget(
            name: "VisionBenchmarks",
            dependencies: [
                .product(name: "EcodexVision", package: "Ecodex"),
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/VisionBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
