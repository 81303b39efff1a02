import Foundation
import MoneyFlowCore

/// Reads OFX/QFX downloads ("Download for Quicken / Money"): OFX 1.x SGML and 2.x XML, bank
/// (`STMTRS`) and credit-card (`CCSTMTRS`) statements, several per file (one account each).
///
/// Recognised by content only: an `OFXHEADER:` line, a `<?OFX` processing instruction, or an
/// `<OFX>` element in the first KB. QFX's `INTU.*` elements are read past and ignored. Amounts
/// keep the bank's sign (the customer's point of view, which is the store's convention: card
/// purchases negative, payments positive). `FITID` is the record's provider id, as the bank
/// wrote it; banks reuse FITIDs across accounts, so the account's tag is its
/// ``IncomingRecord/externalIDScope`` (part of the record's identity, never of the id shown). Corrections (`CORRECTACTION`) are refused:
/// the engine's provider lifecycle (update in place, removals) is keyed to Plaid today.
public struct OFXImporter: Importer {
    public let id = "ofx"
    public let displayName = "OFX / QFX download (bank and credit-card statements)"

    public init() {}

    /// The file must start (after a BOM and blank space) with the OFX 1.x header, an XML
    /// declaration followed by `<?OFX`/`<OFX>`, or `<OFX>` itself: a CSV whose text merely
    /// mentions OFX is not claimed.
    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        let head = String(decoding: input.data.prefix(1024), as: UTF8.self).uppercased()
        let start = head.drop { $0 == "\u{FEFF}" || $0.isWhitespace }
        if start.hasPrefix("OFXHEADER") || start.hasPrefix("<?OFX") { return 0.97 }
        if start.hasPrefix("<?XML") && (head.contains("<?OFX") || head.contains("<OFX>")) { return 0.97 }
        if start.hasPrefix("<OFX>") { return 0.9 }
        return 0
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        let decoded = try OFXText.decode(input.data, fileName: file)
        let root: OFXElement
        do throws(OFXTree.TooDeep) { root = try OFXTree.parse(decoded.text) } catch {
            throw ImportError(
                .limitExceeded, file: file, locator: Locator(line: error.line),
                problem: "elements nested more than \(OFXTree.maxDepth) deep; this is not a bank's OFX file")
        }
        guard let ofx = root.descendants("OFX").first ?? (root.children.isEmpty ? nil : root) else {
            throw ImportError(.unrecognized, file: file, problem: "not an OFX file (no <OFX> element)")
        }
        var warnings: [ImportWarning] = []
        if let w = decoded.warning { warnings.append(ImportWarning(w)) }
        let org = ofx.leaf("SIGNONMSGSRSV1/SONRS/FI/ORG")
        let fid = ofx.leaf("SIGNONMSGSRSV1/SONRS/FI/FID")
        let version = decoded.header["VERSION"]
        let statements = ofx.descendants("STMTRS") + ofx.descendants("CCSTMTRS")
        if statements.isEmpty { throw Self.noStatementError(ofx, file: file) }

        var reader = OFXStatementReader(file: file, org: org, fid: fid, version: version)
        for s in statements.sorted(by: { $0.line < $1.line }) { try reader.read(s) }
        warnings += reader.warnings
        // A statement request the bank answered with an error, next to ones it answered.
        for rs in ofx.descendants("STMTTRNRS") + ofx.descendants("CCSTMTTRNRS")
        where rs.child("STMTRS") == nil && rs.child("CCSTMTRS") == nil {
            if let code = rs.leaf("STATUS/CODE"), code != "0" {
                warnings.append(
                    ImportWarning(
                        "the bank sent no statement for one account (OFX status \(code)\(rs.leaf("STATUS/MESSAGE").map { ": " + $0 } ?? ""))",
                        at: Locator(line: rs.line)))
            }
        }
        warnings += OFXBalanceCheck.check(reader.balances, records: reader.records)
        let dates = reader.records.map(\.date)
        return ImportedStatement(
            importerID: id, accounts: reader.accountFacts(), records: reader.records, warnings: warnings,
            coverage: dates.min().flatMap { lo in dates.max().map { lo...$0 } })
    }

    /// Why a file with an `<OFX>` element holds no statement: the bank's error status, an
    /// investment download, or nothing at all.
    static func noStatementError(_ ofx: OFXElement, file: String) -> ImportError {
        for status in ofx.descendants("STATUS") {
            if let code = status.leaf("CODE"), code != "0" {
                let message = status.leaf("MESSAGE").map { " (\($0))" } ?? ""
                return ImportError(
                    .providerError, file: file, locator: Locator(line: status.line),
                    problem: "the bank answered with OFX status \(code)\(message) and no statement; download the file again")
            }
        }
        if !ofx.descendants("INVSTMTRS").isEmpty {
            return ImportError(
                .unrecognized, file: file, problem: "an OFX investment statement (INVSTMTRS); only bank and credit-card statements are read"
            )
        }
        return ImportError(.malformed, file: file, problem: "no bank (STMTRS) or credit-card (CCSTMTRS) statement in this OFX file")
    }
}
