import Foundation
import MoneyFlowCore

extension CSVImporter {
    /// Reads the rows after the header into records, streaming them from `source`.
    ///
    /// Every row must have the header's width; dates are parsed once the whole file's date
    /// format is known (see ``CSVDateInference``); printed balances are checked as a chain
    /// (see ``BalanceChain``).
    ///
    /// `sniffed`: the profile was picked by matching the header (not named by the user), so its
    /// date order is checked against the rows (see ``CSVDateInference/checkSniffedFormat``).
    static func read(
        source: inout CSVSource, headerIndex: Int?, columns: Columns, profile p: CSVProfile, sniffed: Bool,
        file: String
    ) throws -> ImportedStatement {
        let firstDataRow = headerIndex.map { $0 + 1 } ?? 0
        let preamble = headerIndex.map { Array(source.head[..<$0]) } ?? []
        func colName(_ ref: ColumnRef?) -> String {
            guard let i = columns.index(ref) else { return ref?.description ?? "?" }
            if i < columns.header.count, headerIndex != nil { return clean(columns.header[i]) }
            return String(i + 1)
        }
        let dateIdx = columns.index(p.dateColumn)!
        let fallbackDateIdx = columns.index(p.fallbackDateColumn)
        let descIdx = columns.index(p.descriptionColumn)!
        let amountIdx = columns.index(p.amountColumn)
        let debitIdx = columns.index(p.debitColumn)
        let creditIdx = columns.index(p.creditColumn)
        let directionIdx = columns.index(p.directionColumn)
        let balanceIdx = columns.index(p.balanceColumn)
        let currencyIdx = columns.index(p.currencyColumn)
        let accountNumberIdx = columns.index(p.accountNumberColumn)
        let needed = [dateIdx, descIdx, amountIdx ?? 0, debitIdx ?? 0, creditIdx ?? 0].max()! + 1
        let decimalSeparator: Character = p.decimalSeparator.first ?? "."
        let rawKeys = headerIndex != nil ? columns.header.map(clean) : []

        func isSkippable(_ r: CSVRow) -> Bool {
            guard let first = r.fields.lazy.map(clean).first(where: { !$0.isEmpty }) else { return true }
            return first.hasPrefix("#")
        }
        // Row width: the header's (trailing unnamed header cells may be left out), else the first
        // data row's. A cut or merged line shifts every value after the cut, so it is refused
        // rather than read with empty or wrong cells. Extra cells are allowed only when empty
        // (exports such as Chase's end every row with a comma).
        var width: Int?
        if headerIndex != nil {
            var named = columns.header.count
            while named > 0 && clean(columns.header[named - 1]).isEmpty { named -= 1 }
            width = max(named, needed)
        }
        let widthSource = headerIndex != nil ? "the header has" : "the first row has"
        /// False: a line that is not a transaction row (one cell or fewer), skipped with a warning.
        func checkWidth(_ row: CSVRow) throws -> Bool {
            let fields = row.fields
            let width = width ?? fields.count
            if fields.count < width {
                if fields.count < needed && fields.filter({ !clean($0).isEmpty }).count <= 1 { return false }
                throw ImportError(
                    .malformed, file: file, locator: Locator(line: row.line),
                    problem: "row has \(fields.count) fields where \(widthSource) \(width) (a cut or damaged line?); fix or remove the line"
                )
            }
            let limit = headerIndex != nil ? max(width, columns.header.count) : width
            if fields.count > limit, let extra = fields[limit...].firstIndex(where: { !clean($0).isEmpty }) {
                throw ImportError(
                    .malformed, file: file, locator: Locator(line: row.line), column: String(extra + 1),
                    problem:
                        "row has \(fields.count) fields where \(widthSource) \(limit) (two lines merged, or an unquoted delimiter?); fix the line"
                )
            }
            return true
        }

        var accountNumber: String?
        if let pattern = p.accountNumberPattern, let re = try? NSRegularExpression(pattern: pattern) {
            for r in preamble {
                let line = r.fields.joined(separator: " ")
                if let m = re.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)), m.numberOfRanges > 1,
                    let range = Range(m.range(at: 1), in: line)
                {
                    accountNumber = String(line[range]); break
                }
            }
        }
        let accountKeyBase = p.accountKeyPrefix ?? "csv:\(p.qualifiedName)"
        let placeholderDate = LocalDate(year: 1970, month: 1, day: 1)!
        var warnings: [ImportWarning] = []
        var records: [IncomingRecord] = []
        /// Each record's date text (parsed once the file's format is known).
        var dateCells: [CSVDateInference.Cell] = []

        /// The raw audit object of a row of `count` cells (``JSONText/object``'s text: keys sorted,
        /// a repeated header name keeping its first cell), laid out once per width: quoted key and
        /// cell index in key order.
        var rawLayouts: [Int: [(key: String, field: Int)]] = [:]
        func rawLayout(_ count: Int) -> [(key: String, field: Int)] {
            if let layout = rawLayouts[count] { return layout }
            var first: [String: Int] = [:]
            for i in 0..<count {
                let key = i < rawKeys.count ? rawKeys[i] : "column\(i + 1)"
                if first[key] == nil { first[key] = i }
            }
            let layout = first.keys.sorted().map { (key: JSONText.string($0), field: first[$0]!) }
            rawLayouts[count] = layout
            return layout
        }

        func record(_ row: CSVRow, n: Int) throws -> IncomingRecord? {
            let fields = row.fields
            func cell(_ i: Int?) -> String? {
                guard let i, i < fields.count else { return nil }
                let v = clean(fields[i])
                return v.isEmpty ? nil : v
            }
            guard let currency = cell(currencyIdx).map({ ISOCurrency.code(for: $0) }) ?? p.currency else {
                throw ImportError(
                    .malformed, file: file, locator: Locator(line: row.line), column: colName(p.currencyColumn),
                    problem:
                        "empty currency, and the profile names no `currency` to fall back on; fill the cell or add currency to the profile")
            }
            let exponent = Money.exponent(for: currency)
            func money(_ i: Int?, _ ref: ColumnRef?) throws -> Int64? {
                guard let text = cell(i) else { return nil }
                do { return try Money.parseMinorUnits(text, exponent: exponent, decimalSeparator: decimalSeparator) } catch {
                    throw ImportError(
                        .malformed, file: file, locator: Locator(line: row.line), column: colName(ref), problem: error.description)
                }
            }
            var minor: Int64?
            if let amountIdx {
                minor = try money(amountIdx, p.amountColumn)
                if let m = minor, let directionIdx {
                    let dir = cell(directionIdx) ?? ""
                    let isDebit = (p.debitValues ?? []).contains { $0.caseInsensitiveCompare(dir) == .orderedSame }
                    minor = isDebit ? -abs(m) : abs(m)
                }
            } else {
                let debit = try money(debitIdx, p.debitColumn)
                let credit = try money(creditIdx, p.creditColumn)
                if let d = debit, d != 0 { minor = -abs(d) } else if let c = credit { minor = abs(c) } else if debit != nil { minor = 0 }
            }
            guard var amountMinor = minor else {
                if p.skipRowsWithoutAmount { return nil }
                let which = amountIdx != nil ? colName(p.amountColumn) : "\(colName(p.debitColumn))/\(colName(p.creditColumn))"
                throw ImportError(.malformed, file: file, locator: Locator(line: row.line), column: which, problem: "missing amount")
            }
            if p.invertSign { amountMinor = -amountMinor }
            dateCells.append(CSVDateInference.Cell(line: row.line, text: cell(dateIdx) ?? cell(fallbackDateIdx) ?? ""))
            let balance = try money(balanceIdx, p.balanceColumn).map { Money(minorUnits: $0, currency: currency) }
            if accountNumber == nil, let num = cell(accountNumberIdx) { accountNumber = num }
            // Bytes first, one String at the end (appending to a String piece by piece cost a
            // third of a read).
            var raw: [UInt8] = [0x7B] // {
            raw.reserveCapacity(row.fields.reduce(64) { $0 + $1.utf8.count + 16 })
            for (k, entry) in rawLayout(fields.count).enumerated() {
                if k > 0 { raw.append(0x2C) } // ,
                raw.append(contentsOf: entry.key.utf8); raw.append(0x3A) // :
                JSONText.append(clean(fields[entry.field]), to: &raw)
            }
            raw.append(0x7D) // }
            return IncomingRecord(
                accountKey: accountKeyBase, sourceKind: p.sourceKind, date: placeholderDate,
                amount: Money(minorUnits: amountMinor, currency: currency),
                description: cell(descIdx) ?? "",
                counterparty: cell(columns.index(p.counterpartyColumn)),
                note: cell(columns.index(p.noteColumn)),
                balance: balance, pending: false,
                externalID: cell(columns.index(p.referenceColumn)),
                category: cell(columns.index(p.categoryColumn)),
                time: cell(columns.index(p.timeColumn)),
                locator: Locator(line: row.line, row: n + 1),
                raw: String(decoding: raw, as: UTF8.self))
        }

        var index = 0
        var failure: Error?
        try source.forEachRow { row in
            defer { index += 1 }
            guard index >= firstDataRow, !isSkippable(row) else { return true }
            do {
                if width == nil { width = row.fields.count }
                guard try checkWidth(row) else {
                    warnings.append(ImportWarning("skipped a line that is not a transaction row", at: Locator(line: row.line)))
                    return true
                }
                if let r = try record(row, n: index - firstDataRow) { records.append(r) }
                return true
            } catch {
                failure = error
                return false
            }
        }
        if let failure { throw failure }
        source.release()

        // Dates: the profile's format, else the one every row's date agrees on.
        let format: LocalDate.Format
        if let f = p.dateFormat {
            format = f
            if sniffed, headerIndex != nil,
                let w = try CSVDateInference.checkSniffedFormat(
                    f, cells: dateCells.filter { !$0.text.isEmpty }, profile: p.qualifiedName,
                    genericHeader: p.signatureAlternatives.isEmpty,
                    file: file, column: colName(p.dateColumn))
            {
                warnings.append(w)
            }
        } else {
            format = try CSVDateInference.format(for: dateCells.filter { !$0.text.isEmpty }, file: file, column: colName(p.dateColumn))
        }
        for i in records.indices {
            let cell = dateCells[i]
            do throws(DateParseError) {
                guard !cell.text.isEmpty else { throw DateParseError(text: "", format: format, reason: "empty date") }
                records[i].date = try LocalDate.parse(cell.text, format: format)
            } catch {
                throw ImportError(
                    .malformed, file: file, locator: Locator(line: cell.line), column: colName(p.dateColumn), problem: error.description)
            }
        }
        dateCells = []

        let key = accountNumber.map { "\(accountKeyBase):\($0)" } ?? accountKeyBase
        for i in records.indices { records[i].accountKey = key }
        // Printed running balances must chain in the file's order (see BalanceChain).
        let chain = BalanceChain.check(count: records.count) { i in
            BalanceChain.Entry(
                amount: records[i].amount, balance: records[i].balance, date: records[i].date,
                locator: Locator(line: records[i].locator.line))
        }
        warnings += chain.breaks.map(\.warning)
        var facts = Self.accountFacts(profile: p, key: key, accountNumber: accountNumber, records: records)
        if let direction = chain.direction { facts.details["row_order"] = direction.rawValue }
        if records.isEmpty { warnings.append(ImportWarning("no transaction rows found")) }
        var first: LocalDate?, last: LocalDate?
        for r in records { first = min(first ?? r.date, r.date); last = max(last ?? r.date, r.date) }
        return ImportedStatement(
            importerID: p.sourceKind == .cmbCSV ? "cmb-csv" : "csv", accounts: [facts], records: records,
            warnings: warnings, coverage: first.flatMap { lo in last.map { lo...$0 } })
    }
}
