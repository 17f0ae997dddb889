import Foundation
import Testing

/// What `scan` loads before it does anything (issue 15: typed text in 50 ms, codes in 40).
/// Leptonica, Tesseract and ZBar (and the ~60 libraries they pull in) are loaded when a photo
/// or barcode is first read, never for typed text or codes.
@Suite struct StartupTests {
    let scan = ScanBinary()

    /// The shared libraries the dynamic loader reported opening (`LD_DEBUG=files`).
    private func loaded(_ arguments: [String]) throws -> (ScanBinary.Run, String) {
        let run = try scan.run(arguments, environment: ["LD_DEBUG": "files"])
        let opened = run.stderr.split(separator: "\n").filter { $0.contains("file=") }.joined(separator: "\n")
        return (run, opened)
    }

    @Test func typedTextAndCodesNeverLoadTheOCRLibraries() throws {
        for arguments in [["code", "E120"], ["text", "Sugar, colours: E102, E129, citric acid"], ["lookup", "tartrazine"]] {
            let (run, opened) = try loaded(arguments)
            #expect(run.status == 0, "\(arguments): \(run.stdout)")
            #expect(opened.contains("libsqlite3"), "LD_DEBUG reported nothing: \(arguments)")
            for library in ["libtesseract", "liblept", "libzbar", "libgomp", "libcurl", "libFoundationNetworking"] {
                #expect(!opened.contains(library), "\(arguments) loaded \(library)")
            }
        }
        // A photo does load them, once it is read.
        let (photo, opened) = try loaded([ScanBinary.path("samples/candy-label.jpg"), "--format", "json"])
        #expect(photo.status == 0)
        #expect(opened.contains("libtesseract") && opened.contains("liblept"))
        #expect((photo.jsonLines().first?["additives"] as? [Any])?.isEmpty == false)
    }

    /// Without Tesseract a photo gets an `ocr_error` a shopper can act on (the program used
    /// not to start at all), and typed text still works. Tesseract is hidden in a private
    /// mount namespace; skipped where one cannot be made (not root, no namespaces).
    @Test func withoutTesseractPhotosFailClearlyAndTextStillWorks() throws {
        guard let hide = Self.hiding("libtesseract.so.5") else { return }
        let photo = try scan.run([ScanBinary.path("samples/candy-label.jpg"), "--format", "json"], wrapper: hide)
        guard photo.status != 99, !photo.stderr.contains("unshare:") else { return }
        #expect(photo.status == 11, "\(photo.stdout) \(photo.stderr)")
        let error = photo.jsonLines().first?["error"] as? [String: Any]
        #expect(error?["class"] as? String == "ocr_error")
        #expect((error?["message"] as? String)?.contains("not installed") == true, "\(String(describing: error))")
        let text = try scan.run(["text", "colour: E102", "--format", "json"], wrapper: hide)
        #expect(text.status == 0, "\(text.stderr)")
        #expect((text.jsonLines().first?["additives"] as? [[String: Any]])?.first?["code"] as? String == "E102")
    }

    /// Without libheif a HEIC photo is a capture error that says what to do (save it as JPEG
    /// or run the setup), and every other photo still reads. libheif is hidden as above.
    @Test func withoutLibheifHEICFailsClearlyAndJPEGStillReads() throws {
        guard let hide = Self.hiding("libheif.so.1") else { return }
        let run = try scan.run([ScanBinary.path("samples/candy-label.heic"), ScanBinary.path("samples/candy-label.jpg"),
                                "--format", "json"], wrapper: hide)
        guard run.status != 99, !run.stderr.contains("unshare:") else { return }
        #expect(run.status == 10, "\(run.stdout) \(run.stderr)")
        let lines = run.jsonLines()
        let error = lines.first?["error"] as? [String: Any]
        #expect(error?["class"] as? String == "capture_error")
        let message = error?["message"] as? String ?? ""
        #expect(message.contains("HEIC") && message.contains("JPEG"), "\(message)")
        #expect(lines.count == 2 && (lines.last?["additives"] as? [Any])?.isEmpty == false, "\(run.stdout)")
    }

    /// A wrapper that runs `scan` with the shared library `soname` hidden (a private mount
    /// namespace binds /dev/null over it; exit 99 when the mount is refused), or nil where the
    /// library or `unshare` is not there.
    static func hiding(_ soname: String) -> [String]? {
        guard let library = ["/usr/lib/x86_64-linux-gnu/", "/usr/lib/aarch64-linux-gnu/", "/usr/lib/"]
            .map({ $0 + soname }).first(where: FileManager.default.fileExists),
              FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return nil }
        return ["/usr/bin/unshare", "-m", "--", "/bin/sh", "-c",
                "mount --bind /dev/null \(library) 2>/dev/null || exit 99; exec \"$0\" \"$@\""]
    }
}
