import Foundation
import MoneyFlowCore

/// The records, accounts and warnings of one wallet bill as they are read, with the fields every
/// wallet record shares (see the wallet contract in the README's *Alipay and WeChat Pay bills*):
/// the order number as the external id, the wallet's day and second, merchant, item, category,
/// and every column kept raw.
struct WalletBill {
    let platform: SourceKind
    /// The platform account of the bill (Alipay 支付宝账户, WeChat 微信昵称).
    let holder: String
    let file: String
    private(set) var accounts: [AccountFacts] = []
    private var accountKeys: Set<String> = []
    private(set) var records: [IncomingRecord] = []
    private(set) var warnings: [ImportWarning] = []

    init(platform: SourceKind, holder: String, file: String) {
        self.platform = platform; self.holder = holder; self.file = file
    }

    /// What every record of one row has in common.
    struct Fields {
        var date: LocalDate
        var time: String
        var orderID: String
        var counterparty: String?
        var description: String
        var note: String?
        var category: String?
        var raw: String
        var locator: Locator
    }

    /// Reads the shared fields; a time or an order number that is not one is an error naming the row.
    func fields(
        _ row: WalletRow, time timeColumn: String, item: String, order: String, note: String?, category: String?, method: String,
        status: String
    ) throws -> Fields {
        let stamp = row[timeColumn]
        guard let (date, time) = Self.dateTime(stamp) else {
            throw error(row, column: timeColumn, "'\(stamp.prefix(40))' is not a time (YYYY-MM-DD HH:MM:SS)")
        }
        let orderID = String(row[order].unicodeScalars.filter { !CharacterSet.whitespacesAndNewlines.contains($0) })
        guard !orderID.isEmpty, orderID != "/" else { throw error(row, column: order, "no order number") }
        let counterparty = row.optional("交易对方")
        return Fields(
            date: date, time: time, orderID: orderID, counterparty: counterparty,
            description: row.optional(item) ?? counterparty ?? row[category ?? item], note: note.flatMap { row.optional($0) },
            category: category.flatMap { row.optional($0) }, raw: row.raw(method: method, status: status), locator: row.locator)
    }

    /// `2025-03-01 12:34:56` (the wallet's own clock, UTC+8: the printed day is the day).
    static func dateTime(_ s: String) -> (LocalDate, String)? {
        let parts = s.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2, let date = LocalDate(iso: parts[0], .exact) ?? LocalDate(iso: parts[0], .exact(separators: "/")) else {
            return nil
        }
        let t = parts[1].split(separator: ":", omittingEmptySubsequences: false)
        guard t.count == 3 || t.count == 2, t.allSatisfy({ $0.count == 2 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }),
            let h = Int(t[0]), h < 24, let m = Int(t[1]), m < 60, t.count == 2 || Int(t[2])! < 60
        else { return nil }
        return (date, t.count == 2 ? "\(t[0]):\(t[1]):00" : String(parts[1]))
    }

    /// The amount of column `column` in fen, exactly as printed (`28.16`, `¥28.16`); never negative.
    func amount(_ row: WalletRow, column: String) throws -> Int64 {
        let text = row[column]
        let minor: Int64
        do { minor = try Money.parseMinorUnits(text, exponent: 2) } catch {
            throw self.error(row, column: column, "'\(text.prefix(40))' is not an amount: \(error.reason)")
        }
        guard minor >= 0 else { throw self.error(row, column: column, "negative amount '\(text)' (the bill prints amounts positive)") }
        return minor
    }

    func error(_ row: WalletRow, column: String? = nil, _ problem: String) -> ImportError {
        ImportError(.malformed, file: file, locator: row.locator, column: column, problem: problem)
    }

    /// A row this importer does not turn into money: said, with its order number, never guessed.
    mutating func warn(_ row: WalletRow, _ message: String) {
        warnings.append(ImportWarning(message, at: row.locator))
    }

    /// One record of `f` in `account`: `minor` signed for that account (negative = out of it).
    mutating func add(
        _ f: Fields, account: WalletAccount, minor: Int64, scope: String? = nil, description: String? = nil, category: String? = nil
    ) {
        let facts = account.facts(platform: platform, holder: holder)
        if accountKeys.insert(facts.key).inserted { accounts.append(facts) }
        records.append(
            IncomingRecord(
                accountKey: facts.key, sourceKind: platform, date: f.date, amount: Money(minorUnits: minor, currency: "CNY"),
                description: description ?? f.description, counterparty: f.counterparty, note: f.note, externalID: f.orderID,
                category: category ?? f.category, time: f.time, locator: f.locator, raw: f.raw, externalIDScope: scope))
    }

    /// A move between two of the person's own accounts: two records, the out leg and the in leg,
    /// told apart by their scope (the transfer pass pairs them; the card leg links to the bank's row).
    mutating func move(_ f: Fields, from: WalletAccount, to: WalletAccount, minor: Int64) {
        add(f, account: from, minor: -minor, scope: "out")
        add(f, account: to, minor: minor, scope: "in")
    }

    func statement(importerID: String) -> ImportedStatement {
        ImportedStatement(importerID: importerID, accounts: accounts, records: records, warnings: warnings)
    }
}
