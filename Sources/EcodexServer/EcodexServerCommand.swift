import ArgumentParser
import Crypto
import EcodexCore
import EcodexStore
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore
import Prometheus

/// `ecodex-server`: the optional update service (requirements §11): rule packs,
/// additive records and anonymous telemetry over HTTP, with token-protected publishing.
@main
struct EcodexServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ecodex-server",
        abstract: "Serve Ecodex rule packs, additive records and opt-in telemetry.",
        version: "ecodex-server \(EcodexVersion.program)"
            + (AdditiveStore.bundledVersions.map { " · bundled data \($0.dataVersion) · pack \($0.packVersion)" } ?? ""),
        subcommands: [Serve.self, AddToken.self],
        defaultSubcommand: Serve.self
    )
}

struct StorageOptions: ParsableArguments {
    @Option(help: "The database: a SQLite file path (created when missing), or postgres://user@host[:port]/database.")
    var database = "ecodex-server.sqlite"

    /// The storage, ready to use: for PostgreSQL its connection pool runs until the process
    /// ends and the tables are created when missing.
    func open(logger: Logger) async throws -> any ServerStorage {
        let lower = database.lowercased()
        if lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://") {
            let storage = try PostgresServerStorage(url: database, logger: logger)
            let client = storage.client
            Task { await client.run() }
            // Queries wait until the pool runs; give its task the first turn so none waits at all.
            await Task.yield()
            try await storage.migrate()
            return storage
        }
        let path = lower.hasPrefix("sqlite:") ? String(database.dropFirst(7)) : database
        return try SQLiteServerStorage(path: path)
    }

    /// The database as logged: a PostgreSQL address without its password.
    var shown: String {
        guard var parts = URLComponents(string: database), parts.password != nil else { return database }
        parts.password = "***"
        return parts.string ?? "postgres"
    }
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the server (the default).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on; 0 picks a free one (printed on standard output).") var port = 8080
    @OptionGroup var storage: StorageOptions
    @Option(help: "Trusted publisher keys (ecodex-trust/1); default: the keys built into scan.") var trusted: String?
    @Option(help: "Seconds a download URL stays valid.") var urlLifetime: Double = 300
    @Option(help: "Seconds a client may take to send a request's headers, from connecting or from its previous answer.")
    var headerTimeout: Double = 10
    @Option(help: "Seconds a connection may stay silent (between requests, or in a request's body) before it is closed.")
    var idleTimeout: Double = 60
    @Option(help: "Log level: debug, info, notice, warning, error.") var logLevel = "info"

    func validate() throws {
        for (name, value) in [("--header-timeout", headerTimeout), ("--idle-timeout", idleTimeout)]
        where !(value > 0 && value <= 86_400) {
            throw ValidationError("\(name) must be more than 0 and at most 86400 seconds.")
        }
    }

    /// Tests set the server's clock (UNIX seconds) so link expiry is checked without waiting.
    static let clockVariable = "ECODEX_SERVER_NOW"

    func run() async throws {
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let registry = PrometheusCollectorRegistry()
        MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
        let logger = Logger(label: "ecodex-server")

        let trust: TrustedKeys
        if let trusted {
            do { trust = try TrustedKeys(contentsOf: URL(fileURLWithPath: trusted)) } catch { throw ValidationError("\(trusted): \(error)") }
        } else {
            trust = .shipped
        }
        var clock: @Sendable () -> Date = { Date() }
        if let fixed = ProcessInfo.processInfo.environment[Self.clockVariable].flatMap(Double.init) {
            clock = { Date(timeIntervalSince1970: fixed) }
        }
        let service = try await UpdateService(storage: storage.open(logger: logger), trust: trust, urlLifetime: urlLifetime,
                                              basePackURL: nil, now: clock)
        let routes = Routes(service: service, metricsText: { registry.emitToBuffer() }, logger: logger)
        let header = TimeAmount.nanoseconds(Int64(headerTimeout * 1e9))
        let app = Application(
            router: routes.build(),
            server: .http1(configuration: .init(additionalChannelHandlers: [HeaderTimeout(limit: header)],
                                                idleTimeout: .nanoseconds(Int64(idleTimeout * 1e9)))),
            configuration: .init(address: .hostname(host, port: port), serverName: "ecodex-server"),
            onServerRunning: { channel in
                // Tests and scripts read the port from this line.
                FileHandle.standardOutput.write(Data("ecodex-server listening on \(host):\(channel.localAddress?.port ?? port)\n".utf8))
            },
            logger: logger
        )
        logger.info("starting", metadata: ["database": "\(storage.shown)", "trusted_keys": "\(trust.keys.count)"])
        try await app.runService()
    }
}

struct AddToken: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "add-token",
        abstract: "Make a new publishing token: printed once, only its SHA-256 is stored.")
    @OptionGroup var storage: StorageOptions

    func run() async throws {
        let token = "ecx_" + Hex.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) })
        try await storage.open(logger: Logger(label: "ecodex-server")).addTokenHash(Hex.encode(SHA256.hash(data: Array(token.utf8))))
        print(token)
    }
}
