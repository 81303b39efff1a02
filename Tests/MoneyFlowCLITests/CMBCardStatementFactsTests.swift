import Foundation
import MoneyFlowTestSupport
import Testing

/// A card bill's header facts (账单日, 到期还款日, 信用额度, 本期还款总额, the check terms) are stored
/// per import and shown by `batches --format json` (`facts`) and `accounts --format json`
/// (`statement`: the newest bill still imported), through the built binary.
@Suite("CMB card statement facts")
struct CMBCardStatementFactsTests {
    typealias T = CMBCardBillTests

    static func path(_ name: String) -> String { T.dir.appendingPathComponent(name).path }

    /// The facts expected.json says the bill prints, under the stored keys.
    static func facts(_ fixture: String) throws -> [String: String] {
        let (_, w) = try T.load(fixture)
        let h = w.header
        return [
            "statementMonth": String(format: "%04d-%02d", w.title.year, w.title.month), "accountKind": "个人消费卡账户",
            "statementDate": h.statement_date, "paymentDueDate": h.payment_due_date, "creditLimit": h.credit_limit,
            "newBalance": h.new_balance, "previousBalance": h.previous_balance, "previousPayment": h.previous_payment,
            "newCharges": h.new_charges, "adjustment": h.adjustment, "interest": h.interest,
        ]
    }

    static func statement(_ dir: String) throws -> [String: String]? {
        let accounts = try T.array(T.run(["accounts", "--format", "json"], dir))
        try #require(accounts.count == 1)
        return accounts[0]["statement"] as? [String: String]
    }

    static func batchFacts(_ dir: String) throws -> [Int: [String: [String: String]]] {
        var out: [Int: [String: [String: String]]] = [:]
        for b in try T.array(T.run(["batches", "--format", "json"], dir)) {
            out[b["id"] as? Int ?? -1] = try #require(b["facts"] as? [String: [String: String]], "\(b)")
        }
        return out
    }

    @Test func theBillsFactsAreStoredPerBatchAndTheNewestBillIsTheAccountsStatement() throws {
        let dir = try TestPaths.tempDir("cmbcard-facts")
        let march = try Self.facts("cmbcard_basic"), may = try Self.facts("cmbcard_wrapped_header")
        let january = try Self.facts("cmbcard_january")
        _ = try T.run(["import", Self.path("cmbcard_basic.pdf")], dir)
        var stored = try #require(try Self.statement(dir))
        #expect(stored["minimumPayment"] != nil)
        stored["minimumPayment"] = nil
        #expect(stored == march)

        _ = try T.run(["import", Self.path("cmbcard_wrapped_header.pdf")], dir) // May
        _ = try T.run(["import", Self.path("cmbcard_january.pdf")], dir) // January, imported last
        var newest = try #require(try Self.statement(dir))
        newest["minimumPayment"] = nil
        #expect(newest == may, "the latest statement month wins, not the latest import")

        var byBatch = try Self.batchFacts(dir)
        #expect(byBatch.keys.sorted() == [1, 2, 3])
        var third = try #require(byBatch[3]?["CMB Card 4529"])
        third["minimumPayment"] = nil
        #expect(third == january)

        // Undo removes the batch's facts; the account shows the newest bill left.
        _ = try T.run(["undo", "2"], dir)
        byBatch = try Self.batchFacts(dir)
        #expect(byBatch[2] == [:] && byBatch[1]?.isEmpty == false)
        var left = try #require(try Self.statement(dir))
        left["minimumPayment"] = nil
        #expect(left == march)
    }

    @Test func theEStatementAfterThePDFStoresItsFactsButNoRows() throws {
        let dir = try TestPaths.tempDir("cmbcard-facts-html")
        _ = try T.run(["import", Self.path("cmbcard_january.pdf")], dir)
        let r = try T.object(T.run(["import", Self.path("cmbcard_january.eml"), "--json"], dir))
        #expect(r["new"] as? Int == 0)
        let byBatch = try Self.batchFacts(dir)
        let pdf = try #require(byBatch[1]?["CMB Card 4529"]), html = try #require(byBatch[2]?["CMB Card 4529"])
        let want = try Self.facts("cmbcard_january")
        #expect(pdf == html && pdf["newBalance"] == want["newBalance"])
    }

    @Test func aStoreWithoutBillsShowsNoStatement() throws {
        let dir = try TestPaths.tempDir("cmbcard-facts-none")
        let csv = TestPaths.samples.appendingPathComponent("cmb/cmb_pc_utf8bom.csv").path
        _ = try T.run(["import", csv], dir)
        let accounts = try T.array(T.run(["accounts", "--format", "json"], dir))
        #expect(!accounts.isEmpty && accounts.allSatisfy { $0["statement"] is NSNull })
        let facts = try Self.batchFacts(dir)
        #expect(!facts.isEmpty && facts.values.allSatisfy { $0.isEmpty })
    }
}
