/// Whether decoded text is laid out as a table — most rows with one field count above one, as
/// every CSV export is — or as prose: a README, notes, a Markdown document. Auto-detection must
/// not read prose as a CSV (a README's first stray quote would be reported as "text after a
/// closing quote", as if it were a broken bank file); the file is then reported as what it is.
enum CSVTableShape {
    /// Rows looked at (the sample's first ones).
    static let sampleRows = 200
    /// Fewer non-blank rows than this are too few to call prose: a short CSV with one ragged row
    /// is still a CSV with an error on that row.
    static let minimumRows = 5

    /// True when `text` reads as prose: at least ``minimumRows`` non-blank rows, and no field
    /// count above one is shared by half of them. `rows` are the parsed rows when the text
    /// parses as CSV with `delimiter`; otherwise each line is split on the delimiter outside
    /// double quotes (prose rarely keeps CSV's quoting rules).
    static func isProse(_ text: String, delimiter: UInt8, rows: [CSVRow]?) -> Bool {
        let counts: [Int]
        if let rows {
            counts = rows.lazy.filter { !$0.fields.allSatisfy { $0.allSatisfy(\.isWhitespace) } }.prefix(sampleRows).map(\.fields.count)
        } else {
            counts = text.split(whereSeparator: \.isNewline).lazy.filter { !$0.allSatisfy(\.isWhitespace) }.prefix(sampleRows)
                .map { fieldCount(of: $0, delimiter: delimiter) }
        }
        guard counts.count >= minimumRows else { return false }
        var histogram: [Int: Int] = [:]
        for c in counts where c > 1 { histogram[c, default: 0] += 1 }
        return (histogram.values.max() ?? 0) * 2 < counts.count
    }

    /// Fields of one line split on `delimiter` outside double quotes.
    static func fieldCount(of line: Substring, delimiter: UInt8) -> Int {
        var count = 1
        var quoted = false
        for b in line.utf8 {
            if b == 0x22 { quoted.toggle() } else if b == delimiter && !quoted { count += 1 }
        }
        return count
    }
}
