import Foundation
import MoneyFlowCore

/// A wallet bill as rows of cells (a CSV's lines, or an XLSX sheet's rows), before any meaning:
/// the preamble above the header, the header found by its content (never by its line number:
/// the preamble's length changes between app versions), and the data rows under it.
public struct WalletTable: Sendable {
    /// One row of cells with where it was read (a CSV line, or a sheet row).
    public struct Row: Sendable {
        public var locator: Locator
        public var cells: [String]
        public init(locator: Locator, cells: [String]) { self.locator = locator; self.cells = cells }
    }

    public var rows: [Row]
    public init(rows: [Row]) { self.rows = rows }

    /// Cell text as the bill means it: space padding and the tab Alipay and WeChat put after
    /// order numbers removed (and a BOM at the very start).
    static let padding = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}"))
    static func clean(_ s: String) -> String { s.trimmed(padding) }

    /// The index of the first row whose cleaned cells start with `leading` and hold every one
    /// of `required`, and its column index by name; nil when no row is that header.
    func header(leading: String, required: [String]) -> (index: Int, columns: [String: Int], names: [String])? {
        for (i, row) in rows.enumerated() {
            guard let first = row.cells.first, Self.clean(first) == leading else { continue }
            var names = row.cells.map(Self.clean)
            while names.last == "" { names.removeLast() } // Alipay's trailing comma
            var columns: [String: Int] = [:]
            for (k, n) in names.enumerated() where columns[n] == nil { columns[n] = k }
            if required.allSatisfy({ columns[$0] != nil }) { return (i, columns, names) }
        }
        return nil
    }

    /// ``preambleValue(_:before:)`` of `name` followed by a full-width or a plain colon (the
    /// exports use both: `支付宝账户：`, `账号:`).
    func preambleValue(named name: String, before headerIndex: Int) -> String? {
        preambleValue(name + "：", before: headerIndex) ?? preambleValue(name + ":", before: headerIndex)
    }

    /// The data rows below the header, blank rows skipped, up to the dashed line above the
    /// export's footer (a `---` cell in `footerColumn`, when the export has one).
    func dataRows(after header: (index: Int, columns: [String: Int], names: [String]), footerColumn: String? = nil) -> [WalletRow] {
        var out: [WalletRow] = []
        for r in rows[(header.index + 1)...] {
            let row = WalletRow(r, names: header.names)
            if row.isBlank { continue }
            if let footerColumn, row[footerColumn].hasPrefix("---") { break }
            out.append(row)
        }
        return out
    }

    /// The cleaned text of the preamble line that starts with `label` (`支付宝账户：`), after it;
    /// `[...]` brackets removed (`微信昵称：[测试]`).
    func preambleValue(_ label: String, before headerIndex: Int) -> String? {
        for row in rows[..<headerIndex] {
            guard let cell = row.cells.first.map(Self.clean), cell.hasPrefix(label) else { continue }
            var value = Substring(cell.dropFirst(label.count)).trimmed(Self.padding)
            if value.hasPrefix("[") && value.hasSuffix("]") { value = String(value.dropFirst().dropLast()) }
            return value.isEmpty ? nil : value
        }
        return nil
    }
}

/// One data row of a wallet bill, its cells by header name.
struct WalletRow {
    let locator: Locator
    let names: [String]
    let cells: [String]

    init(_ row: WalletTable.Row, names: [String]) {
        locator = row.locator
        self.names = names
        cells = names.indices.map { $0 < row.cells.count ? WalletTable.clean(row.cells[$0]) : "" }
    }

    /// The cleaned cell of column `name` ("" when the bill has no such column).
    subscript(_ name: String) -> String {
        guard let i = names.firstIndex(of: name) else { return "" }
        return cells[i]
    }

    /// nil for the bills' "nothing here" (`/`, empty).
    func optional(_ name: String) -> String? {
        let v = self[name]
        return v.isEmpty || v == "/" ? nil : v
    }

    /// True when every cell is empty (a blank line, a footer's padding).
    var isBlank: Bool { cells.allSatisfy(\.isEmpty) }

    /// Every column as printed (trimmed), plus the row's method and status under the names the
    /// wallet records share (`method`, `status`), as the record's raw JSON.
    func raw(method: String, status: String) -> String {
        var d: [String: String] = [:]
        for (n, v) in zip(names, cells) where !n.isEmpty { d[n] = v }
        d["method"] = method
        d["status"] = status
        return JSONText.object(d)
    }
}
