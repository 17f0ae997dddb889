import Foundation
internal import CLeptonica

/// Which way up the text runs: quarter and half turns, and the skew sweep that sees text lines.
extension Preprocessor {
    /// Quarter turns (clockwise) that bring sideways or upside-down text upright,
    /// or nil when it already is or the evidence is weak.
    ///
    /// Leptonica counts ascender and descender shapes in the four orientations. A phone's
    /// own Exif orientation is applied before, when the photo is decoded (`ImageLoader`).
    static func orientation(_ pix: PixImage, threshold: Int) throws -> Int? {
        guard let binary = PixImage(pixThresholdToBinary(pix.pointer, Int32(threshold))) else { return nil }
        var weak = false
        return try orientation(binary: binary, weakHalfTurn: &weak)
    }

    /// `orientation` of an ink mask already split at the threshold, also saying whether a half
    /// turn was asked for on evidence too weak to take.
    static func orientation(binary: PixImage, weakHalfTurn: inout Bool) throws -> Int? {
        var up: Float = 0, left: Float = 0, rotation: Int32 = 0
        // Leptonica's default thresholds (8, 2.5), which leave upright photos alone.
        // pixOrientCorrect also returns the turned binary image, unused here.
        guard PixImage(pixOrientCorrect(binary.pointer, 8, 2.5, &up, &left, &rotation, 0)) != nil else { return nil }
        guard rotation != 0 else { return nil }
        // Upside down needs stronger evidence: the test counts ascenders and descenders, and capitals
        // have neither. Phones say upside down in Exif (`ExifOrientation`).
        if rotation == 180, abs(up) < Self.minUpsideDownConfidence {
            weakHalfTurn = true
            return nil
        }
        return Int(rotation) / 90
    }

    /// The quarter turn that lays text lines running up or down the image level, when Leptonica's
    /// orientation test asked for none; whether it is sure which way up. The sweep sees rows of ink
    /// across sideways text where Leptonica's test finds too few ascenders to decide.
    static func sidewaysTurn(binary: PixImage) throws -> (quarterTurns: Int, sure: Bool)? {
        let turned = try binary.turned(1)
        // Both sweeps at the reduction of the longer side, so their confidences compare; the
        // turned copy first, as on most photos its rows are not there and one sweep is enough.
        let reduction: Int32 = max(binary.width, binary.height) >= 1200 ? 4 : (max(binary.width, binary.height) >= 600 ? 2 : 1)
        let across = lineConfidence(turned, reduction: reduction)
        guard across >= Self.sidewaysLineConfidence,
              across >= Self.sidewaysLineRatio * lineConfidence(binary, reduction: reduction) else { return nil }
        var up: Float = 0, left: Float = 0, rotation: Int32 = 0
        _ = PixImage(pixOrientCorrect(turned.pointer, 8, 2.5, &up, &left, &rotation, 0))
        return (up < 0 ? 3 : 1, abs(up) >= Self.minUpsideDownConfidence)
    }

    /// Confidence of the skew sweep (±45°, as `skewAngle`) that `binary`, reduced `reduction`
    /// times for the sweep, holds rows of ink.
    static func lineConfidence(_ binary: PixImage, reduction: Int32) -> Float {
        sweep(binary, reduction: reduction)?.confidence ?? 0
    }

    /// Leptonica's skew sweep of an ink mask over ±`range`° in 1° steps, `reduction` times
    /// smaller (the search that refines it at most half size): the angle that lines its rows
    /// up and how sure it is; nil when Leptonica fails. The one place the sweep is set up
    /// (deskew, the sideways check, the line fan's bands).
    static func sweep(_ binary: PixImage, reduction: Int32, range: Float = 45) -> (angle: Float, confidence: Float)? {
        var angle: Float = 0, conf: Float = 0, endscore: Float = 0
        let rc = pixFindSkewSweepAndSearchScore(binary.pointer, &angle, &conf, &endscore,
                                                reduction, min(reduction, 2), 0, range, 1, 0.01)
        return rc == 0 ? (angle, conf) : nil
    }

    /// Line confidence across a turned copy that makes text sideways, and how many times the
    /// confidence along the image it must be (see `sidewaysTurn`).
    static let sidewaysLineConfidence: Float = 5
    static let sidewaysLineRatio: Float = 3

    /// Up/down confidence (Leptonica's `upconf`) a half turn needs; quarter turns need its default 8.
    static let minUpsideDownConfidence: Float = 15
}
