import Foundation
import Testing
import MoneyFlowCore

@Suite struct TrimmingTests {
    /// The fast trim must agree with Foundation's `trimmingCharacters(in:)` on every input.
    @Test(arguments: [CharacterSet.whitespaces, .whitespacesAndNewlines, CharacterSet(charactersIn: "\u{FEFF}\" \t")])
    func agreesWithFoundation(set: CharacterSet) {
        let pieces = [" ", "\t", "\n", "\r\n", "\u{00A0}", "\u{3000}", "\u{FEFF}", "\"", "a", "中", "́", "1", ".", "👍🏽", "e\u{301}", "\u{2028}", ""]
        var state: UInt64 = 0x9E3779B97F4A7C15
        for _ in 0..<3_000 {
            var s = ""
            state = state &* 6364136223846793005 &+ 1442695040888963407
            for k in 0..<Int(state >> 60) { s += pieces[Int((state >> UInt64(k * 4)) & 0xF) % pieces.count] }
            #expect(s.trimmed(set) == s.trimmingCharacters(in: set), "\(Array(s.unicodeScalars))")
        }
        #expect("  12.50 ".trimmed(.whitespaces) == "12.50")
        #expect("".trimmed(.whitespaces) == "")
        #expect(" \n ".trimmed(.whitespacesAndNewlines) == "")
    }
}
