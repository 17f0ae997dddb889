/// How the photo was taken, measured on the text it shows (or the whole photo when none
/// was read): what a rescan prompt names as its cause (`RescanAdvice`). Each is nil when
/// the photo gave too little to measure it.
public struct CaptureQuality: Codable, Sendable, Equatable {
    /// Mean luminance of the text region, 0...255 (too dark: `RescanAdvice.darkBelow`).
    public var brightness: Double
    /// Share of the text region and its margin that is blown out to white (0...1): glare.
    public var glare: Double
    /// How far an ink edge spreads, as a share of the print's height: about 0.1 when sharp, more
    /// when blurred by defocus or a shaking hand (`RescanAdvice.blurFrom`).
    public var blur: Double?
    /// How far the text lines bow, in print heights (the middle of a line against its ends):
    /// text running round a can or a bottle.
    public var curve: Double?

    public init(brightness: Double, glare: Double, blur: Double? = nil, curve: Double? = nil) {
        self.brightness = brightness; self.glare = glare; self.blur = blur; self.curve = curve
    }

    /// The same values rounded for output (JSON, saved history): two decimals, brightness whole.
    public var rounded: CaptureQuality {
        func r(_ v: Double) -> Double { (v * 100).rounded() / 100 }
        return CaptureQuality(brightness: brightness.rounded(), glare: (glare * 1000).rounded() / 1000,
                              blur: blur.map(r), curve: curve.map(r))
    }
}
