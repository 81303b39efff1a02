/// Why a PDF could not be read. Never carries a password.
public enum PDFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes are not a PDF (no `%PDF-` header).
    case notAPDF
    /// A PDF that poppler cannot open or whose structure is broken (truncated, bad xref, ...).
    case damaged(String)
    /// The PDF is encrypted and no password was given.
    case passwordRequired
    /// A password was given and it does not open the PDF.
    case wrongPassword
    /// The PDF has pages but none carries any text (scanned images).
    case noTextLayer
    /// The PDF is beyond a ``PDFLimits`` bound (what it exceeds, e.g. "more than 100000 objects"):
    /// refused before poppler parses it.
    case limitExceeded(String)

    public var description: String {
        switch self {
        case .notAPDF: return "not a PDF file"
        case .damaged(let why): return "damaged PDF: \(why)"
        case .passwordRequired: return "the PDF is encrypted and needs a password"
        case .wrongPassword: return "the password does not open the PDF"
        case .noTextLayer: return "the PDF has no text layer (scanned images?)"
        case .limitExceeded(let what): return "the PDF has \(what), beyond the limit of one import"
        }
    }
}

/// Errors poppler met while interpreting one page (its content stream is damaged): the
/// page's text may lack whatever the damaged part drew.
public struct PDFPageProblem: Sendable, Hashable {
    /// 1-based page number.
    public var page: Int
    public var errorCount: Int
    /// Poppler's first message, e.g. "Syntax error at position 55504: Illegal character ')'".
    public var firstError: String
    public init(page: Int, errorCount: Int, firstError: String) {
        self.page = page; self.errorCount = errorCount; self.firstError = firstError
    }
}
