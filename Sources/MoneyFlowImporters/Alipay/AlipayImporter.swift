import Foundation
import MoneyFlowCore

/// The Alipay bill, 支付宝交易明细: the CSV the app e-mails (GBK, or UTF-8 once re-saved), with its
/// dashed preamble, space-padded cells, tabs after order numbers and a comma ending every line;
/// also the older PC export (交易号,商家订单号,交易创建时间,…). Told by content: the header row,
/// found wherever the preamble puts it. The password ZIP it arrives in is opened by
/// `MoneyFlowWallets`, which hands the CSV's bytes here.
public struct AlipayImporter: Importer {
    public let id = "alipay"
    public let displayName = "Alipay bill (支付宝交易明细 CSV, bare or in its password ZIP)"

    public init() {}

    /// The mobile export's header starts so and holds these columns.
    static let mobileHeader = (leading: "交易时间", required: ["交易分类", "交易对方", "商品说明", "收/支", "金额", "收/付款方式", "交易状态", "交易订单号"])
    /// The older PC export's header.
    static let pcHeader = (leading: "交易号", required: ["交易创建时间", "交易对方", "商品名称", "金额（元）", "收/支", "交易状态"])

    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        guard let text = WalletText.head(input.data) else { return 0 }
        return WalletText.hasHeaderLine(text, leading: Self.mobileHeader.leading, containing: Self.mobileHeader.required)
            || WalletText.hasHeaderLine(text, leading: Self.pcHeader.leading, containing: Self.pcHeader.required) ? 0.95 : 0
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let table = try WalletText.table(input.data, file: input.fileName)
        if let h = table.header(leading: Self.mobileHeader.leading, required: Self.mobileHeader.required) {
            return try AlipayRows.read(table, header: h, file: input.fileName)
        }
        if let h = table.header(leading: Self.pcHeader.leading, required: Self.pcHeader.required) {
            return try AlipayPCRows.read(table, header: h, file: input.fileName)
        }
        throw ImportError(
            .notAStatement, file: input.fileName,
            problem: "not an Alipay bill: no 交易时间,交易分类,…,交易订单号 (or PC 交易号,…,交易创建时间) header row")
    }
}

/// The text side shared by the wallet CSVs (Alipay's, WeChat's older one): decoding with the
/// importers' one decoder (UTF-8, GB18030 for GBK, BOMs), and the header looked for by content.
enum WalletText {
    /// The first 64 KiB decoded (a GBK character cut at the end: the whole of a small file).
    static func head(_ data: Data) -> String? {
        // A ZIP (its password ZIP, an XLSX) or a PDF is never the CSV itself.
        if data.starts(with: [0x50, 0x4B]) || data.starts(with: Array("%PDF".utf8)) { return nil }
        if let (s, _) = try? TextDecoder.decode(data.prefix(64 * 1024)) { return s }
        if data.count <= 1 << 20, let (s, _) = try? TextDecoder.decode(data) { return s }
        return nil
    }

    /// True when a line (cells split at commas, each trimmed) starts with `leading` and holds
    /// every `containing` cell: a cheap look that needs no CSV parse.
    static func hasHeaderLine(_ text: String, leading: String, containing: [String]) -> Bool {
        for line in text.split(whereSeparator: \.isNewline).prefix(60) {
            let cells = line.split(separator: ",", omittingEmptySubsequences: false).map { WalletTable.clean(String($0)) }
            if cells.first == leading && containing.allSatisfy(cells.contains) { return true }
        }
        return false
    }

    /// The whole file decoded and split into rows (RFC 4180, the CSV importer's parser).
    static func table(_ data: Data, file: String) throws -> WalletTable {
        let text: String
        do { (text, _) = try TextDecoder.decode(data) } catch {
            throw ImportError(.malformed, file: file, locator: Locator(line: error.line), problem: error.message)
        }
        let rows: [CSVRow]
        do { rows = try CSVParser.parse(text, delimiter: UInt8(ascii: ",")) } catch {
            throw ImportError(
                .malformed, file: file, locator: Locator(line: error.line), column: error.column.map(String.init), problem: error.message)
        }
        return WalletTable(rows: rows.map { WalletTable.Row(locator: Locator(line: $0.line), cells: $0.fields) })
    }
}
