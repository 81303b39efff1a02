/// A small, tolerant HTML reader for the CMB credit-card e-statement: the table rows (each a list
/// of cell texts) and the free text of the page, nothing else.
///
/// E-mailed statements are machine-written HTML with nested layout tables, unclosed tags,
/// comments, `<style>` blocks and entities (`&yen;`, `&#165;`, `&nbsp;`). A real DOM is not
/// needed for that: a cell's text goes to the innermost open cell only, so a row of an inner table
/// is a row of its own and the outer cell keeps just its own text. Foundation-free on purpose.
enum CMBHTMLScanner {
    struct Document {
        /// Every `<tr>` in document order (inner rows before the outer row that holds them closes,
        /// sorted by where each row opened), cells as whitespace-collapsed text.
        var rows: [[String]] = []
        /// Text outside any cell (the `<title>`, headings, paragraphs), whitespace-collapsed.
        var texts: [String] = []
    }

    static func scan(_ html: String) -> Document {
        let s = Array(html.unicodeScalars)
        var doc = Document()
        // Open rows: (order of opening, depth of the table holding them, cells, text of the open
        // cell or nil).
        var open: [(order: Int, depth: Int, cells: [String], cell: String?)] = []
        var tables = 0
        var finished: [(order: Int, cells: [String])] = []
        var loose = ""
        var opened = 0
        func appendText(_ t: String) {
            if let last = open.indices.last, open[last].cell != nil { open[last].cell! += t } else { loose += t }
        }
        func flushLoose() {
            let t = collapse(loose)
            if !t.isEmpty { doc.texts.append(t) }
            loose = ""
        }
        func closeCell() {
            guard let last = open.indices.last, let c = open[last].cell else { return }
            open[last].cells.append(collapse(c)); open[last].cell = nil
        }
        func closeRow() {
            closeCell()
            if let row = open.popLast() { finished.append((row.order, row.cells)) }
        }
        var i = 0
        var text = String.UnicodeScalarView()
        func flushText() {
            if !text.isEmpty { appendText(decodeEntities(String(text))); text.removeAll() }
        }
        while i < s.count {
            guard s[i] == "<" else { text.append(s[i]); i += 1; continue }
            flushText()
            if hasPrefix(s, i, "<!--") {
                i = find(s, from: i + 4, "-->").map { $0 + 3 } ?? s.count
                continue
            }
            let end = find(s, from: i + 1, ">") ?? s.count
            let tag = tagName(s, i + 1, end)
            i = min(end + 1, s.count)
            switch tag.name {
            case "script", "style":
                if !tag.closing { i = find(s, from: i, "</" + tag.name).flatMap { find(s, from: $0, ">") }.map { $0 + 1 } ?? s.count }
            case "tr":
                // A `<tr>` ends the open rows of its own table (an unclosed `<tr>`) and of deeper
                // ones; a row of an outer table stays open around it.
                if tag.closing { if let last = open.last, last.depth >= tables { closeRow() } } else {
                    while let last = open.last, last.depth >= tables { closeRow() }
                    if open.isEmpty { flushLoose() }
                    open.append((opened, tables, [], nil)); opened += 1
                }
            case "td", "th":
                guard !open.isEmpty else { continue }
                closeCell()
                if !tag.closing { open[open.count - 1].cell = "" }
            case "table":
                // Closing a table closes the rows left open inside it.
                if tag.closing {
                    while let last = open.last, last.depth >= tables { closeRow() }
                    tables = max(0, tables - 1)
                } else {
                    tables += 1
                }
                appendText(" ")
            case "br", "p", "div", "li", "title", "h1", "h2", "h3", "h4":
                // Block boundaries separate texts outside cells; inside a cell they are a space.
                if open.isEmpty && tag.name != "br" { flushLoose() } else { appendText(" ") }
            default:
                break
            }
        }
        flushText()
        while !open.isEmpty { closeRow() }
        flushLoose()
        doc.rows = finished.sorted { $0.order < $1.order }.map(\.cells)
        return doc
    }

    /// Lower-cased tag name and whether it is a closing tag (`</td>`).
    static func tagName(_ s: [Unicode.Scalar], _ start: Int, _ end: Int) -> (name: String, closing: Bool) {
        var k = start
        var closing = false
        if k < end && s[k] == "/" { closing = true; k += 1 }
        var name = ""
        while k < end, s[k].properties.isAlphabetic || (s[k].value >= 48 && s[k].value <= 57) {
            name.unicodeScalars.append(s[k]); k += 1
        }
        return (name.lowercased(), closing)
    }

    static func hasPrefix(_ s: [Unicode.Scalar], _ at: Int, _ p: String) -> Bool {
        var k = at
        for c in p.unicodeScalars {
            guard k < s.count, String(s[k]).lowercased() == String(c) else { return false }
            k += 1
        }
        return true
    }

    static func find(_ s: [Unicode.Scalar], from: Int, _ p: String) -> Int? {
        guard let first = p.unicodeScalars.first else { return nil }
        var k = from
        while k < s.count {
            if String(s[k]).lowercased() == String(first), hasPrefix(s, k, p) { return k }
            k += 1
        }
        return nil
    }

    /// Whitespace runs (including no-break spaces) to one space, trimmed.
    static func collapse(_ t: String) -> String {
        t.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
    }

    static let namedEntities: [String: String] = [
        "amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}", "yen": "¥", "emsp": "\u{2003}",
        "ensp": "\u{2002}", "thinsp": "\u{2009}", "middot": "·", "times": "×", "mdash": "—", "ndash": "–", "copy": "©",
    ]

    /// `&name;`, `&#165;`, `&#xA5;` decoded; an unknown or unterminated entity stays as written.
    static func decodeEntities(_ t: String) -> String {
        guard t.contains("&") else { return t }
        var out = ""
        var rest = Substring(t)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            guard let semi = after.prefix(12).firstIndex(of: ";") else { out += "&"; rest = after; continue }
            let body = after[..<semi]
            var decoded: String? = nil
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                decoded = UInt32(body.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String($0) }
            } else if body.hasPrefix("#") {
                decoded = UInt32(body.dropFirst()).flatMap(Unicode.Scalar.init).map { String($0) }
            } else {
                decoded = namedEntities[String(body)] ?? namedEntities[body.lowercased()]
            }
            if let decoded { out += decoded; rest = after[after.index(after: semi)...] } else { out += "&"; rest = after }
        }
        return out + rest
    }
}
