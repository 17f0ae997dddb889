import Foundation
import Testing
@testable import EcodexCore

/// `scan text --jsonl`: JSON Lines of ingredient texts read a line at a time.
@Suite struct TextLinesTests {
    /// The lines `TextLines` gives for `bytes` written to a file.
    func lines(_ bytes: [UInt8]) throws -> [(Int, Result<String, TextLineError>)] {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("textlines-\(UUID().uuidString).jsonl")
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let (fd, _) = try InputFile.open(url.path, role: .texts)
        defer { close(fd) }
        var out: [(Int, Result<String, TextLineError>)] = []
        try TextLines.forEach(fd: fd) { out.append(($0, $1)) }
        return out
    }

    @Test func eachLineIsOneTextNumberedFromOne() throws {
        let got = try lines(Array("{\"text\": \"Sugar, E102\", \"lang\": \"en\"}\n\n  \r\n{\"text\":\"a\\nb \\u00e9\"}".utf8))
        #expect(got.map(\.0) == [1, 4])
        #expect(got.map { try? $0.1.get() } == ["Sugar, E102", "a\nb é"])
    }

    @Test func badLinesFailAloneAndReadingGoesOn() throws {
        var bytes = Array("not json\n{\"name\": \"x\"}\n".utf8)
        bytes += Array("{\"text\": \"".utf8) + [0xFF, 0xC3] + Array("E330\"}\n".utf8)   // bytes that are not UTF-8
        bytes += Array("{\"text\": \"".utf8) + [UInt8](repeating: 0x41, count: TextLines.maximumLineBytes) + Array("\"}\n".utf8)
        bytes += Array("{\"text\": \"E120\"}".utf8)
        let got = try lines(bytes)
        #expect(got.map(\.0) == [1, 2, 3, 4, 5])
        for i in [0, 1, 3] {
            guard case .failure(let e) = got[i].1 else { Issue.record("line \(i + 1) should fail"); continue }
            #expect(e.errorClass == .parse)
        }
        #expect(got[1].1 == .failure(.noTextField))
        #expect(got[3].1 == .failure(.tooLong(limit: TextLines.maximumLineBytes)))
        #expect(try got[2].1.get() == "\u{FFFD}\u{FFFD}E330")
        #expect(try got[4].1.get() == "E120")
    }

    @Test func aFolderOrAMissingFileIsAParseError() {
        for path in [NSTemporaryDirectory(), "/nonexistent/texts.jsonl"] {
            let e = #expect(throws: InputFileError.self) { try InputFile.open(path, role: .texts) }
            #expect(e?.errorClass == .parse)
        }
    }
}
