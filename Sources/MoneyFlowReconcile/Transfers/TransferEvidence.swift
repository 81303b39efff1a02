import MoneyFlowCore

/// One side of a possible transfer between two of the user's own accounts: a ledger
/// transaction as the transfer matcher sees it.
public struct TransferLeg: Sendable, Hashable {
    /// The transaction's id: identity only, never used to decide (so the outcome does not
    /// depend on the order the files were imported in).
    public var id: Int64
    public var accountID: Int64
    /// The account's number as printed (masked or full); its last four digits in the other
    /// side's text are evidence.
    public var accountNumber: String?
    /// The account is a credit card (a liability): money coming in is a repayment.
    public var accountIsCredit: Bool
    /// Accounts the user said this one moves money with (`accounts pair`).
    public var pairedAccounts: Set<Int64> = []
    public var date: LocalDate
    public var amount: Money
    /// Description, counterparty, note (the user's edits where they exist) and the source's
    /// category.
    public var text: String
    /// The feeds' own ids of the records supporting the leg (`<kind>:<external id>`): a wallet
    /// writes a move between the person's own accounts (a 零钱 top-up from a card) as one order
    /// with two legs, so a shared id is the provider's word that they are one transfer.
    public var feedIDs: Set<String>

    public init(
        id: Int64, accountID: Int64, accountNumber: String?, accountIsCredit: Bool, date: LocalDate, amount: Money, text: String,
        pairedAccounts: Set<Int64> = [], feedIDs: Set<String> = []
    ) {
        self.id = id; self.accountID = accountID; self.accountNumber = accountNumber
        self.accountIsCredit = accountIsCredit; self.date = date; self.amount = amount; self.text = text
        self.pairedAccounts = pairedAccounts; self.feedIDs = feedIDs
    }
}

/// Why an outflow and an inflow may be one transfer, and how sure that is.
///
/// Equal amounts in two accounts within days of each other happen all the time by chance (a
/// ¥100 purchase, a ¥100 refund elsewhere): the amount alone is never evidence. Evidence is what
/// the banks write on transfers: the wording (还款, 转账, AUTOPAY, TRANSFER, PAYMENT …), the
/// other account's last four digits in the text, the shape of a card repayment (money
/// leaving a bank account and arriving on a credit card), and the user's word that two
/// accounts move money between them (`accounts pair`), and a feed's one order naming both legs
/// (``TransferLeg/feedIDs``, strong on its own). Wording on one side only is strong
/// with the shape or the pairing; without them it is offered for review.
public struct TransferEvidence: Sendable, Hashable {
    /// Strong enough to link without asking, when nothing else competes.
    public var strong: Bool
    public var score: Double
    public var reasons: [MatchReason]

    /// How far apart (in days) the two legs may be: a card repayment reaches the card a few
    /// days after it leaves the bank; a slow inter-bank move takes up to a week.
    public static let windowDays = 7

    /// Words banks write on transfers and card repayments (upper-cased; ASCII ones match whole
    /// words, CJK ones anywhere).
    static let words: [String] = [
        "还款", "转账", "转入", "转出", "互转", "购汇", "汇款",
        "AUTOPAY", "AUTO PAY", "AUTOMATIC PAYMENT", "PAYMENT", "PMT", "EPAY", "TRANSFER", "XFER", "THANK YOU",
    ]

    /// Words of any transfer, to anyone (not only between own accounts): enough for a
    /// candidate of equal amount, not to propose a cross-currency pair.
    static let genericWords: Set<String> = ["转账", "转出", "汇款", "TRANSFER", "XFER"]

    /// The evidence for `out` (money out) and `into` (money in) being one transfer, or nil
    /// when there is none. The amounts, currencies and dates are the caller's business.
    public static func between(_ out: TransferLeg, _ into: TransferLeg) -> TransferEvidence? {
        between(out, into, outWord: firstWord(in: out.text), inWord: firstWord(in: into.text))
    }

    /// ``between(_:_:)`` with each side's ``firstWord(in:)`` already known (the matcher finds
    /// it once per leg, not once per pair).
    static func between(_ out: TransferLeg, _ into: TransferLeg, outWord: String?, inWord: String?) -> TransferEvidence? {
        var score = 0.0
        var reasons: [MatchReason] = []
        if let w = outWord { score += 0.3; reasons.append(MatchReason("wording", "'\(w)' on the outflow")) }
        if let w = inWord { score += 0.3; reasons.append(MatchReason("wording", "'\(w)' on the inflow")) }
        var digits = false
        if let tail = lastFour(into.accountNumber), containsNumberTail(out.text, tail) {
            digits = true; score += 0.4; reasons.append(MatchReason("account", "outflow names the other account's …\(tail)"))
        }
        if let tail = lastFour(out.accountNumber), containsNumberTail(into.text, tail) {
            digits = true; score += 0.4; reasons.append(MatchReason("account", "inflow names the other account's …\(tail)"))
        }
        let order = out.feedIDs.intersection(into.feedIDs).min()
        if let order { score += 0.5; reasons.append(MatchReason("order", "one order of the feed names both legs (\(order))")) }
        let cardRepayment = into.accountIsCredit && !out.accountIsCredit
        guard outWord != nil || inWord != nil || digits || order != nil else { return nil }
        if cardRepayment { score += 0.2; reasons.append(MatchReason("shape", "a bank account paying a credit card")) }
        let paired = out.pairedAccounts.contains(into.accountID) || into.pairedAccounts.contains(out.accountID)
        if paired { score += 0.3; reasons.append(MatchReason("account", "you paired these two accounts")) }
        let gap = abs(into.date.dayNumber - out.date.dayNumber)
        score += 0.1 * Double(windowDays - min(gap, windowDays)) / Double(windowDays)
        reasons.append(MatchReason("date", gap == 0 ? "same day" : "\(gap) day\(gap == 1 ? "" : "s") apart"))
        let bothWorded = outWord != nil && inWord != nil
        let strong = digits || order != nil || bothWorded || ((outWord != nil || inWord != nil) && (cardRepayment || paired))
        return TransferEvidence(strong: strong, score: (score * 1000).rounded() / 1000, reasons: reasons)
    }

    /// ``words`` as UTF-8 bytes, and whether each must stand as a whole (ASCII) word.
    private static let wordBytes: [(word: String, bytes: [UInt8], whole: Bool)] = words.map {
        ($0, Array($0.utf8), $0.unicodeScalars.allSatisfy(\.isASCII))
    }

    /// The first transfer word in `text`, as written in ``words``: ASCII letters compared
    /// without case, ASCII words only where no ASCII letter or digit touches them, CJK words
    /// anywhere. On UTF-8 bytes (a byte pattern of whole characters cannot match inside
    /// another character): this runs once per leg of every import.
    static func firstWord(in text: String) -> String? {
        var hay = Array(text.utf8)
        for k in hay.indices where hay[k] >= 0x61 && hay[k] <= 0x7A { hay[k] -= 0x20 }
        for w in wordBytes where occurs(w.bytes, in: hay, whole: w.whole) { return w.word }
        return nil
    }

    private static func occurs(_ needle: [UInt8], in hay: [UInt8], whole: Bool) -> Bool {
        guard let first = needle.first, needle.count <= hay.count else { return false }
        var i = 0
        while i <= hay.count - needle.count {
            if hay[i] == first {
                var k = 1
                while k < needle.count && hay[i + k] == needle[k] { k += 1 }
                if k == needle.count {
                    let end = i + needle.count
                    if !whole || (!isWordByte(i == 0 ? nil : hay[i - 1]) && !isWordByte(end < hay.count ? hay[end] : nil)) { return true }
                }
            }
            i += 1
        }
        return false
    }

    private static func isWordByte(_ b: UInt8?) -> Bool {
        guard let b else { return false }
        return (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A)
    }

    /// The last four digits of an account number, when it ends in at least four digits.
    static func lastFour(_ number: String?) -> String? {
        guard let number else { return nil }
        let tail = number.reversed().prefix { $0.isASCII && $0.isNumber }
        guard tail.count >= 4 else { return nil }
        return String(tail.prefix(4).reversed())
    }

    /// `text` has a run of digits ending in `tail` (`…4529`, `尾号4529`, a full card number),
    /// not a longer number that merely contains it in the middle.
    static func containsNumberTail(_ text: String, _ tail: String) -> Bool {
        var search = text[...]
        while let r = search.range(of: tail) {
            let after = r.upperBound == text.endIndex ? nil : text[r.upperBound]
            if !(after.map { $0.isASCII && $0.isNumber } ?? false) { return true }
            search = text[text.index(after: r.lowerBound)...]
        }
        return false
    }
}
