import Foundation
import MoneyFlowCore

/// The older Alipay PC export (交易号,商家订单号,交易创建时间,付款时间,…,收/支,交易状态,服务费（元）,
/// 成功退款（元）,备注,资金状态). It names no payment method, so its rows are in the Alipay account
/// as a whole (never on a card: which card paid is not known, and a guess would invent card
/// charges); one warning says so. A row's refund (成功退款) and fee (服务费) are records of their own.
enum AlipayPCRows {
    static func read(_ table: WalletTable, header: (index: Int, columns: [String: Int], names: [String]), file: String) throws
        -> ImportedStatement
    {
        let holder = table.preambleValue(named: "账号", before: header.index)
        guard let holder else {
            throw ImportError(
                .notAStatement, file: file, problem: "Alipay PC export without its 账号:[…] preamble line: cannot tell whose account it is")
        }
        var bill = WalletBill(platform: .alipay, holder: holder, file: file)
        for row in table.dataRows(after: header, footerColumn: "交易号") { try read(row, into: &bill) }
        var statement = bill.statement(importerID: "alipay")
        if !statement.records.isEmpty {
            statement.warnings.insert(
                ImportWarning(
                    "the Alipay PC export names no payment method: its rows are in the account '支付宝 \(holder)', and card-paid rows do not link to the card's statement (the mobile export's bill does)"
                ), at: 0)
        }
        return statement
    }

    static func read(_ row: WalletRow, into bill: inout WalletBill) throws {
        let direction = row["收/支"], status = row["交易状态"], funds = row["资金状态"]
        let time = row["付款时间"].isEmpty ? "交易创建时间" : "付款时间"
        let f = try bill.fields(row, time: time, item: "商品名称", order: "交易号", note: "备注", category: "类型", method: "", status: status)
        let minor = try bill.amount(row, column: "金额（元）")
        let refund = row["成功退款（元）"].isEmpty ? 0 : try bill.amount(row, column: "成功退款（元）")
        let fee = row["服务费（元）"].isEmpty ? 0 : try bill.amount(row, column: "服务费（元）")
        switch (direction, funds) {
        case ("支出", "已支出"):
            bill.add(f, account: .platform, minor: -minor)
            if refund > 0 {
                bill.add(f, account: .platform, minor: refund, scope: "refund", description: "退款-" + f.description, category: "退款")
            }
        case ("收入", "已收入"):
            bill.add(f, account: .platform, minor: minor)
        case (_, ""):
            bill.warn(row, "order \(f.orderID) moved no money (交易状态 '\(status)', no 资金状态): not recorded")
            return
        default:
            bill.warn(row, "order \(f.orderID): 收/支 '\(direction)' with 资金状态 '\(funds)' is not a kind this importer knows: not recorded")
            return
        }
        if fee > 0 { bill.add(f, account: .platform, minor: -fee, scope: "fee", description: "服务费", category: "服务费") }
    }
}
