import Foundation
import MoneyFlowCore

/// One OFX element: an aggregate (children) or a leaf (value), with the physical line it starts on.
struct OFXElement: Sendable {
    var name: String
    var value: String?
    var line: Int
    var children: [OFXElement] = []

    func child(_ name: String) -> OFXElement? { children.first { $0.name == name } }
    func children(_ name: String) -> [OFXElement] { children.filter { $0.name == name } }
    /// Leaf value at a slash path (`PAYEE/NAME`), trimmed; nil when absent or empty.
    func leaf(_ path: String) -> String? {
        var node: OFXElement? = self
        for part in path.split(separator: "/") { node = node?.child(String(part)) }
        guard let v = node?.value, !v.isEmpty else { return nil }
        return v
    }
    /// Every element named `name` at any depth, in document order.
    func descendants(_ name: String) -> [OFXElement] {
        var out: [OFXElement] = []
        for c in children {
            if c.name == name { out.append(c) }
            out += c.descendants(name)
        }
        return out
    }
}

/// One tolerant reader for both OFX generations.
///
/// OFX 1.x is SGML: aggregates are closed, leaves usually are not (`<TRNAMT>-12.34` runs to the
/// next `<`), some banks close them anyway, and line structure means nothing. OFX 2.x is XML.
/// Both become the same tree: an open tag followed by text is a leaf (an optional matching close
/// tag is consumed); an open tag followed by another tag is an aggregate when its name is a known
/// aggregate or is closed somewhere in the file, otherwise an empty leaf. A close tag pops up to
/// its open aggregate; a stray one is ignored. `<?...?>`, `<!...>` and comments are skipped;
/// entities (`&amp;`, `&#233;`) are decoded, and an `&` that starts no entity stays literal.
enum OFXTree {
    enum Token { case open(String, Int), close(String, Int), text(String, Int) }

    /// Aggregates of the banking messages MoneyFlow reads (closed by spec, but known here so a
    /// file whose empty leaves share a name with nothing still nests right).
    static let aggregates: Set<String> = [
        "OFX", "SIGNONMSGSRSV1", "SONRS", "STATUS", "FI", "BANKMSGSRSV1", "STMTTRNRS", "STMTRS", "BANKACCTFROM",
        "BANKACCTTO", "CCACCTTO", "BANKTRANLIST", "STMTTRN", "PAYEE", "CURRENCY", "ORIGCURRENCY", "LEDGERBAL",
        "AVAILBAL", "CREDITCARDMSGSRSV1", "CCSTMTTRNRS", "CCSTMTRS", "CCACCTFROM", "BALLIST", "BAL", "MKTGINFO",
        "INVSTMTMSGSRSV1", "INVSTMTTRNRS", "INVSTMTRS",
    ]
    /// Leaves that are never aggregates, even when a bank closes them elsewhere in the file.
    static let leaves: Set<String> = [
        "TRNTYPE", "DTPOSTED", "DTUSER", "DTAVAIL", "TRNAMT", "FITID", "CORRECTFITID", "CORRECTACTION", "SRVRTID",
        "CHECKNUM", "REFNUM", "SIC", "PAYEEID", "NAME", "EXTDNAME", "MEMO", "CURDEF", "BANKID", "BRANCHID", "ACCTID",
        "ACCTTYPE", "ACCTKEY", "DTSTART", "DTEND", "BALAMT", "DTASOF", "CURRATE", "CURSYM", "ORG", "FID", "CODE",
        "SEVERITY", "MESSAGE", "DTSERVER", "LANGUAGE", "TRNUID", "INV401KSOURCE",
    ]

    static func tokenize(_ text: String) -> [Token] {
        let s = Array(text.unicodeScalars)
        var out: [Token] = []
        var i = 0, line = 1
        func advanceLines(_ from: Int, _ to: Int) {
            var k = from
            while k < to {
                if s[k] == "\n" || (s[k] == "\r" && (k + 1 >= s.count || s[k + 1] != "\n")) { line += 1 }
                k += 1
            }
        }
        while i < s.count {
            if s[i] != "<" {
                let start = i, startLine = line
                while i < s.count && s[i] != "<" { i += 1 }
                var t = String.UnicodeScalarView(); t.append(contentsOf: s[start..<i])
                // The value's line is where its first visible character is.
                let lead = s[start..<i].prefix { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" }
                var lineOfText = startLine
                for c in lead where c == "\n" { lineOfText += 1 }
                out.append(.text(String(t), lineOfText))
                advanceLines(start, i)
                continue
            }
            let tagLine = line
            if s[i..<min(s.count, i + 4)].elementsEqual("<!--".unicodeScalars) {
                var j = i + 4
                while j + 2 < s.count && !(s[j] == "-" && s[j + 1] == "-" && s[j + 2] == ">") { j += 1 }
                let end = min(s.count, j + 3)
                advanceLines(i, end); i = end; continue
            }
            var j = i + 1
            while j < s.count && s[j] != ">" && s[j] != "<" { j += 1 }
            let end = j < s.count && s[j] == ">" ? j + 1 : j
            var inner = String.UnicodeScalarView(); inner.append(contentsOf: s[(i + 1)..<j])
            advanceLines(i, end); i = end
            let body = String(inner)
            if body.hasPrefix("?") || body.hasPrefix("!") || body.isEmpty { continue }
            if body.hasPrefix("/") {
                out.append(.close(name(of: body.dropFirst()), tagLine))
            } else {
                let n = name(of: Substring(body))
                out.append(.open(n, tagLine))
                if body.hasSuffix("/") { out.append(.close(n, tagLine)) }
            }
        }
        return out
    }

    static func name(of tag: Substring) -> String {
        String(tag.prefix { !$0.isWhitespace && $0 != "/" }).uppercased()
    }

    /// Deepest nesting accepted. Real OFX banking files nest about 8 deep; the limit keeps a
    /// hostile file from building a tree too deep to walk or free.
    static let maxDepth = 64

    struct TooDeep: Error { var line: Int }

    /// Builds the element tree; the result is a synthetic root holding the top-level elements.
    static func parse(_ text: String) throws(TooDeep) -> OFXElement {
        let tokens = tokenize(text).filter {
            if case .text(let t, _) = $0 { return !t.trimmed(.whitespacesAndNewlines).isEmpty }
            return true
        }
        var closed = Set<String>()
        for t in tokens { if case .close(let n, _) = t { closed.insert(n) } }
        var stack = [OFXElement(name: "", value: nil, line: 1)]
        func attach(_ e: OFXElement) { stack[stack.count - 1].children.append(e) }
        var i = 0
        while i < tokens.count {
            switch tokens[i] {
            case .text:
                i += 1 // text outside a leaf (header lines, stray text): not data
            case .open(let n, let line):
                if i + 1 < tokens.count, case .text(let v, _) = tokens[i + 1] {
                    attach(OFXElement(name: n, value: decodeEntities(v.trimmed(.whitespacesAndNewlines)), line: line))
                    i += 2
                    if i < tokens.count, case .close(let c, _) = tokens[i], c == n { i += 1 }
                } else if i + 1 < tokens.count, case .close(let c, _) = tokens[i + 1], c == n, !aggregates.contains(n) {
                    attach(OFXElement(name: n, value: "", line: line)) // <MEMO></MEMO>
                    i += 2
                } else if !leaves.contains(n) && (aggregates.contains(n) || closed.contains(n)) {
                    guard stack.count <= maxDepth else { throw TooDeep(line: line) }
                    stack.append(OFXElement(name: n, value: nil, line: line))
                    i += 1
                } else {
                    attach(OFXElement(name: n, value: "", line: line))
                    i += 1
                }
            case .close(let n, _):
                i += 1
                guard stack.dropFirst().contains(where: { $0.name == n }) else { continue }
                while stack.count > 1 {
                    let e = stack.removeLast()
                    attach(e)
                    if e.name == n { break }
                }
            }
        }
        while stack.count > 1 { let e = stack.removeLast(); attach(e) } // unclosed at end of file
        return stack[0]
    }

    static func decodeEntities(_ s: String) -> String {
        guard s.contains("&") else { return s }
        var out = ""
        var rest = Substring(s)
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            let after = rest[rest.index(after: amp)...]
            if let semi = after.prefix(10).firstIndex(of: ";"), let decoded = entity(after[..<semi]) {
                out.unicodeScalars.append(decoded)
                rest = after[after.index(after: semi)...]
            } else {
                out += "&"
                rest = after
            }
        }
        return out + rest
    }

    static func entity(_ name: Substring) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let v = digits.hasPrefix("x") || digits.hasPrefix("X") ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            return v.flatMap(Unicode.Scalar.init)
        }
    }
}
