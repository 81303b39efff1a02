/// Where a record came from. Raw values are the `kind` strings of the JSON output contract.
public enum SourceKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// A CMB 招商银行交易流水 PDF statement (bare or inside its ZIP).
    case cmbPDF = "cmb-pdf"
    /// A CMB PC web-banking CSV export.
    case cmbCSV = "cmb-csv"
    /// A Plaid transactions feed (sync pages, get exports, bare arrays).
    case plaid = "plaid"
    /// Any other bank CSV export read through a column profile.
    case csv = "csv"
    /// An OFX/QFX download (OFX 1.x SGML or 2.x XML; bank and credit-card statements).
    case ofx = "ofx"
    /// An Alipay 支付宝交易明细 bill (CSV, bare or inside its ZIP).
    case alipay = "alipay"
    /// A WeChat Pay 微信支付账单 (XLSX or CSV, bare or inside its ZIP).
    case wechat = "wechat"

    /// What the source is to an account; generic code asks this, never the source's name.
    public var role: SourceRole { self == .plaid ? .feed : .statement }

    /// True for the bank's own records (statements and bank CSVs), whose date, amount,
    /// description and balance win in the merged view.
    public var isBankOwn: Bool { role == .statement }
}

/// The part a source plays for an account (see the store's `SourcePrecedence`).
public enum SourceRole: Sendable, Hashable {
    /// The bank's own account of it (a statement, a bank CSV, an OFX download): its dates,
    /// amounts and balances are what the account's balance is made of.
    case statement
    /// A provider's feed (Plaid): knows merchants and categories, sends pending transactions
    /// before they post.
    case feed
}

/// Where in its source file a record was read.
public struct Locator: Sendable, Hashable, Codable {
    /// 1-based physical line where the row starts (text sources).
    public var line: Int?
    /// 1-based page (PDF sources).
    public var page: Int?
    /// 1-based row within the page (PDF) or within the file's data rows.
    public var row: Int?

    public init(line: Int? = nil, page: Int? = nil, row: Int? = nil) {
        self.line = line; self.page = page; self.row = row
    }

    public var description: String {
        var parts: [String] = []
        if let page { parts.append("page \(page)") }
        if let line { parts.append("line \(line)") }
        if let row { parts.append("row \(row)") }
        return parts.joined(separator: ", ")
    }
}
