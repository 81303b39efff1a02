import Foundation
import Testing

@testable import MoneyFlowImporters

@Suite("JSON parser")
struct JSONParserTests {
    func parse(_ s: String, maxDepth: Int = 256) throws(JSONParseError) -> JSONValue {
        try JSONParser(maxDepth: maxDepth).parse(s)
    }

    func failure(_ s: String, maxDepth: Int = 256) -> JSONParseError? {
        do { _ = try parse(s, maxDepth: maxDepth); return nil } catch { return error }
    }

    func failure(bytes: [UInt8]) -> JSONParseError? {
        do { _ = try JSONParser.parse(Data(bytes)); return nil } catch { return error }
    }

    @Test func scalars() throws {
        #expect(try parse("null") == .null)
        #expect(try parse(" true ") == .bool(true))
        #expect(try parse("false") == .bool(false))
        #expect(try parse("\"a\"") == .string("a"))
        #expect(try parse("\n\t 12 \r\n") == .number("12"))
    }

    @Test(arguments: [
        "0", "-0", "1234.12", "0.1", "0.30000000000000004", "72.10", "1E+2", "-1.5e-3",
        "123456789012345678901234567890.123456789", "1e400", "-0.0",
    ])
    func numbersKeepTheirSourceText(_ text: String) throws {
        #expect(try parse(text) == .number(text))
        #expect(try parse("[\(text)]") == .array([.number(text)]))
    }

    @Test(arguments: [
        ("01", 0), ("-", 1), ("1.", 2), (".5", 0), ("1e", 2), ("1e+", 3), ("+1", 0), ("--1", 1),
        ("NaN", 0), ("Infinity", 0), ("-Infinity", 1), ("0x10", 1), ("1.2.3", 3),
    ])
    func invalidNumbers(_ text: String, offset: Int) throws {
        let e = try #require(failure(text))
        #expect(e.offset == offset, "\(text): \(e)")
    }

    @Test func objectsKeepKeyOrder() throws {
        let v = try parse(#"{"z": 1, "a": 2, "m": {"y": true, "b": null}}"#)
        let o = try #require(v.objectValue)
        #expect(o.keys == ["z", "a", "m"])
        #expect(o["m"]?.objectValue?.keys == ["y", "b"])
        #expect(o["a"] == .number("2"))
        #expect(o["missing"] == nil)
        #expect(o.offset == 0)
        #expect(o["m"]?.objectValue?.offset == 22)
    }

    @Test func duplicateKeysAreRejectedWithTheirOffset() throws {
        let e = try #require(failure(#"{"a": 1, "b": 2, "a": 3}"#))
        #expect(e.offset == 17)
        #expect(e.message.contains("duplicate key \"a\""))
        // Large objects use a set: the same rule applies.
        var members = (0..<40).map { "\"k\($0)\": \($0)" }
        members.append("\"k7\": 0")
        let big = "{" + members.joined(separator: ",") + "}"
        let e2 = try #require(failure(big))
        #expect(e2.message.contains("duplicate key \"k7\""))
        #expect(e2.offset == big.utf8.count - 8)
        // Same key in different objects is fine.
        #expect(failure(#"[{"a": 1}, {"a": 2}]"#) == nil)
        // Keys that differ only in escapes are the same key.
        #expect(failure(#"{"a": 1, "\u0061": 2}"#) != nil)
        #expect(failure(#"{"é": 1, "\u00e9": 2}"#) != nil)
        // Nested objects do not disturb the parent's bookkeeping.
        #expect(failure(#"{"a": {"b": 1, "c": {"d": 2}}, "e": 3, "a": 4}"#)?.offset == 39)
        #expect(failure(#"{"a": {"a": {"a": 1}}, "b": {"a": 2}}"#) == nil)
        // A duplicate after a nested object, in an object past the linear-scan size.
        let wide = "{" + (0..<40).map { "\"k\($0)\": {\"k\($0)\": [\($0)]}" }.joined(separator: ",") + ", \"k39\": 1}"
        #expect(failure(wide)?.message.contains("duplicate key \"k39\"") == true)
    }

    @Test func manyDistinctKeysStayFast() throws {
        let n = 100_000
        let text = "{" + (0..<n).map { "\"key\($0)\": \($0)" }.joined(separator: ",") + "}"
        let v = try JSONParser.parse(text)
        #expect(v.objectValue?.count == n)
        #expect(v["key99999"] == .number("99999"))
    }

    @Test func depthLimit() throws {
        let ok = String(repeating: "[", count: 256) + String(repeating: "]", count: 256)
        #expect(failure(ok) == nil)
        let deep = String(repeating: "[", count: 257) + String(repeating: "]", count: 257)
        let e = try #require(failure(deep))
        #expect(e.offset == 256)
        #expect(e.message.contains("nesting deeper than 256"))
        let objects = String(repeating: "{\"a\":", count: 10) + "1" + String(repeating: "}", count: 10)
        #expect(failure(objects, maxDepth: 10) == nil)
        #expect(failure(objects, maxDepth: 9)?.offset == 45)
        // A hostile document far beyond the limit fails fast instead of exhausting the stack.
        let hostile = String(repeating: "[", count: 1_000_000)
        #expect(failure(hostile)?.message.contains("nesting") == true)
    }

    @Test func errorOffsetsLinesAndColumns() throws {
        var e = try #require(failure(#"{"a": 1,}"#))
        #expect(e.offset == 8)
        #expect(e.message.contains("expected a string key"))
        e = try #require(failure("[1, 2,]"))
        #expect(e.offset == 6)
        e = try #require(failure("{\n  \"a\": 1\n  \"b\": 2\n}"))
        #expect(e.offset == 13)
        #expect(e.line == 3 && e.column == 3)
        #expect(e.description == "malformed JSON at byte 13 (line 3, column 3): unexpected '\"', expected ',' or '}'")
        e = try #require(failure(#"{"a" 1}"#))
        #expect(e.offset == 5 && e.message.contains("':'"))
        e = try #require(failure(#"{"a": tru}"#))
        #expect(e.offset == 9)
        e = try #require(failure("[1] x"))
        #expect(e.offset == 4 && e.message.contains("after the end"))
        e = try #require(failure(""))
        #expect(e.offset == 0 && e.message.contains("empty"))
        e = try #require(failure("   "))
        #expect(e.offset == 3)
        e = try #require(failure(#"{"a": [1, 2"#))
        #expect(e.offset == 11 && e.message.contains("end of input"))
        e = try #require(failure(#"{"a": "abc"#))
        #expect(e.offset == 10 && e.message.contains("unterminated string"))
        e = try #require(failure("// comment\n{}"))
        #expect(e.offset == 0)
        e = try #require(failure("{'a': 1}"))
        #expect(e.offset == 1)
    }

    @Test func strings() throws {
        #expect(try parse(#""a\"b\\c\/d\b\f\n\r\t""#) == .string("a\"b\\c/d\u{8}\u{C}\n\r\t"))
        #expect(try parse(#""\u00e9\u4E2D\ud83d\ude00""#) == .string("é中😀"))
        #expect(try parse("\"é中😀 raw\"") == .string("é中😀 raw"))
        #expect(try parse(#""\u0000""#) == .string("\u{0}"))
        // Escape after multi-byte characters (slow path keeps earlier bytes).
        #expect(try parse(#""中\n文""#) == .string("中\n文"))
    }

    @Test func invalidStrings() throws {
        var e = try #require(failure("\"a\u{1}b\""))
        #expect(e.offset == 2 && e.message.contains("control character"))
        e = try #require(failure("\"a\nb\""))
        #expect(e.offset == 2)
        e = try #require(failure(#""\x""#))
        #expect(e.offset == 1 && e.message.contains("invalid escape"))
        e = try #require(failure(#""ab\ud800""#))
        #expect(e.offset == 3 && e.message.contains("lone high surrogate"))
        e = try #require(failure(#""\udc00""#))
        #expect(e.message.contains("lone low surrogate"))
        e = try #require(failure(#""\ud800\u0041""#))
        #expect(e.message.contains("low surrogate"))
        e = try #require(failure(#""\u12G4""#))
        #expect(e.offset == 5)
    }

    @Test func invalidUTF8() throws {
        // "a" then a lone continuation byte inside a string.
        var e = try #require(failure(bytes: [0x22, 0x61, 0x80, 0x22]))
        #expect(e.offset == 2 && e.message.contains("UTF-8"))
        // Overlong encoding of "/".
        e = try #require(failure(bytes: [0x22, 0xC0, 0xAF, 0x22]))
        #expect(e.offset == 1)
        // Encoded UTF-16 surrogate.
        e = try #require(failure(bytes: [0x22, 0xED, 0xA0, 0x80, 0x22]))
        #expect(e.offset == 1)
        // Truncated sequence at the end.
        e = try #require(failure(bytes: [0x22, 0xE4, 0xB8]))
        #expect(e.offset == 1)
        // Non-ASCII outside strings.
        e = try #require(failure(bytes: [0x5B, 0xC3, 0xA9, 0x5D]))
        #expect(e.offset == 1)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try JSONParser.parse(Data([0xEF, 0xBB, 0xBF] + Array("{\"a\":1}".utf8))) == .object(JSONObject(["a": .number("1")])))
    }

    @Test func serialisationRoundTripsExactly() throws {
        let text =
            #"{"amount":72.10,"big":123456789012345678901234567890.5,"exp":1E-7,"s":"tab\tquote\"é\u0001","a":[true,false,null,{}],"o":{"k":[]}}"#
        let v = try parse(text)
        let out = v.serialized()
        #expect(
            out
                == #"{"amount":72.10,"big":123456789012345678901234567890.5,"exp":1E-7,"s":"tab\tquote\"é\u0001","a":[true,false,null,{}],"o":{"k":[]}}"#
        )
        #expect(try parse(out) == v)
    }

    @Test func serialisationRedactsByKeyAtAnyDepth() throws {
        let v = try parse(#"{"access_token":"access-sandbox-123","nested":[{"client_secret":{"x":"y"}}],"empty_token":null,"name":"ok"}"#)
        let out = v.serialized(redact: PlaidSecrets.isSecretKey)
        #expect(out == #"{"access_token":"[REDACTED]","nested":[{"client_secret":"[REDACTED]"}],"empty_token":null,"name":"ok"}"#)
    }

    @Test func largeDocument() throws {
        // 20,000 transactions-like objects: parses, keeps the last number's text exactly.
        var s = "["
        for i in 0..<20_000 {
            if i > 0 { s += "," }
            s +=
                #"{"transaction_id":"id\#(i)","amount":\#(i).01,"name":"Merchant \#(i) é","pending":false,"location":{"lat":37.1,"lon":null}}"#
        }
        s += "]"
        let v = try JSONParser.parse(Data(s.utf8))
        let items = try #require(v.arrayValue)
        #expect(items.count == 20_000)
        #expect(items[19_999]["amount"] == .number("19999.01"))
    }
}
