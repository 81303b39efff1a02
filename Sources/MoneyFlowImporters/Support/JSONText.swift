import Foundation
import MoneyFlowCore

/// Minimal JSON text writing for raw audit fields (stable key order).
public enum JSONText {
    /// `s` as a JSON string; U+2028/2029 stay literal (see ``JSONString``).
    public static func string(_ s: String) -> String { JSONString.quoted(s, lineSeparators: .literal) }

    /// ``string(_:)`` of the text whose valid UTF-8 is `bytes`, appended to `out` as UTF-8.
    public static func append(bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        JSONString.appendQuoted(utf8: bytes, lineSeparators: .literal, to: &out)
    }

    /// `{"k":"v",...}` with keys sorted.
    public static func object(_ dict: [String: String]) -> String {
        "{" + dict.keys.sorted().map { "\(string($0)):\(string(dict[$0]!))" }.joined(separator: ",") + "}"
    }
}
