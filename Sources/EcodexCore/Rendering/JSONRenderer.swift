import Foundation

/// Renders reports and errors as the JSON contract in DESIGN.md: one object
/// per input, one line each (JSON Lines when there are several inputs).
public enum JSONRenderer {
    public static func render(_ report: ScanReport) -> String {
        let obj: [String: Any] = [
            "input": report.input,
            "status": report.status.rawValue,
            "region": report.region.rawValue,
            "dataVersion": report.dataVersion,
            "packVersion": report.packVersion,
            "ocr": report.ocr.map(ocrObject) ?? NSNull(),
            "summary": ["flagged": report.summary.flagged, "neutral": report.summary.neutral, "unmatched": report.summary.unmatched],
            "additives": report.additives.map(findingObject),
            "unmatched": report.unmatched,
            "barcode": report.barcode.map { ["symbology": $0.symbology, "digits": $0.digits] } ?? NSNull(),
            "fallbackUsed": report.fallbackUsed,
            "preprocessing": report.preprocessing,
            "timingsMs": ["preprocess": report.timingsMs.preprocess, "ocr": report.timingsMs.ocr,
                          "parse": report.timingsMs.parse, "assess": report.timingsMs.assess,
                          "total": report.timingsMs.total],
            "warnings": report.warnings.map(\.message),
        ]
        return serialize(obj)
    }

    /// A failure for one input: its class and the message the command line worded.
    public static func render(errorClass: ErrorClass, message: String, input: String) -> String {
        serialize(["input": input, "error": ["class": errorClass.rawValue, "message": message]])
    }

    static func ocrObject(_ o: OCRSummary) -> [String: Any] {
        var obj: [String: Any] = ["meanConfidence": o.meanConfidence, "lowConfidence": o.lowConfidence,
                                  "tokens": o.tokens, "text": o.text]
        if let frames = o.frames { obj["frames"] = frames }
        if let frame = o.frame { obj["frame"] = frame }
        if let height = o.printHeight { obj["printHeight"] = height }
        return obj
    }

    static func findingObject(_ f: Finding) -> [String: Any] {
        func diet(_ s: DietStatus) -> Any {
            switch s {
            case .yes: true
            case .no: false
            case .depends, .unknown: NSNull()
            }
        }
        var obj: [String: Any] = [
            "code": f.code.description,
            "name": f.name,
            "badge": f.badge.rawValue,
            "matchedText": f.matchedText,
            "match": f.matchKind.rawValue,
            "function": f.function ?? NSNull(),
            "risk": f.risk,
            "audience": f.audience,
            "diet": ["vegan": diet(f.diet.vegan), "vegetarian": diet(f.diet.vegetarian),
                     "kosher": diet(f.diet.kosher), "halal": diet(f.diet.halal)],
            "reasons": f.reasons,
            "statement": f.statement ?? NSNull(),
            "references": f.references.map { ["label": $0.label, "url": $0.url] },
        ]
        if !f.regionBadges.isEmpty {
            obj["compare"] = Dictionary(uniqueKeysWithValues: f.regionBadges.map { ($0.key.rawValue, $0.value.rawValue) })
        }
        return obj
    }

    static func serialize(_ obj: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: obj, options: [.sortedKeys, .withoutEscapingSlashes]),
              let s = String(data: data, encoding: .utf8) else { return "{}" }
        return s
    }
}
