import Foundation
import MoneyFlowCore

/// The text a link stores for its reasons (`link.reasons`): the JSON of `[MatchReason]`,
/// written directly when every string is plain.
///
/// Every linked record of an import stores its reasons. Through `JSONEncoder` that was 7 % of
/// a 100k statement's import beside the Plaid side (`perf`), for a fixed shape: an array of
/// objects with `factor` and `detail` (in that order, as ``PlanApplier/newReasonJSON``;
/// `JSONEncoder` on Linux writes them in either order). A string that JSON escapes (`"`, `\`,
/// `/` — `JSONEncoder` escapes the slash — control characters) or that is not ASCII goes
/// through `JSONEncoder` instead, so every string is written as `JSONEncoder` writes it
/// (`MatchReasonsJSONTests` holds the two together).
enum MatchReasonsJSON {
    static func encode(_ reasons: [MatchReason], encoder: JSONEncoder) throws -> String {
        var out = "["
        for (i, r) in reasons.enumerated() {
            guard isPlain(r.factor), isPlain(r.detail) else { return String(decoding: try encoder.encode(reasons), as: UTF8.self) }
            if i > 0 { out += "," }
            out += #"{"factor":""#
            out += r.factor
            out += #"","detail":""#
            out += r.detail
            out += #""}"#
        }
        return out + "]"
    }

    /// Printable ASCII that a JSON string holds as is.
    static func isPlain(_ s: String) -> Bool {
        s.utf8.allSatisfy { $0 >= 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "\\") && $0 != UInt8(ascii: "/") }
    }
}
