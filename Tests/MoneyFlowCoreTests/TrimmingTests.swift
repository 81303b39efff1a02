import Foundation
import MoneyFlowCore
import Testing

@Suite struct TrimmingTests {
    /// The fast trim must agree with Foundation's `trimmingCharacters(in:)` on every input.
    @Test(arguments: [CharacterSet.whitespaces, .whitespacesAndNewlines, CharacterSet(charactersIn: "\u{FEFF}\" \t")])
    func agreesWithFoundation(set: CharacterSet) {
        let pieces = [
            " ", "\t", "\n", "\r\n", "\u{00A0}", "\u{3000}", "\u{FEFF}", "\"", "a", "中", "́", "1", ".", "👍🏽", "e\u{301}", "\u{2028}", "",
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<3_000 {
            var s = ""
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            for k in 0..<Int(state >> 60) { s += pieces[Int((state >> UInt64(k * 4)) & 0xF) % pieces.count] }
            #expect(s.trimmed(set) == s.trimmingCharacters(in: set), "\(Array(s.unicodeScalars))")
        }
        #expect("  12.50 ".trimmed(.whitespaces) == "12.50")
        #expect("".trimmed(.whitespaces) == "")
        #expect(" \n ".trimmed(.whitespacesAndNewlines) == "")
    }
}
