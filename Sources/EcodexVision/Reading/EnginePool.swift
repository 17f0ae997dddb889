import EcodexCore
import Foundation

/// The Tesseract engines of one reader: each starts on first need, on a thread of its own so
/// the photo is decoded and preprocessed meanwhile, and is kept for the next photo.
///
/// Four kinds: the whole-photo engine (the first-pass languages), the Latin-script engine for
/// scenes, a second Latin-script engine that reads a scene's blocks beside the first, and the
/// retry engines for unsure pages, shared with the reader's twins (`SharedEngine`). Each loaded
/// engine holds 50–100 MB, so none starts that a photo does not need.
final class EnginePool {
    let dataPath: String
    /// The languages and page mode of the whole-photo engine.
    let firstPassLanguages: [String]
    let pageSegMode: Int32
    /// The Latin-script model for scenes when the default languages are in use and it is
    /// installed; nil otherwise (scenes are then read as crops are).
    let sceneModel: String?
    /// The engines for unsure pages (`LanguagePlan.retryLanguages`), shared with the twins:
    /// together no heavier than one engine with every language.
    let retry: SharedEngine

    private var firstPass: EngineStart?
    private var scene: EngineStart?
    private var helper: EngineStart?
    /// Every engine started, in order, with the step that started it: `eng at header` (the
    /// photo's size alone settled it, before decoding) or `Latin at blocks` (after the block
    /// search). Tests: nothing is started early that the photo does not need. The shared retry
    /// engine counts its own starts.
    private(set) var started: [String] = []

    init(dataPath: String, languages: LanguagePlan, pageSegMode: Int32, sceneModel: String?, sharing retry: SharedEngine?) {
        self.dataPath = dataPath
        self.firstPassLanguages = languages.firstPass
        self.pageSegMode = pageSegMode
        self.sceneModel = sceneModel
        self.retry = retry ?? SharedEngine(budget: SharedEngine.weight(languages.all)) { [pageSegMode] languages in
            try TesseractEngine(dataPath: dataPath, languages: languages, pageSegMode: pageSegMode)
        }
    }

    /// The engine that `plan` reads with, starting unless it was started before.
    func start(_ engine: ReadingPlan.Engine) -> EngineStart {
        engine == .scene ? startScene() : startFirstPass(at: "blocks")
    }

    /// The whole-photo engine, starting on its own thread unless it was started before.
    func startFirstPass(at step: String) -> EngineStart {
        if let firstPass { return firstPass }
        let (path, languages, mode) = (dataPath, firstPassLanguages, pageSegMode)
        let e = EngineStart { try TesseractEngine(dataPath: path, languages: languages, pageSegMode: mode) }
        started.append(languages.joined(separator: "+") + " at " + step)
        firstPass = e
        return e
    }

    /// The Latin-script engine for a scene's blocks, starting on its own thread unless it was started before.
    private func startScene() -> EngineStart {
        if let scene { return scene }
        guard let model = sceneModel else { return startFirstPass(at: "blocks") }
        let e = Self.startLatinEngine(model, in: dataPath)
        started.append(model + " at blocks")
        scene = e
        return e
    }

    /// The second Latin-script engine, starting on its own thread unless it was started before.
    func startHelper() -> EngineStart? {
        if let helper { return helper }
        guard let model = sceneModel else { return nil }
        let e = Self.startLatinEngine(model, in: dataPath)
        started.append(model + " at blocks (second)")
        helper = e
        return e
    }

    /// The second engine did not start: the next photo tries again.
    func forgetHelper() { helper = nil }

    /// A Latin-script engine for scenes, starting on its own thread: without its word list, the
    /// same reading in a quarter of the memory (see `TessData.withoutWordList`).
    private static func startLatinEngine(_ model: String, in path: String) -> EngineStart {
        EngineStart {
            try TesseractEngine(dataPath: path, languages: [model], pageSegMode: ReadingPlan.blockPageSegMode,
                                model: TessData.withoutWordList(path: TessData.file(model, in: path)))
        }
    }

    /// Waits for a started engine; one that failed to start is forgotten, so the next photo tries again.
    func wait(_ start: EngineStart, scene isScene: Bool) throws -> TesseractEngine {
        do {
            return try start.engine()
        } catch {
            if isScene { scene = nil } else { firstPass = nil }
            throw error
        }
    }
}

/// An engine starting on a thread of its own, so the caller can decode and preprocess the
/// photo meanwhile. Whoever waits for it (`engine()`) is its one user from then on: the
/// starting thread only builds it and hands it over.
final class EngineStart: @unchecked Sendable {
    private let done = DispatchGroup()
    /// Written once by the starting thread before `done` is left; read only after waiting.
    private var outcome: Result<TesseractEngine, Error> = .failure(OCRError.notRead)

    init(_ start: @escaping @Sendable () throws -> TesseractEngine) {
        done.enter()
        let thread = Thread { [self] in
            outcome = Result { try start() }
            done.leave()
        }
        thread.start()
    }

    /// Waits until the engine has started; throws the error that stopped it.
    func engine() throws -> TesseractEngine {
        done.wait()
        return try outcome.get()
    }
}

/// The retry engines shared by several readers on several threads, each engine used for one
/// page at a time: few pages need one, so the workers of a batch share them instead of
/// holding their own. An engine is kept for the languages a page asked for (English and one
/// other: about 50 MB; all six: about 130 MB) and used again by the next page that asks for
/// the same. Together they hold no more than `budget` (an engine weighs its languages plus
/// one, about 18 MB a unit): with six languages installed, two workers can each re-read a page
/// in English and one other language at once, while an all-language engine runs alone. To
/// make room, idle engines are freed, the least recently used first, before another starts;
/// a page waits only while the engines in use leave no room.
final class SharedEngine: @unchecked Sendable, SpareMemory {
    private final class Slot {
        let languages: [String]
        var engine: TesseractEngine?  // nil while it starts
        var busy = true
        var lastUsed: UInt64 = 0
        init(_ languages: [String]) { self.languages = languages }
    }

    private let condition = NSCondition()
    private let start: ([String]) throws -> TesseractEngine
    /// What the engines held together may weigh (`weight`).
    let budget: Int
    private var slots: [Slot] = []
    private var starts: [[String]] = []
    private var uses: UInt64 = 0
    /// Told (holding the engines' lock) each time a caller waits for room; tests use it.
    var onWait: (() -> Void)?

    /// `budget`: usually the weight of one engine with every language.
    init(budget: Int, start: @escaping ([String]) throws -> TesseractEngine) {
        self.budget = budget
        self.start = start
    }

    /// An engine's weight against the budget: its languages, plus one for what every engine holds.
    static func weight(_ languages: [String]) -> Int { languages.count + 1 }

    /// Runs `body` with an engine for `languages`, holding it (and starting it if needed) until `body` returns.
    func use<T>(_ languages: [String], _ body: (TesseractEngine) throws -> T) throws -> T {
        let slot = try acquire(languages)
        defer { release(slot) }
        return try body(slot.engine!)
    }

    private func acquire(_ languages: [String]) throws -> Slot {
        condition.lock()
        while true {
            if let idle = slots.first(where: { !$0.busy && $0.languages == languages }) {
                idle.busy = true
                condition.unlock()
                return idle
            }
            let need = Self.weight(languages)
            var weighs = slots.reduce(0) { $0 + Self.weight($1.languages) }
            var freed = false
            if weighs + need > budget {
                for idle in slots.filter({ !$0.busy }).sorted(by: { $0.lastUsed < $1.lastUsed }) where weighs + need > budget {
                    slots.removeAll { $0 === idle }
                    weighs -= Self.weight(idle.languages)
                    freed = true
                }
            }
            // Nothing held at all: even an engine over the budget runs, alone.
            if weighs + need <= budget || slots.isEmpty {
                let slot = Slot(languages)
                slots.append(slot)
                starts.append(languages)
                condition.unlock()
                // The freed engines are gone before the next one loads: the two never share the memory.
                if freed { VisionLibraries.returnFreedMemory() }
                do {
                    slot.engine = try start(languages)
                } catch {
                    condition.lock()
                    slots.removeAll { $0 === slot }
                    condition.broadcast()
                    condition.unlock()
                    throw error
                }
                return slot
            }
            onWait?()
            condition.wait()
        }
    }

    private func release(_ slot: Slot) {
        condition.lock()
        uses += 1
        slot.lastUsed = uses
        slot.busy = false
        condition.broadcast()
        condition.unlock()
    }

    /// Lets go of the engines nobody is using (a large photo needs the memory); they start
    /// again when next asked for.
    func dropIdle() -> Bool {
        condition.lock(); defer { condition.unlock() }
        let before = slots.count
        slots.removeAll { !$0.busy }
        condition.broadcast()
        return slots.count < before
    }

    /// How many times an engine was started (tests: once for a whole batch of one language).
    var startCount: Int {
        condition.lock(); defer { condition.unlock() }
        return starts.count
    }

    /// The languages of each engine started, in order.
    var started: [[String]] {
        condition.lock(); defer { condition.unlock() }
        return starts
    }

    /// The languages of each engine held now, in the order they started.
    var held: [[String]] {
        condition.lock(); defer { condition.unlock() }
        return slots.map(\.languages)
    }
}
