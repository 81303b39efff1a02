import Foundation
import MoneyFlowCore

/// The rows of the mobile Alipay bill (2023 onwards) as money, by the rules of its 收/支 and
/// 交易状态 (`shared/reference/wallets/FORMATS.md`):
/// - 支出 left the account named by 收/付款方式, also when the order was later refunded in full
///   (`交易关闭`: its refund is a row of its own);
/// - 收入 came into it;
/// - 不计收支 is a refund (back to the method named), a move between the person's own accounts
///   (余额宝 转入/转出, 花呗 还款: two legs), 余额宝's 收益发放 (income), or an order closed before it
///   was paid (no money moved: not recorded, said in a warning).
/// A status, direction or method this reader does not know is a warning naming the row and the
/// order; the row is not recorded rather than guessed.
enum AlipayRows {
    /// Statuses whose money moved (交易关闭 is decided by the row's other columns).
    static let settled: Set<String> = ["交易成功", "等待确认收货", "退款成功", "支付成功", "还款成功", "交易关闭"]

    static func read(_ table: WalletTable, header: (index: Int, columns: [String: Int], names: [String]), file: String) throws
        -> ImportedStatement
    {
        let holder = table.preambleValue(named: "支付宝账户", before: header.index)
        guard let holder else {
            throw ImportError(
                .notAStatement, file: file, problem: "Alipay bill without its 支付宝账户： preamble line: cannot tell whose 余额/余额宝/花呗 these are")
        }
        var bill = WalletBill(platform: .alipay, holder: holder, file: file)
        for row in table.dataRows(after: header, footerColumn: AlipayImporter.mobileHeader.leading) { try read(row, into: &bill) }
        return bill.statement(importerID: "alipay")
    }

    static func read(_ row: WalletRow, into bill: inout WalletBill) throws {
        let direction = row["收/支"], status = row["交易状态"], methodText = row["收/付款方式"]
        let minor = try bill.amount(row, column: "金额")
        let f = try bill.fields(
            row, time: "交易时间", item: "商品说明", order: "交易订单号", note: "备注", category: "交易分类", method: methodText, status: status)
        let order = "order \(f.orderID)"
        guard settled.contains(status) else {
            bill.warn(row, "\(order): 交易状态 '\(status)' is not one this importer knows: not recorded (check the order in the app)")
            return
        }
        if status == "交易关闭" && (methodText.isEmpty || direction != "支出") {
            bill.warn(row, "\(order) was closed before it was paid (交易关闭, 收/支 \(direction)): no money moved, not recorded")
            return
        }
        guard let account = method(methodText, row: row, order: order, bill: &bill) else { return }
        switch direction {
        case "支出": bill.add(f, account: account, minor: -minor)
        case "收入": bill.add(f, account: account, minor: minor)
        case "不计收支": neutral(row, f, account: account, minor: minor, status: status, into: &bill)
        default: bill.warn(row, "\(order): 收/支 '\(direction)' is not 支出, 收入 or 不计收支: not recorded")
        }
    }

    /// The account of a payment method, or nil after a warning: a method naming nothing known,
    /// or a combination (`招商银行信用卡(5521)&红包`) whose parts paid amounts the bill does not
    /// give — putting the whole amount on the card would invent a card charge that did not happen.
    static func method(_ text: String, row: WalletRow, order: String, bill: inout WalletBill) -> WalletAccount? {
        if text.contains("&") {
            bill.warn(
                row,
                "\(order) was paid by '\(text)': the bill does not say how much each part paid, so it is not recorded (the card's own statement row stays as the bank printed it)"
            )
            return nil
        }
        guard let account = WalletAccount.parse(text, platform: bill.platform) else {
            bill.warn(row, "\(order): payment method '\(text)' is not one this importer knows: not recorded")
            return nil
        }
        return account
    }

    /// A 不计收支 row: a refund, a move between own accounts, or 余额宝 income.
    static func neutral(
        _ row: WalletRow, _ f: WalletBill.Fields, account: WalletAccount, minor: Int64, status: String, into bill: inout WalletBill
    ) {
        let item = row["商品说明"], category = row["交易分类"]
        let yuebao = WalletAccount.own("余额宝"), balance = WalletAccount.own("余额")
        if status == "退款成功" || category == "退款" || item.hasPrefix("退款-") {
            bill.add(f, account: account, minor: minor) // the money comes back to the method named
        } else if item.contains("收益发放") {
            bill.add(f, account: yuebao, minor: minor)
        } else if item.hasPrefix("余额宝") && item.contains("转入") && account != yuebao {
            bill.move(f, from: account, to: yuebao, minor: minor)
        } else if item.hasPrefix("余额宝") && item.contains("转出到余额") {
            bill.move(f, from: yuebao, to: balance, minor: minor)
        } else if item.hasPrefix("花呗") && item.contains("还款") && account != .own("花呗") {
            bill.move(f, from: account, to: .own("花呗"), minor: minor)
        } else {
            bill.warn(
                row,
                "order \(f.orderID): a 不计收支 row of a kind this importer does not know (交易分类 '\(category)', 商品说明 '\(item.prefix(40))'): not recorded"
            )
        }
    }
}
