import MoneyFlowCore

/// One person's March 2025 as a CMB debit statement, a CMB card bill and two wallet bills (the
/// record shape of the wallet contract, built by hand: the subject is linking, not reading).
///
/// Card-funded wallet rows and their bank rows: a WeChat 美团 payment (same day), a late-evening
/// Alipay payment booked the next day, two equal 瑞幸 coffees on one day (twins: two links), a
/// credit-card payment whose bill row is cut (`支付宝-多一度（泉州）电子`), a 零钱 top-up from the
/// debit card (a transfer: its card leg links to the bank's row). Decoys: a 零钱-paid 全家 row of
/// the same day and amount as a bank 全家 row paid some other way; an ICBC-card 肯德基 row of the
/// same day and amount as a CMB 肯德基 row; neither may link.
public enum WalletFixture {
    public static let debitKey = "cmb:6214********3816", cardKey = "cmb-card:5521"
    public static let walletDebit = "bankcard:招商银行:debit:3816", walletCredit = "bankcard:招商银行:credit:5521"
    public static let icbc = "bankcard:工商银行:debit:6093"
    public static let alipayBalance = "alipay:x@example.com:余额", change = "wechat:阿明:零钱"

    public static func day(_ d: Int) -> LocalDate { LocalDate(year: 2025, month: 3, day: d)! }
    public static func cny(_ minor: Int64) -> Money { Money(minorUnits: minor, currency: "CNY") }

    public static func debitFacts(key: String = debitKey, number: String = "6214********3816") -> AccountFacts {
        AccountFacts(
            key: key, suggestedName: "CMB \(number.suffix(4))", institution: "China Merchants Bank", number: number, type: "ALL/全币种",
            currencies: ["CNY"])
    }

    public static func bank(
        _ key: String, _ d: Int, _ minor: Int64, _ description: String, _ counterparty: String?, _ note: String?, row: Int
    )
        -> IncomingRecord
    {
        IncomingRecord(
            accountKey: key, sourceKind: .cmbPDF, date: day(d), amount: cny(minor), description: description, counterparty: counterparty,
            note: note, locator: Locator(page: 1, row: row))
    }

    /// The debit statement (`key`, number ending 3816).
    public static func debit(key: String = debitKey, number: String = "6214********3816") -> ImportedStatement {
        let wx = "财付通支付科技有限公司", ali = "支付宝（中国）网络技术有限公司"
        return ImportedStatement(
            importerID: "cmb-pdf", accounts: [debitFacts(key: key, number: number)],
            records: [
                bank(key, 3, -2850, "快捷支付", wx, "财付通-微信支付-美团平台商户", row: 1),
                bank(key, 5, -6600, "快捷支付", ali, "支付宝-多一度（泉州）电子", row: 2),
                bank(key, 7, -1500, "快捷支付", wx, "财付通-微信支付-瑞幸咖啡", row: 3),
                bank(key, 7, -1500, "快捷支付", wx, "财付通-微信支付-瑞幸咖啡", row: 4),
                bank(key, 10, -2000, "快捷支付", ali, "支付宝-全家便利店", row: 5),
                bank(key, 12, -3500, "快捷支付", ali, "支付宝-肯德基", row: 6),
                bank(key, 15, -10000, "快捷支付", wx, "财付通-微信零钱充值", row: 7),
            ])
    }

    /// The card bill of card 5521.
    public static var card: ImportedStatement {
        ImportedStatement(
            importerID: "cmb-card-pdf",
            accounts: [
                AccountFacts(
                    key: cardKey, suggestedName: "CMB Card 5521", institution: "China Merchants Bank", number: "5521", type: "credit",
                    subtype: "credit card", currencies: ["CNY"])
            ],
            records: [bank(cardKey, 8, -9900, "支付宝-多一度（泉州）电子", nil, nil, row: 1)])
    }

    public static func wallet(
        _ kind: SourceKind, _ key: String, _ d: Int, _ time: String, _ minor: Int64, merchant: String?, item: String, order: String,
        method: String, scope: String? = nil
    ) -> IncomingRecord {
        IncomingRecord(
            accountKey: key, sourceKind: kind, date: day(d), amount: cny(minor), description: item, counterparty: merchant,
            externalID: order, category: kind == .alipay ? "餐饮美食" : "商户消费", time: time, locator: Locator(line: 20 + d),
            raw: #"{"method":"\#(method)","status":"交易成功"}"#, externalIDScope: scope)
    }

    public static func cardFacts(_ key: String, bank: String, kind: String, last4: String) -> AccountFacts {
        AccountFacts(
            key: key, suggestedName: "\(bank) \(kind) \(last4)", institution: bank, number: last4, type: kind, currencies: ["CNY"])
    }

    /// The Alipay bill: the late-evening payment, the credit-card payment, the ICBC decoy, and
    /// a 余额 payment.
    public static var alipay: ImportedStatement {
        ImportedStatement(
            importerID: "alipay",
            accounts: [
                cardFacts(walletDebit, bank: "招商银行", kind: "debit", last4: "3816"),
                cardFacts(walletCredit, bank: "招商银行", kind: "credit", last4: "5521"),
                cardFacts(icbc, bank: "工商银行", kind: "debit", last4: "6093"),
                AccountFacts(key: alipayBalance, suggestedName: "支付宝 余额", institution: "支付宝", type: "wallet", currencies: ["CNY"]),
            ],
            records: [
                wallet(
                    .alipay, walletDebit, 4, "23:41:02", -6600, merchant: "多一度（泉州）电子商务有限公司", item: "衬衫", order: "2025030422001",
                    method: "招商银行储蓄卡(3816)"),
                wallet(
                    .alipay, walletCredit, 8, "14:02:11", -9900, merchant: "多一度（泉州）电子商务有限公司", item: "外套", order: "2025030822002",
                    method: "招商银行信用卡(5521)"),
                wallet(
                    .alipay, icbc, 12, "12:30:45", -3500, merchant: "肯德基", item: "套餐", order: "2025031222003", method: "工商银行储蓄卡(6093)"),
                wallet(
                    .alipay, alipayBalance, 12, "18:00:00", -1200, merchant: "便利蜂", item: "饮料", order: "2025031222004", method: "余额"),
            ])
    }

    /// The WeChat bill: 美团, the twin coffees, the 零钱-paid decoy, the top-up's two legs.
    public static var wechat: ImportedStatement {
        ImportedStatement(
            importerID: "wechat",
            accounts: [
                cardFacts(walletDebit, bank: "招商银行", kind: "debit", last4: "3816"),
                AccountFacts(key: change, suggestedName: "微信 零钱", institution: "微信支付", type: "wallet", currencies: ["CNY"]),
            ],
            records: [
                wallet(
                    .wechat, walletDebit, 3, "12:10:00", -2850, merchant: "美团平台商户", item: "美团订单", order: "42000001", method: "招商银行(3816)"),
                wallet(.wechat, walletDebit, 7, "09:01:00", -1500, merchant: "瑞幸咖啡", item: "生椰拿铁", order: "42000002", method: "招商银行(3816)"),
                wallet(.wechat, walletDebit, 7, "15:30:00", -1500, merchant: "瑞幸咖啡", item: "生椰拿铁", order: "42000003", method: "招商银行(3816)"),
                wallet(.wechat, change, 10, "08:15:00", -2000, merchant: "全家便利店", item: "早餐", order: "42000004", method: "零钱"),
                wallet(
                    .wechat, walletDebit, 15, "10:00:00", -10000, merchant: nil, item: "零钱充值", order: "42000005", method: "招商银行(3816)",
                    scope: "out"),
                wallet(
                    .wechat, change, 15, "10:00:00", 10000, merchant: nil, item: "零钱充值", order: "42000005", method: "招商银行(3816)",
                    scope: "in"),
            ])
    }
}
