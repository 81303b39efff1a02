import Foundation
import MoneyFlowCore

/// The rows of a WeChat Pay bill as money (`shared/reference/wallets/FORMATS.md`):
/// - 支出 left the 支付方式's account (a refunded purchase too: its refund is a row of its own);
/// - 收入 came in: to the 支付方式 named (a refund goes back where it was paid from), or to 零钱
///   when none is named (`/`) and the status says so (已存入零钱, 已收钱);
/// - `/` (中性交易) is a move between the person's own accounts (零钱充值, 零钱提现, 零钱通 in and
///   out: two legs), with 零钱提现's 服务费 an expense of its own, or money out to something the
///   bill does not name as an account (信用卡还款, 购买理财通: one record).
/// A status, type or method not known here is a warning naming the row and order, never a guess.
enum WeChatRows {
    static let spent: Set<String> = ["支付成功", "已支付", "已转账", "朋友已收钱", "对方已收钱", "已全额退款", "已扣款"]
    static let received: Set<String> = ["已存入零钱", "已收钱", "已到账", "已全额退款", "朋友已收钱", "已入账"]
    /// The statuses of money received without a 支付方式: it went to 零钱.
    static let intoChange: Set<String> = ["已存入零钱", "已收钱", "已入账"]
    static let neutral: Set<String> = ["支付成功", "充值完成", "充值成功", "提现已到账", "已到账", "已转账"]

    static func read(_ row: WalletRow, into bill: inout WalletBill) throws {
        let direction = row["收/支"], status = row["当前状态"], methodText = row["支付方式"], type = row["交易类型"]
        let minor = try bill.amount(row, column: "金额(元)")
        let f = try bill.fields(
            row, time: "交易时间", item: "商品", order: "交易单号", note: "备注", category: "交易类型", method: methodText, status: status)
        let order = "order \(f.orderID)"
        // 已退款(￥5.00): partly refunded; the purchase's money still left.
        let known =
            switch direction {
            case "支出": spent.contains(status) || status.hasPrefix("已退款")
            case "收入": received.contains(status) || status.hasPrefix("已退款")
            default: neutral.contains(status)
            }
        guard known else {
            bill.warn(row, "\(order): 当前状态 '\(status)' (收/支 '\(direction)') is not one this importer knows: not recorded")
            return
        }
        let account = WalletAccount.parse(methodText, platform: .wechat)
        switch direction {
        case "支出":
            guard let account else { return unknownMethod(row, order, methodText, &bill) }
            bill.add(f, account: account, minor: -minor)
        case "收入":
            let into = account ?? ((methodText == "/" || methodText.isEmpty) && intoChange.contains(status) ? .own("零钱") : nil)
            guard let into else { return unknownMethod(row, order, methodText, &bill) }
            bill.add(f, account: into, minor: minor)
        case "/":
            try move(row, f, type: type, account: account, minor: minor, into: &bill)
        default:
            bill.warn(row, "\(order): 收/支 '\(direction)' is not 支出, 收入 or /: not recorded")
        }
    }

    static func unknownMethod(_ row: WalletRow, _ order: String, _ method: String, _ bill: inout WalletBill) {
        bill.warn(row, "\(order): payment method '\(method)' is not one this importer knows: not recorded")
    }

    /// A neutral row (收/支 `/`), by its 交易类型.
    static func move(
        _ row: WalletRow, _ f: WalletBill.Fields, type: String, account: WalletAccount?, minor: Int64, into bill: inout WalletBill
    )
        throws
    {
        let change = WalletAccount.own("零钱"), fund = WalletAccount.own("零钱通")
        let order = "order \(f.orderID)"
        if type == "零钱充值", let account, account != change {
            bill.move(f, from: account, to: change, minor: minor)
        } else if type == "零钱提现" {
            // The amount is what left 零钱; the card got it less the fee (备注 `服务费¥0.10`).
            guard
                let card = account.flatMap({ if case .card = $0 { $0 } else { nil } })
                    ?? WalletAccount.parse(row["交易对方"], platform: .wechat)
            else { return unknownMethod(row, order, row["支付方式"], &bill) }
            let fee = try self.fee(row, bill: bill)
            guard fee <= minor else { throw bill.error(row, column: "备注", "the 服务费 is more than the amount withdrawn") }
            bill.move(f, from: change, to: card, minor: minor - fee)
            if fee > 0 { bill.add(f, account: change, minor: -fee, scope: "fee", description: "服务费", category: "服务费") }
        } else if type.hasPrefix("转入零钱通"), let account, account != fund {
            bill.move(f, from: account, to: fund, minor: minor)
        } else if type.hasPrefix("零钱通转出-到") {
            let target = String(type.dropFirst("零钱通转出-到".count))
            guard let to = WalletAccount.parse(target, platform: .wechat), to != fund else {
                return bill.warn(row, "\(order): 零钱通 moved out to '\(target)', which is not an account this importer knows: not recorded")
            }
            bill.move(f, from: fund, to: to, minor: minor)
        } else if type == "信用卡还款" || type == "购买理财通", let account {
            bill.add(f, account: account, minor: -minor) // the other side is not one of the bill's accounts
        } else {
            bill.warn(
                row,
                "\(order): a neutral (收/支 /) row of type '\(type)' with 支付方式 '\(row["支付方式"])' is not one this importer knows: not recorded")
        }
    }

    /// The withdrawal fee in 备注 (`服务费¥0.10`), 0 when there is none.
    static func fee(_ row: WalletRow, bill: WalletBill) throws -> Int64 {
        let note = row["备注"]
        guard let r = note.range(of: "服务费") else { return 0 }
        let text = String(note[r.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: " ¥￥"))
        do { return try Money.parseMinorUnits(text, exponent: 2) } catch {
            throw bill.error(row, column: "备注", "'\(note.prefix(40))': the 服务费 is not an amount (\(error.reason))")
        }
    }
}
