import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowStore

/// A link's reasons are stored as JSON that decodes to the same reasons, written as `JSONEncoder` writes them.
@Suite struct MatchReasonsJSONTests {
    /// The engine's own wordings, and strings with every character JSON treats specially.
    @Test func theDirectTextIsJSONEncodersText() throws {
        let encoder = JSONEncoder()
        let fixed: [[MatchReason]] = [
            [],
            [MatchReason("amount", "equal -9.99"), MatchReason("date", "0 day(s) apart"), MatchReason("text", "similarity 0.83")],
            [MatchReason("wording", "'PAYMENT' on the outflow"), MatchReason("account", "outflow names the other account's …1234")],
            [MatchReason("alias", "these texts are paired by a date/amount"), MatchReason("x", "tab\there \"quoted\" back\\slash")],
            [MatchReason("", ""), MatchReason("招商", "😀"), MatchReason("ctl", "\u{1}\u{1F}\u{7F}\u{2028}")],
        ]
        let alphabet: [Character] = ["a", "Z", "0", " ", "'", "(", ")", "…", "é", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{7F}", "~", "{", "}", ":", ","]
        var rng = SystemRandomNumberGenerator()
        func word() -> String { String((0..<Int.random(in: 0...8, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }) }
        let random = (0..<2_000).map { _ in (0..<Int.random(in: 0...4, using: &rng)).map { _ in MatchReason(word(), word()) } }
        // `JSONEncoder` on Linux writes an object's keys in an order fixed per process (its keyed
        // container is a hashed dictionary), so the reference spells each string through it alone.
        func reference(_ reasons: [MatchReason]) throws -> String {
            func json(_ s: String) throws -> String { String(decoding: try encoder.encode(s), as: UTF8.self) }
            return try "[" + reasons.map { #"{"factor":"# + (try json($0.factor)) + #","detail":"# + (try json($0.detail)) + "}" }.joined(separator: ",") + "]"
        }
        var direct = 0
        for reasons in fixed + random {
            let text = try MatchReasonsJSON.encode(reasons, encoder: encoder)
            #expect(try JSONDecoder().decode([MatchReason].self, from: Data(text.utf8)) == reasons, "\(text)")
            guard reasons.allSatisfy({ MatchReasonsJSON.isPlain($0.factor) && MatchReasonsJSON.isPlain($0.detail) }) else { continue }
            direct += 1
            #expect(text == (try reference(reasons)))
        }
        #expect(direct > 100)   // the direct path itself is exercised, not only the fallback
    }
}
