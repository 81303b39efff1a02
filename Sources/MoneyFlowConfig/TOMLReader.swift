import MoneyFlowImporters
import TOMLKit

/// Why a TOML file could not be read. `line` is where toml++ found the error (nil for the
/// limits checked after parsing, where TOMLKit gives no position).
public struct TOMLError: Error, Sendable, CustomStringConvertible {
    public var line: Int?
    public var message: String
    public init(line: Int?, message: String) { self.line = line; self.message = message }
    public var description: String { line.map { "TOML line \($0): \(message)" } ?? "TOML: \(message)" }
}

/// Reads TOML (through TOMLKit, i.e. toml++) into the same ``JSONValue`` a JSON file gives, so
/// profiles and manifests are checked by one decoder whatever their syntax.
///
/// Integers become number text; floats become their shortest decimal text; dates and times
/// become strings (MoneyFlow's files use none). Keys come in toml++'s order (sorted).
///
/// Nesting (arrays, tables, dotted keys and table headers) deeper than `maxDepth` is an error:
/// everything that walks the result recurses, and a hostile file of a few thousand `[` must get
/// a message, not a stack overflow. toml++ itself refuses values nested deeper than 256
/// (`TOML_MAX_NESTED_VALUES`) while parsing, but not deep dotted keys or table headers, and 256
/// is far above what our files need, and toml++ recurses (and crashes) on a few ten thousand
/// dotted-key parts; so ``TOMLDepthGuard`` scans the text first, and the limit is checked again
/// exactly while converting, which recurses at most `maxDepth` levels.
public enum TOMLReader {
    /// Default nesting limit; MoneyFlow's files need four levels at most.
    public static let defaultMaxDepth = 64

    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(TOMLError) -> JSONObject {
        // TOMLKit hands the text to C as a NUL-terminated string: a NUL would silently cut it.
        if let nul = text.utf8.firstIndex(of: 0) {
            throw TOMLError(line: text.utf8[..<nul].count { $0 == UInt8(ascii: "\n") } + 1, message: "NUL character in the file")
        }
        // Slack of 2: this pre-scan only has to stop what would crash toml++; the exact limit is
        // applied to the parsed tables below, with the same message.
        if let line = TOMLDepthGuard.firstTooDeep(text, limit: maxDepth + 2) {
            throw TOMLError(line: line, message: "nesting deeper than \(maxDepth) levels")
        }
        let table: TOMLTable
        do { table = try TOMLTable(string: text) } catch let e as TOMLParseError {
            let tooDeep = e.description.contains("maximum nested value depth")
            throw TOMLError(line: e.source.begin.line, message: tooDeep ? "nesting deeper than \(maxDepth) levels" : e.description)
        } catch {
            throw TOMLError(line: nil, message: "\(error)")
        }
        return try object(table, depth: 0, maxDepth: maxDepth)
    }

    private static func object(_ t: TOMLTable, depth: Int, maxDepth: Int) throws(TOMLError) -> JSONObject {
        var out = JSONObject()
        for key in t.keys {
            guard let v = t[key] else { continue }
            out.members.append(JSONMember(key: key, value: try value(v, depth: depth, maxDepth: maxDepth)))
        }
        return out
    }

    private static func value(_ v: TOMLValueConvertible, depth: Int, maxDepth: Int) throws(TOMLError) -> JSONValue {
        switch v.type {
        case .table, .array:
            guard depth < maxDepth else { throw TOMLError(line: nil, message: "nesting deeper than \(maxDepth) levels") }
            if let t = v.table { return .object(try object(t, depth: depth + 1, maxDepth: maxDepth)) }
            var items: [JSONValue] = []
            for item in v.array ?? TOMLArray() { items.append(try value(item, depth: depth + 1, maxDepth: maxDepth)) }
            return .array(items)
        case .string: return .string(v.string ?? "")
        case .int: return .number(String(v.int ?? 0))
        case .double:
            let d = v.double ?? 0
            guard d.isFinite else { throw TOMLError(line: nil, message: "\(d) is not a number MoneyFlow can use") }
            return .number("\(d)")
        case .bool: return .bool(v.bool ?? false)
        case .date: return .string(v.date?.debugDescription ?? "")
        case .time: return .string(v.time?.debugDescription ?? "")
        case .dateTime: return .string(v.dateTime?.debugDescription ?? "")
        }
    }
}
