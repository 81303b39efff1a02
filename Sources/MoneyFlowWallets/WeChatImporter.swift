import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowZip
import MoneyFlowZipImport

/// The WeChat Pay bill as a file: the XLSX (a ZIP of XML parts, opened here with minizip; the
/// sheet's XML is read by the pure ``XLSXWorkbook``) or the older CSV. Told by content: the
/// bill's header row in a sheet or in the text. The password ZIP the bill is e-mailed in is
/// ``WalletZipImporter``'s.
public struct WeChatImporter: Importer {
    public let id = "wechat"
    public let displayName = "WeChat Pay bill (微信支付账单 XLSX or CSV, bare or in its password ZIP)"
    /// An XLSX's parts are small; the limits still stop a hostile one.
    public var zipLimits = ZipLimits.statementImport

    public init() {}

    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        if PasswordZip.isZip(input.data) {
            guard let zip = try? ZipArchive(data: input.data, limits: zipLimits), Self.isWorkbook(zip),
                let sheets = try? Self.sheets(zip, file: input.fileName)
            else { return 0 }
            return sheets.contains(where: WeChatBill.isBill) ? 0.95 : 0
        }
        guard let text = WeChatBill.head(input.data) else { return 0 }
        return WeChatBill.isBill(text: text) ? 0.95 : 0
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        guard PasswordZip.isZip(input.data) else { return try WeChatBill.read(WeChatBill.csvTable(input.data, file: file), file: file) }
        let zip = try PasswordZip.open(input.data, file: file, limits: zipLimits)
        guard Self.isWorkbook(zip) else {
            throw ImportError(.notAStatement, file: file, problem: "not a WeChat Pay bill: a ZIP that is not an XLSX workbook")
        }
        let sheets = try Self.sheets(zip, file: file)
        // The bill is the sheet with the bill's header (the first one in every export seen).
        return try WeChatBill.read(sheets.first(where: WeChatBill.isBill) ?? sheets.first ?? WalletTable(rows: []), file: file)
    }

    static func isWorkbook(_ zip: ZipArchive) -> Bool { zip.entry(named: "xl/workbook.xml") != nil }

    /// The workbook's sheets as rows of cell text. A workbook is not encrypted (a password ZIP
    /// around it is): an encrypted part is damage, said as such.
    static func sheets(_ zip: ZipArchive, file: String) throws -> [WalletTable] {
        try PasswordZip.refuseUnsafeNames(zip, file: file)
        do {
            return try XLSXWorkbook.sheets { name in
                guard let e = zip.entry(named: name) else { return nil }
                do { return try zip.data(for: e, password: nil) } catch let error as ZipError { throw PasswordZip.map(error, file: file) }
            }.map(WalletTable.init(rows:))
        } catch let e as XLSXWorkbook.Failure {
            throw ImportError(.malformed, file: file, problem: "damaged XLSX workbook: \(e.description)")
        }
    }
}
