import ArgumentParser
import EcodexCore
import Foundation

/// Prints reports and errors in the chosen format and decides the exit code.
struct Output {
    let format: OutputFormat
    private(set) var firstFailure: ErrorClass?
    /// HTML is one page for all inputs: collected, printed by `finish()`.
    private var htmlReports: [ScanReport] = []
    /// `scan code`: the additive's full record and the day whose rules it shows.
    private var record: (additive: Additive, day: CalendarDay)?

    /// Terminal output also prints the text as read (`--show-text`).
    let showText: Bool

    init(format: OutputFormat, showText: Bool = false) {
        self.format = format
        self.showText = showText
    }

    private var renderer: TextRenderer {
        let env = ProcessInfo.processInfo.environment
        let tty = isatty(STDOUT_FILENO) == 1
        return TextRenderer(color: tty && env["NO_COLOR"] == nil && env["TERM"] != "dumb", width: TerminalWidth.columns(), showText: showText)
    }

    mutating func report(_ r: ScanReport, separate: Bool, record: (additive: Additive, day: CalendarDay)? = nil) {
        Telemetry.reported(r)
        switch format {
        case .html:
            htmlReports.append(r)
            self.record = record
        case .json:
            print(JSONRenderer.render(r, record: record?.additive, on: record?.day))
        case .text:
            if separate { print("") }
            print(renderer.render(r))
        }
        fflush(nil)
    }

    /// Prints a failure for one input; the other inputs of a batch carry on.
    mutating func failure(_ error: Error, input: String) {
        let e = Failure.classify(error)
        if firstFailure == nil { firstFailure = e.errorClass }
        switch format {
        case .json:
            print(Output.json(e, input: input))
            fflush(nil)
        case .text, .html:
            FileHandle.standardError.write(Data("scan: \(input): \(e.errorClass.rawValue): \(Failure.text(e))\n".utf8))
        }
    }

    /// Prints what was collected (the HTML page) and returns the exit code.
    func finish() -> Int32 {
        if format == .html && !htmlReports.isEmpty {
            print(HTMLRenderer.render(htmlReports, record: record?.additive, on: record?.day ?? .today()), terminator: "")
            fflush(nil)
        }
        // After every result is out: a send is bounded, but nothing waits on it.
        Telemetry.flush()
        return exitCode
    }

    /// Runs one input's work: its report is printed, its failure printed as an
    /// error of its class, and the exit code thrown when it failed.
    static func single(_ format: OutputFormat, input: String, _ body: (inout Output) throws -> Void) throws {
        var out = Output(format: format)
        do {
            try body(&out)
        } catch {
            out.failure(error, input: input)
        }
        let code = out.finish()
        if code != 0 { throw ExitCode(code) }
    }

    /// 0 when every input worked, else the code of the first failure's class.
    var exitCode: Int32 { firstFailure?.exitCode ?? 0 }

    /// A failure as one JSON line: the words as printed, and the advice's code beside its sentence.
    static func json(_ e: EcodexError, input: String, sha256: String?? = .none) -> String {
        JSONRenderer.render(errorClass: e.errorClass, message: Failure.text(e), input: input,
                            advice: e.advice.map { ($0.code, $0.sentence) }, sha256: sha256)
    }
}

extension Advice {
    /// The stable code of this advice in JSON, in the warnings' kebab-case (`rebuild-store`).
    var code: String {
        var out = ""
        var previous: Character?
        for c in rawValue {
            if c.isUppercase, previous?.isLowercase == true { out += "-" }
            out += c.lowercased()
            previous = c
        }
        return out
    }
}
