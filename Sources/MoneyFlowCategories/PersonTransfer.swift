import MoneyFlowCore

/// Whether a record is money sent to (or received from) a person, from what its source says,
/// for ``CategorizationInput/counterpartyIsPerson``: such a transaction is learned only from the
/// user's decisions about the same person, never from a shop's category (paying 张三 back is
/// not coffee because 张三 was last seen beside a café's row). When in doubt a row counts as a
/// person: that only makes the learner stricter (exact name, same direction), never guess more.
public enum PersonTransfer {
    /// WeChat Pay's 交易类型 that move money between people (微信红包 also as `微信红包（单发）`…).
    static let wechatTypes = ["转账", "微信红包", "群收款", "二维码收款"]
    /// Alipay's 交易分类 that move money between people.
    static let alipayCategories: Set<String> = ["转账红包", "亲友代付"]
    /// Words of a CMB 交易摘要 that say the row is a transfer (`转账汇款`, `汇入汇款`, `网联付款` …);
    /// a repayment (`跨行转账还款`) is not.
    static let cmbTransferWords = ["转账", "汇款", "网联付款", "网联收款"]
    /// Words that make a CMB 对手信息 an organisation rather than a person's name.
    static let organisationWords = ["公司", "有限", "银行", "商户", "店", "集团", "中心", "财付通", "支付宝", "医院", "学校", "局"]

    /// A wallet record of `kind` whose bill category (WeChat 交易类型, Alipay 交易分类) is `category`.
    public static func wallet(_ kind: SourceKind, category: String) -> Bool {
        switch kind {
        case .wechat: return wechatTypes.contains { category.hasPrefix($0) }
        case .alipay: return alipayCategories.contains(category)
        default: return false
        }
    }

    /// A CMB debit row whose 交易摘要 is a transfer and whose 对手信息 is a personal name: two to
    /// four CJK characters (a middle dot allowed for transliterated names), no organisation word.
    public static func cmb(summary: String, counterparty: String?) -> Bool {
        guard cmbTransferWords.contains(where: { contains(summary, $0) }), !contains(summary, "还款"),
            let counterparty, !hasFiveCJK(counterparty)
        else { return false }
        let name = counterparty.filter { !$0.isWhitespace }
        let letters = name.filter { $0 != "·" && $0 != "•" }
        guard (2...4).contains(letters.count), letters.unicodeScalars.allSatisfy(isCJK) else { return false }
        return !organisationWords.contains(where: { contains(name, $0) })
    }

    /// `text.contains(word)` for a `word` of CJK ideographs. Text made only of scalars that
    /// neither combine nor have a canonical decomposition (ASCII, CJK ideographs and punctuation,
    /// full-width forms: a bank's 交易摘要) holds the word exactly when its UTF-8 bytes hold the
    /// word's bytes, which is found without the general (canonically equivalent) search; other
    /// text takes that search. The category pass asks this for every CMB row.
    static func contains(_ text: String, _ word: String) -> Bool {
        guard text.unicodeScalars.allSatisfy(isPlain) else { return text.contains(word) }
        var text = text, word = word
        return text.withUTF8 { t in
            word.withUTF8 { w in
                guard let first = w.first, w.count <= t.count else { return w.isEmpty }
                var i = 0
                while i + w.count <= t.count {
                    if t[i] == first {
                        var k = 1
                        while k < w.count && t[i + k] == w[k] { k += 1 }
                        if k == w.count { return true }
                    }
                    i += 1
                }
                return false
            }
        }
    }

    /// Five CJK ideographs are never a personal name (a company's 对手信息 is longer): no filter
    /// below removes one, and letters that are all ideographs count one Character each.
    private static func hasFiveCJK(_ text: String) -> Bool {
        var n = 0
        for s in text.unicodeScalars where isCJK(s) {
            n += 1
            if n == 5 { return true }
        }
        return false
    }

    /// A scalar that is a grapheme of its own and its own canonical decomposition.
    private static func isPlain(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x20...0x7E, 0x3000...0x3029, 0x3030...0x303F, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xFF01...0xFF5E: return true
        default: return false
        }
    }

    /// A Plaid transaction: `personal_finance_category.primary` TRANSFER_IN / TRANSFER_OUT sent
    /// through a person-to-person app (detailed `*_FROM_APPS`, or a counterparty of type
    /// `payment_app`, e.g. Zelle, Venmo) with no counterparty that sells or pays (`merchant`,
    /// `marketplace`, `payment_terminal`, `income_source`). Plaid names no `person` type (its
    /// CounterpartyType enum), so the app is the evidence.
    static func plaid(primary: String?, detailed: String?, counterpartyTypes: [String]) -> Bool {
        guard primary == "TRANSFER_IN" || primary == "TRANSFER_OUT" else { return false }
        let business: Set<String> = ["merchant", "marketplace", "payment_terminal", "income_source"]
        guard !counterpartyTypes.contains(where: business.contains) else { return false }
        return detailed?.hasSuffix("_FROM_APPS") == true || counterpartyTypes.contains("payment_app")
    }

    private static func isCJK(_ s: Unicode.Scalar) -> Bool {
        (0x4E00...0x9FFF).contains(s.value) || (0x3400...0x4DBF).contains(s.value)
    }
}
