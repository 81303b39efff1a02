import MoneyFlowCore

/// A CMB 招商银行交易流水 statement as printed, reconstructed from positioned text.
public struct CMBStatement: Sendable, Hashable {
    /// Generation of the statement layout.
    public enum Layout: String, Sendable, Hashable, Codable {
        /// 2020 and earlier: `人民币` currency cells, `电子流水号` serial number, 10 pt font.
        case v2020 = "2020"
        /// 2024 and later: ISO currency codes, `申请时间` / `验证码`, 8.25 pt font.
        case v2024 = "2024"
    }

    /// The header block of page 1.
    public struct Header: Sendable, Hashable {
        /// 户名 holder name.
        public var name: String?
        /// 账号 exactly as printed (usually masked: `6214********8705`).
        public var accountNumber: String
        /// 账户类型 (`ALL/全币种`, ...).
        public var accountType: String?
        /// 开户行 branch.
        public var branch: String?
        public var periodStart: LocalDate?
        public var periodEnd: LocalDate?
        /// 申请时间 `YYYY-MM-DD HH:MM:SS` (2024 layout).
        public var appliedAt: String?
        /// 电子流水号 (2020 layout).
        public var serialNumber: String?
        /// 验证码 (2024 layout).
        public var verificationCode: String?
        public var layout: Layout

        public init(
            name: String? = nil, accountNumber: String, accountType: String? = nil, branch: String? = nil,
            periodStart: LocalDate? = nil, periodEnd: LocalDate? = nil, appliedAt: String? = nil,
            serialNumber: String? = nil, verificationCode: String? = nil, layout: Layout
        ) {
            self.name = name; self.accountNumber = accountNumber; self.accountType = accountType
            self.branch = branch; self.periodStart = periodStart; self.periodEnd = periodEnd
            self.appliedAt = appliedAt; self.serialNumber = serialNumber
            self.verificationCode = verificationCode; self.layout = layout
        }
    }

    /// One transaction row.
    public struct Row: Sendable, Hashable {
        /// 记账日期 posting date.
        public var date: LocalDate
        /// 货币 as an ISO 4217 code (`人民币` -> `CNY`).
        public var currency: String
        /// 交易金额, negative = money out.
        public var amount: Money
        /// 联机余额 after this row.
        public var balance: Money
        /// 交易摘要 exactly as printed (wrapped fragments joined without spaces).
        public var description: String
        /// 对手信息, wrapped fragments joined without inventing spaces; nil when empty.
        public var counterparty: String?
        /// 客户摘要; nil when empty or when the column is absent.
        public var note: String?
        /// 1-based page number.
        public var page: Int
        /// 1-based row number within its page.
        public var rowOnPage: Int
        /// The date, currency, amount and balance cells as printed.
        public var printed: PrintedCells

        public init(
            date: LocalDate, currency: String, amount: Money, balance: Money, description: String,
            counterparty: String?, note: String?, page: Int, rowOnPage: Int, printed: PrintedCells
        ) {
            self.date = date; self.currency = currency; self.amount = amount; self.balance = balance
            self.description = description; self.counterparty = counterparty; self.note = note
            self.page = page; self.rowOnPage = rowOnPage; self.printed = printed
        }
    }

    /// Cells as printed, for audit (`raw`).
    public struct PrintedCells: Sendable, Hashable {
        public var date: String
        public var currency: String
        public var amount: String
        public var balance: String
        public init(date: String, currency: String, amount: String, balance: String) {
            self.date = date; self.currency = currency; self.amount = amount; self.balance = balance
        }
    }

    /// One line of the 合并统计 block: per-currency income and expense totals.
    public struct CurrencyTotal: Sendable, Hashable {
        public var currency: String
        /// Sum of money in (positive).
        public var income: Money
        /// Sum of money out (negative, as printed).
        public var expense: Money
        public init(currency: String, income: Money, expense: Money) {
            self.currency = currency; self.income = income; self.expense = expense
        }
    }

    public var header: Header
    /// Rows in document order (page, then top to bottom).
    public var rows: [Row]
    /// Totals of the 合并统计 block, when the statement has one.
    public var totals: [CurrencyTotal]
    /// `M` of the `N/M` page markers, when printed.
    public var declaredPageCount: Int?
    /// Number of pages read.
    public var pageCount: Int
    /// Integrity observations (balance-chain breaks, totals or page-count mismatches, stray text).
    public var warnings: [ImportWarning]

    public init(
        header: Header, rows: [Row], totals: [CurrencyTotal], declaredPageCount: Int?, pageCount: Int,
        warnings: [ImportWarning]
    ) {
        self.header = header; self.rows = rows; self.totals = totals
        self.declaredPageCount = declaredPageCount; self.pageCount = pageCount; self.warnings = warnings
    }

    /// Currencies of the rows, in order of first appearance.
    public var currencies: [String] {
        var seen = Set<String>()
        var out: [String] = []
        for r in rows where seen.insert(r.currency).inserted { out.append(r.currency) }
        return out
    }
}
