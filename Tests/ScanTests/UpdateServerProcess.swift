import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// A real `ecodex-server` on 127.0.0.1 and a port the system picks, for one test.
///
/// Its output goes to a file, not a pipe, and it inherits no other descriptor: a
/// child holding another test's pipe open would keep that test's reader waiting
/// (see PackCommandTests).
final class UpdateServerProcess {
    static let executable: URL = ScanBinary.executable.deletingLastPathComponent().appendingPathComponent("ecodex-server")

    let folder: URL
    let database: String
    let log: URL
    private(set) var port = 0
    private var pid: pid_t = 0
    /// Variables added to the server's environment, and the umask it starts with (nil: the test process's).
    var environment: [String: String] = [:]
    var umask: mode_t?

    init(backend: ServerBackend = .sqlite) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-server-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        switch backend {
        case .sqlite: database = folder.appendingPathComponent("server.sqlite").path
        case .postgres: database = try PostgresTestCluster.shared.get().newDatabase()
        }
        log = folder.appendingPathComponent("server-\(UUID().uuidString).log")
    }

    /// Stops the server and removes its folder (its SQLite file, logs and tool outputs).
    deinit {
        stop()
        try? FileManager.default.removeItem(at: folder)
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// Runs `ecodex-server ARGS` to completion (add-token); returns its standard output.
    func tool(_ arguments: [String]) throws -> String {
        let out = folder.appendingPathComponent("tool-\(UUID().uuidString).out")
        let pid = try spawn(arguments, output: out)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(60)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                Issue.record("ecodex-server \(arguments) did not finish in 60 s")
                break
            }
            usleep(20_000)
        }
        return (try? String(contentsOf: out, encoding: .utf8)) ?? ""
    }

    /// A new publishing token for this server's database.
    func addToken() throws -> String {
        try tool(["add-token", "--database", database]).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Starts the server and waits (at most 60 s) until it says which port it listens on.
    func start(_ extra: [String] = []) throws {
        pid = try spawn(["serve", "--host", "127.0.0.1", "--port", "0", "--database", database] + extra, output: log)
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let text = output
            if let range = text.range(of: "listening on 127.0.0.1:") {
                let digits = text[range.upperBound...].prefix { $0.isNumber }
                if let p = Int(digits), p > 0 { port = p; return }
            }
            var status: Int32 = 0
            if waitpid(pid, &status, WNOHANG) != 0 { pid = 0; break }
            usleep(50_000)
        }
        stop()
        throw ServerError(description: "ecodex-server did not start: \(output)")
    }

    /// Kills the server and reaps it.
    func stop() {
        guard pid > 0 else { return }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        pid = 0
    }

    var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    private func spawn(_ arguments: [String], output: URL) throws -> pid_t {
        var extra = environment
        if let umask { extra[Self.umaskVariable] = String(umask, radix: 8) }
        return try Self.spawnClosed([Self.executable.path] + arguments, output: output, environment: extra)
    }

    /// Read (and removed) by the exec wrapper, which sets the umask from it.
    static let umaskVariable = "ECODEX_TEST_UMASK"

    /// Starts `argv` with posix_spawn, not Foundation's Process: these children are reaped
    /// with waitpid by the caller, and the child gets only /dev/null and the output file (no
    /// other descriptor, so a daemon it leaves behind holds no test's pipe open).
    static func spawnClosed(_ argv: [String], output: URL, environment: [String: String] = [:]) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        // Glibc's addclosefrom_np is not visible to Swift; a one-line exec wrapper closes the rest.
        let wrapped = ["/usr/bin/python3", "-c", "import os, sys; os.closerange(3, 65536); m = os.environ.pop('\(umaskVariable)', None); "
                       + "m is None or os.umask(int(m, 8)); os.execv(sys.argv[1], sys.argv[1:])"] + argv
        var cArgs = wrapped.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        let variables = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        var cEnv = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in cEnv { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, wrapped[0], &actions, nil, &cArgs, &cEnv)
        guard rc == 0 else { throw ServerError(description: "cannot start \(argv[0]): \(String(cString: strerror(rc)))") }
        return pid
    }

    struct ServerError: Error, CustomStringConvertible {
        var description: String
    }
}

/// Plain HTTP requests from the test process, each bounded by a timeout.
enum HTTP {
    struct Reply {
        var status: Int
        var body: Data
        var text: String { String(decoding: body, as: UTF8.self) }
        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] ?? [:] }
    }

    static func request(_ method: String, _ url: String, headers: [String: String] = [:], body: Data? = nil,
                        timeout: TimeInterval = 20) throws -> Reply {
        var request = URLRequest(url: URL(string: url)!, timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (k, v) in headers { request.setValue(v, forHTTPHeaderField: k) }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        let session = URLSession(configuration: .ephemeral)
        defer { session.invalidateAndCancel() }
        session.dataTask(with: request) { data, response, error in
            box.set(Reply(status: (response as? HTTPURLResponse)?.statusCode ?? -1, body: data ?? Data()), error)
            done.signal()
        }.resume()
        guard done.wait(timeout: .now() + timeout + 5) == .success else { throw UpdateServerProcess.ServerError(description: "\(method) \(url) timed out") }
        let (reply, error) = box.get()
        if let error { throw error }
        return reply!
    }

    private final class Box: @unchecked Sendable {
        private let lock = NSLock()
        private var reply: Reply?
        private var error: Error?
        func set(_ r: Reply, _ e: Error?) { lock.lock(); reply = r; error = e; lock.unlock() }
        func get() -> (Reply?, Error?) { lock.lock(); defer { lock.unlock() }; return (reply, error) }
    }
}
