import Benchmark
import EcodexVision
import Foundation

/// A phone-sized photo: a 1080×1920 phone-frame render of a label in a scene
/// (`ECODEX_BENCH_PHOTO` picks another, e.g. a 720×1280 frame of goldset/real-dev).
let photoPath: String = ProcessInfo.processInfo.environment["ECODEX_BENCH_PHOTO"]
    ?? URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("goldset/synth/g0570.jpg").path

/// Decoded once; every step's input kept (see `PreprocessSteps`).
let steps: PreprocessSteps = {
    do {
        let s = try PreprocessSteps(imageAt: photoPath)
        print("photo \(photoPath): \(s.width)×\(s.height), \(s.blockCount) text blocks; Preprocessor.run on the whole photo: \(s.stepsRun.joined(separator: ", "))")
        return s
    } catch {
        fatalError("cannot prepare \(photoPath): \(error)")
    }
}()

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident],
                                           maxDuration: .seconds(3), maxIterations: 200)

    for step in PreprocessSteps.Step.allCases {
        Benchmark("Preprocess step: \(step.rawValue)") { benchmark in
            let s = steps
            benchmark.startMeasurement()
            blackHole(try s.run(step))
        }
    }
}
