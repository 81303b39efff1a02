import Foundation

/// Hostile PDFs built byte for byte (deterministic, nothing committed): what a small upload
/// can make a PDF parser do. Each is a syntactically plausible PDF, so only a reader's limits
/// stop it (``PDFLimits`` in MoneyFlowPDF).
public enum HostilePDF {
    /// One object holding `depth` nested arrays (`[[[…]]]`): a parser that recurses per level
    /// spends time (and stack) in proportion; 20,000 levels are 40 KB.
    public static func nestedArrays(depth: Int) -> Data {
        var d = Data("%PDF-1.4\n1 0 obj\n".utf8)
        d += Data(repeating: UInt8(ascii: "["), count: depth) + Data(repeating: UInt8(ascii: "]"), count: depth)
        d += Data("\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)
        return d
    }

    /// `count` objects (`n 0 obj null endobj`): a parser keeps every one.
    public static func manyObjects(count: Int) -> Data {
        var s = "%PDF-1.4\n"
        s.reserveCapacity(count * 24)
        for n in 1...count { s += "\(n) 0 obj null endobj\n" }
        s += "trailer\n<< /Root 1 0 R >>\n%%EOF\n"
        return Data(s.utf8)
    }

    /// A PDF whose one content stream is `zlib` (a zlib stream, header included), e.g. a few
    /// hundred KB that inflate to hundreds of MiB.
    public static func withStream(_ zlib: Data) -> Data {
        var d = Data("%PDF-1.4\n1 0 obj\n<< /Length \(zlib.count) /Filter /FlateDecode >>\nstream\n".utf8)
        d += zlib
        d += Data("\nendstream\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n".utf8)
        return d
    }
}
