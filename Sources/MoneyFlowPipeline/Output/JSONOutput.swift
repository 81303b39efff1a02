import Foundation
import MoneyFlowCore

/// An ordered JSON value for the CLI's output contracts (keys keep the documented order,
/// nulls are written, numbers and money are exact).
public indirect enum JSONOutput: Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int64)
    case number(String)
    case string(String)
    case array([JSONOutput])
    case object([(String, JSONOutput)])

    public static func == (a: JSONOutput, b: JSONOutput) -> Bool { a.render() == b.render() }

    public static func string(_ s: String?) -> JSONOutput { s.map { .string($0) } ?? .null }
    public static func int(_ i: Int?) -> JSONOutput { i.map { .int(Int64($0)) } ?? .null }
    public static func int64(_ i: Int64?) -> JSONOutput { i.map { .int($0) } ?? .null }

    /// Compact (one line) or pretty (two-space indented) text.
    public func render(pretty: Bool = false) -> String {
        var out = ""
        write(&out, pretty: pretty, indent: 0)
        return out
    }

    /// Text of this value as it appears nested `indent` levels deep in a pretty document
    /// (used to stream an array one element at a time with the bytes `render` would give).
    public func render(pretty: Bool, indent: Int) -> String {
        var out = ""
        write(&out, pretty: pretty, indent: indent)
        return out
    }

    private func write(_ out: inout String, pretty: Bool, indent: Int) {
        let nl = pretty ? "\n" : ""
        let pad = pretty ? String(repeating: "  ", count: indent + 1) : ""
        let closePad = pretty ? String(repeating: "  ", count: indent) : ""
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .number(let s): out += s
        case .string(let s): out += quote(s)
        case .array(let items):
            if items.isEmpty { out += "[]"; return }
            out += "[" + nl
            for (i, item) in items.enumerated() {
                out += pad
                item.write(&out, pretty: pretty, indent: indent + 1)
                if i < items.count - 1 { out += "," }
                out += nl
            }
            out += closePad + "]"
        case .object(let fields):
            if fields.isEmpty { out += "{}"; return }
            out += "{" + nl
            for (i, (k, v)) in fields.enumerated() {
                out += pad + quote(k) + (pretty ? ": " : ":")
                v.write(&out, pretty: pretty, indent: indent + 1)
                if i < fields.count - 1 { out += "," }
                out += nl
            }
            out += closePad + "}"
        }
    }

    private func quote(_ s: String) -> String { JSONString.quoted(s, lineSeparators: .escaped) }
}
