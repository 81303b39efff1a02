import CPoppler
import Foundation
import MoneyFlowCore

/// An open poppler document. Owns C handles, so it is not `Sendable`: create it, read its pages
/// and drop it within one task. Pages come out as `Sendable` ``TextPage`` values.
public final class PDFDocumentReader {
    /// poppler-glib creates its global parameters lazily on the first open: serialise opens.
    private static let openLock = NSLock()

    private let document: OpaquePointer
    /// Number of pages in the document.
    public let pageCount: Int

    /// Opens a PDF held in memory (the bytes are copied).
    ///
    /// - Parameter password: user or owner password; nil or empty for none.
    /// - Parameter limits: checked before poppler sees the bytes (``PDFLimits``).
    /// - Throws: ``PDFError``: `.notAPDF` when there is no `%PDF-` header in the first KiB,
    ///   `.limitExceeded` beyond `limits`, `.passwordRequired` / `.wrongPassword` for encrypted
    ///   files, `.damaged` otherwise.
    public init(data: Data, password: String? = nil, limits: PDFLimits = .default) throws(PDFError) {
        guard PDFDocumentReader.hasPDFHeader(data) else { throw .notAPDF }
        var preflight = PDFPreflight(limits: limits)
        try preflight.check(data)
        let pw = (password?.isEmpty ?? true) ? nil : password
        var domain: Int32 = 0
        var code: Int32 = 0
        var message: UnsafeMutablePointer<gchar>? = nil
        PDFDocumentReader.openLock.lock()
        defer { PDFDocumentReader.openLock.unlock() }
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

    /// True when `%PDF-` occurs within the first 1024 bytes (where readers look for it).
    public static func hasPDFHeader(_ data: Data) -> Bool {
        let limit = min(data.count, 1024)
        guard limit >= 5 else { return false }
        return data.withUnsafeBytes { (bytes: UnsafeRawBufferPointer) -> Bool in
            var i = 0
            while i + 5 <= limit {
                if bytes[i] == 0x25, bytes[i + 1] == 0x50, bytes[i + 2] == 0x44, bytes[i + 3] == 0x46, bytes[i + 4] == 0x2D {
                    return true
                }
                i += 1
            }
            return false
        }
    }

    /// Positioned glyphs of one page (0-based `index`), one ``PositionedText`` per non-whitespace
    /// Unicode scalar, in content-stream order, origin top-left, in points.
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
                if PDFDocumentReader.isWhitespace(value) { continue }
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

    /// Page `index` and what poppler reported while interpreting it (nil when nothing): a
    /// page whose content stream is damaged still yields the glyphs before and after the
    /// damage, so its text alone cannot tell that rows are missing.
    public func checkedPage(at index: Int, fontSizes: Bool = true) -> (page: TextPage, problem: PDFPageProblem?) {
        PopplerMessages.install()
        _ = PopplerMessages.take()
        let page = page(at: index, fontSizes: fontSizes)
        let errors = PopplerMessages.take()
        guard let first = errors.first else { return (page, nil) }
        return (page, PDFPageProblem(page: index + 1, errorCount: errors.count, firstError: first))
    }

    /// All pages, in document order.
    public func pages(fontSizes: Bool = true) -> [TextPage] {
        var out: [TextPage] = []
        out.reserveCapacity(pageCount)
        for i in 0..<pageCount { out.append(page(at: i, fontSizes: fontSizes)) }
        return out
    }
}

/// poppler-glib reports what it met while interpreting a page (a damaged content stream:
/// unknown operators, illegal characters, operands of the wrong type) only through g_log,
/// domain "Poppler", as "<category> at position N: <message>". They are collected per thread
/// (each reading thread has its own document), so a reader knows which page they came from;
/// they are never printed. Warnings ("Syntax warning") are harmless and dropped.
enum PopplerMessages {
    static let key = "MoneyFlowPDF.popplerErrors"
    private static let installed: Void = {
        _ = g_log_set_handler(
            "Poppler", GLogLevelFlags(rawValue: G_LOG_LEVEL_MASK.rawValue | G_LOG_FLAG_FATAL.rawValue | G_LOG_FLAG_RECURSION.rawValue),
            { _, _, message, _ in
                guard let message else { return }
                let text = String(cString: message)
                guard !text.hasPrefix("Syntax warning") else { return }
                let d = Thread.current.threadDictionary
                var list = d[PopplerMessages.key] as? [String] ?? []
                if list.count < 100 { list.append(text) }
                d[PopplerMessages.key] = list
            }, nil)
    }()
    static func install() { _ = installed }
    /// Errors collected on this thread since the last call.
    static func take() -> [String] {
        let d = Thread.current.threadDictionary
        let list = d[key] as? [String] ?? []
        d.removeObject(forKey: key)
        return list
    }
}
