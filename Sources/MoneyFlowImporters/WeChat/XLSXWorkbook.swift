import Foundation
import MoneyFlowCore

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The cells of an XLSX workbook's sheets as text, from the workbook's XML parts (read by the
/// caller from the ZIP the file is: `MoneyFlowWallets` does that, this stays Foundation-only).
///
/// A numeric cell is its stored text (`<v>28.1</v>` is `28.1`), never a Double: the amount is
/// then parsed exactly, as every amount is. Shared strings, inline strings and formula strings
/// are read; a cell's column comes from its reference (`F18`), so skipped empty cells keep the
/// others in place.
public enum XLSXWorkbook {
    /// Why the parts are not a workbook.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// Every sheet's rows, in the workbook's sheet order. `part` returns a part's bytes by its
    /// path in the package (`xl/workbook.xml`), nil when there is no such part.
    public static func sheets(part: (String) throws -> Data?) throws -> [[WalletTable.Row]] {
        guard let workbook = try part("xl/workbook.xml") else { throw Failure(description: "no xl/workbook.xml") }
        let rels = try part("xl/_rels/workbook.xml.rels").map(parse) ?? []
        var targets: [String: String] = [:]
        for e in rels where e.name == "Relationship" {
            if let id = e.attributes["Id"], let t = e.attributes["Target"] { targets[id] = t }
        }
        let strings = try part("xl/sharedStrings.xml").map(sharedStrings) ?? []
        var out: [[WalletTable.Row]] = []
        for e in try parse(workbook) where e.name == "sheet" {
            guard let id = e.attributes["r:id"] ?? e.attributes.first(where: { $0.key.hasSuffix(":id") })?.value, let target = targets[id]
            else {
                continue
            }
            let path = target.hasPrefix("/") ? String(target.dropFirst()) : "xl/" + target
            guard let sheet = try part(path) else { throw Failure(description: "sheet part \(path) is missing") }
            out.append(try rows(sheet, strings: strings))
        }
        return out
    }

    /// One XML element seen by the flat readers below: its name (prefix kept) and attributes.
    struct Element { var name: String; var attributes: [String: String] }

    static func parse(_ data: Data) throws -> [Element] {
        let reader = FlatReader()
        try reader.run(data)
        return reader.elements
    }

    /// `sharedStrings.xml`: each `<si>`'s text runs joined (phonetic `<rPh>` runs left out).
    static func sharedStrings(_ data: Data) throws -> [String] {
        let reader = TextReader(item: "si")
        try reader.run(data)
        return reader.items.map(\.text)
    }

    static func rows(_ data: Data, strings: [String]) throws -> [WalletTable.Row] {
        let reader = TextReader(item: "c")
        try reader.run(data)
        var rows: [WalletTable.Row] = []
        var current: (number: Int, cells: [String])?
        func flush() {
            if let c = current { rows.append(WalletTable.Row(locator: Locator(row: c.number), cells: c.cells)) }
        }
        for cell in reader.items {
            let (column, rowNumber) = reference(cell.attributes["r"]) ?? ((current?.cells.count ?? 0), cell.row)
            if current?.number != rowNumber { flush(); current = (rowNumber, []) }
            var value = cell.text
            if cell.attributes["t"] == "s" {
                guard let i = Int(value), strings.indices.contains(i) else {
                    throw Failure(description: "cell \(cell.attributes["r"] ?? "?") names shared string \(value), which is not there")
                }
                value = strings[i]
            }
            while current!.cells.count < column { current!.cells.append("") }
            if current!.cells.count == column { current!.cells.append(value) } else { current!.cells[column] = value }
        }
        flush()
        return rows
    }

    /// `F18` -> (column 5, row 18).
    static func reference(_ r: String?) -> (Int, Int)? {
        guard let r else { return nil }
        var column = 0
        var digits = Substring(r)
        while let c = digits.first, let a = c.asciiValue, (65...90).contains(a) {
            column = column * 26 + Int(a - 64); digits = digits.dropFirst()
        }
        guard column > 0, let row = Int(digits) else { return nil }
        return (column - 1, row)
    }

    /// Runs `delegate` over `data`; a parse error is the workbook's "damaged XML" failure.
    static func parse(_ data: Data, with delegate: any XMLParserDelegate) throws {
        let parser = XMLParser(data: data)
        parser.delegate = delegate
        if !parser.parse() { throw Failure(description: "damaged XML (\(parser.parserError.map { "\($0)" } ?? "parse error"))") }
    }

    /// Collects every element's name and attributes (workbook, relationships).
    final class FlatReader: NSObject, XMLParserDelegate {
        var elements: [Element] = []
        var failure: Error?
        func run(_ data: Data) throws { try XLSXWorkbook.parse(data, with: self) }
        func parser(
            _ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            elements.append(Element(name: name, attributes: attributes))
        }
    }

    /// Collects the text of each `item` element (`<si>`, `<c>`): `<t>` text for strings, `<v>` for values.
    final class TextReader: NSObject, XMLParserDelegate {
        struct Item { var attributes: [String: String]; var text = ""; var row: Int }
        let item: String
        var items: [Item] = []
        private var inItem = false, inText = false, inPhonetic = false
        private var row = 0
        init(item: String) { self.item = item }
        func run(_ data: Data) throws { try XLSXWorkbook.parse(data, with: self) }
        func parser(
            _ p: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            switch name {
            case "row": row = Int(attributes["r"] ?? "") ?? row + 1
            case item: inItem = true; items.append(Item(attributes: attributes, row: row))
            case "rPh": inPhonetic = true
            case "t", "v": inText = inItem && !inPhonetic
            default: break
            }
        }
        func parser(_ p: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            switch name {
            case item: inItem = false
            case "rPh": inPhonetic = false
            case "t", "v": inText = false
            default: break
            }
        }
        func parser(_ p: XMLParser, foundCharacters s: String) {
            if inText { items[items.count - 1].text += s }
        }
    }
}
