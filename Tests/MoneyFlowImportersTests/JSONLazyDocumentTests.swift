import Foundation
import MoneyFlowCore
import Testing

@testable import MoneyFlowImporters

/// The lazy parse the Plaid importer reads with: transaction lists stay in the file's bytes
/// (peak memory, #30), and nothing else changes: the same values, the same errors.
@Suite("JSON lazy document")
struct JSONLazyDocumentTests {
    static let getResponse = """
        {"accounts": [{"account_id": "A1", "balances": {"current": 1.5}}],
         "transactions": [
           {"transaction_id": "t1", "amount": 1.25, "name": "caf\\u00e9 \\"one\\"", "nested": {"added": [{"x": 1}]}},
           {"transaction_id": "t2", "amount": 2E1, "category": ["A", "B"]},
           {}, 7, "text"
         ],
         "total_transactions": 5}
        """

    @Test func transactionListsStayInTheBytesAndComeBackAsParsed() throws {
        let data = Data(Self.getResponse.utf8)
        let eager = try JSONParser.parse(data)
        var visited: [Int] = []
        let doc = try JSONParser().parseLazily(data, lazyKeys: ["transactions", "added"], lazyTopLevel: true) { visited.append($0.offset) }
        let lazyList = try #require(doc.root["transactions"]?.arrayValue)
        let eagerList = try #require(eager["transactions"]?.arrayValue)
        #expect(lazyList.count == eagerList.count)
        // Object elements are placeholders (empty, at their offset); the others are kept.
        for (l, e) in zip(lazyList, eagerList) {
            if let o = l.objectValue {
                #expect(o.members.isEmpty && doc.isPlaceholder(o))
                let back = try doc.object(at: o.offset, full: true)
                #expect(JSONValue.object(back) == e)
                #expect(back.offset == e.objectValue?.offset)
                #expect(back.serialized() == e.serialized())
            } else {
                #expect(l == e)
            }
        }
        // Every element was seen once (the nested `added` element first), then dropped.
        #expect(visited.count == 4)
        // Parsed without `full`, an element's own lists stay in the bytes again.
        let first = try doc.object(at: lazyList[0].objectValue!.offset, full: false)
        let inner = try #require(first["nested"]?["added"]?.arrayValue?.first?.objectValue)
        #expect(doc.isPlaceholder(inner))
        #expect(try doc.complete(first) == eagerList[0].objectValue!)
        // Keys not asked for are parsed as usual.
        #expect(doc.root["accounts"] == eager["accounts"])
    }

    @Test(arguments: [
        #"{"transactions": [{"a": 1}, {"a": 2,}]}"#,
        #"{"transactions": [{"a": 1}, {"a": 1, "a": 2}]}"#,
        #"{"transactions": [{"a": 1}, {"a": "\ud800"}]}"#,
        #"{"transactions": [{"a": 1}, {"a": 01}]}"#,
        "{\"transactions\": [{\"a\": 1},\n {\"a\": [1, 2}]}",
        #"[{"a": 1}, {"a": tru}]"#,
        #"{"transactions": [{"a": 1}, {"a": 1}]"#,
        #"{"transactions": [{"a": 1}, {"a": 1}]} x"#,
    ])
    func malformedInputFailsExactlyAsTheEagerParse(_ text: String) {
        let data = Data(text.utf8)
        var eagerError: JSONParseError?
        do { _ = try JSONParser.parse(data) } catch { eagerError = error }
        var lazyError: JSONParseError?
        do { _ = try JSONParser().parseLazily(data, lazyKeys: ["transactions"], lazyTopLevel: true) } catch { lazyError = error }
        #expect(eagerError != nil)
        #expect(lazyError == eagerError)
    }

    @Test func nestingLimitCountsTheWholeDocument() {
        let text = #"{"transactions": [{"a": [[[1]]]}]}"#
        var failure: JSONParseError?
        do { _ = try JSONParser(maxDepth: 4).parseLazily(Data(text.utf8), lazyKeys: ["transactions"], lazyTopLevel: false) } catch { failure = error }
        #expect(failure?.message.contains("nesting deeper than 4") == true)
    }

    /// A secret under a secret key whose value holds a transaction list: the list's elements are
    /// parsed again for their strings, so an echo of the secret elsewhere is still redacted.
    @Test func secretsInsideListsUnderASecretKeyAreStillRedacted() throws {
        let text = """
            {"access_token": {"transactions": [{"value": "tok-sandbox-0123"}]},
             "transactions": [{"transaction_id": "t1", "account_id": "A1", "amount": 3.5, "date": "2024-03-01",
                               "iso_currency_code": "USD", "name": "PAYMENT tok-sandbox-0123"}]}
            """
        let st = try PlaidFixtures.read(text: text)
        let r = try #require(st.records.first)
        #expect(r.description == "PAYMENT [REDACTED]")
        #expect(!r.raw.contains("tok-sandbox-0123"))
    }

    /// The raw text kept for each record is what the eager parse serialised: compact, members in
    /// file order, escapes normalised, secrets redacted.
    @Test func rawTextIsTheSameAsBefore() throws {
        let tx = """
            {"transaction_id": "t1", "account_id": "A1", "amount": 3.50, "date": "2024-03-01",
             "iso_currency_code": "USD", "name": "CAF\\u00c9 \\/ \\"X\\"", "processor_token": "p-1",
             "location": {"city": null}, "counterparties": [{"name": "Caf\\u00e9"}], "modified": [{"k": 1}]}
            """
        let st = try PlaidFixtures.read(text: "{\"transactions\": [\(tx)]}")
        let r = try #require(st.records.first)
        let expected = try JSONParser.parse(tx).serialized(redact: PlaidSecrets.isSecretKey)
        #expect(r.raw == expected)
        #expect(r.raw.contains(#""modified":[{"k":1}]"#))
        #expect(r.description == "CAFÉ / \"X\"")
    }
}
