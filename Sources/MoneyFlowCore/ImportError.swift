/// Why a file could not be imported. Printed as one line: `<file>: <where>: <problem>`.
///
/// Never carries a password or token.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: String, Sendable, Codable {
        /// Malformed content (bad CSV row, truncated PDF, malformed JSON).
        case malformed
        /// No importer recognises the file as a statement it reads (not a PDF, no CSV profile
        /// fits, not a Plaid export, not a file). A folder import skips such files.
        case unrecognized
        /// The file is of a kind an importer reads (a PDF, a ZIP of PDFs) but is not a statement
        /// it can read (no CMB column header, no text layer). Reported even in a folder import:
        /// the user put a statement-like file there and should hear why it was not read.
        case notAStatement
        /// The file is encrypted and no password was given.
        case passwordRequired
        /// The password does not open the file.
        case wrongPassword
        /// The file holds a provider error body (e.g. Plaid ITEM_LOGIN_REQUIRED).
        case providerError
        /// A safety limit was hit (zip bomb, oversized field).
        case limitExceeded
        /// The file breaks a rule that protects the store (e.g. a skipped sync cursor).
        case rejected
    }
    public var kind: Kind
    public var file: String
    public var locator: Locator?
    /// Column name or number, when the problem is in one cell.
    public var column: String?
    public var problem: String

    public init(_ kind: Kind, file: String, locator: Locator? = nil, column: String? = nil, problem: String) {
        self.kind = kind; self.file = file; self.locator = locator; self.column = column; self.problem = problem
    }

    public var description: String {
        if kind == .wrongPassword && locator == nil { return "wrong password for \(file)" + (problem.isEmpty ? "" : " (\(problem))") }
        var s = file
        if let locator, !locator.description.isEmpty { s += ": " + locator.description }
        if let column { s += ", column \(column)" }
        return s + ": " + problem
    }
}
