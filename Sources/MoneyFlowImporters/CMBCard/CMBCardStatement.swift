import MoneyFlowCore

/// A CMB credit-card bill (招商银行信用卡对账单) as printed, reconstructed from positioned text.
///
/// The bill prints `MM/DD` dates without a year, spending as positive amounts and credits
/// (repayments, refunds) as negative ones: this value keeps the bill's own signs; the mapping to
/// records (``importedStatement()``) turns spending into money out of the card account.
public struct CMBCardStatement: Sendable, Hashable {
    /// The title and the header facts of page 1.
    public struct Header: Sendable, Hashable {
        /// Statement month of the title `招商银行信用卡对账单（个人消费卡账户 YYYY年MM月）`.
        public var year: Int
        public var month: Int
        /// `（补）`: a copy the bank sent again. Same rows as the original bill.
        public var reissued: Bool
        /// The account named in the title (`个人消费卡账户`).
        public var accountKind: String?
        /// 卡号 as printed (masked), when the header prints it.
        public var cardNumber: String?
        /// Last four digits of the bill's (main) card.
        public var cardLast4: String
        /// 账单日 (statement date) and 到期还款日 (payment due date).
        public var statementDate: LocalDate?
        public var paymentDueDate: LocalDate?
        /// 信用额度, 本期还款总额, 本期最低还款额, as printed (CNY).
        public var creditLimit: Money?
        public var newBalance: Money?
        public var minimumPayment: Money?
        /// The terms of the bill's check: 上期账单金额, 上期还款金额, 本期账单金额, 本期调整金额, 循环利息.
        public var previousBalance: Money?
        public var previousPayment: Money?
        public var newCharges: Money?
        public var adjustment: Money?
        public var interest: Money?

        public init(year: Int, month: Int, reissued: Bool, cardLast4: String) {
            self.year = year; self.month = month; self.reissued = reissued; self.cardLast4 = cardLast4
        }
    }

    /// One transaction row of the table.
    public struct Row: Sendable, Hashable {
        /// 交易日 (empty on repayments) and 记账日, with the year taken from the statement month.
        public var sold: LocalDate?
        public var posted: LocalDate
        /// 交易摘要 as printed.
        public var description: String
        /// 人民币金额 with the bill's sign: positive = spending, negative = repayment or refund.
        public var rmbAmount: Money
        /// 卡号末四位; nil when the cell is empty.
        public var card: String?
        /// 交易地金额 as a plain decimal (sign kept, `,` removed) and its region code (`US`).
        public var originalAmount: String?
        public var originalRegion: String?
        /// The section label row above this row (还款, 退款, 消费, ...), when one was printed.
        public var section: String?
        /// 1-based page of the PDF bill; 0 for the e-statement (HTML), which has no pages.
        public var page: Int
        /// 1-based transaction row number within its page, or within the e-statement's table
        /// (label rows not counted).
        public var rowOnPage: Int
        /// Cells as printed, for audit (`raw`).
        public var printedSold: String
        public var printedPosted: String
        public var printedAmount: String
        public var printedOriginal: String

        /// The date the record carries: 交易日, or 记账日 when the bill prints none (repayments).
        public var date: LocalDate { sold ?? posted }

        /// A repayment: a row of the 还款 section, or without a section a credit with no 交易日.
        public var isRepayment: Bool { section == "还款" || (section == nil && sold == nil && rmbAmount.minorUnits < 0) }
    }

    public var header: Header
    /// Rows in bill order (page, then top to bottom).
    public var rows: [Row]
    public var pageCount: Int
    /// Integrity observations: a failing check, text in the table that is no row, a missing `[END]`.
    public var warnings: [ImportWarning]
    /// When the header prints no card and several cards are equally the bill's own by its rows
    /// (no repayment row tells them apart, as many rows each): those cards, the one taken
    /// (`header.cardLast4`) first. Empty when the bill's card is certain.
    public var cardCandidates: [String] = []
}
