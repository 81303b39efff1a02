import Foundation
import MoneyFlowTestSupport
import Testing

/// The API serves the CLI's JSON objects, so the CLI's REAL outputs (the built binary on the
/// samples) must satisfy the document's component schemas: a key the CLI prints that the
/// document lacks, a nullable the document calls required, or an amount that is not a decimal
/// string fails here.
@Suite("OpenAPI schemas hold the CLI's real outputs")
struct OpenAPICLIOutputTests {
    /// Runs `moneyflow args --store store` and parses its stdout (exit 0 required).
    static func json(_ args: [String], store: String, cwd: String = TestPaths.repoRoot.path) throws -> JSONValue {
        let r = try MoneyFlowBinary.run(args + ["--store", store], cwd: cwd)
        try #require(r.signal == 0 && r.status == 0, "moneyflow \(args.joined(separator: " ")): exit \(r.status): \(r.stderr)")
        return try JSONValue.parse(r.stdout)
    }

    /// Every element of the array `value` against `component`; returns how many were checked.
    @discardableResult
    static func expectEach(
        _ value: JSONValue, _ component: String, _ v: OpenAPIValidator, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws -> Int
    {
        let items = try #require(value.array, "not an array", sourceLocation: sourceLocation)
        for (i, item) in items.enumerated() {
            let problems = v.validate(item, component: component)
            #expect(problems == [], "\(component) #\(i): \(problems)", sourceLocation: sourceLocation)
        }
        return items.count
    }

    @Test("the demo (Samples/ with its manifest): import, transactions, accounts, batches, reconcile")
    func demo() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let dir = try TestPaths.tempDir("openapi-demo")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let store = "\(dir)/store.sqlite"
        let imported = try Self.json(["import", "Samples/", "--json"], store: store)
        #expect(try Self.expectEach(imported, "ImportResult", v) >= 10)
        // Pages 1, 2 and 4 of the Plaid feed carry warnings: warning_messages is non-empty somewhere.
        #expect(imported.array?.contains { ($0["warning_messages"]?.array?.count ?? 0) > 0 } == true)

        let transactions = try Self.json(["transactions", "--format", "json"], store: store)
        #expect(try Self.expectEach(transactions, "Transaction", v) > 100)
        // Both kinds of nullable appear (a CMB row has a balance, a Plaid one does not), so null and non-null are both checked.
        #expect(transactions.array?.contains { $0["balance"] == .null } == true)
        #expect(transactions.array?.contains { $0["balance"]?.string != nil } == true)
        #expect(try Self.expectEach(try Self.json(["accounts", "--format", "json"], store: store), "Account", v) == 5)
        let batches = try Self.json(["batches", "--format", "json"], store: store)
        #expect(try Self.expectEach(batches, "Batch", v) == imported.array?.count)
        let reconcile = try Self.json(["reconcile", "--format", "json"], store: store)
        #expect(v.validate(reconcile, component: "Reconcile") == [])
        #expect(reconcile.array?.count == 5)

        // A dry run of files already in the store: every plan entry is already_present.
        let again = try Self.json(["import", "Samples/cmb/cmb_pc_utf8bom.csv", "--dry-run", "--json"], store: store)
        #expect(try Self.expectEach(again, "ImportResult", v) == 1)
        #expect(again.array?.first?["plan"]?.array?.isEmpty == false)

        // An undone batch has undone_at set.
        let undo = try MoneyFlowBinary.run(["undo", "1", "--store", store])
        #expect(undo.status == 0, "\(undo.stderr)")
        let afterUndo = try Self.json(["batches", "--format", "json"], store: store)
        try Self.expectEach(afterUndo, "Batch", v)
        #expect(afterUndo.array?.first?["undone_at"]?.string != nil)
    }

    /// A Plaid record that could be either of two same-amount bank rows goes to review (the
    /// scenario of BinaryWorkflowTests): the dry-run plan with its candidates and the review list.
    @Test("review entries and a dry-run plan with needs_review candidates")
    func review() throws {
        let v = try OpenAPIValidator.repositoryDocument()
        let dir = try TestPaths.tempDir("openapi-review")
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bank =
            "Details,Posting Date,Description,Amount,Type,Balance,Check or Slip #\n"
            + "DEBIT,03/05/2026,\"SAFEWAY 123\",-20.00,DEBIT_CARD, ,,\nDEBIT,03/05/2026,\"WHOLEFDS 456\",-20.00,DEBIT_CARD, ,,\n"
        try bank.write(toFile: "\(dir)/bank.csv", atomically: false, encoding: .utf8)
        let feed = """
            {"added": [{"account_id": "acc1", "amount": 20.00, "iso_currency_code": "USD", "date": "2026-03-05", "name": "GROCERY PURCHASE", "pending": false, "pending_transaction_id": null, "transaction_id": "t9"}], "modified": [], "removed": [], "next_cursor": "c1", "has_more": false, "request_id": "r", "accounts": [{"account_id": "acc1", "name": "Checking", "mask": "0001", "type": "depository", "subtype": "checking", "balances": {"current": 100.0, "iso_currency_code": "USD"}}]}
            """
        try feed.write(toFile: "\(dir)/feed.json", atomically: false, encoding: .utf8)
        let store = "\(dir)/store.sqlite"
        try Self.expectEach(try Self.json(["import", "bank.csv", "--json"], store: store, cwd: dir), "ImportResult", v)
        let plan = try Self.json(["import", "feed.json", "--account", "Chase Checking", "--dry-run", "--json"], store: store, cwd: dir)
        try Self.expectEach(plan, "ImportResult", v)
        let entry = try #require(plan.array?.first?["plan"]?.array?.first)
        #expect(entry["decision"]?.string == "needs_review" && entry["candidates"]?.array?.count == 2)

        try Self.expectEach(
            try Self.json(["import", "feed.json", "--account", "Chase Checking", "--json"], store: store, cwd: dir), "ImportResult", v)
        let review = try Self.json(["review", "--format", "json"], store: store, cwd: dir)
        #expect(try Self.expectEach(review, "ReviewEntry", v) == 1)
        let reconcile = try Self.json(["reconcile", "--format", "json"], store: store, cwd: dir)
        #expect(v.validate(reconcile, component: "Reconcile") == [])
        #expect(reconcile.array?.first?["needs_review"]?.array?.count == 1)
    }
}
