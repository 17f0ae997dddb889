import EcodexCore
import Foundation
import Testing
@testable import EcodexOnline
@testable import EcodexStore

/// The Open Food Facts client over real HTTP, against `ProductTestServer` on 127.0.0.1.
/// No case measures how long it took: the budget and the waits are checked on the client's
/// injected clock (`ManualClock`), and a server that must time out holds its answer until it is
/// stopped, so only the client's own limit can end the lookup. The cases run one at a time.
@Suite(.serialized) struct ProductOnlineTests {
    static let candyPath = "/api/v2/product/4006381333931.json"
    static let colaPath = "/api/v2/product/0036000291452.json"
    static let unknownPath = "/api/v2/product/5901234123457.json"
    /// A delay no lookup outlasts: the server answers only when it is stopped (then not at all).
    static let neverAnswers: TimeInterval = 600

    /// A clock that only moves when the client waits (or when a test moves it): the client's
    /// waits are recorded, and none of them takes real time.
    final class ManualClock: @unchecked Sendable {
        var now = Date(timeIntervalSince1970: 1_700_000_000)
        var waits: [TimeInterval] = []
        /// Seconds the clock moves on at each wait beyond the wait itself (a starved process).
        var overrun: TimeInterval = 0

        func install(on client: OpenFoodFactsClient) {
            client.now = { self.now }
            client.sleep = { seconds in
                self.waits.append(seconds)
                self.now += seconds + self.overrun
            }
        }
    }

    func client(_ server: ProductTestServer) throws -> OpenFoodFactsClient {
        try OpenFoodFactsClient(baseURL: server.baseURL, environment: [:])
    }

    func expectNetworkError(_ body: () throws -> Product?, sourceLocation: SourceLocation = #_sourceLocation) -> OpenFoodFactsError? {
        do {
            let p = try body()
            Issue.record("expected a network_error, got \(String(describing: p))", sourceLocation: sourceLocation)
            return nil
        } catch let e as OpenFoodFactsError {
            #expect(e.errorClass == .network, "\(e)", sourceLocation: sourceLocation)
            return e
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return nil
        }
    }

    @Test func successSendsOnlyTheBarcodeAndReadsTheIngredients() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]])
        defer { server.stop() }
        let p = try #require(try client(server).product(barcode: "4006381333931"))
        #expect(p.ingredientsText.hasPrefix("Sugar, glucose syrup"))
        #expect(p.ingredientsText.contains("E102, E129"))
        #expect(p.source == OpenFoodFactsClient.sourceLabel)
        let requests = server.requests
        #expect(requests.count == 1)
        let r = try #require(requests.first)
        #expect(r.method == "GET")
        #expect(r.path == Self.candyPath)
        #expect(r.query.hasPrefix("fields=code,product_name,ingredients_text"))
        #expect(r.headers["user-agent"]?.hasPrefix("Ecodex/") == true)
        #expect(r.headers["cookie"] == nil)
    }

    @Test func englishTextIsUsedWhenTheMainOneIsEmpty() throws {
        let server = try ProductTestServer(routes: [Self.colaPath: [.json(RecordedProducts.englishOnly)]])
        defer { server.stop() }
        let p = try #require(try client(server).product(barcode: "0036000291452"))
        #expect(p.ingredientsText.contains("caramel E150d"))
    }

    @Test func notFoundIsNilAfterOneRequest() throws {
        let server = try ProductTestServer(routes: [Self.unknownPath: [.json(RecordedProducts.notFound, status: 404)]])
        defer { server.stop() }
        #expect(try client(server).product(barcode: "5901234123457") == nil)
        #expect(server.hits(Self.unknownPath) == 1)
    }

    @Test func aProductWithoutIngredientsIsNil() throws {
        let server = try ProductTestServer(routes: [Self.unknownPath: [.json(RecordedProducts.noIngredients)]])
        defer { server.stop() }
        #expect(try client(server).product(barcode: "5901234123457") == nil)
    }

    @Test func tooManyRequestsIsRetriedWithBackoff() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [
            .json(#"{"status":"busy"}"#, status: 429), .json(RecordedProducts.candy),
        ]])
        defer { server.stop() }
        let c = try client(server), clock = ManualClock()
        clock.install(on: c)
        #expect(try c.product(barcode: "4006381333931") != nil)
        #expect(server.hits(Self.candyPath) == 2)
        // One backoff of 0.25 s, give or take its 20 % jitter.
        #expect(clock.waits.count == 1 && (0.2...0.3).contains(clock.waits[0]), "\(clock.waits)")
    }

    @Test func aRetryAfterWithinTheBudgetIsWaitedOut() throws {
        var busy = ProductTestServer.Response.json(#"{"status":"busy"}"#, status: 429)
        busy.headers["Retry-After"] = "2"
        let server = try ProductTestServer(routes: [Self.candyPath: [busy, .json(RecordedProducts.candy)]])
        defer { server.stop() }
        let c = try client(server), clock = ManualClock()
        clock.install(on: c)
        #expect(try c.product(barcode: "4006381333931") != nil)
        #expect(clock.waits == [2])
        #expect(server.hits(Self.candyPath) == 2)
    }

    @Test func aRetryAfterBeyondTheBudgetStopsAtOnce() throws {
        var busy = ProductTestServer.Response.json(#"{"status":"busy"}"#, status: 429)
        busy.headers["Retry-After"] = "60"
        let server = try ProductTestServer(routes: [Self.candyPath: [busy]])
        defer { server.stop() }
        let c = try client(server), clock = ManualClock()
        clock.install(on: c)
        c.budget = 30
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "busy", "\(String(describing: error))")
        #expect(server.hits(Self.candyPath) == 1)
        #expect(clock.waits.isEmpty, "waited \(clock.waits) s for an answer the budget cannot hold")
    }

    @Test func serverErrorsAreRetriedThreeTimesThenReported() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json("oops", status: 500)]])
        defer { server.stop() }
        let c = try client(server), clock = ManualClock()
        clock.install(on: c)
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(server.hits(Self.candyPath) == 3)
        #expect(clock.waits.count == 2, "a backoff between attempts: \(clock.waits)")
        #expect(error?.description.contains("HTTP 500") == true)
    }

    /// After a wait that overran the budget (a starved process), no further attempt starts.
    @Test func noAttemptStartsOnceTheBudgetIsSpent() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json("oops", status: 500)]])
        defer { server.stop() }
        let c = try client(server), clock = ManualClock()
        clock.install(on: c)
        clock.overrun = c.budget
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "timedOut", "\(String(describing: error))")
        #expect(server.hits(Self.candyPath) == 1)
        #expect(clock.waits.count == 1)
    }

    @Test func aServerErrorThenSuccessWorks() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json("down", status: 503), .json(RecordedProducts.candy)]])
        defer { server.stop() }
        let c = try client(server)
        ManualClock().install(on: c)
        #expect(try c.product(barcode: "4006381333931") != nil)
        #expect(server.hits(Self.candyPath) == 2)
    }

    /// The server holds its answer until it is stopped: only the client's budget ends the lookup.
    @Test func aSlowServerTimesOutWithinTheBudget() throws {
        var slow = ProductTestServer.Response.json(RecordedProducts.candy)
        slow.delay = Self.neverAnswers
        let server = try ProductTestServer(routes: [Self.candyPath: [slow]])
        defer { server.stop() }
        let c = try client(server)
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect((1...3).contains(server.hits(Self.candyPath)))
        #expect(caseName(error) == "timedOut", "\(String(describing: error))")
    }

    /// The first answer never comes; the attempt's own limit ends it and the second attempt
    /// answers. The limits are generous so a loaded machine cannot starve the second attempt.
    @Test func aSlowFirstAnswerIsRetriedAndTheSecondArrives() throws {
        var slow = ProductTestServer.Response.json(RecordedProducts.candy)
        slow.delay = Self.neverAnswers
        let server = try ProductTestServer(routes: [Self.candyPath: [slow, .json(RecordedProducts.candy)]])
        defer { server.stop() }
        let c = try client(server)
        c.budget = 120
        c.attemptTimeout = 8
        #expect(try c.product(barcode: "4006381333931") != nil)
        #expect(server.hits(Self.candyPath) == 2, "the first, held answer was not waited for")
    }

    @Test func malformedJSONIsANetworkErrorNotACrash() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.malformed)]])
        defer { server.stop() }
        let c = try client(server)
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "unreadableAnswer", "\(String(describing: error))")
        #expect(server.hits(Self.candyPath) == 1)
    }

    @Test func oddlyShapedJSONIsHandled() throws {
        for body in [#"[]"#, #"{"status":1,"product":[]}"#, #"{"status":1,"product":{"ingredients_text":42}}"#, #"null"#] {
            let server = try ProductTestServer(routes: [Self.candyPath: [.json(body)]])
            defer { server.stop() }
            let c = try client(server)
            if body == "[]" || body == "null" {
                _ = expectNetworkError { try c.product(barcode: "4006381333931") }
            } else {
                #expect(try c.product(barcode: "4006381333931") == nil, "\(body)")
            }
        }
    }

    @Test func aHugeDeclaredBodyIsRefusedWithoutReadingIt() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [
            ProductTestServer.Response(status: 200, headers: ["Content-Type": "application/json"], mode: .huge(bytes: 500 << 20)),
        ]])
        defer { server.stop() }
        let c = try client(server)
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "tooLarge", "\(String(describing: error))")
    }

    @Test func aHugeUndeclaredBodyIsCutOff() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [
            ProductTestServer.Response(status: 200, headers: ["Content-Type": "application/json"], mode: .hugeUndeclared(bytes: 500 << 20)),
        ]])
        defer { server.stop() }
        let c = try client(server)
        // Limits no loaded machine reaches, so the size cut-off (not the clock) must end it.
        c.budget = 120
        c.attemptTimeout = 120
        let error = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "tooLarge", "\(String(describing: error))")
    }

    @Test func nobodyListeningIsANetworkError() throws {
        let server = try ProductTestServer()
        let url = server.baseURL
        server.stop()
        let c = try OpenFoodFactsClient(baseURL: url, environment: [:])
        ManualClock().install(on: c)
        _ = expectNetworkError { try c.product(barcode: "4006381333931") }
    }

    @Test func onlyHTTPSLeavesThisComputer() throws {
        #expect(throws: OpenFoodFactsError.notHTTPS("http://world.openfoodfacts.org")) {
            try OpenFoodFactsClient(baseURL: "http://world.openfoodfacts.org", environment: [:])
        }
        #expect(throws: OpenFoodFactsError.self) { try OpenFoodFactsClient(baseURL: "ftp://127.0.0.1", environment: [:]) }
        #expect(try OpenFoodFactsClient(environment: [:]).baseURL.absoluteString == OpenFoodFactsClient.defaultBaseURL)
        #expect(try OpenFoodFactsClient(environment: ["ECODEX_OFF_URL": "http://127.0.0.1:9/"]).baseURL.absoluteString
            == "http://127.0.0.1:9")
        let url = try OpenFoodFactsClient(environment: [:]).url(for: "4006381333931").absoluteString
        #expect(url.hasPrefix("https://world.openfoodfacts.org/api/v2/product/4006381333931.json?fields=code,product_name,ingredients_text"))
    }

    // MARK: - The chain

    @Test func onlineHitsAreCachedAndFoundOfflineNext() throws {
        let scratch = try Fixtures.Scratch()
        let server = try ProductTestServer(routes: [Self.colaPath: [.json(RecordedProducts.englishOnly)]])
        defer { server.stop() }
        let cache = try UserStore(location: scratch.location)
        let dataset = ProductDataset(location: scratch.location)
        let online = ProductSourceChain(local: [cache, dataset], online: try client(server), cache: cache)
        // UPC-A as the scanner reads it; the chain asks for its EAN-13 form.
        let found = try #require(try online.product(barcode: "036000291452"))
        #expect(found.source == OpenFoodFactsClient.sourceLabel)
        // Cached once the pipeline has assessed it, with the codes it found.
        #expect(try cache.cachedProduct(barcode: "0036000291452") == nil)
        online.assessed(found, codes: [ECode("E150d")!, ECode("E338")!], region: .us)
        let cached = try #require(try cache.cachedProduct(barcode: "0036000291452"))
        #expect(cached.ingredientsText.contains("caramel E150d"))
        #expect(cached.additivesFound.map(\.description) == ["E150d", "E338"])
        #expect(cached.region == .us)
        server.stop()
        let offline = ProductSourceChain(local: [ProductCacheLookup(location: scratch.location), dataset])
        #expect(try offline.product(barcode: "036000291452")?.source == "saved on this computer")
        #expect(try offline.product(barcode: "036000291452")?.ingredientsText == cached.ingredientsText)
        #expect(try ProductCacheLookup(location: Fixtures.Scratch().location).product(barcode: "4006381333931") == nil)
        #expect(try UserStore.cachedProductCount(location: scratch.location) == 1)
    }

    @Test func theChainAsksSourcesInOrderAndNeverOnlineWhenLocalKnows() throws {
        final class Fake: ProductSource {
            let known: [String: String]
            let label: String
            var asked: [String] = []
            init(_ label: String, _ known: [String: String]) { self.label = label; self.known = known }
            func product(barcode: String) throws -> Product? {
                asked.append(barcode)
                return known[barcode].map { Product(barcode: barcode, ingredientsText: $0, source: label) }
            }
        }
        final class Broken: ProductSource {
            func product(barcode: String) throws -> Product? { throw ProductListError.damaged(path: URL(fileURLWithPath: "/products.sqlite"), detail: "test") }
        }
        let cache = Fake("cache", [:]), list = Fake("list", ["4006381333931": "E102"]), net = Fake("net", ["4006381333931": "E129"])
        var notes: [String] = []
        let chain = ProductSourceChain(local: [Broken(), cache, list], online: net, onLocalError: { notes.append("\($0)") })
        #expect(try chain.product(barcode: "4006381333931")?.source == "list")
        #expect(net.asked.isEmpty)
        #expect(notes.count == 1)
        #expect(try chain.product(barcode: "96385074") == nil)
        #expect(net.asked == ["96385074"])
        // UPC-E is also asked for as the UPC-A it stands for.
        #expect(ProductSourceChain.keys(for: "04252614") == ["0042100005264"])
        #expect(ProductSourceChain.keys(for: "036000291452") == ["0036000291452"])
    }
}
