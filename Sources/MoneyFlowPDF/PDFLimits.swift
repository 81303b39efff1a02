import Foundation
import MoneyFlowZip

/// What one PDF may cost before poppler parses it. Poppler's parser recurses once per level of
/// array or dictionary nesting and keeps every object: a 400 KB file of nested arrays took 27 s
/// of CPU, and a small file can inflate to gigabytes. A bank statement is far below each bound
/// (nesting under 10, a few thousand objects, a few MiB of content streams), so a PDF above any
/// of them is refused before poppler sees it (``PDFError/limitExceeded(_:)``).
public struct PDFLimits: Sendable, Hashable {
    /// Deepest nesting of arrays and dictionaries, in the file and in its Flate-compressed
    /// content and object streams. Default 100.
    public var maxNestingDepth: Int
    /// Most objects (`N G obj`, plus those an object stream declares). Default 100,000.
    public var maxObjects: Int
    /// Most bytes all Flate-compressed streams inflate to, together. Default 128 MiB.
    public var maxDecompressedBytes: Int

    public init(maxNestingDepth: Int = 100, maxObjects: Int = 100_000, maxDecompressedBytes: Int = 128 << 20) {
        self.maxNestingDepth = maxNestingDepth; self.maxObjects = maxObjects; self.maxDecompressedBytes = maxDecompressedBytes
    }

    public static let `default` = PDFLimits()
}

/// One pass over a PDF's bytes (``PDFLimits``): nesting of `[` `<<` outside strings, comments
/// and stream data; `obj` keywords; every stream that starts with a zlib header inflated
/// (bounded by what is left of the budget) and, unless it is binary (an image, a font program,
/// a cross-reference stream), scanned the same way. Streams are found by their `endstream`, so a
/// wrong `/Length` cannot hide data. Nothing here interprets the document: poppler does that,
/// once the file is known to be within bounds.
struct PDFPreflight {
    let limits: PDFLimits
    private(set) var objects = 0
    private(set) var inflated = 0

    init(limits: PDFLimits) { self.limits = limits }

    mutating func check(_ data: Data) throws(PDFError) {
        let bytes = [UInt8](data)
        try scan(bytes, topLevel: true)
    }

    private static func isDelimiter(_ b: UInt8) -> Bool {
        switch b {
        case 0x00, 0x09, 0x0A, 0x0C, 0x0D, 0x20, 0x28, 0x29, 0x3C, 0x3E, 0x5B, 0x5D, 0x7B, 0x7D, 0x2F, 0x25: return true
        default: return false
        }
    }

    private static func matches(_ b: [UInt8], _ i: Int, _ word: [UInt8]) -> Bool {
        guard i + word.count <= b.count else { return false }
        for k in 0..<word.count where b[i + k] != word[k] { return false }
        return true
    }

    private static func find(_ b: [UInt8], _ word: [UInt8], from: Int) -> Int? {
        guard let first = word.first, from < b.count else { return nil }
        var i = from
        while i + word.count <= b.count {
            if b[i] == first && matches(b, i, word) { return i }
            i += 1
        }
        return nil
    }

    private static let obj = Array("obj".utf8), stream = Array("stream".utf8), endstream = Array("endstream".utf8)

    /// Scans `b`; `topLevel` is the file itself (objects and streams), otherwise an inflated stream.
    private mutating func scan(_ b: [UInt8], topLevel: Bool) throws(PDFError) {
        var depth = 0
        var i = 0
        var dictionaryStart = 0
        while i < b.count {
            let c = b[i]
            switch c {
            case 0x25: // % comment
                while i < b.count && b[i] != 0x0A && b[i] != 0x0D { i += 1 }
                continue
            case 0x28: // ( string ), with nested parentheses and escapes
                var level = 0
                while i < b.count {
                    if b[i] == 0x5C { i += 2; continue }
                    if b[i] == 0x28 { level += 1 } else if b[i] == 0x29 { level -= 1; if level == 0 { break } }
                    i += 1
                }
            case 0x3C:
                if i + 1 < b.count && b[i + 1] == 0x3C {
                    depth += 1; i += 1
                } else {
                    while i < b.count && b[i] != 0x3E { i += 1 } // <hex string>
                }
            case 0x3E:
                if i + 1 < b.count && b[i + 1] == 0x3E { depth = max(0, depth - 1); i += 1 }
            case 0x5B: depth += 1
            case 0x5D: depth = max(0, depth - 1)
            case 0x6F where topLevel: // obj
                if Self.matches(b, i, Self.obj), i > 0, Self.isDelimiter(b[i - 1]),
                    i + 3 >= b.count || Self.isDelimiter(b[i + 3])
                {
                    objects += 1
                    dictionaryStart = i + 3
                    if objects > limits.maxObjects { throw .limitExceeded("more than \(limits.maxObjects) objects") }
                }
            case 0x73 where topLevel: // stream … endstream
                if Self.matches(b, i, Self.stream), i > 0, Self.isDelimiter(b[i - 1]) || b[i - 1] == 0x3E {
                    var start = i + Self.stream.count
                    if start < b.count && b[start] == 0x0D { start += 1 }
                    if start < b.count && b[start] == 0x0A { start += 1 }
                    let end = Self.find(b, Self.endstream, from: start) ?? b.count
                    try stream(b[start..<end], dictionary: b[min(dictionaryStart, i)..<i])
                    i = end + Self.endstream.count
                    continue
                }
            default: break
            }
            if depth > limits.maxNestingDepth {
                throw .limitExceeded("arrays or dictionaries nested more than \(limits.maxNestingDepth) deep")
            }
            i += 1
        }
    }

    /// A stream's data: inflated when it starts with a zlib header, counted against the budget,
    /// and scanned when it holds PDF syntax (content and object streams).
    private mutating func stream(_ data: ArraySlice<UInt8>, dictionary: ArraySlice<UInt8>) throws(PDFError) {
        guard data.count >= 2, let first = data.first, first & 0x0F == 8,
            (Int(first) << 8 | Int(data[data.startIndex + 1])) % 31 == 0
        else { return }
        let left = limits.maxDecompressedBytes - inflated
        let out: [UInt8]
        do { out = try Inflater.inflate(Array(data), limit: UInt64(max(left, 0)), entry: "", zlibHeader: true) } catch {
            if case .entryTooLarge = error {
                throw .limitExceeded("streams that decompress to more than \(limits.maxDecompressedBytes >> 20) MiB")
            }
            return // damaged: poppler says so, or ignores the stream
        }
        inflated += out.count
        let dict = String(decoding: dictionary, as: UTF8.self)
        if dict.contains("/ObjStm"), let n = Self.integer(after: "/N", in: dict) {
            objects += n
            if objects > limits.maxObjects { throw .limitExceeded("more than \(limits.maxObjects) objects") }
        }
        let binary = ["/Image", "/XRef", "/Length1", "/Length2", "/FontFile", "/Type1C", "/CIDFontType0C", "/OpenType"]
        if !binary.contains(where: dict.contains) { try scan(out, topLevel: false) }
    }

    private static func integer(after key: String, in text: String) -> Int? {
        guard let r = text.range(of: key + " ") ?? text.range(of: key) else { return nil }
        return Int(text[r.upperBound...].prefix { $0.isNumber })
    }
}
