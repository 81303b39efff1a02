import Foundation
import MoneyFlowCore

/// Turns a CSV file's rows, as ``CSVCellScanner`` finds them, into records through a profile:
/// the row checks (width, comment and blank lines) and the cells a record keeps.
///
/// A value type with mutating methods rather than closures over local variables: every row
/// passes through here, and closures capturing mutable locals paid a dynamic exclusivity check
/// on each access (a tenth of a read).
struct CSVRowMapper {
    let file: String
    let profile: CSVProfile
    let columns: CSVImporter.Columns
    let headerIndex: Int?
    let firstDataRow: Int

    // Column indexes, resolved once.
    let dateIdx: Int, fallbackDateIdx: Int?, descIdx: Int
    let amountIdx: Int?, debitIdx: Int?, creditIdx: Int?, directionIdx: Int?, balanceIdx: Int?
    let currencyIdx: Int?, accountNumberIdx: Int?
    let counterpartyIdx: Int?, noteIdx: Int?, referenceIdx: Int?, categoryIdx: Int?, timeIdx: Int?
    /// Cells a row needs to hold a record.
    let needed: Int
    let amountSyntax: AmountSyntax
    /// The raw audit object's keys: the header's cells, cleaned.
    let rawKeys: [String]
    let accountKeyBase: String
    let placeholderDate = LocalDate(year: 1970, month: 1, day: 1)!

    /// Row width: the header's (trailing unnamed header cells may be left out), else the first
    /// data row's.
    var width: Int?
    var records: [IncomingRecord] = []
    /// Each record's date text (parsed once the file's format is known).
    var dateCells: [CSVDateInference.Cell] = []
    var warnings: [ImportWarning] = []
    var accountNumber: String?

    private var rawLayouts: [Int: RawLayout] = [:]
    private var lastLayout: (count: Int, layout: RawLayout)?
    private var raw: [UInt8] = []
    private var lastCurrency: (code: String, exponent: Int)?

    /// `expectedRows`: room reserved for the records (growing an array of large records by
    /// doubling copied and faulted in about twice their memory).
    init(
        file: String, profile p: CSVProfile, columns: CSVImporter.Columns, headerIndex: Int?, accountNumber: String?, expectedRows: Int
    ) {
        self.file = file; self.profile = p; self.columns = columns; self.headerIndex = headerIndex
        self.accountNumber = accountNumber
        records.reserveCapacity(expectedRows); dateCells.reserveCapacity(expectedRows)
        firstDataRow = headerIndex.map { $0 + 1 } ?? 0
        dateIdx = columns.index(p.dateColumn)!
        fallbackDateIdx = columns.index(p.fallbackDateColumn)
        descIdx = columns.index(p.descriptionColumn)!
        amountIdx = columns.index(p.amountColumn); debitIdx = columns.index(p.debitColumn)
        creditIdx = columns.index(p.creditColumn); directionIdx = columns.index(p.directionColumn)
        balanceIdx = columns.index(p.balanceColumn); currencyIdx = columns.index(p.currencyColumn)
        accountNumberIdx = columns.index(p.accountNumberColumn)
        counterpartyIdx = columns.index(p.counterpartyColumn); noteIdx = columns.index(p.noteColumn)
        referenceIdx = columns.index(p.referenceColumn); categoryIdx = columns.index(p.categoryColumn)
        timeIdx = columns.index(p.timeColumn)
        needed = [dateIdx, descIdx, amountIdx ?? 0, debitIdx ?? 0, creditIdx ?? 0].max()! + 1
        amountSyntax = AmountSyntax(decimalSeparator: p.decimalSeparator.first ?? ".")
        rawKeys = headerIndex != nil ? columns.header.map(CSVImporter.clean) : []
        accountKeyBase = p.accountKeyPrefix ?? "csv:\(p.qualifiedName)"
        if headerIndex != nil {
            var named = columns.header.count
            while named > 0 && CSVImporter.clean(columns.header[named - 1]).isEmpty { named -= 1 }
            width = max(named, needed)
        }
    }

    /// What the rows gave, moved out (the mapper keeps empty arrays, so the caller's are unique).
    mutating func finish() -> (records: [IncomingRecord], dateCells: [CSVDateInference.Cell], warnings: [ImportWarning]) {
        defer { records = []; dateCells = []; warnings = [] }
        return (records, dateCells, warnings)
    }

    /// How messages name a column: its header text, else its 1-based number.
    func colName(_ ref: ColumnRef?) -> String {
        guard let i = columns.index(ref) else { return ref?.description ?? "?" }
        if i < columns.header.count, headerIndex != nil { return CSVImporter.clean(columns.header[i]) }
        return String(i + 1)
    }

    /// Reads row number `index` of the file (0-based, counting every row).
    mutating func add(_ row: CSVCells, index: Int) throws {
        guard index >= firstDataRow, !Self.isSkippable(row) else { return }
        if width == nil { width = row.count }
        guard try checkWidth(row) else {
            warnings.append(ImportWarning("skipped a line that is not a transaction row", at: Locator(line: row.line)))
            return
        }
        if let r = try record(row, n: index - firstDataRow) { records.append(r) }
    }

    /// A row of blanks, or whose first non-blank cell starts with `#` (a comment line).
    static func isSkippable(_ r: CSVCells) -> Bool {
        for i in 0..<r.count {
            let comment: Bool? = r.withCleanBytes(i) { b in
                guard let first = b.first else { return nil }
                guard first == 0x23 else { return false }
                // `#` and an ASCII byte: the first Character is `#`; else ask the String.
                return b.count == 1 || b[1] < 0x80 || String(decoding: b, as: UTF8.self).hasPrefix("#")
            }
            if let comment { return comment }
        }
        return true
    }

    /// A cut or merged line shifts every value after the cut, so it is refused rather than read
    /// with empty or wrong cells. Extra cells are allowed only when empty (exports such as
    /// Chase's end every row with a comma). False: a line that is not a transaction row (one
    /// cell or fewer), skipped with a warning.
    func checkWidth(_ row: CSVCells) throws -> Bool {
        let count = row.count
        let width = width ?? count
        let widthSource = headerIndex != nil ? "the header has" : "the first row has"
        if count < width {
            if count < needed && (0..<count).filter({ !row.isBlank($0) }).count <= 1 { return false }
            throw ImportError(
                .malformed, file: file, locator: Locator(line: row.line),
                problem: "row has \(count) fields where \(widthSource) \(width) (a cut or damaged line?); fix or remove the line"
            )
        }
        let limit = headerIndex != nil ? max(width, columns.header.count) : width
        if count > limit, let extra = (limit..<count).first(where: { !row.isBlank($0) }) {
            throw ImportError(
                .malformed, file: file, locator: Locator(line: row.line), column: String(extra + 1),
                problem:
                    "row has \(count) fields where \(widthSource) \(limit) (two lines merged, or an unquoted delimiter?); fix the line"
            )
        }
        return true
    }

    /// The raw audit object of a row of `count` cells (``JSONText/object``'s text: keys sorted,
    /// a repeated header name keeping its first cell), laid out once per width: the UTF-8 before
    /// each cell (`"key":`, after a comma but for the first) in one array, and each cell's index.
    struct RawLayout {
        var text: [UInt8] = []
        var parts: [(end: Int, field: Int)] = []
    }

    mutating func rawLayout(_ count: Int) -> RawLayout {
        if let last = lastLayout, last.count == count { return last.layout }
        if let layout = rawLayouts[count] { lastLayout = (count, layout); return layout }
        var first: [String: Int] = [:]
        for i in 0..<count {
            let key = i < rawKeys.count ? rawKeys[i] : "column\(i + 1)"
            if first[key] == nil { first[key] = i }
        }
        var layout = RawLayout()
        for key in first.keys.sorted() {
            if !layout.parts.isEmpty { layout.text.append(0x2C) } // ,
            layout.text.append(contentsOf: JSONText.string(key).utf8); layout.text.append(0x3A) // :
            layout.parts.append((layout.text.count, first[key]!))
        }
        rawLayouts[count] = layout
        lastLayout = (count, layout)
        return layout
    }

    mutating func exponent(for currency: String) -> Int {
        if let last = lastCurrency, last.code == currency { return last.exponent }
        let e = Money.exponent(for: currency)
        lastCurrency = (currency, e)
        return e
    }

    mutating func record(_ row: CSVCells, n: Int) throws -> IncomingRecord? {
        func cell(_ i: Int?) -> String? {
            guard let i, i < row.count else { return nil }
            let v = row.clean(i)
            return v.isEmpty ? nil : v
        }
        guard let currency = cell(currencyIdx).map({ ISOCurrency.code(for: $0) }) ?? profile.currency else {
            throw ImportError(
                .malformed, file: file, locator: Locator(line: row.line), column: colName(profile.currencyColumn),
                problem:
                    "empty currency, and the profile names no `currency` to fall back on; fill the cell or add currency to the profile")
        }
        let exponent = exponent(for: currency)
        let syntax = amountSyntax
        // Amounts are read from the cells' bytes (no String for a plain amount).
        func money(_ i: Int?, _ ref: ColumnRef?) throws -> Int64? {
            guard let i, i < row.count else { return nil }
            let read: Result<Int64, MoneyParseError>? = row.withCleanBytes(i) { text in
                guard !text.isEmpty else { return nil }
                do throws(MoneyParseError) { return .success(try Money.parseMinorUnits(utf8: text, exponent: exponent, syntax: syntax)) } catch {
                    return .failure(error)
                }
            }
            do { return try read?.get() } catch {
                throw ImportError(
                    .malformed, file: file, locator: Locator(line: row.line), column: colName(ref), problem: error.description)
            }
        }
        var minor: Int64?
        if let amountIdx {
            minor = try money(amountIdx, profile.amountColumn)
            if let m = minor, let directionIdx {
                let dir = cell(directionIdx) ?? ""
                let isDebit = (profile.debitValues ?? []).contains { $0.caseInsensitiveCompare(dir) == .orderedSame }
                minor = isDebit ? -abs(m) : abs(m)
            }
        } else {
            let debit = try money(debitIdx, profile.debitColumn)
            let credit = try money(creditIdx, profile.creditColumn)
            if let d = debit, d != 0 { minor = -abs(d) } else if let c = credit { minor = abs(c) } else if debit != nil { minor = 0 }
        }
        guard var amountMinor = minor else {
            if profile.skipRowsWithoutAmount { return nil }
            let which =
                amountIdx != nil ? colName(profile.amountColumn) : "\(colName(profile.debitColumn))/\(colName(profile.creditColumn))"
            throw ImportError(.malformed, file: file, locator: Locator(line: row.line), column: which, problem: "missing amount")
        }
        if profile.invertSign { amountMinor = -amountMinor }
        dateCells.append(CSVDateInference.Cell(line: row.line, text: cell(dateIdx) ?? cell(fallbackDateIdx) ?? ""))
        let balance = try money(balanceIdx, profile.balanceColumn).map { Money(minorUnits: $0, currency: currency) }
        if accountNumber == nil, let num = cell(accountNumberIdx) { accountNumber = num }
        return IncomingRecord(
            accountKey: accountKeyBase, sourceKind: profile.sourceKind, date: placeholderDate,
            amount: Money(minorUnits: amountMinor, currency: currency),
            description: cell(descIdx) ?? "",
            counterparty: cell(counterpartyIdx), note: cell(noteIdx),
            balance: balance, pending: false,
            externalID: cell(referenceIdx), category: cell(categoryIdx), time: cell(timeIdx),
            locator: Locator(line: row.line, row: n + 1),
            raw: rawObject(row))
    }

    /// The row's raw audit object (``RawLayout``).
    ///
    /// Why two ways: most rows' cells go into the JSON as they are, so its length is known before
    /// writing and the bytes are copied once, straight into the String's storage (appending them
    /// to an array piece by piece, then copying that, was a fifth of a bank file's read). A row
    /// with a cell to escape, or cells not read in place, is written piece by piece.
    mutating func rawObject(_ row: CSVCells) -> String {
        let layout = rawLayout(row.count)
        var length = 2 + layout.text.count
        for part in layout.parts {
            guard let (lo, hi) = row.cleanRange(part.field),
                !JSONString.needsEscaping(utf8: UnsafeBufferPointer(rebasing: row.bytes[lo..<hi]), lineSeparators: .literal)
            else { return escapedRawObject(row, layout: layout) }
            length += hi - lo + 2
        }
        return layout.text.withUnsafeBufferPointer { text in
            String(unsafeUninitializedCapacity: length) { out in
                var n = 0
                func put(_ bytes: UnsafeBufferPointer<UInt8>) {
                    guard let base = bytes.baseAddress else { return }
                    (out.baseAddress! + n).initialize(from: base, count: bytes.count)
                    n += bytes.count
                }
                out[n] = 0x7B; n += 1 // {
                var start = 0
                for part in layout.parts {
                    put(UnsafeBufferPointer(rebasing: text[start..<part.end]))
                    start = part.end
                    let (lo, hi) = row.cleanRange(part.field)!
                    out[n] = 0x22; n += 1 // "
                    put(UnsafeBufferPointer(rebasing: row.bytes[lo..<hi]))
                    out[n] = 0x22; n += 1
                }
                out[n] = 0x7D; n += 1 // }
                return n
            }
        }
    }

    /// ``rawObject(_:)`` of any row: bytes first, from the cells' bytes, one String at the end
    /// (appending to a String piece by piece cost a third of a read).
    mutating func escapedRawObject(_ row: CSVCells, layout: RawLayout) -> String {
        raw.removeAll(keepingCapacity: true)
        raw.append(0x7B) // {
        layout.text.withUnsafeBufferPointer { text in
            var start = 0
            for part in layout.parts {
                raw.append(contentsOf: UnsafeBufferPointer(rebasing: text[start..<part.end]))
                start = part.end
                row.withCleanBytes(part.field) { JSONText.append(bytes: $0, to: &raw) }
            }
        }
        raw.append(0x7D) // }
        return String(decoding: raw, as: UTF8.self)
    }
}
