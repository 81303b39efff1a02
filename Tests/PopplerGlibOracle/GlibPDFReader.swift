import CPoppler
import Foundation
import MoneyFlowCore
import MoneyFlowPDF

/// The reader MoneyFlowPDF used before session 12, through poppler-glib's text interface
/// (poppler_page_get_text, _get_text_layout, _get_text_attributes: glyphs in poppler's reading
/// order after its layout analysis). Kept only as the oracle the product's reader
/// (`PDFDocumentReader`, libpoppler's TextOutputDev in content-stream order) is held to.
public final class GlibPDFReader {
    /// poppler-glib creates its global parameters lazily on the first open: serialise opens.
    private static let openLock = NSLock()

    private let document: OpaquePointer
    /// Number of pages in the document.
    public let pageCount: Int

    /// Opens a PDF held in memory (the bytes are copied).
    ///
    /// - Parameter password: user or owner password; nil or empty for none.
    /// - Throws: ``PDFError``: `.passwordRequired` / `.wrongPassword` for encrypted files,
    ///   `.damaged` otherwise.
    public init(data: Data, password: String? = nil) throws(PDFError) {
        let pw = (password?.isEmpty ?? true) ? nil : password
        var domain: Int32 = 0
        var code: Int32 = 0
        var message: UnsafeMutablePointer<gchar>? = nil
        GlibPDFReader.openLock.lock()
        defer { GlibPDFReader.openLock.unlock() }
        let opened: OpaquePointer? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> OpaquePointer? in
            let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            if let pw {
                return pw.withCString { cpw in
                    mf_document_new_from_data(base, gsize(raw.count), cpw, &domain, &code, &message)
                }
            }
            return mf_document_new_from_data(base, gsize(raw.count), nil, &domain, &code, &message)
        }
        guard let opened else {
            var text = "poppler could not open the document"
            if let message {
                text = String(cString: message)
                g_free(message)
            }
            if domain == Int32(MF_ERROR_DOMAIN_POPPLER) && code == Int32(POPPLER_ERROR_ENCRYPTED.rawValue) {
                throw pw == nil ? .passwordRequired : .wrongPassword
            }
            throw .damaged(text)
        }
        if let message { g_free(message) }
        let n = Int(poppler_document_get_n_pages(opened))
        if n <= 0 {
            // Not yet fully initialized: deinit will not run, release here.
            mf_object_unref(UnsafeMutableRawPointer(opened))
            throw .damaged("the document has no pages")
        }
        document = opened
        pageCount = n
    }

    deinit {
        mf_object_unref(UnsafeMutableRawPointer(document))
    }

    /// Positioned glyphs of one page (0-based `index`), one ``PositionedText`` per non-whitespace
    /// Unicode scalar, in poppler's reading order, origin top-left, in points.
    ///
    /// - Parameter fontSizes: read font sizes from poppler's text attributes (slower); when false
    ///   `fontSize` is the glyph box height.
    public func page(at index: Int, fontSizes: Bool = true) -> TextPage {
        precondition(index >= 0 && index < pageCount, "page index out of range")
        guard let page = poppler_document_get_page(document, Int32(index)) else {
            return TextPage(number: index + 1, width: 0, height: 0, items: [])
        }
        defer { mf_object_unref(UnsafeMutableRawPointer(page)) }
        var width = 0.0
        var height = 0.0
        poppler_page_get_size(page, &width, &height)

        guard let cText = poppler_page_get_text(page) else {
            return TextPage(number: index + 1, width: width, height: height, items: [])
        }
        defer { g_free(cText) }
        var rects: UnsafeMutablePointer<PopplerRectangle>? = nil
        var rectCount: guint = 0
        let haveLayout = poppler_page_get_text_layout(page, &rects, &rectCount) != 0
        defer { if let rects { g_free(rects) } }
        guard haveLayout, let rects, rectCount > 0 else {
            return TextPage(number: index + 1, width: width, height: height, items: [])
        }
        let n = Int(rectCount)

        // Font size per scalar index, as ranges from the text attributes.
        var sizeRanges: [(start: Int, end: Int, size: Double)] = []
        if fontSizes, let list = poppler_page_get_text_attributes(page) {
            var node: UnsafeMutablePointer<GList>? = list
            while let cur = node {
                if let data = cur.pointee.data {
                    let attr = data.assumingMemoryBound(to: PopplerTextAttributes.self).pointee
                    sizeRanges.append((Int(attr.start_index), Int(attr.end_index), attr.font_size))
                }
                node = cur.pointee.next
            }
            mf_text_attributes_list_free(list)
        }

        var items: [PositionedText] = []
        items.reserveCapacity(n)
        let length = strlen(cText)
        cText.withMemoryRebound(to: UInt8.self, capacity: length) { bytes in
            var byteIndex = 0
            var scalarIndex = 0
            var rangeIndex = 0
            while byteIndex < length && scalarIndex < n {
                // Decode one UTF-8 scalar.
                let b0 = UInt32(bytes[byteIndex])
                var value: UInt32
                var len: Int
                if b0 < 0x80 {
                    value = b0; len = 1
                } else if b0 & 0xE0 == 0xC0 {
                    value = b0 & 0x1F; len = 2
                } else if b0 & 0xF0 == 0xE0 {
                    value = b0 & 0x0F; len = 3
                } else if b0 & 0xF8 == 0xF0 {
                    value = b0 & 0x07; len = 4
                } else {
                    value = 0xFFFD; len = 1
                }
                if len > 1 {
                    if byteIndex + len > length {
                        value = 0xFFFD; len = length - byteIndex
                    } else {
                        for k in 1..<len { value = (value << 6) | (UInt32(bytes[byteIndex + k]) & 0x3F) }
                    }
                }
                byteIndex += len
                let si = scalarIndex
                scalarIndex += 1
                if GlibPDFReader.isWhitespace(value) { continue }
                let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
                let r = rects[si]
                var size = r.y2 - r.y1
                if !sizeRanges.isEmpty {
                    while rangeIndex < sizeRanges.count && sizeRanges[rangeIndex].end < si { rangeIndex += 1 }
                    if rangeIndex < sizeRanges.count && sizeRanges[rangeIndex].start <= si {
                        size = sizeRanges[rangeIndex].size
                    }
                }
                items.append(
                    PositionedText(
                        text: String(Character(scalar)), x0: r.x1, y0: r.y1, x1: r.x2, y1: r.y2,
                        fontSize: size))
            }
        }
        return TextPage(number: index + 1, width: width, height: height, items: items)
    }

    /// ASCII controls and space, and the Unicode white-space characters.
    @inline(__always)
    static func isWhitespace(_ v: UInt32) -> Bool {
        if v < 0x80 { return v <= 0x20 || v == 0x7F }
        switch v {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0xFEFF: return true
        default: return false
        }
    }

    /// All pages, in document order.
    public func pages(fontSizes: Bool = true) -> [TextPage] {
        (0..<pageCount).map { page(at: $0, fontSizes: fontSizes) }
    }
}
