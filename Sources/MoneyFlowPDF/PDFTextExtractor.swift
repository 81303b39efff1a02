import Dispatch
import Foundation
import MoneyFlowCore

/// Reads the text layer of a PDF into pages of positioned glyphs (libpoppler, through CPopplerText).
///
/// Value type and `Sendable`: every call opens its own document handles. Long documents are read
/// by several threads, each with its own poppler document (poppler documents are not shared
/// between threads); the result does not depend on the number of threads.
public struct PDFTextExtractor: Sendable {
    /// Read font sizes from poppler's text attributes (else the glyph box height is used).
    public var fontSizes: Bool
    /// Upper bound on reading threads (1 = sequential).
    public var maxThreads: Int

    public init(fontSizes: Bool = true, maxThreads: Int = ProcessInfo.processInfo.activeProcessorCount) {
        self.fontSizes = fontSizes
        self.maxThreads = max(1, min(maxThreads, 8))
    }

    /// Fewer pages than this per thread are not worth a second document.
    static let pagesPerThread = 6

    /// Every page of the PDF in `data`, in document order.
    ///
    /// - Throws: ``PDFError``; `.noTextLayer` when no page carries any text.
    public func extract(data: Data, password: String? = nil) throws(PDFError) -> [TextPage] {
        try extractChecked(data: data, password: password).pages
    }

    /// Every page of the PDF in `data`, in document order, with the pages poppler could not
    /// interpret cleanly (damaged content streams), in page order.
    ///
    /// - Throws: ``PDFError``; `.noTextLayer` when no page carries any text.
    public func extractChecked(data: Data, password: String? = nil) throws(PDFError) -> (pages: [TextPage], problems: [PDFPageProblem]) {
        let first = try PDFDocumentReader(data: data, password: password)
        let n = first.pageCount
        let threads = min(maxThreads, max(1, n / PDFTextExtractor.pagesPerThread))
        var pages: [TextPage]
        var problems: [PDFPageProblem?]
        if threads <= 1 {
            let read = (0..<n).map { first.checkedPage(at: $0, fontSizes: fontSizes) }
            pages = read.map(\.page)
            problems = read.map(\.problem)
        } else {
            // Each worker reads one contiguous run of pages through its own document (contiguous,
            // so each document loads only the resources of its own pages).
            var readers: [PDFDocumentReader] = [first]
            for _ in 1..<threads {
                readers.append(try PDFDocumentReader(data: data, password: password))
            }
            let fontSizes = self.fontSizes
            let shared = ParallelReaders(readers)
            let read = ParallelMap.map(n, workers: threads) { w, i in shared.readers[w].checkedPage(at: i, fontSizes: fontSizes) }
            pages = read.map(\.page)
            problems = read.map(\.problem)
        }
        if pages.allSatisfy({ $0.items.isEmpty }) { throw .noTextLayer }
        return (pages, problems.compactMap { $0 })
    }

    /// Number of pages, or the error that prevents opening the file.
    public func pageCount(data: Data, password: String? = nil) throws(PDFError) -> Int {
        try PDFDocumentReader(data: data, password: password).pageCount
    }
}

/// The documents of the reading threads. Unchecked: worker `w` uses only `readers[w]` (each
/// poppler document stays on one thread; ``ParallelMap`` gives each worker one contiguous run).
private final class ParallelReaders: @unchecked Sendable {
    let readers: [PDFDocumentReader]
    init(_ readers: [PDFDocumentReader]) { self.readers = readers }
}
