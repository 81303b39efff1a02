import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowCategories

/// ``PlaidRecordFields`` reads a record's `raw` with ``JSONMemberReader``; it must answer exactly
/// as it did with `JSONSerialization` (`reference` below is that reading, kept verbatim), on
/// every JSON `JSONSerialization` accepts or refuses.
@Suite struct JSONMemberReaderTests {
    /// The reading through `JSONSerialization` that ``PlaidRecordFields/init(raw:)`` replaced.
    static func reference(_ raw: String) -> PlaidRecordFields? {
        guard let data = raw.data(using: .utf8),
            let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        else { return nil }
        func text(_ v: Any?) -> String? {
            guard let s = (v as? String)?.trimmingCharacters(in: .whitespacesAndNewlines), !s.isEmpty else { return nil }
            return s
        }
        var f = PlaidRecordFields(raw: "{}")!
        f.merchant = text(object["merchant_name"])
        if let pfc = object["personal_finance_category"] as? [String: Any], let primary = text(pfc["primary"]) {
            f.category = ProviderCategory(taxonomy: .plaid, primary: primary, detailed: text(pfc["detailed"]))
            let types = (object["counterparties"] as? [Any] ?? []).compactMap { ($0 as? [String: Any]).flatMap { text($0["type"]) } }
            f.isPersonTransfer = PersonTransfer.plaid(primary: primary, detailed: text(pfc["detailed"]), counterpartyTypes: types)
        } else if let legacy = object["category"] as? [Any] {
            let parts = legacy.compactMap(text)
            f.category = parts.isEmpty ? nil : ProviderCategory(taxonomy: .plaidLegacy, primary: parts.joined(separator: " > "))
        }
        return f
    }

    static let p2p = #""personal_finance_category":{"primary":"TRANSFER_OUT","detailed":"TRANSFER_OUT_TRANSFER_OUT_FROM_APPS"}"#

    /// Values and keys the reader must read as Foundation does.
    static let readable: [String] = [
        #"{"merchant_name":" Starbucks ","personal_finance_category":{"primary":"FOOD_AND_DRINK","detailed":"FOOD_AND_DRINK_COFFEE","confidence_level":"VERY_HIGH"},"category":["Food and Drink","Coffee Shop"]}"#,
        // escapes, surrogate pairs, raw UTF-8, an escaped NUL, whitespace-only text
        #"{"merchant_name":"Caf\u00e9 \"Le\" \\ Bar\/\n\t\b\f\r"}"#,
        #"{"merchant_name":"\ud83d\ude00 \uD83C\uDF55 咖啡 \u00E9\u0301"}"#,
        #"{"merchant_name":"a\u0000b"}"#,
        #"{"merchant_name":" \t\n\u00a0\u2028 "}"#,
        "{\"merchant_name\":\"\u{7F}x\"}",
        // keys written with escapes or as other scalars, and repeated keys (the last counts)
        #"{"merchant\u005fname":"Escaped key"}"#,
        #"{"personal_finance_category":{"\u0070rimary":"FOOD_AND_DRINK","detaile\u0064":"FOOD_AND_DRINK_COFFEE"}}"#,
        #"{"merchant_name":"First","merchant_name":"Second"}"#,
        #"{"merchant_name":"First","merchant\u005fname":null}"#,
        #"{"personal_finance_category":{"primary":"A","primary":"TRANSFER_IN"},"category":["X"],"category":["Y"]}"#,
        #"{"merchant_namé":"not the key","merchant_name\u0301":"nor this"}"#,
        // nulls, other types where a string, object or array is expected
        #"{"merchant_name":null,"personal_finance_category":null,"category":null}"#,
        #"{"merchant_name":5,"personal_finance_category":["FOOD"],"category":["Food",null,3,"",["x"],{"a":"b"}," Bars "]}"#,
        #"{"merchant_name":true,"personal_finance_category":{"primary":"","detailed":"D"},"category":["Shops"]}"#,
        #"{"personal_finance_category":{"primary":7},"category":"Shops"}"#,
        #"{"personal_finance_category":{"primary":"TRANSFER_OUT"},"category":[]}"#,
        // counterparties: objects, other values, a type that is not a string
        "{\(p2p),\"counterparties\":[]}",
        "{\(p2p),\"counterparties\":[{\"name\":\"Venmo\",\"type\":\"payment_app\"},null,\"x\",[{\"type\":\"merchant\"}]]}",
        "{\(p2p),\"counterparties\":[{\"type\":\"payment_app\"},{\"type\":\" merchant \"}]}",
        "{\(p2p),\"counterparties\":[{\"type\":5},{\"type\":\"payment_app\",\"type\":\"financial_institution\"}]}",
        "{\(p2p),\"counterparties\":{\"type\":\"merchant\"}}",
        // members the reader skips: nested containers, numbers, literals, whitespace, a BOM, trailing commas
        #"{"location":{"address":{"lines":[1,{"y":null,"z":[true,false,[]]},{}],"lat":-0.5e-3},"x":[]},"merchant_name":"Deep"}"#,
        " \n\t\r{ \"amount\" : -12.50 , \"merchant_name\" :\"Spaced\" , \"n\":[ 0 , -0, 0e0, 1E+2, 1.5e-400 ] }\r\n ",
        "\u{FEFF}{\"merchant_name\":\"After a BOM\"}",
        #"{"merchant_name":"Trailing","category":["A","B",],}"#,
        #"{"big":123456789012345678901234567890e10,"merchant_name":"Big numbers","n":1.7976931348623157e308}"#,
        "{\"long\":1.\(String(repeating: "0", count: 400)),\"merchant_name\":\"Long\"}",
        "{\"deep\":\(String(repeating: "[", count: 510))\(String(repeating: "]", count: 510)),\"merchant_name\":\"511\"}",
        "{\"deep\":\(String(repeating: "[", count: 511))\(String(repeating: "]", count: 511)),\"merchant_name\":\"512\"}",
        "{}",
    ]

    /// What Foundation refuses (or is not an object): the reader must refuse it too, even where
    /// the fault is in a member it skips.
    static let refused: [String] = [
        "", "   ", "[1]", "\"x\"", "null", "{", "{\"merchant_name\":\"x\"", "{\"merchant_name\":\"x\"}}", "{\"merchant_name\":\"x\"} x",
        "{,}", "{\"a\":1,,\"b\":2}", "{\"a\":[,]}", "{\"a\" 1}", "{1:2}", "{'a':1}", "{\"a\":True}", "{\"a\":NaN}", "{\"a\":+1}",
        "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":-}", "{\"a\":1e}", "{\"a\":1e400}", "{\"a\":-1E+309}",
        "{\"a\":1\(String(repeating: "0", count: 309))}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00x\"}", "{\"a\":\"\\ud800\\u0041\"}",
        "{\"a\":\"\\u12\"}", "{\"a\":\"\\u12G4\"}", "{\"a\":\"\\x\"}", "{\"a\":\"tab\there\"}", "{\"a\":\"line\nbreak\"}",
        "{\"a\":1}\u{0C}", "{\"a\":\u{0B}1}", "{\"a\":1}\u{0}",
        "{\"deep\":\(String(repeating: "[", count: 512))\(String(repeating: "]", count: 512))}",
        "{\"merchant_name\":\"ok\",\"location\":{\"a\":[1,2}}",
    ]

    @Test func readsWhatJSONSerializationReads() {
        for raw in Self.readable {
            #expect(Self.reference(raw) != nil, "the reference refuses \(raw.prefix(80))")
            #expect(PlaidRecordFields(raw: raw) == Self.reference(raw), "\(raw.prefix(120))")
        }
    }

    @Test func refusesWhatJSONSerializationRefuses() {
        for raw in Self.refused {
            #expect(Self.reference(raw) == nil, "the reference accepts \(raw.prefix(80))")
            #expect(PlaidRecordFields(raw: raw) == nil, "\(raw.prefix(120))")
        }
    }

    /// Bytes that are not UTF-8 read as the `String` the store would have made of them.
    @Test func readsBytesThatAreNotUTF8AsTheirRepairedText() {
        let cases: [[UInt8]] = [
            Array(#"{"merchant_name":"Caf"#.utf8) + [0xC3] + Array(#"","category":["A"#.utf8) + [0xFF, 0xFE] + Array(#""]}"#.utf8),
            Array(#"{"merchant_name":"x"#.utf8) + [0xE2, 0x82] + Array(#"\u00ac"#.utf8) + [0xA9] + Array(#"y"}"#.utf8),
            Array(#"{"skipped":""#.utf8) + [0x80, 0xBF] + Array(#"","merchant_name":"Kept"}"#.utf8),
        ]
        for bytes in cases {
            let repaired = String(decoding: bytes, as: UTF8.self)
            let read = bytes.withUnsafeBytes { PlaidRecordFields(json: $0) }
            #expect(read != nil)
            #expect(read == Self.reference(repaired), "\(repaired)")
        }
    }

    @Test func readsOnlyTheMembersAskedFor() throws {
        let raw = #"{"a":{"x":[1,"s",null]},"b":"t","c":[{"k":"v","k":"w"}],"d":1}"#
        let read = raw.utf8.withContiguousStorageIfAvailable { JSONMemberReader.members(["c", "a", "e"], of: UnsafeRawBufferPointer($0)) }
        let m = try #require(read ?? nil)
        #expect(m[0] == .array([.object(["k": .string("w")])]))
        #expect(m[1] == .object(["x": .array([.scalar, .string("s"), .scalar])]))
        #expect(m[2] == nil)
    }
}
