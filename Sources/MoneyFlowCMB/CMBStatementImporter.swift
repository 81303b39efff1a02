import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPDF
import MoneyFlowZip
import MoneyFlowZipImport

/// CMB 招商银行交易流水: a PDF statement, bare or inside the password-protected ZIP the app
/// e-mails; also the CMB credit-card bill (招商银行信用卡对账单, ``CMBCardReconstructor``). ZIP via minizip (decrypted in Swift), PDF text via poppler, rows rebuilt from
/// glyph positions by the pure ``CMBStatementReconstructor``.
///
/// The bank's one home is split in two halves on purpose: this target (MoneyFlowCMB) holds the
/// container side, which needs C libraries (minizip, poppler); the reconstruction from
/// positioned text lives in `Sources/MoneyFlowImporters/CMB/`, Foundation-only (iOS-portable).
public struct CMBStatementImporter: Importer {
    public let id = "cmb-pdf"
    public let displayName = "CMB PDF statement or credit-card bill (bare or in its ZIP)"
    public var zipLimits = ZipLimits.statementImport

    public init() {}

    static func isZip(_ d: Data) -> Bool { PasswordZip.isZip(d) }

    /// By signature only, so the ZIP is opened once per import (in ``read``). No other built-in
    /// importer claims a ZIP (CSV refuses `PK`, Plaid and OFX need text), so a ZIP comes here
    /// whatever it holds, and ``read`` gives the verdict: unreadable, no PDF inside
    /// (`.notAStatement`), several statements, or the statement.
    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        if PDFDocumentReader.hasPDFHeader(input.data) { return 0.8 }
        guard Self.isZip(input.data) else { return 0 }
        // An XLSX, DOCX or ODS is a ZIP too, never a statement's: left unclaimed, the file is
        // reported as what it is (FileKind) rather than as a CMB ZIP without a PDF.
        if let zip = try? ZipArchive(data: input.data, limits: zipLimits), FileKind.isOfficeDocument(zipEntryNames: zip.entries.map(\.name))
        {
            return 0
        }
        return 0.9
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        var pdfBytes = input.data
        let password = ImportPassword(file: file, options: options)
        if Self.isZip(input.data) {
            let zip = try PasswordZip.open(input.data, file: file, limits: zipLimits)
            let pdfs = zip.entries.filter { !$0.isDirectory && $0.name.lowercased().hasSuffix(".pdf") }
            guard !pdfs.isEmpty else {
                throw ImportError(.notAStatement, file: file, problem: "not a CMB statement: the ZIP holds no PDF")
            }
            try PasswordZip.refuseUnsafeNames(zip, file: file)
            // Every PDF entry is read (its content decides, not its name): one that is not a
            // PDF is an error, and so are several statements (only the first one's bytes are kept).
            var statements: [String] = []
            for e in pdfs {
                let bytes = try PasswordZip.data(of: e, in: zip, password: password, file: file)
                guard PDFDocumentReader.hasPDFHeader(bytes) else {
                    throw ImportError(.notAStatement, file: file, problem: "not a CMB statement: \(e.name) is not a PDF")
                }
                if statements.isEmpty { pdfBytes = bytes }
                statements.append(e.name)
            }
            if statements.count > 1 {
                // CMB sends one statement per ZIP. Reading only one would drop the others
                // without a word, and one import of several statements could not say which
                // entry a row came from (locators name a page and row, not an entry).
                let names = statements.prefix(5).map { "'\($0)'" }.joined(separator: ", ") + (statements.count > 5 ? ", ..." : "")
                throw ImportError(
                    .rejected, file: file,
                    problem:
                        "refused: the ZIP holds \(statements.count) PDF statements (\(names)); import one statement per file: extract them and import each PDF"
                )
            }
        }
        let read: (pages: [TextPage], problems: [PDFPageProblem])
        do {
            read = try extract(pdfBytes, password: password.value)
        } catch PDFError.passwordRequired {
            do { read = try extract(pdfBytes, password: try password.get()) } catch let e as PDFError { throw map(e, file: file) }
        } catch let e as PDFError {
            throw map(e, file: file)
        }
        // One container, two documents: the debit-card 交易流水 and the credit-card bill
        // (招商银行信用卡对账单), told apart by the bill's title on page 1.
        let statement =
            CMBCardReconstructor.isCardBill(read.pages)
            ? try CMBCardReconstructor().reconstruct(read.pages, fileName: file).importedStatement(splitCards: options.splitCards)
            : try CMBStatementReconstructor().importedStatement(from: read.pages, fileName: file)
        if let damaged = read.problems.first {
            // The glyphs around the damage still read, so the rows that remain look fine and
            // may even chain: only poppler knows that part of the page could not be drawn.
            let pages = read.problems.map { String($0.page) }.joined(separator: ", ")
            throw ImportError(
                .malformed, file: file,
                problem:
                    "refused: damaged PDF, the content stream of page \(pages) has errors (\(damaged.firstError.prefix(80))); rows on \(read.problems.count == 1 ? "that page" : "those pages") may be missing (\(statement.records.count) rows readable): get a fresh copy of the statement"
            )
        }
        return statement
    }

    func extract(_ data: Data, password: String?) throws -> (pages: [TextPage], problems: [PDFPageProblem]) {
        do { return try PDFTextExtractor().extractChecked(data: data, password: password) } catch { throw error }
    }

    func map(_ e: PDFError, file: String) -> ImportError {
        switch e {
        case .wrongPassword: return ImportError(.wrongPassword, file: file, problem: "")
        case .passwordRequired: return ImportError(.passwordRequired, file: file, problem: "the PDF is encrypted: password required")
        case .noTextLayer:
            return ImportError(.notAStatement, file: file, problem: "not a CMB statement: the PDF has no text layer (scanned image?)")
        case .notAPDF: return ImportError(.unrecognized, file: file, problem: "not a PDF")
        case .damaged(let why): return ImportError(.malformed, file: file, problem: "truncated or damaged PDF (\(why))")
        case .limitExceeded: return ImportError(.limitExceeded, file: file, problem: "refused: \(e.description)")
        }
    }
}
