/// A run of text on a page with its box, as a PDF text layer reports it.
///
/// Coordinates are PDF points with the origin at the TOP-left of the page (y grows downward).
/// Produced by `MoneyFlowPDF` (poppler) or any other extractor (PDFKit on Apple platforms);
/// consumed by pure-Swift statement reconstruction.
public struct PositionedText: Sendable, Hashable, Codable {
    public var text: String
    public var x0: Double
    public var y0: Double
    public var x1: Double
    public var y1: Double
    /// Font size in points, when known (0 otherwise).
    public var fontSize: Double

    public init(text: String, x0: Double, y0: Double, x1: Double, y1: Double, fontSize: Double = 0) {
        self.text = text; self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1; self.fontSize = fontSize
    }

    public var midY: Double { (y0 + y1) / 2 }
    public var midX: Double { (x0 + x1) / 2 }
    public var height: Double { y1 - y0 }
}

/// One page of positioned text.
public struct TextPage: Sendable, Hashable, Codable {
    /// 1-based page number in the document.
    public var number: Int
    public var width: Double
    public var height: Double
    /// Glyphs (one per Unicode scalar, whitespace dropped) or words, in content-stream order.
    public var items: [PositionedText]

    public init(number: Int, width: Double, height: Double, items: [PositionedText]) {
        self.number = number; self.width = width; self.height = height; self.items = items
    }
}
