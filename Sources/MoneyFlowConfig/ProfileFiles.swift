import Foundation
import MoneyFlowImporters
import TOMLKit

/// CSV profile files as users write them: JSON or TOML (by extension), checked by the one
/// profile decoder (``CSVProfile/decode(_:file:)``).
public enum ProfileFiles {
    /// Loads a user profile from a `.json` or `.toml` file.
    public static func load(contentsOf url: URL) throws -> CSVProfile {
        guard url.pathExtension.lowercased() == "toml" else { return try CSVProfile.load(contentsOf: url) }
        return try toml(Data(contentsOf: url), file: url.path)
    }

    /// Reads a TOML profile's bytes (a file, or one a server user uploaded) with the same
    /// checks as a profile file; `file` names it in errors.
    public static func toml(_ data: Data, file: String) throws -> CSVProfile {
        guard let text = String(data: data, encoding: .utf8) else { throw ProfileError(file: file, message: "not UTF-8 text") }
        let object: JSONObject
        do { object = try TOMLReader.parse(text, maxDepth: CSVProfile.maxNesting) } catch {
            throw ProfileError(file: file, message: error.description)
        }
        return try CSVProfile.decode(.object(object), file: file)
    }

    /// A built-in profile's file as TOML, ready to save and edit (`moneyflow profiles --show`):
    /// its keys in the file's order, one per line, values written by TOMLKit.
    public static func toml(_ file: JSONObject) -> String {
        var out = ""
        for m in file.members {
            let one = TOMLTable()
            one[m.key] = tomlValue(m.value)
            out += one.convert(to: .toml).trimmingCharacters(in: .newlines) + "\n"
        }
        return out
    }

    /// The TOML value for a profile value (profiles hold strings, integers, booleans and arrays
    /// of them; a profile file has no nested tables).
    private static func tomlValue(_ v: JSONValue) -> TOMLValueConvertible {
        switch v {
        case .string(let s): return s
        case .bool(let b): return b
        case .number(let n):
            if let i = Int(n) { return i }
            return Double(n) ?? 0 // a JSON number always reads as a Double
        case .array(let a): return TOMLArray(a.map(tomlValue))
        case .object(let o):
            let t = TOMLTable(inline: true)
            for m in o.members { t[m.key] = tomlValue(m.value) }
            return t
        case .null: return "" // no profile key takes null (the decoder refuses it)
        }
    }
}
