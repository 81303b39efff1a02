import Foundation
import MoneyFlowCore

/// The CMB credit-card e-statement (招商银行信用卡电子账单) as a saved e-mail (`.eml`) or page
/// (`.html`): the HTML is found (MIME part, transfer encoding, charset), read by
/// ``CMBCardHTMLReader`` and mapped exactly as the PDF bill is (``CMBCardStatement``).
///
/// Recognised by content: any saved e-mail with an HTML part and any HTML page comes here (no
/// other importer reads them), and ``read`` gives the verdict, so an e-mail that is not a CMB
/// bill is one clear error rather than "unrecognised format".
public struct CMBCardHTMLImporter: Importer {
    public let id = "cmb-card-html"
    public let displayName = "CMB credit-card e-statement (saved .eml or .html)"

    public init() {}

    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        if CMBCardEMail.looksLikeEMail(input.data) { return 0.6 }
        let head = String(decoding: input.data.prefix(4096), as: UTF8.self).lowercased()
        let trimmed = head.drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard trimmed.hasPrefix("<") else { return 0 }
        return head.contains("<html") || head.contains("<!doctype html") || head.contains("<table") ? 0.6 : 0
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        let html: String
        if CMBCardEMail.looksLikeEMail(input.data) {
            guard let part = CMBCardEMail.htmlPart([UInt8](input.data)[...]) else {
                throw ImportError(
                    .notAStatement, file: file,
                    problem: "not a CMB credit-card e-statement: the e-mail has no HTML part (save the bill's e-mail itself, 招商银行信用卡电子账单)")
            }
            html = try CMBCardEMail.decode(part.bytes, charset: part.charset, file: file)
        } else {
            html = try CMBCardEMail.decode(input.data, charset: CMBCardEMail.metaCharset(input.data), file: file)
        }
        guard CMBCardHTMLReader.looksLikeCardEStatement(html) else {
            throw ImportError(
                .notAStatement, file: file,
                problem: "not a CMB credit-card e-statement: the HTML holds no 记账日 / 交易摘要 transaction table")
        }
        // Records as the PDF bill's (same source kind, same fingerprints); the batch names this importer.
        var statement = try CMBCardHTMLReader().statement(html: html, fileName: file).importedStatement(splitCards: options.splitCards)
        statement.importerID = id
        return statement
    }
}
