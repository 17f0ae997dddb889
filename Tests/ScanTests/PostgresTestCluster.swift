import Foundation
import Testing

/// Where an `ecodex-server` under test keeps its data: a SQLite file, or a fresh database
/// on a PostgreSQL cluster this test process starts itself.
enum ServerBackend: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres
    var testDescription: String { rawValue }
}

/// One PostgreSQL cluster for the whole test process, started on first use from Debian's
/// binaries (`scripts/install-deps.sh` installs `postgresql`): `initdb` into a temporary
/// folder, the server on 127.0.0.1 and a free port (trust authentication, loopback only),
/// stopped when the test process exits. Each server under test gets a database of its own.
final class PostgresTestCluster: @unchecked Sendable {
    let folder: URL
    let port: Int
    let bin: URL
    private let lock = NSLock()
    private var made = 0

    /// Started once; nil (with the reason) when the binaries are missing or the cluster would not start.
    nonisolated(unsafe) static var shared: Result<PostgresTestCluster, UpdateServerProcess.ServerError> = {
        Result { try PostgresTestCluster() }.mapError { ($0 as? UpdateServerProcess.ServerError) ?? .init(description: "\($0)") }
    }()

    /// Runs `body` as the `postgres` user when we are root (initdb and postgres refuse root).
    private static func command(_ tool: URL, _ arguments: [String]) -> [String] {
        geteuid() == 0 ? ["/usr/sbin/runuser", "-u", "postgres", "--", tool.path] + arguments : [tool.path] + arguments
    }

    private init() throws {
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        guard let newest = versions.compactMap(Int.init).max() else {
            throw UpdateServerProcess.ServerError(description: "PostgreSQL is not installed (run scripts/install-deps.sh)")
        }
        bin = URL(fileURLWithPath: "/usr/lib/postgresql/\(newest)/bin")
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-pg-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if geteuid() == 0 {
            _ = try Self.run(["/bin/chown", "postgres:postgres", folder.path])
        }
        port = Self.freePort()
        let data = folder.appendingPathComponent("data").path
        _ = try Self.run(Self.command(bin.appendingPathComponent("initdb"),
                                      ["-D", data, "-U", "ecodex", "--auth=trust", "-E", "UTF8", "--no-sync", "--locale=C.UTF-8"]))
        _ = try Self.run(Self.command(bin.appendingPathComponent("pg_ctl"), [
            "-D", data, "-w", "-t", "60", "-l", folder.appendingPathComponent("server.log").path,
            "-o", "-p \(port) -k \(folder.path) -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200",
            "start",
        ]))
        PostgresTestCluster.stopCommand = Self.command(bin.appendingPathComponent("pg_ctl"), ["-D", data, "-m", "immediate", "stop"])
        PostgresTestCluster.stopFolder = folder
        atexit {
            if let c = PostgresTestCluster.stopCommand { _ = try? PostgresTestCluster.run(c) }
            if let f = PostgresTestCluster.stopFolder { try? FileManager.default.removeItem(at: f) }
        }
    }

    nonisolated(unsafe) static var stopCommand: [String]?
    nonisolated(unsafe) static var stopFolder: URL?

    /// A new, empty database; its address for `ecodex-server --database`.
    func newDatabase() throws -> String {
        let name = lock.withLock { made += 1; return "ecodex_test_\(getpid())_\(made)" }
        _ = try Self.run([bin.appendingPathComponent("psql").path, "-h", "127.0.0.1", "-p", "\(port)", "-U", "ecodex",
                          "-d", "postgres", "-v", "ON_ERROR_STOP=1", "-q", "-c", "CREATE DATABASE \(name)"])
        return "postgres://ecodex@127.0.0.1:\(port)/\(name)"
    }

    /// A port nothing listens on now (the kernel's pick for a socket bound to port 0).
    static func freePort() -> Int {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, len) } }
        _ = withUnsafeMutablePointer(to: &addr) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &len) } }
        return Int(UInt16(bigEndian: addr.sin_port))
    }

    /// Runs a command to its end (at most 90 s); its output when it succeeds.
    ///
    /// posix_spawn and waitpid (`UpdateServerProcess.spawnClosed`), not Foundation's Process:
    /// `pg_ctl start` leaves the server running with the descriptors it inherited, and
    /// Process then never sees its child end.
    @discardableResult
    static func run(_ argv: [String]) throws -> String {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("ecodex-pg-\(UUID().uuidString).out")
        defer { try? FileManager.default.removeItem(at: out) }
        let pid = try UpdateServerProcess.spawnClosed(argv, output: out)
        var status: Int32 = 0
        let deadline = Date().addingTimeInterval(90)
        while waitpid(pid, &status, WNOHANG) == 0 {
            if Date() > deadline {
                kill(pid, SIGKILL)
                waitpid(pid, &status, 0)
                throw UpdateServerProcess.ServerError(description: "\(argv.joined(separator: " ")) did not finish in 90 s")
            }
            usleep(20_000)
        }
        let text = (try? String(contentsOf: out, encoding: .utf8)) ?? ""
        // WIFEXITED and WEXITSTATUS are macros Swift does not see.
        guard status & 0x7f == 0, (status >> 8) & 0xff == 0 else {
            throw UpdateServerProcess.ServerError(description: "\(argv.joined(separator: " ")) failed (\(status)): \(text)")
        }
        return text
    }
}
