import CPopplerText
import Foundation
import MoneyFlowCore

/// An open poppler document (libpoppler driven directly through CPopplerText). Owns a C handle,
/// so it is not `Sendable`: create it, read its pages and drop it within one task. Pages come
/// out as `Sendable` ``TextPage`` values.
public final class PDFDocumentReader {
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
        var status = MF_PDF_OPEN_OK
        var message: UnsafePointer<CChar>? = nil
        let opened: OpaquePointer? = data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> OpaquePointer? in
            let base = raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!
            if let pw {
                return pw.withCString { mf_pdf_open(base, raw.count, $0, &status, &message) }
            }
            return mf_pdf_open(base, raw.count, nil, &status, &message)
        }
        guard let opened else {
            if status == MF_PDF_OPEN_ENCRYPTED { throw pw == nil ? .passwordRequired : .wrongPassword }
            throw .damaged(message.map { String(cString: $0) } ?? "poppler could not open the document")
        }
        let n = Int(mf_pdf_page_count(opened))
        if n <= 0 {
            // Not yet fully initialized: deinit will not run, release here.
            mf_pdf_close(opened)
            throw .damaged("the document has no pages")
        }
        document = opened
        pageCount = n
    }

    deinit {
        mf_pdf_close(document)
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
    /// - Parameter fontSizes: each glyph's `fontSize` is its word's font size; when false it is
    ///   the glyph box height.
    public func page(at index: Int, fontSizes: Bool = true) -> TextPage {
        checkedPage(at: index, fontSizes: fontSizes).page
    }

    /// Page `index` and what poppler reported while interpreting it (nil when nothing): a
    /// page whose content stream is damaged still yields the glyphs before and after the
    /// damage, so its text alone cannot tell that rows are missing.
    public func checkedPage(at index: Int, fontSizes: Bool = true) -> (page: TextPage, problem: PDFPageProblem?) {
        precondition(index >= 0 && index < pageCount, "page index out of range")
        var read = mf_pdf_page()
        defer { mf_pdf_page_free(&read) }
        guard mf_pdf_read_page(document, Int32(index), &read) != 0 else {
            return (TextPage(number: index + 1, width: 0, height: 0, items: []), nil)
        }
        var items: [PositionedText] = []
        items.reserveCapacity(read.glyph_count)
        if let glyphs = read.glyphs {
            for g in UnsafeBufferPointer(start: glyphs, count: read.glyph_count) {
                let scalar = Unicode.Scalar(g.scalar) ?? "\u{FFFD}"
                items.append(
                    PositionedText(
                        text: String(Character(scalar)), x0: g.x0, y0: g.y0, x1: g.x1, y1: g.y1,
                        fontSize: fontSizes ? g.font_size : g.y1 - g.y0))
            }
        }
        let page = TextPage(number: index + 1, width: read.width, height: read.height, items: items)
        guard read.error_count > 0 else { return (page, nil) }
        let first = read.first_error.map { String(cString: $0) } ?? ""
        return (page, PDFPageProblem(page: index + 1, errorCount: Int(read.error_count), firstError: first))
    }

    /// All pages, in document order.
    public func pages(fontSizes: Bool = true) -> [TextPage] {
        var out: [TextPage] = []
        out.reserveCapacity(pageCount)
        for i in 0..<pageCount { out.append(page(at: i, fontSizes: fontSizes)) }
        return out
    }
}
