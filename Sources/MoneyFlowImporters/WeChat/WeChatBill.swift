import Foundation
import MoneyFlowCore

/// The WeChat Pay bill (微信支付账单明细): the XLSX sent since 2025 and the older UTF-8 CSV hold the
/// same preamble and rows (`交易时间,交易类型,交易对方,商品,收/支,金额(元),支付方式,当前状态,交易单号,商户单号,备注`;
/// the CSV's amounts carry `¥`). The header is found by content (it has moved between row 17,
/// 18 and 19). The XLSX and the password ZIP are opened by `MoneyFlowWallets`; this reads the rows.
public enum WeChatBill {
    static let header = (leading: "交易时间", required: ["交易类型", "交易对方", "商品", "收/支", "金额(元)", "支付方式", "当前状态", "交易单号"])

    /// True when `text` (a CSV's start) holds the bill's header line.
    public static func isBill(text: String) -> Bool {
        WalletText.hasHeaderLine(text, leading: header.leading, containing: header.required)
    }

    /// True when the rows (an XLSX sheet's) hold the bill's header row.
    public static func isBill(_ table: WalletTable) -> Bool { table.header(leading: header.leading, required: header.required) != nil }

    /// The older CSV bill's rows (UTF-8, or any encoding the importers' decoder reads).
    public static func csvTable(_ data: Data, file: String) throws -> WalletTable { try WalletText.table(data, file: file) }

    /// The first 64 KiB of a CSV, decoded; nil for bytes that are not text.
    public static func head(_ data: Data) -> String? { WalletText.head(data) }

    /// The records of a bill's rows.
    public static func read(_ table: WalletTable, file: String) throws -> ImportedStatement {
        guard let h = table.header(leading: header.leading, required: header.required) else {
            throw ImportError(.notAStatement, file: file, problem: "not a WeChat Pay bill: no 交易时间,交易类型,…,交易单号 header row")
        }
        guard let holder = table.preambleValue(named: "微信昵称", before: h.index) else {
            throw ImportError(
                .notAStatement, file: file, problem: "WeChat Pay bill without its 微信昵称：[…] preamble line: cannot tell whose 零钱 these are")
        }
        var bill = WalletBill(platform: .wechat, holder: holder, file: file)
        for row in table.dataRows(after: h) { try WeChatRows.read(row, into: &bill) }
        return bill.statement(importerID: "wechat")
    }
}
