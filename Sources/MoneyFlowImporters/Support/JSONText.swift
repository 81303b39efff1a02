import Foundation

/// Minimal JSON text writing for raw audit fields (stable key order).
public enum JSONText {
    public static func string(_ s: String) -> String {
        // Most text needs no escaping at all.
        if s.utf8.allSatisfy({ $0 >= 0x20 && $0 != 0x22 && $0 != 0x5C }) { return "\"" + s + "\"" }
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += String(format: "\\u%04x", u.value) } else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    /// `{"k":"v",...}` with keys sorted.
    public static func object(_ dict: [String: String]) -> String {
        "{" + dict.keys.sorted().map { "\(string($0)):\(string(dict[$0]!))" }.joined(separator: ",") + "}"
    }
}
