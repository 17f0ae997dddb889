import ArgumentParser
import EcodexCore
import Foundation

/// The one place that turns what the libraries throw into what the shopper sees: the
/// error's class (and so its exit code, README "Exit codes"), its message, and the advice
/// worded as a command to run. Libraries never name a command or a flag; they name an
/// `Advice`, and `Advice.sentence` below says it in this command line's words.
enum Failure {
    /// `error` as a classified failure. Anything the libraries did not classify is a
    /// `capture_error` for the input at hand (never a crash, never exit 1).
    static func classify(_ error: Error, arguments: [String] = CommandLine.arguments) -> EcodexError {
        switch error {
        case let e as EcodexError: e
        case let e as PackError: e.ecodexError
        default: unclassified(error, command: arguments.dropFirst().first ?? "")
        }
    }

    /// An error no library classified (a file that could not be written, say): the class of
    /// the command's own work, with the system's words.
    static func unclassified(_ error: Error, command: String) -> EcodexError {
        let reason = (error as NSError).localizedDescription
        switch command {
        case "pack", "update", "products":
            return .update("The update or import could not be completed: \(reason)", detail: "\(error)")
        case "prefs":
            return .lookup("Ecodex could not write the preferences file (ECODEX_CONFIG): \(reason)", detail: "\(error)")
        case "history", "store":
            return .lookup("Ecodex could not read or write its files: \(reason)", advice: .chooseDataFolder, detail: "\(error)")
        default:
            return .capture("Something went wrong reading this input: \(reason) Try again.", detail: "\(error)")
        }
    }

    /// The message with its advice, as printed.
    static func text(_ e: EcodexError) -> String {
        guard let advice = e.advice else { return e.message }
        return e.message + " " + advice.sentence
    }

    /// Prints a failure that ends the whole command, in the format the command line asked
    /// for, and returns its exit code.
    static func exitCode(for error: Error, arguments: [String] = CommandLine.arguments) -> Int32 {
        let e = classify(error, arguments: arguments)
        if jsonRequested(arguments) {
            print(JSONRenderer.render(error: shown(e), input: input(arguments)))
            fflush(nil)
        } else {
            FileHandle.standardError.write(Data("scan: \(e.errorClass.rawValue): \(text(e))\n".utf8))
        }
        return e.errorClass.exitCode
    }

    /// The error as shown: its advice folded into the message.
    static func shown(_ e: EcodexError) -> EcodexError {
        var copy = e
        copy.message = text(e)
        return copy
    }

    static func jsonRequested(_ arguments: [String]) -> Bool {
        for (i, a) in arguments.enumerated() {
            if a == "--format=json" || (a == "--format" && i + 1 < arguments.count && arguments[i + 1] == "json") { return true }
        }
        return false
    }

    /// The input a whole-command failure is about: the first argument after the command
    /// words that is not an option, else the command itself.
    static func input(_ arguments: [String]) -> String {
        let words = Array(arguments.dropFirst())
        var i = 0
        var command: [String] = []
        while i < words.count {
            let w = words[i]
            if w.hasPrefix("--") {
                i += w.contains("=") ? 1 : 2
                continue
            }
            if command.count < 2, Scan.commandWords.contains(w) {
                command.append(w)
            } else {
                return w
            }
            i += 1
        }
        return command.joined(separator: " ")
    }
}

extension Advice {
    /// The advice as this command line says it: what to run.
    var sentence: String {
        switch self {
        case .rebuildStore: "Run `scan store rebuild` to restore it."
        case .resetHistory: "Run `scan history reset` to set it aside and start a new one."
        case .resetPreferences: "Fix the line, or run `scan prefs reset` to start from the defaults."
        case .typeIngredients: "Or type the ingredients with `scan text`."
        case .lookUpOnline: "Retry with --online to look it up, or type the ingredients with `scan text`."
        case .importProducts: "Import the product file again with `scan products import FILE`."
        case .importProductsReplacing: "Import without --add to replace it: `scan products import FILE`."
        case .chooseDataFolder: "Choose another folder with --data-dir or ECODEX_DATA_DIR."
        case .retryUpdate: "Run `scan update` again when online."
        case .installOCR: "Run scripts/setup.sh to install it."
        case .listHistory: "Run `scan history` to see the numbers."
        }
    }

    /// A runnable example of every command `sentence` names (`FILE`, `DIR`, `URL` and `TEXT`
    /// stand for test inputs). `scan advice` prints these and a test runs each one.
    var commands: [[String]] {
        switch self {
        case .rebuildStore: [["store", "rebuild"]]
        case .resetHistory: [["history", "reset"]]
        case .resetPreferences: [["prefs", "reset"]]
        case .typeIngredients: [["text", "TEXT"]]
        case .lookUpOnline: [["barcode", "4006381333931", "--online"], ["text", "TEXT"]]
        case .importProducts, .importProductsReplacing: [["products", "import", "FILE"]]
        case .chooseDataFolder: [["code", "E330", "--data-dir", "DIR"]]
        case .retryUpdate: [["update", "URL"]]
        case .installOCR: [["!scripts/setup.sh"]]
        case .listHistory: [["history"]]
        }
    }
}

/// `scan advice`: lists every piece of advice with the commands it names, one JSON object
/// per line. Hidden: it exists so a test can run every command a message tells people to run.
struct AdviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "advice", abstract: "List the advice messages and the commands they name (for tests).",
        shouldDisplay: false)

    func run() throws {
        for advice in Advice.allCases {
            let object: [String: Any] = ["advice": advice.rawValue, "sentence": advice.sentence, "commands": advice.commands]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            print(String(decoding: data, as: UTF8.self))
        }
    }
}
