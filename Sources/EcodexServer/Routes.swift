import EcodexCore
import EcodexStore
import Foundation
import Hummingbird
import Logging
import Metrics
import NIOCore

/// The HTTP endpoints (requirements §11.2). Every body is UTF-8 JSON, errors too
/// (`{"error":"…"}`), except the pack download and the Prometheus metrics.
struct Routes {
    let service: UpdateService
    let metricsText: @Sendable () -> [UInt8]
    let logger: Logger

    func build() -> Router<BasicRequestContext> {
        let router = Router()
        router.add(middleware: MetricsMiddleware())
        router.get("/health") { _, _ in
            let latest = try await service.storage.packs().last
            return Self.json(.ok, ["status": .string("ok"), "version": .string(latest?.version.description ?? "")])
        }
        router.get("/metrics") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                     body: .init(byteBuffer: ByteBuffer(bytes: metricsText())))
        }
        router.get("/v1/packs/latest", use: latest)
        router.get("/v1/packs/{version}", use: packInfo)
        router.get("/v1/files/{file}", use: download)
        router.get("/v1/additives/{code}", use: additive)
        router.post("/v1/packs", use: publish)
        router.post("/v1/telemetry", use: telemetry)
        return router
    }

    @Sendable func latest(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let query = request.uri.queryParameters
        guard let regionText = query.get("region"), let region = Region(code: regionText) else {
            return Self.error(.badRequest, "Give ?region=EU, US, UK, CA, AU or IN.")
        }
        var from: SemanticVersion?
        if let text = query.get("from") {
            guard let v = SemanticVersion(text) else { return Self.error(.badRequest, "?from= is not a version like 1.0.0.") }
            from = v
        }
        let (latest, chain, complete) = UpdateService.chain(try await service.storage.packs(), from: from)
        guard let latest else { return Self.error(.notFound, "No pack is published here.") }
        var body = Self.describe(latest)
        body["region"] = .string(region.rawValue)
        body["from"] = from.map { .string($0.description) } ?? .null
        body["chain"] = .array(chain.map { .object(Self.describe($0)) })
        body["chain_complete"] = .bool(complete)
        return Self.json(.ok, body)
    }

    @Sendable func packInfo(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let version = try context.parameters.require("version")
        guard let pack = try await service.storage.packs().first(where: { $0.version.description == version }), pack.kind != "base" else {
            return Self.error(.notFound, "No pack \(version) is published here.")
        }
        let (path, expires) = await service.downloadPath(version: version)
        var body = Self.describe(pack)
        body["url"] = .string(path)
        body["url_expires_at"] = .string(ISO8601DateFormatter().string(from: expires))
        return Self.json(.ok, body)
    }

    @Sendable func download(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let file = try context.parameters.require("file")
        guard file.hasSuffix(".pack") else { return Self.error(.notFound, "No such file.") }
        let version = String(file.dropLast(5))
        let query = request.uri.queryParameters
        guard service.checkDownload(version: version, expires: query.get("expires"), sig: query.get("sig")) else {
            return Self.error(.forbidden, "This download link is not valid or has expired; ask /v1/packs/\(version) for a new one.")
        }
        guard let bytes = try await service.storage.packFile(version: version) else { return Self.error(.notFound, "No such pack.") }
        return Response(status: .ok, headers: [.contentType: "application/octet-stream"], body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    @Sendable func additive(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let raw = try context.parameters.require("code")
        guard let code = ECode(raw.removingPercentEncoding ?? raw) else { return Self.error(.badRequest, "\"\(raw)\" is not an additive code.") }
        guard let record = try await service.storage.additive(code: code.description) else {
            return Self.error(.notFound, "No additive \(code) is known here.")
        }
        // The record is stored as JSON ready to send; it is spliced in rather than decoded and encoded again.
        // Its query also reads the newest version (before, every read also loaded every pack's row).
        let head = JSONValue.object(["checksum": .string(record.checksum), "code": .string(record.code),
                                     "version": .string(record.version)]).encoded
        var body = Array(head.dropLast())
        body += Array(",\"additive\":".utf8) + Array(record.json.utf8) + [UInt8(ascii: "}")]
        return Response(status: .ok, headers: [.contentType: "application/json; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    @Sendable func publish(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        let auth = request.headers[.authorization]
        let token = auth.flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
        guard try await service.authorised(token: token) else {
            logger.notice("publish refused", metadata: ["reason": "token"])
            return Self.error(.unauthorized, "A valid publishing token is required (Authorization: Bearer …).")
        }
        // A pack larger than clients download would strand them: the same limit refuses it here.
        let limit = PackFile.maximumBytes
        let tooLarge = Self.error(.contentTooLarge, "The pack is over \(limit) bytes, the most a client downloads.")
        if let declared = request.headers[.contentLength].flatMap(Int.init), declared > limit {
            logger.notice("publish refused", metadata: ["reason": "size", "bytes": "\(declared)"])
            return tooLarge
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: limit)
        } catch is NIOTooManyBytesError {
            logger.notice("publish refused", metadata: ["reason": "size"])
            return tooLarge
        }
        do {
            let pack = try await service.publish(Array(buffer: body))
            logger.info("pack published", metadata: ["version": "\(pack.version)", "kind": "\(pack.kind)", "checksum": "\(pack.checksum)"])
            return Self.json(.created, Self.describe(pack))
        } catch let error as UpdateService.ServiceError {
            logger.notice("publish refused", metadata: ["reason": "\(error)"])
            return Self.error(error)
        }
    }

    @Sendable func telemetry(_ request: Request, _ context: BasicRequestContext) async throws -> Response {
        guard request.headers[.contentType].map({ $0.lowercased().hasPrefix("application/json") }) == true else {
            return Self.error(.unsupportedMediaType, "Telemetry is JSON events only.")
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: TelemetryEvent.maximumBodyBytes)
        } catch {
            return Self.error(.contentTooLarge, "The body is over \(TelemetryEvent.maximumBodyBytes) bytes.")
        }
        let events: [TelemetryEvent]
        do {
            events = try TelemetryEvent.decodeBatch(Array(buffer: body))
        } catch {
            return Self.error(.badRequest, "Refused: \(error)")
        }
        try await service.storage.appendTelemetry(events.map { String(decoding: $0.json.encoded, as: UTF8.self) })
        Counter(label: "ecodex_telemetry_events_total").increment(by: events.count)
        return Self.json(.accepted, ["accepted": .int(Int64(events.count))])
    }

    // MARK: - JSON

    static func describe(_ p: PublishedPack) -> [String: JSONValue] {
        [
            "version": .string(p.version.description), "diff_from": p.diffFrom.map { .string($0.description) } ?? .null,
            "kind": .string(p.kind), "data_version": .string(p.dataVersion), "regions": .array(p.regions.map { .string($0.rawValue) }),
            "checksum": .string(p.checksum), "size": .int(Int64(p.size)), "expires_at": .string(p.expiresAt),
            "published_at": .string(p.publishedAt),
        ]
    }

    static func json(_ status: HTTPResponse.Status, _ object: [String: JSONValue]) -> Response {
        Response(status: status, headers: [.contentType: "application/json; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(bytes: JSONValue.object(object).encoded)))
    }

    static func error(_ status: HTTPResponse.Status, _ message: String) -> Response {
        json(status, ["error": .string(message), "status": .int(Int64(status.code))])
    }

    static func error(_ e: UpdateService.ServiceError) -> Response {
        switch e {
        case .badRequest(let m): error(.badRequest, m)
        case .notFound(let m): error(.notFound, m)
        case .conflict(let m): error(.conflict, m)
        case .unprocessable(let m): error(.unprocessableContent, m)
        case .forbidden(let m): error(.forbidden, m)
        case .internal(let m): error(.internalServerError, m)
        }
    }
}
