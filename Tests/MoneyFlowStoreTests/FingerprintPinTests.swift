import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

/// Fingerprints are stored in every store in the wild (`record.fingerprint`): a re-import only
/// matches what an earlier version stored when the strings are byte-identical. These tests pin
/// the exact output, and compare the (optimised) implementation with the original one.
@Suite struct FingerprintPinTests {
    static func rec(
        _ desc: String, _ minor: Int64, _ cur: String = "USD", date: (Int, Int, Int) = (2024, 3, 7),
        cp: String? = nil, note: String? = nil, bal: Int64? = nil, ext: String? = nil,
        account: String = "acct:1", kind: SourceKind = .csv
    ) -> IncomingRecord {
        IncomingRecord(
            accountKey: account, sourceKind: kind, date: LocalDate(year: date.0, month: date.1, day: date.2)!,
            amount: Money(minorUnits: minor, currency: cur), description: desc, counterparty: cp, note: note,
            balance: bal.map { Money(minorUnits: $0, currency: cur) }, externalID: ext, locator: Locator(row: 1))
    }

    static let pinnedRecords: [IncomingRecord] = [
        rec("COFFEE SHOP  #12", -450),
        rec("COFFEE SHOP  #12", -450), // identical row: occurrence 1
        rec("  COFFEE\tSHOP #12 ", -450, cp: "", note: nil), // same identity text: occurrence 2
        rec("COFFEE SHOP #12", -450, account: "acct:2"), // other account: occurrence 0
        rec("COFFEE SHOP #12", -450, kind: .cmbCSV), // other kind: occurrence 0
        rec("Payroll", 250_000, cp: "ACME  Corp\r\nInc", note: "  memo\u{0B}x ", bal: 1_234_567),
        rec("Zero", 0, bal: -5),
        rec("Tiny", -7, "JPY", bal: 0),
        rec("Dinar", 12_345, "KWD", bal: -1),
        rec("Dinar", -5, "kwd"),
        rec("快捷支付", -12_800, "CNY", date: (2023, 12, 31), cp: "财付通-微信支付-美团", note: "　扣款\u{3000}摘要　", bal: 9_876_543),
        rec("转账\u{00A0}汇款 ", 1_000_000, "CNY", cp: "张三\u{2003}李四", bal: 50),
        rec("Caf\u{E9}  Cr\u{E8}me", -1_250, "EUR", date: (2024, 2, 29)),
        rec("Cafe\u{301} x \u{301}y", -1, "EUR"), // combining mark after a space
        rec("tab\u{85}nel \u{2028} sep\u{2029}", 3),
        rec("emoji 👍🏽  ok \u{200D} z", 99),
        rec("", -1),
        rec("   ", -1, cp: " ", note: "\n", bal: nil),
        rec("Plaid thing", -2_000, ext: "txn_ABC123", kind: .plaid),
        rec("Plaid thing", -2_000, ext: "txn_ABC123", kind: .plaid),
        rec("Empty ext id", -2_000, ext: ""),
        rec("Old", -1, date: (1, 1, 1)),
        rec("Far", Int64.max, "USD", date: (9999, 12, 31)),
        rec("Min", Int64.min + 1, "USD"),
        rec("sep\u{1F}inside\u{1E}x", 5, cp: "a\u{1F}b"),
        rec("Caf\u{E9}", -1, note: "x"),
        rec("Cafe\u{301}", -1, note: "x"), // canonically equivalent: occurrence 1
    ]

    /// Output of `Fingerprint.keys(for: pinnedRecords)` before the fast path (commit 7720340).
    static let pinnedKeys: [String] = [
        "2024-03-07|-4.50|USD|COFFEE SHOP #12\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-4.50|USD|COFFEE SHOP #12\u{1F}\u{1F}\u{1F}|#1",
        "2024-03-07|-4.50|USD|COFFEE SHOP #12\u{1F}\u{1F}\u{1F}|#2",
        "2024-03-07|-4.50|USD|COFFEE SHOP #12\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-4.50|USD|COFFEE SHOP #12\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|2500.00|USD|Payroll\u{1F}ACME Corp Inc\u{1F}memo x\u{1F}12345.67|#0",
        "2024-03-07|0.00|USD|Zero\u{1F}\u{1F}\u{1F}-0.05|#0",
        "2024-03-07|-7|JPY|Tiny\u{1F}\u{1F}\u{1F}0|#0",
        "2024-03-07|12.345|KWD|Dinar\u{1F}\u{1F}\u{1F}-0.001|#0",
        "2024-03-07|-0.005|KWD|Dinar\u{1F}\u{1F}\u{1F}|#0",
        "2023-12-31|-128.00|CNY|快捷支付\u{1F}财付通-微信支付-美团\u{1F}扣款 摘要\u{1F}98765.43|#0",
        "2024-03-07|10000.00|CNY|转账 汇款\u{1F}张三 李四\u{1F}\u{1F}0.50|#0",
        "2024-02-29|-12.50|EUR|Caf\u{E9} Cr\u{E8}me\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-0.01|EUR|Cafe\u{301} x y\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|0.03|USD|tab nel sep\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|0.99|USD|emoji 👍🏽 ok z\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-0.01|USD|\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-0.01|USD|\u{1F}\u{1F}\u{1F}|#1",
        "id:txn_ABC123",
        "id:txn_ABC123",
        "2024-03-07|-20.00|USD|Empty ext id\u{1F}\u{1F}\u{1F}|#0",
        "0001-01-01|-0.01|USD|Old\u{1F}\u{1F}\u{1F}|#0",
        "9999-12-31|92233720368547758.07|USD|Far\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|-92233720368547758.07|USD|Min\u{1F}\u{1F}\u{1F}|#0",
        "2024-03-07|0.05|USD|sep\u{1F}inside\u{1E}x\u{1F}a\u{1F}b\u{1F}\u{1F}|#0",
        "2024-03-07|-0.01|USD|Caf\u{E9}\u{1F}\u{1F}x\u{1F}|#0",
        "2024-03-07|-0.01|USD|Cafe\u{301}\u{1F}\u{1F}x\u{1F}|#1",
    ]

    @Test func fingerprintsArePinned() {
        // The pins are what the original code produced.
        for (i, (r, p)) in zip(Self.referenceKeys(Self.pinnedRecords), Self.pinnedKeys).enumerated() {
            #expect(Array(r.utf8) == Array(p.utf8), "pin \(i): reference gives \(r.debugDescription)")
        }
        let keys = Fingerprint.keys(for: Self.pinnedRecords)
        #expect(keys.count == Self.pinnedKeys.count)
        for (i, (k, p)) in zip(keys, Self.pinnedKeys).enumerated() {
            #expect(Array(k.utf8) == Array(p.utf8), "record \(i): got \(k.debugDescription), pinned \(p.debugDescription)")
        }
        for (i, r) in Self.pinnedRecords.enumerated() where r.externalID?.isEmpty ?? true {
            #expect(Array(r.identityText.utf8) == Array(Self.referenceIdentityText(r).utf8), "identityText of record \(i)")
        }
    }

    // MARK: Reference implementation (the original code, kept verbatim for comparison)

    static func referenceIdentityText(_ r: IncomingRecord) -> String {
        let parts = [r.description, r.counterparty ?? "", r.note ?? "", r.balance?.decimalString ?? ""]
        return parts.map { $0.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ") }
            .joined(separator: "\u{1F}")
    }

    static func referenceKey(_ record: IncomingRecord, occurrence: Int) -> String {
        if let id = record.externalID, !id.isEmpty { return "id:" + id }
        return "\(record.date.iso)|\(record.amount.decimalString)|\(record.amount.currency)|\(referenceIdentityText(record))|#\(occurrence)"
    }

    static func referenceKeys(_ records: [IncomingRecord]) -> [String] {
        var seen: [String: Int] = [:]
        return records.map { r in
            let base = "\(r.accountKey)\u{1E}\(r.sourceKind.rawValue)\u{1E}\(referenceKey(r, occurrence: 0))"
            let n = seen[base, default: 0]
            seen[base] = n + 1
            return referenceKey(r, occurrence: n)
        }
    }

    /// Text the byte-level fast path handles (ASCII, Latin, CJK, full-width, every whitespace).
    static let plainAlphabet: [String] = [
        "a", "Z", "0", "#", "-", "/", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}",
        "\u{A0}", "\u{1680}", "\u{2002}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}",
        "\u{3000}", "快", "捷", "支付", "（", "）", "￥", "ｱ", "é", "ß", "\u{AD}", "\u{2013}", "\u{20AC}",
        "\u{7F}", "\u{1F}", "。", "ー", "か", "\u{1}",
    ]

    @Test(arguments: [false, true])
    func fastPathMatchesTheReferenceOnRandomText(plainOnly: Bool) {
        // Characters chosen to hit every branch: ASCII whitespace (incl. CR LF), Unicode
        // whitespace, CJK, full-width forms, combining marks after spaces, ZWJ, emoji, Prepend.
        let alphabet: [String] =
            plainOnly
            ? Self.plainAlphabet
            : [
                "a", "Z", "0", "#", "-", " ", "  ", "\t", "\n", "\r", "\r\n", "\u{0B}", "\u{0C}", "\u{85}",
                "\u{A0}", "\u{1680}", "\u{2002}", "\u{200A}", "\u{2028}", "\u{2029}", "\u{202F}", "\u{205F}",
                "\u{3000}", "快", "捷", "支付", "（", "）", "￥", "\u{FF9E}", "ｱ", "\u{301}", "\u{200D}", "\u{200C}",
                "👍", "🏽", "\u{600}", "é", "\u{E9}", "ß", "\u{1F}", "\u{1E}", "\u{302A}", "\u{3099}", "한", "\u{1100}",
                "\u{FE0F}", "\u{AD}", "\u{2013}", "\u{20AC}", "\u{7F}", "\u{0}",
            ]
        var rng = SplitMix64(seed: plainOnly ? 7 : 42)
        func text() -> String {
            var s = ""
            for _ in 0..<Int(rng.next() % 9) { s += alphabet[Int(rng.next() % UInt64(alphabet.count))] }
            return s
        }
        var records: [IncomingRecord] = []
        let currencies = ["USD", "CNY", "JPY", "KWD", "eur"]
        for i in 0..<4000 {
            let cur = currencies[Int(rng.next() % 5)]
            let minor = Int64(bitPattern: rng.next()) % (i % 3 == 0 ? 1_000 : 10_000_000_000)
            let hasBal = rng.next() % 2 == 0
            records.append(
                Self.rec(
                    text(), minor, cur, date: (2020 + Int(rng.next() % 3), 1 + Int(rng.next() % 12), 1 + Int(rng.next() % 28)),
                    cp: rng.next() % 3 == 0 ? nil : text(), note: rng.next() % 3 == 0 ? nil : text(),
                    bal: hasBal ? Int64(bitPattern: rng.next()) % 100_000 : nil,
                    ext: rng.next() % 10 == 0 ? "ext\(rng.next() % 50)" : nil,
                    account: "acct:\(rng.next() % 2)", kind: rng.next() % 2 == 0 ? .csv : .plaid))
        }
        // Duplicates, so occurrence numbering is exercised.
        records += records.prefix(500)
        if plainOnly {
            // An account key holding U+001E takes the original (concatenating) path.
            for i in stride(from: 0, to: records.count, by: 97) { records[i].accountKey = "acct\u{1E}csv\u{1E}x" }
        }
        let fast = Fingerprint.keys(for: records)
        let reference = Self.referenceKeys(records)
        var mismatches = 0
        for i in records.indices where Array(fast[i].utf8) != Array(reference[i].utf8) {
            mismatches += 1
            if mismatches <= 5 { Issue.record("record \(i): \(fast[i].debugDescription) vs reference \(reference[i].debugDescription)") }
        }
        #expect(mismatches == 0)
        for r in records.prefix(1000) {
            #expect(Array(r.identityText.utf8) == Array(Self.referenceIdentityText(r).utf8))
            #expect(Array(Fingerprint.key(for: r, occurrence: 3).utf8) == Array(Self.referenceKey(r, occurrence: 3).utf8))
        }
    }

    /// A large file's keys are spelled on several cores (contiguous runs of records): identical
    /// rows on both sides of a run's end still number their occurrences in file order.
    @Test func largeFilesNumberOccurrencesAcrossCores() {
        var records: [IncomingRecord] = []
        for i in 0..<120_000 {
            records.append(
                Self.rec(
                    "COFFEE \(i % 5)", -450 - Int64(i % 3), date: (2024, 1 + i % 2, 1 + i % 3), ext: i % 1000 == 0 ? "p\(i)" : nil,
                    account: "acct:\(i % 2)", kind: i % 7 == 0 ? .plaid : .csv))
        }
        let fast = Fingerprint.keys(for: records)
        let reference = Self.referenceKeys(records)
        #expect(fast.count == reference.count)
        let mismatches = zip(fast, reference).filter { $0.0 != $0.1 }
        let first = mismatches.first.map { "\($0.0.debugDescription) vs reference \($0.1.debugDescription)" } ?? ""
        #expect(mismatches.count == 0, "first: \(first)")
    }
}
