import EcodexCore
import Foundation

extension AdditiveStore {
    /// Meta key of the label languages and regions an installed pack brought, when they differ
    /// from the program's own (`LabelKnowledge.shipped`).
    static let knowledgeKey = "label_knowledge"

    /// The label languages and regions of the store at `location`: nil when it has none of its own,
    /// cannot be read, or holds knowledge that does not decode (the program's own then apply).
    public static func installedKnowledge(at location: StoreLocation) -> LabelKnowledge? {
        let path = location.additivesPath.path
        guard FileManager.default.fileExists(atPath: path),
              let db = try? Connection(path: path, mode: .readOnly) else { return nil }
        var text: String?
        try? db.prepare("SELECT value FROM meta WHERE key = ?").forEachRow([.text(knowledgeKey)]) { text = $0.text(0) }
        guard let text, text.utf8.count <= LabelKnowledge.maximumBytes else { return nil }
        return try? LabelKnowledge.decode(Array(text.utf8))
    }

    /// Makes the installed pack's label languages and regions the process's, before anything
    /// reads them (a region named on the command line must be one the pack defines).
    public static func useInstalledKnowledge(at location: StoreLocation) {
        if let knowledge = installedKnowledge(at: location) { LabelKnowledge.install(knowledge) }
    }
}
