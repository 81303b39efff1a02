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
        let preamble = headerIndex.map { Array(source.head[..<$0]) } ?? []
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
        var mapper = CSVRowMapper(
            file: file, profile: p, columns: columns, headerIndex: headerIndex, accountNumber: accountNumber,
            expectedRows: source.estimatedRowCount)
        var index = 0
        try source.forEachCells { row in
            defer { index += 1 }
            try mapper.add(row, index: index)
        }
        source.release()
        var (records, dateCells, warnings) = mapper.finish()
        accountNumber = mapper.accountNumber
        let accountKeyBase = mapper.accountKeyBase
        let colName = mapper.colName

        // Dates: the profile's format, else the one every row's date agrees on, from the rows with
        // a date (no copy of them all when every row has one, the common case).
        let format: LocalDate.Format
        do {
            let dated = dateCells.contains { $0.text.isEmpty } ? dateCells.filter { !$0.text.isEmpty } : dateCells
            if let f = p.dateFormat {
                format = f
                if sniffed, headerIndex != nil,
                    let w = try CSVDateInference.checkSniffedFormat(
                        f, cells: dated, profile: p.qualifiedName,
                        genericHeader: p.signatureAlternatives.isEmpty,
                        file: file, column: colName(p.dateColumn))
                {
                    warnings.append(w)
                }
            } else {
                format = try CSVDateInference.format(for: dated, file: file, column: colName(p.dateColumn))
            }
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
        for i in records.indices {
            let d = records[i].date
            first = min(first ?? d, d); last = max(last ?? d, d)
        }
        return ImportedStatement(
            importerID: p.sourceKind == .cmbCSV ? "cmb-csv" : "csv", accounts: [facts], records: records,
            warnings: warnings, coverage: first.flatMap { lo in last.map { lo...$0 } })
    }
}
