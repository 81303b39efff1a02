import Foundation

/// A TOML value (the subset MoneyFlow's profile and manifest files use).
public indirect enum TOMLValue: Sendable, Hashable {
    case string(String)
    case integer(Int64)
    case float(String)
    case bool(Bool)
    case array([TOMLValue])
    case table(TOMLTable)

    /// Foundation JSON object equivalent (for decoding with `JSONDecoder`).
    public var jsonObject: Any {
        switch self {
        case .string(let s): return s
        case .integer(let i): return NSNumber(value: i)
        case .float(let f): return NSDecimalNumber(string: f)
        case .bool(let b): return NSNumber(value: b)
        case .array(let a): return a.map(\.jsonObject)
        case .table(let t): return t.jsonObject
        }
    }
}

/// An ordered TOML table.
public struct TOMLTable: Sendable, Hashable {
    public private(set) var keys: [String] = []
    public private(set) var values: [String: TOMLValue] = [:]
    public init() {}
    public subscript(key: String) -> TOMLValue? {
        get { values[key] }
        set {
            if values[key] == nil, newValue != nil { keys.append(key) }
            if newValue == nil { keys.removeAll { $0 == key } }
            values[key] = newValue
        }
    }
    public var jsonObject: [String: Any] {
        var out: [String: Any] = [:]
        for k in keys { out[k] = values[k]!.jsonObject }
        return out
    }
}

/// Why a TOML file could not be read.
public struct TOMLError: Error, Sendable, CustomStringConvertible {
    public var line: Int
    public var message: String
    public var description: String { "TOML line \(line): \(message)" }
}

/// A small TOML reader: tables, arrays of tables, dotted keys, basic and literal strings
/// (including multi-line), integers, floats, booleans, (multi-line) arrays and inline tables.
/// Dates are read as strings.
///
/// Nesting (arrays, inline tables, dotted keys and table headers) deeper than `maxDepth` is an
/// error: the reader and everything that walks its result recurse, and a hostile file of a few
/// thousand `[` must get a message, not a stack overflow.
public enum TOMLParser {
    /// Default nesting limit; MoneyFlow's files need four levels at most.
    public static let defaultMaxDepth = 64

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws -> TOMLTable {
        var p = Cursor(Array(text.unicodeScalars))
        p.maxDepth = maxDepth
        var root = TOMLTable()
        var currentPath: [String] = []
        var currentIsArray = false
        while true {
            p.skipWhitespaceAndComments(newlines: true)
            guard let c = p.peek else { break }
            if c == "[" {
                p.advance()
                let isArray = p.peek == "["
                if isArray { p.advance() }
                p.skipSpaces()
                let path = try p.key()
                p.skipSpaces()
                guard p.peek == "]" else { throw p.error("expected ]") }
                p.advance()
                if isArray {
                    guard p.peek == "]" else { throw p.error("expected ]]") }
                    p.advance()
                    try appendArrayTable(&root, path, line: p.line)
                } else {
                    try ensureTable(&root, path, line: p.line)
                }
                currentPath = path; currentIsArray = isArray
                try p.endOfLine()
                continue
            }
            let key = try p.key()
            p.skipSpaces()
            guard p.peek == "=" else { throw p.error("expected = after key") }
            p.advance(); p.skipSpaces()
            let value = try p.value()
            try set(&root, currentPath, arrayTable: currentIsArray, key: key, value: value, line: p.line)
            try p.endOfLine()
        }
        return root
    }

    private static func ensureTable(_ t: inout TOMLTable, _ path: [String], line: Int) throws {
        guard let first = path.first else { return }
        var sub: TOMLTable
        switch t[first] {
        case .table(let x)?: sub = x
        case .array(var arr)? where !path.dropFirst().isEmpty:
            guard case .table(var last)? = arr.last else { throw TOMLError(line: line, message: "'\(first)' is not a table") }
            try ensureTable(&last, Array(path.dropFirst()), line: line)
            arr[arr.count - 1] = .table(last); t[first] = .array(arr); return
        case nil: sub = TOMLTable()
        default: throw TOMLError(line: line, message: "'\(first)' is not a table")
        }
        try ensureTable(&sub, Array(path.dropFirst()), line: line)
        t[first] = .table(sub)
    }

    private static func appendArrayTable(_ t: inout TOMLTable, _ path: [String], line: Int) throws {
        if path.count == 1 {
            var arr: [TOMLValue] = []
            if case .array(let a)? = t[path[0]] { arr = a } else if t[path[0]] != nil { throw TOMLError(line: line, message: "'\(path[0])' is not an array of tables") }
            arr.append(.table(TOMLTable()))
            t[path[0]] = .array(arr)
            return
        }
        var sub = TOMLTable()
        if case .table(let x)? = t[path[0]] { sub = x }
        try appendArrayTable(&sub, Array(path.dropFirst()), line: line)
        t[path[0]] = .table(sub)
    }

    private static func set(_ t: inout TOMLTable, _ path: [String], arrayTable: Bool, key: [String], value: TOMLValue, line: Int) throws {
        if let first = path.first {
            switch t[first] {
            case .table(var sub)?:
                try set(&sub, Array(path.dropFirst()), arrayTable: arrayTable, key: key, value: value, line: line)
                t[first] = .table(sub)
            case .array(var arr)?:
                guard case .table(var last)? = arr.last else { throw TOMLError(line: line, message: "bad array of tables") }
                try set(&last, Array(path.dropFirst()), arrayTable: arrayTable, key: key, value: value, line: line)
                arr[arr.count - 1] = .table(last); t[first] = .array(arr)
            default:
                var sub = TOMLTable()
                try set(&sub, Array(path.dropFirst()), arrayTable: arrayTable, key: key, value: value, line: line)
                t[first] = .table(sub)
            }
            return
        }
        if key.count > 1 {
            var sub = TOMLTable()
            if case .table(let x)? = t[key[0]] { sub = x } else if t[key[0]] != nil { throw TOMLError(line: line, message: "'\(key[0])' is not a table") }
            try set(&sub, [], arrayTable: false, key: Array(key.dropFirst()), value: value, line: line)
            t[key[0]] = .table(sub)
            return
        }
        if t[key[0]] != nil { throw TOMLError(line: line, message: "duplicate key '\(key[0])'") }
        t[key[0]] = value
    }

    struct Cursor {
        let s: [Unicode.Scalar]
        var i = 0
        var line = 1
        var maxDepth = TOMLParser.defaultMaxDepth
        init(_ s: [Unicode.Scalar]) { self.s = s }
        func tooDeep() -> TOMLError { error("nesting deeper than \(maxDepth) levels") }
        var peek: Unicode.Scalar? { i < s.count ? s[i] : nil }
        func peek(_ k: Int) -> Unicode.Scalar? { i + k < s.count ? s[i + k] : nil }
        mutating func advance() { if s[i] == "\n" { line += 1 }; i += 1 }
        func error(_ m: String) -> TOMLError { TOMLError(line: line, message: m) }
        mutating func skipSpaces() { while let c = peek, c == " " || c == "\t" { advance() } }
        mutating func skipWhitespaceAndComments(newlines: Bool) {
            while let c = peek {
                if c == " " || c == "\t" || c == "\r" || (newlines && c == "\n") { advance() }
                else if c == "#" { while let d = peek, d != "\n" { advance() } }
                else { break }
            }
        }
        mutating func endOfLine() throws {
            skipSpaces()
            if peek == "#" { while let d = peek, d != "\n" { advance() } }
            if peek == "\r" { advance() }
            guard peek == nil || peek == "\n" else { throw error("unexpected text after value") }
        }
        mutating func key() throws -> [String] {
            var parts: [String] = []
            while true {
                skipSpaces()
                if peek == "\"" || peek == "'" { parts.append(try string()) }
                else {
                    var k = ""
                    while let c = peek, c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" { k.unicodeScalars.append(c); advance() }
                    guard !k.isEmpty else { throw error("expected a key") }
                    parts.append(k)
                }
                skipSpaces()
                if parts.count > maxDepth { throw tooDeep() }
                if peek == "." { advance() } else { return parts }
            }
        }
        mutating func string() throws -> String {
            let q = peek!
            if peek(1) == q && peek(2) == q { return try multiline(q) }
            advance()
            var out = String.UnicodeScalarView()
            while true {
                guard let c = peek, c != "\n" else { throw error("unterminated string") }
                advance()
                if c == q { return String(out) }
                if c == "\\" && q == "\"" { out.append(try escape()) } else { out.append(c) }
            }
        }
        mutating func multiline(_ q: Unicode.Scalar) throws -> String {
            advance(); advance(); advance()
            if peek == "\n" { advance() } else if peek == "\r" && peek(1) == "\n" { advance(); advance() }
            var out = String.UnicodeScalarView()
            while true {
                guard let c = peek else { throw error("unterminated multi-line string") }
                if c == q && peek(1) == q && peek(2) == q { advance(); advance(); advance(); return String(out) }
                advance()
                if c == "\\" && q == "\"" {
                    if let n = peek, n == "\n" || n == " " || n == "\r" { while let w = peek, w == "\n" || w == " " || w == "\t" || w == "\r" { advance() } }
                    else { out.append(try escape()) }
                } else { out.append(c) }
            }
        }
        mutating func escape() throws -> Unicode.Scalar {
            guard let c = peek else { throw error("bad escape") }
            advance()
            switch c {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "\\": return "\\"
            case "\"": return "\""
            case "b": return "\u{08}"
            case "f": return "\u{0C}"
            case "u", "U":
                let len = c == "u" ? 4 : 8
                var hex = ""
                for _ in 0..<len { guard let h = peek else { throw error("bad unicode escape") }; hex.unicodeScalars.append(h); advance() }
                guard let v = UInt32(hex, radix: 16), let sc = Unicode.Scalar(v) else { throw error("bad unicode escape") }
                return sc
            default: throw error("unknown escape \\\(c)")
            }
        }
        mutating func value(depth: Int = 0) throws -> TOMLValue {
            guard let c = peek else { throw error("expected a value") }
            if (c == "[" || c == "{") && depth >= maxDepth { throw tooDeep() }
            if c == "\"" || c == "'" { return .string(try string()) }
            if c == "[" {
                advance()
                var items: [TOMLValue] = []
                while true {
                    skipWhitespaceAndComments(newlines: true)
                    if peek == "]" { advance(); return .array(items) }
                    items.append(try value(depth: depth + 1))
                    skipWhitespaceAndComments(newlines: true)
                    if peek == "," { advance() } else if peek == "]" { advance(); return .array(items) } else { throw error("expected , or ] in array") }
                }
            }
            if c == "{" {
                advance()
                var t = TOMLTable()
                skipSpaces()
                if peek == "}" { advance(); return .table(t) }
                while true {
                    let k = try key()
                    skipSpaces()
                    guard peek == "=" else { throw error("expected = in inline table") }
                    advance(); skipSpaces()
                    try TOMLParser.set(&t, [], arrayTable: false, key: k, value: try value(depth: depth + 1 + k.count - 1), line: line)
                    skipSpaces()
                    if peek == "," { advance(); skipSpaces() } else if peek == "}" { advance(); return .table(t) } else { throw error("expected , or } in inline table") }
                }
            }
            var word = ""
            while let d = peek, !(d == "," || d == "]" || d == "}" || d == "\n" || d == "#" || d == "\r") { word.unicodeScalars.append(d); advance() }
            word = word.trimmingCharacters(in: .whitespaces)
            if word == "true" { return .bool(true) }
            if word == "false" { return .bool(false) }
            let digits = word.replacingOccurrences(of: "_", with: "")
            if let i = Int64(digits) { return .integer(i) }
            if Double(digits) != nil { return .float(digits) }
            if !word.isEmpty, word.first!.isNumber { return .string(word) } // dates / times
            throw error("cannot read value '\(word)'")
        }
    }
}
