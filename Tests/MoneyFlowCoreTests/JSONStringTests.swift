import MoneyFlowCore
import Testing

/// The one JSON string writer; its U+2028/2029 option is pinned here.
@Suite struct JSONStringTests {
    @Test func escapesQuotesBackslashesAndControls() {
        #expect(JSONString.quoted("plain 中文", lineSeparators: .literal) == "\"plain 中文\"")
        #expect(JSONString.quoted("a\"b\\c\n\r\t\u{01}\u{1F}", lineSeparators: .literal) == #""a\"b\\c\n\r\t\u0001\u001f""#)
    }

    @Test func lineSeparatorsAreLiteralOrEscapedAsAsked() {
        let s = "x\u{2028}y\u{2029}z€"
        #expect(JSONString.quoted(s, lineSeparators: .literal) == "\"\(s)\"")
        #expect(JSONString.quoted(s, lineSeparators: .escaped) == #""x\u2028y\u2029z€""#)
    }

    @Test func appendingWritesTheQuotedTextsBytes() {
        let texts = ["", "plain 中文", "a\"b\\c\n\r\t\u{01}\u{1F}", "x\u{2028}y\u{2029}z€", "POS PURCHASE #0393", "e\u{301}"]
        for t in texts {
            for mode in [JSONString.LineSeparators.literal, .escaped] {
                var out: [UInt8] = [0x7B]
                JSONString.appendQuoted(t, lineSeparators: mode, to: &out)
                #expect(out == [0x7B] + Array(JSONString.quoted(t, lineSeparators: mode).utf8), "\(t.debugDescription)")
            }
        }
    }
}
