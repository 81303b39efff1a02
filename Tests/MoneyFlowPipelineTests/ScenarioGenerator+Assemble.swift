import Foundation
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore
import MoneyFlowTestSupport

/// Turns the generated real transactions and holds into the two sources' records.
extension ScenarioGenerator {
    static func assemble(_ c: ScenarioConfig, start: LocalDate, merchants: [Merchant], real: [RealTxn], holds: [Hold]) -> Scenario {
        let cur = c.flavor.currency
        func money(_ m: Int64) -> Money { Money(minorUnits: m, currency: cur) }
        func day(_ d: Int) -> LocalDate { start.adding(days: d) }
        var realOfExternal: [String: Int] = [:]
        var realOfLocator: [String: Int] = [:]
        var expected: [Int: [String]] = [:]
        var unitOf: [Int: Int] = [:]
        var tagOf: [Int: String] = [:]
        var signatureOf: [String: String] = [:]
        for t in real { unitOf[t.id] = t.unit; tagOf[t.id] = "\(t.tag)/\(t.lifecycle.rawValue)" }
        for h in holds { unitOf[h.id] = h.id; tagOf[h.id] = h.tag }

        // Statement: posting order, running balance over every real row (a missing row breaks the chain).
        var balance: Int64 = c.flavor == .us ? 523_456 : 8_765_432
        var rows: [IncomingRecord] = []
        var rowReal: [Int] = []
        for t in real {
            balance += t.amount
            guard t.onStatement else { continue }
            let m = merchants[t.merchant]
            let desc = t.amount > 0 && m.kind == .spend ? (m.refundBank ?? m.bank) : m.bank
            let n = rows.count
            let loc = c.flavor == .us ? Locator(line: n + 2, row: n + 1) : Locator(page: n / 25 + 1, row: n % 25 + 1)
            rows.append(
                IncomingRecord(
                    accountKey: c.accountKey, sourceKind: c.flavor.statementKind, date: day(t.postDay), amount: money(t.amount),
                    description: desc, counterparty: m.counterparty, balance: money(balance), locator: loc,
                    raw: "{\"real\":\(t.id)}"))
            rowReal.append(t.id)
            let key = locatorKey(c.flavor.statementFile, line: loc.line, page: loc.page, row: loc.row)
            realOfLocator[key] = t.id
            signatureOf["bank:" + key] = "bank|\(day(t.postDay).iso)|\(t.amount)|\(desc)|\(m.counterparty ?? "")"
            expected[t.id, default: []].append("bank:" + key)
        }

        // Plaid events: (appearance day, order, record or removal).
        enum Event { case add(IncomingRecord), remove(String) }
        var events: [(day: Int, seq: Int, ev: Event)] = []
        let horizon = c.days - 1 - c.plaidLagDays
        let minDay = -8
        func page(_ d: Int) -> Int { (d - minDay) / c.pageDays }
        var seq = 0
        func plaidRecord(_ ext: String, _ m: Merchant, date: LocalDate, amount: Int64, pending: Bool, pendingID: String?, auth: LocalDate?)
            -> IncomingRecord
        {
            IncomingRecord(
                accountKey: c.accountKey, sourceKind: .plaid, date: date, amount: money(amount), description: m.plaid,
                counterparty: m.plaid, pending: pending, externalID: ext, pendingExternalID: pendingID,
                authorizedDate: auth, locator: Locator(), raw: "{}")
        }
        for t in real where t.onPlaid {
            let m = merchants[t.merchant]
            let plaidDay = t.postDay - t.plaidShift
            let ext = "tx-\(c.seed)-\(t.id)"
            let pext = ext + "-p"
            realOfExternal[ext] = t.id
            realOfExternal[pext] = t.id
            switch t.lifecycle {
            case .posted:
                guard t.postDay <= horizon else { continue }
                let auth = t.authLag.map { day(plaidDay - $0) }
                events.append(
                    (
                        t.postDay, seq,
                        .add(plaidRecord(ext, m, date: day(plaidDay), amount: t.amount, pending: false, pendingID: nil, auth: auth))
                    ))
                expected[t.id, default: []].append("plaid:" + ext)
            case .pendingThenPosted, .pendingTip:
                let authDay = plaidDay - (t.authLag ?? 0)
                let postedVisible = t.postDay <= horizon
                let samePage = postedVisible && page(authDay) == page(t.postDay)
                if !samePage && authDay <= horizon {
                    events.append(
                        (
                            authDay, seq,
                            .add(
                                plaidRecord(
                                    pext, m, date: day(authDay), amount: t.pendingAmount, pending: true, pendingID: nil, auth: day(authDay))
                            )
                        ))
                    if !postedVisible { expected[t.id, default: []].append("plaid:" + pext) }
                }
                if postedVisible {
                    let pid = t.lifecycle == .pendingThenPosted ? pext : nil
                    events.append(
                        (
                            t.postDay, seq + 1,
                            .add(
                                plaidRecord(
                                    ext, m, date: day(plaidDay), amount: t.amount, pending: false, pendingID: pid, auth: day(authDay)))
                        ))
                    if !samePage { events.append((t.postDay, seq + 2, .remove(pext))) }
                    expected[t.id, default: []].append("plaid:" + ext)
                }
            }
            seq += 3
        }
        for h in holds {
            let m = merchants[h.merchant]
            let ext = "hold-\(c.seed)-\(h.id)"
            realOfExternal[ext] = h.id
            guard h.day <= horizon else { continue }
            let removeVisible = h.removeDay <= horizon
            if removeVisible && page(h.day) == page(h.removeDay) { continue }
            events.append(
                (h.day, seq, .add(plaidRecord(ext, m, date: day(h.day), amount: h.amount, pending: true, pendingID: nil, auth: day(h.day))))
            )
            if removeVisible {
                events.append((h.removeDay, seq + 1, .remove(ext)))
            } else {
                expected[h.id, default: []].append("plaid:" + ext)
            }
            seq += 2
        }
        events.sort { ($0.day, $0.seq) < ($1.day, $1.seq) }
        var pages: [ImportedStatement] = []
        var current: (page: Int, recs: [IncomingRecord], rem: [ExternalRemoval])? = nil
        let facts = AccountFacts(
            key: c.accountKey, suggestedName: c.flavor == .us ? "Checking 1234" : "CMB 8705",
            institution: c.flavor == .us ? "Test Bank" : "招商银行", number: "1234", currencies: [cur])
        func flush() {
            guard let p = current else { return }
            pages.append(ImportedStatement(importerID: "plaid", accounts: [facts], records: p.recs, removals: p.rem))
        }
        for e in events {
            let p = page(e.day)
            if current?.page != p { flush(); current = (p, [], []) }
            switch e.ev {
            case .add(var r):
                r.locator = Locator(page: pages.count + 1, row: current!.recs.count + 1)
                signatureOf["plaid:" + r.externalID!] = "plaid|\(r.date.iso)|\(r.amount.minorUnits)|\(r.description)|pending=\(r.pending)"
                current!.recs.append(r)
            case .remove(let id):
                current!.rem.append(ExternalRemoval(externalID: id, accountKey: c.accountKey))
            }
        }
        flush()
        var sigCount: [String: Int] = [:]
        for v in signatureOf.values { sigCount[v, default: 0] += 1 }
        return Scenario(
            config: c, start: start, real: real, holds: holds, statementRows: rows, statementRealID: rowReal,
            plaidPages: pages, realOfExternal: realOfExternal, realOfLocator: realOfLocator,
            expectedActive: expected, unitOf: unitOf, tagOf: tagOf, signatureOf: signatureOf,
            ambiguousSignatures: Set(sigCount.filter { $0.value > 1 }.keys))
    }
}
