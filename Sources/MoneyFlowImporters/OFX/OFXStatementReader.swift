import Foundation
import MoneyFlowCore

/// Turns `STMTRS`/`CCSTMTRS` aggregates into account facts and records.
struct OFXStatementReader {
    let file: String
    let org: String?
    let fid: String?
    let version: String?
    private(set) var records: [IncomingRecord] = []
    private(set) var warnings: [ImportWarning] = []
    private(set) var balances: [OFXBalanceCheck.Statement] = []
    private var facts: [AccountFacts] = []
    /// FITIDs seen per account key, with the index of their record (duplicates across
    /// overlapping statements of one file).
    private var seen: [String: [String: Int]] = [:]

    init(file: String, org: String?, fid: String?, version: String?) {
        self.file = file; self.org = org; self.fid = fid; self.version = version
    }

    func accountFacts() -> [AccountFacts] { facts }

    func error(_ e: OFXElement, _ element: String, _ problem: String) -> ImportError {
        ImportError(.malformed, file: file, locator: Locator(line: e.line), column: element, problem: problem)
    }

    func required(_ e: OFXElement, _ path: String, in what: String) throws -> String {
        guard let v = e.leaf(path) else {
            throw error(e, path, "\(what) has no <\(path.split(separator: "/").last!)>; the file is incomplete: download it again")
        }
        return v
    }

    mutating func read(_ s: OFXElement) throws {
        let isCard = s.name == "CCSTMTRS"
        let what = isCard ? "credit-card statement" : "bank statement"
        let currency = try required(s, "CURDEF", in: "the \(what)").uppercased()
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw error(s, "CURDEF", "'\(currency)' is not an ISO 4217 currency code")
        }
        let acctAgg = isCard ? "CCACCTFROM" : "BANKACCTFROM"
        guard let acct = s.child(acctAgg) else { throw error(s, acctAgg, "the \(what) names no account (<\(acctAgg)>); download it again") }
        let acctID = try required(acct, "ACCTID", in: "<\(acctAgg)>")
        let acctType = isCard ? "CREDITCARD" : (acct.leaf("ACCTTYPE") ?? "").uppercased()
        let bankID = acct.leaf("BANKID")
        let last4 = String(acctID.filter { $0.isNumber || $0.isLetter }.suffix(4))
        let (type, subtype) = Self.accountType(acctType)
        // The key never holds the full account number: last 4 plus a hash of the full one.
        let tag = Self.hashHex("\(isCard ? "cc" : "bank")|\(bankID ?? "")|\(acctID)")
        let key = "ofx:\(type):\(last4):\(tag)"
        let institution = org ?? bankID
        let short = org ?? (isCard ? "OFX Card" : "OFX \(type.capitalized)")

        var details: [String: String] = acctType.isEmpty ? [:] : ["ofx_account_type": acctType]
        if let version { details["ofx_version"] = version }
        if let fid { details["ofx_fid"] = fid }
        if let bankID { details["bank_id"] = bankID }
        if let v = s.leaf("BANKTRANLIST/DTSTART") { details["statement_start"] = v }
        if let v = s.leaf("BANKTRANLIST/DTEND") { details["statement_end"] = v }
        let ledger = try balance(s, "LEDGERBAL", currency: currency)
        let available = try balance(s, "AVAILBAL", currency: currency)
        if let ledger { details["ledger_balance"] = ledger.amount.decimalString; details["ledger_balance_as_of"] = ledger.asOf.iso }
        if let available {
            details["available_balance"] = available.amount.decimalString; details["available_balance_as_of"] = available.asOf.iso
        }

        var ids = Set<String>()
        for t in s.child("BANKTRANLIST")?.children("STMTTRN") ?? [] {
            guard var r = try record(t, accountKey: key, currency: currency, tag: tag) else { continue }
            r.locator.row = records.count + 1
            ids.insert(r.externalID!)
            if let prev = seen[key]?[r.externalID!] {
                if !Self.sameRow(records[prev], r) {
                    warnings.append(
                        ImportWarning(
                            "FITID \(t.leaf("FITID")!) appears twice in account \(short) \(last4) with different details; the later one is kept",
                            at: Locator(line: t.line)))
                }
                records[prev] = r // the engine keeps the last version of an id
                continue
            }
            seen[key, default: [:]][r.externalID!] = records.count
            records.append(r)
        }
        balances.append(
            OFXBalanceCheck.Statement(
                accountKey: key, name: "\(short) \(last4)", line: s.line,
                ledger: ledger.map { ($0.amount, $0.asOf) }, externalIDs: ids))
        let currencies = Array(Set([currency] + records.filter { ids.contains($0.externalID!) }.map(\.amount.currency))).sorted()
        if let i = facts.firstIndex(where: { $0.key == key }) {
            facts[i].currencies = Array(Set(facts[i].currencies + currencies)).sorted()
            if let ledger, (facts[i].details["ledger_balance_as_of"] ?? "") <= ledger.asOf.iso {
                facts[i].currentBalance = ledger.amount; facts[i].availableBalance = available?.amount; facts[i].details = details
            }
            return
        }
        facts.append(
            AccountFacts(
                key: key, suggestedName: "\(short) \(last4)", institution: institution, number: last4,
                type: type, subtype: subtype, currencies: currencies,
                currentBalance: ledger?.amount, availableBalance: available?.amount, details: details))
    }

    /// One `STMTTRN`, or nil for nothing to record. Throws for a value we cannot stand behind.
    func record(_ t: OFXElement, accountKey: String, currency: String, tag: String) throws -> IncomingRecord? {
        if let action = t.leaf("CORRECTACTION") {
            throw ImportError(
                .rejected, file: file, locator: Locator(line: t.line), column: "CORRECTACTION",
                problem:
                    "this transaction corrects FITID \(t.leaf("CORRECTFITID") ?? "?") (\(action)); OFX corrections are not applied yet: import a download made after the correction, or fix the transaction with `moneyflow edit`"
            )
        }
        let fitid = try required(t, "FITID", in: "the transaction")
        let postedText = try required(t, "DTPOSTED", in: "the transaction")
        let posted = try date(t, "DTPOSTED", postedText)
        let user = try t.leaf("DTUSER").map { try date(t, "DTUSER", $0) }
        var amountCurrency = currency
        var raw: [String: String] = [:]
        for c in t.children where !c.name.hasPrefix("INTU.") {
            if let v = c.value {
                raw[c.name] = v
            } else {
                for g in c.children where g.value != nil { raw["\(c.name)/\(g.name)"] = g.value! }
            }
        }
        // A transfer's other account (BANKACCTTO/ACCTID ...) is kept as its last 4 only.
        for (k, v) in raw where k.hasSuffix("ACCTID") { raw[k] = "…" + String(v.suffix(4)) }
        // CURRENCY: the amounts are in that currency. ORIGCURRENCY: converted to CURDEF (kept raw).
        if let cur = t.child("CURRENCY") {
            let sym = try required(cur, "CURSYM", in: "<CURRENCY>").uppercased()
            guard sym.count == 3, sym.allSatisfy({ $0.isASCII && $0.isLetter }) else {
                throw error(cur, "CURSYM", "'\(sym)' is not an ISO 4217 currency code")
            }
            amountCurrency = sym
        }
        let amountText = try required(t, "TRNAMT", in: "the transaction")
        let amount: Money
        do throws(OFXValues.ValueError) { amount = try OFXValues.amount(amountText, currency: amountCurrency) } catch {
            throw self.error(t.child("TRNAMT") ?? t, "TRNAMT", "\(error.reason); fix the amount or download the file again")
        }
        let name = t.leaf("NAME") ?? t.leaf("PAYEE/NAME")
        let memo = t.leaf("MEMO")
        let check = t.leaf("CHECKNUM")
        let description = name ?? memo ?? check.map { "CHECK \($0)" } ?? (t.leaf("TRNTYPE") ?? "OFX transaction")
        var note = memo != description ? memo : nil
        if let check, !description.contains(check) { note = [note, "check \(check)"].compactMap { $0 }.joined(separator: "; ") }
        // No `time`: banks print placeholder times (120000) more often than real ones; DTPOSTED stays raw.
        return IncomingRecord(
            accountKey: accountKey, sourceKind: .ofx, date: posted.date, amount: amount, description: description,
            note: note, pending: false, externalID: fitid, authorizedDate: user?.date,
            category: nil, time: nil, locator: Locator(line: t.line), raw: JSONText.object(raw), externalIDScope: tag)
    }

    func date(_ e: OFXElement, _ element: String, _ text: String) throws -> OFXValues.DateValue {
        switch OFXValues.date(text) {
        case .success(let d): return d
        case .failure(let f):
            throw error(e.child(element) ?? e, element, "invalid date '\(text.prefix(40))': \(f.reason); fix it or download the file again")
        }
    }

    func balance(_ s: OFXElement, _ agg: String, currency: String) throws -> (amount: Money, asOf: LocalDate)? {
        guard let b = s.child(agg) else { return nil }
        let amountText = try required(b, "BALAMT", in: "<\(agg)>")
        let amount: Money
        do throws(OFXValues.ValueError) { amount = try OFXValues.amount(amountText, currency: currency) } catch {
            throw self.error(b, "\(agg)/BALAMT", "\(error.reason); fix the balance or download the file again")
        }
        let asOf = try date(b, "DTASOF", try required(b, "DTASOF", in: "<\(agg)>"))
        return (amount, asOf.date)
    }

    static func accountType(_ acctType: String) -> (String, String?) {
        switch acctType {
        case "CREDITCARD": return ("credit", "credit card")
        case "CREDITLINE": return ("credit", "line of credit")
        case "SAVINGS": return ("savings", nil)
        case "MONEYMRKT": return ("savings", "money market")
        case "CHECKING": return ("checking", nil)
        default: return ("bank", nil) // ACCTTYPE missing or unknown: not guessed
        }
    }

    static func sameRow(_ a: IncomingRecord, _ b: IncomingRecord) -> Bool {
        a.date == b.date && a.amount == b.amount && a.description == b.description && a.note == b.note
    }

    /// FNV-1a 64 as 8 hex digits: a stable tag that keeps full account numbers out of keys and ids.
    static func hashHex(_ s: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in s.utf8 { h ^= UInt64(b); h = h &* 0x100_0000_01b3 }
        let hex = String(h >> 32, radix: 16)
        return String(repeating: "0", count: 8 - hex.count) + hex
    }
}
