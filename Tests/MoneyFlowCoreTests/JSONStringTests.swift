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

    /// ``JSONString/needsEscaping(utf8:lineSeparators:)`` (eight bytes at a time) says true
    /// exactly when quoting changes a byte, whatever byte and wherever in the text.
    @Test func needsEscapingIsTrueExactlyWhenQuotingChangesTheText() {
        for modes in [JSONString.LineSeparators.literal, .escaped] {
            for length in [1, 7, 8, 9, 16, 17] {
                for position in 0..<length {
                    for byte in UInt8(0)...UInt8(0x7F) {
                        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        bytes[position] = byte
                        let text = String(decoding: bytes, as: UTF8.self)
                        let changed = JSONString.quoted(text, lineSeparators: modes) != "\"" + text + "\""
                        #expect(bytes.withUnsafeBufferPointer { JSONString.needsEscaping(utf8: $0, lineSeparators: modes) } == changed)
                    }
                    for scalar in ["\u{2028}", "\u{2029}", "é", "日", "\u{E2}", "😀"] {
                        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                        bytes.insert(contentsOf: scalar.utf8, at: position)
                        let text = String(decoding: bytes, as: UTF8.self)
                        let changed = JSONString.quoted(text, lineSeparators: modes) != "\"" + text + "\""
                        // U+2028/2029 start with 0xE2: escaped mode may ask the slow path for any
                        // 0xE2 lead byte (the slow path then writes it as it is).
                        let asked = bytes.withUnsafeBufferPointer { JSONString.needsEscaping(utf8: $0, lineSeparators: modes) }
                        #expect(asked == changed || (modes == .escaped && scalar.utf8.first == 0xE2), "\(scalar) \(length) \(position)")
                    }
                }
            }
        }
    }
}
