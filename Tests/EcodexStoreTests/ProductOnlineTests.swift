import EcodexCore
import Foundation
import Testing
@testable import EcodexOnline
@testable import EcodexStore

/// The Open Food Facts client over real HTTP, against `ProductTestServer` on 127.0.0.1.
/// Every case must end within the 3.5 s budget (plus room for a loaded machine). The cases run
/// one at a time: run side by side, a 404 from an idle server once took over 2 s to arrive
/// (1 run in 5 on a 2-core machine), and the last CI run failed on this suite.
@Suite(.serialized) struct ProductOnlineTests {
    static let candyPath = "/api/v2/product/4006381333931.json"
    static let colaPath = "/api/v2/product/0036000291452.json"
    static let unknownPath = "/api/v2/product/5901234123457.json"
    /// The client's 3.5 s budget plus room for a loaded 2-core test machine: the whole suite
    /// runs beside OCR tests on both cores, and a starved thread overshoots by seconds (4.0 s
    /// failed twice at 4.97 and 5.22 s; 6.0 s failed once in CI). The slow test servers take
    /// 30 s (or send 500 MB), far beyond this, so only the budget can end a case in time.
    static let budgetWithSlack = 12.0
    /// How long the slow test servers wait before answering: well beyond `budgetWithSlack`.
    static let slowServerDelay: TimeInterval = 30

    func client(_ server: ProductTestServer) throws -> OpenFoodFactsClient {
        try OpenFoodFactsClient(baseURL: server.baseURL, environment: [:])
    }

    /// Runs `body`, returning its result and how long it took in seconds.
    func timed<T>(_ body: () throws -> T) rethrows -> (T, TimeInterval) {
        let start = Date()
        let value = try body()
        return (value, Date().timeIntervalSince(start))
    }

    func expectNetworkError(_ body: () throws -> Product?, sourceLocation: SourceLocation = #_sourceLocation) -> (OpenFoodFactsError?, TimeInterval) {
        let start = Date()
        do {
            let p = try body()
            Issue.record("expected a network_error, got \(String(describing: p))", sourceLocation: sourceLocation)
            return (nil, Date().timeIntervalSince(start))
        } catch let e as OpenFoodFactsError {
            #expect(e.errorClass == .network, "\(e)", sourceLocation: sourceLocation)
            return (e, Date().timeIntervalSince(start))
        } catch {
            Issue.record("unexpected error \(error)", sourceLocation: sourceLocation)
            return (nil, Date().timeIntervalSince(start))
        }
    }

    @Test func successSendsOnlyTheBarcodeAndReadsTheIngredients() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.candy)]])
        defer { server.stop() }
        let (product, seconds) = try timed { try client(server).product(barcode: "4006381333931") }
        let p = try #require(product)
        #expect(p.ingredientsText.hasPrefix("Sugar, glucose syrup"))
        #expect(p.ingredientsText.contains("E102, E129"))
        #expect(p.source == OpenFoodFactsClient.sourceLabel)
        #expect(seconds < Self.budgetWithSlack)
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
        let (product, seconds) = try timed { try client(server).product(barcode: "4006381333931") }
        #expect(product != nil)
        #expect(server.hits(Self.candyPath) == 2)
        #expect(seconds < Self.budgetWithSlack)
    }

    @Test func aRetryAfterBeyondTheBudgetStopsAtOnce() throws {
        var busy = ProductTestServer.Response.json(#"{"status":"busy"}"#, status: 429)
        busy.headers["Retry-After"] = "60"
        let server = try ProductTestServer(routes: [Self.candyPath: [busy]])
        defer { server.stop() }
        let c = try client(server)
        // A budget far longer than the slack, so a client that waited for its budget (30 s) or
        // for the Retry-After (60 s) fails the clock check below, while a loaded machine cannot.
        c.budget = 30
        let (error, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "busy", "\(String(describing: error))")
        #expect(server.hits(Self.candyPath) == 1)
        #expect(seconds < Self.budgetWithSlack, "took \(seconds) s")
    }

    @Test func serverErrorsAreRetriedThreeTimesThenReported() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json("oops", status: 500)]])
        defer { server.stop() }
        let c = try client(server)
        let (error, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(server.hits(Self.candyPath) == 3)
        #expect(seconds < Self.budgetWithSlack)
        #expect(error?.description.contains("HTTP 500") == true)
    }

    @Test func aServerErrorThenSuccessWorks() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json("down", status: 503), .json(RecordedProducts.candy)]])
        defer { server.stop() }
        #expect(try client(server).product(barcode: "4006381333931") != nil)
        #expect(server.hits(Self.candyPath) == 2)
    }

    @Test func aSlowServerTimesOutWithinTheBudget() throws {
        var slow = ProductTestServer.Response.json(RecordedProducts.candy)
        slow.delay = Self.slowServerDelay
        let server = try ProductTestServer(routes: [Self.candyPath: [slow]])
        defer { server.stop() }
        let c = try client(server)
        let (error, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(seconds < Self.budgetWithSlack, "took \(seconds) s")
        #expect(seconds > 1.5)
        #expect((1...3).contains(server.hits(Self.candyPath)))
        #expect(caseName(error) == "timedOut", "\(String(describing: error))")
    }

    @Test func aSlowFirstAnswerIsRetriedAndTheSecondArrives() throws {
        var slow = ProductTestServer.Response.json(RecordedProducts.candy)
        slow.delay = Self.slowServerDelay
        let server = try ProductTestServer(routes: [Self.candyPath: [slow, .json(RecordedProducts.candy)]])
        defer { server.stop() }
        let c = try client(server)
        // A roomier budget than the shipped 3.5 s, so a loaded test machine cannot starve
        // the second attempt; the budget itself is checked by the tests around this one.
        c.budget = Self.budgetWithSlack
        c.attemptTimeout = 1.5
        let (product, seconds) = try timed { try c.product(barcode: "4006381333931") }
        #expect(product != nil)
        #expect(server.hits(Self.candyPath) == 2)
        #expect(seconds < Self.slowServerDelay, "took \(seconds) s: the first, slow answer was awaited")
    }

    @Test func malformedJSONIsANetworkErrorNotACrash() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [.json(RecordedProducts.malformed)]])
        defer { server.stop() }
        let c = try client(server)
        let (error, _) = expectNetworkError { try c.product(barcode: "4006381333931") }
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
        let (error, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "tooLarge", "\(String(describing: error))")
        #expect(seconds < Self.budgetWithSlack)
    }

    @Test func aHugeUndeclaredBodyIsCutOff() throws {
        let server = try ProductTestServer(routes: [Self.candyPath: [
            ProductTestServer.Response(status: 200, headers: ["Content-Type": "application/json"], mode: .hugeUndeclared(bytes: 500 << 20)),
        ]])
        defer { server.stop() }
        let c = try client(server)
        // A long budget, so the cut-off (not the clock) must end it even on a slow machine.
        c.budget = 20
        c.attemptTimeout = 20
        let (error, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(caseName(error) == "tooLarge", "\(String(describing: error))")
        #expect(seconds < 20)
        // With the shipped budget it ends in time whatever the cause.
        let shipped = try client(server)
        let (_, again) = expectNetworkError { try shipped.product(barcode: "4006381333931") }
        #expect(again < Self.budgetWithSlack)
    }

    @Test func nobodyListeningIsANetworkErrorWithinTheBudget() throws {
        let server = try ProductTestServer()
        let url = server.baseURL
        server.stop()
        let c = try OpenFoodFactsClient(baseURL: url, environment: [:])
        let (_, seconds) = expectNetworkError { try c.product(barcode: "4006381333931") }
        #expect(seconds < Self.budgetWithSlack)
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
        let online = ProductSourceChain(local: [cache, dataset], online: try client(server), cache: cache, region: .us,
                                        codesFound: { _ in [ECode("E150d")!, ECode("E338")!] })
        // UPC-A as the scanner reads it; the chain asks for its EAN-13 form.
        let found = try #require(try online.product(barcode: "036000291452"))
        #expect(found.source == OpenFoodFactsClient.sourceLabel)
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
