import Foundation
import MoneyFlowCore
import MoneyFlowTestSupport
import Testing

@testable import MoneyFlowImporters

/// Paths and helpers shared by the Plaid tests.
enum PlaidFixtures {
    /// The repository root (`/work/main` or a checkout).
    static let repoRoot = TestPaths.repoRoot

    static let samples = repoRoot.appendingPathComponent("Samples/plaid")
    static let spec = repoRoot.appendingPathComponent("Tests/Fixtures/plaid-spec")
    /// Plaid's reference files beside the repository (`shared/` next to the checkout), if present.
    static let sharedReference = repoRoot.deletingLastPathComponent().appendingPathComponent("shared/reference/plaid")

    static let specExampleFiles = [
        "plaid_transactions_sync_response.example.json",
        "plaid_transactions_sync_response.legacy_v1.197.3_2022.example.json",
        "plaid_transactions_get_response.example.json",
        "plaid_transactions_get_response.legacy_v1.44.0_2021.example.json",
        "plaid_accounts_get_response.example.json",
    ]

    static let scenarios = [
        "plain_added", "pending_to_posted_split_pages", "pending_removed_before_posted",
        "posted_without_pending_id", "hold_never_posts", "modified_posted", "removed_posted",
        "identical_coffees", "refund", "legacy_schema_2022", "full_period", "saved_with_request",
    ]

    static func data(_ url: URL) throws -> Data { try Data(contentsOf: url) }

    static func read(_ url: URL, options: ImportOptions = ImportOptions()) throws -> ImportedStatement {
        try PlaidImporter().read(ImportInput(fileName: url.lastPathComponent, data: Data(contentsOf: url)), options: options)
    }

    static func read(text: String, name: String = "test.json", options: ImportOptions = ImportOptions()) throws -> ImportedStatement {
        try PlaidImporter().read(ImportInput(fileName: name, data: Data(text.utf8)), options: options)
    }

    /// The ImportError thrown reading `text`, or nil.
    static func error(text: String, options: ImportOptions = ImportOptions()) -> ImportError? {
        do { _ = try read(text: text, options: options); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    static func error(_ url: URL) -> ImportError? {
        do { _ = try read(url); return nil } catch let e as ImportError { return e } catch { return nil }
    }

    /// page1.json, page2.json, ... of a scenario, in order.
    static func pages(of scenario: String) throws -> [URL] {
        let folder = samples.appendingPathComponent(scenario)
        var urls: [URL] = []
        var n = 1
        while FileManager.default.fileExists(atPath: folder.appendingPathComponent("page\(n).json").path) {
            urls.append(folder.appendingPathComponent("page\(n).json"))
            n += 1
        }
        return urls
    }

    static func expected(_ scenario: String) throws -> [PlaidExpectedEntry] {
        let url = samples.appendingPathComponent(scenario).appendingPathComponent("expected.json")
        return try JSONDecoder().decode([PlaidExpectedEntry].self, from: Data(contentsOf: url))
    }

    /// A minimal transaction with the given fields replaced (values are JSON text).
    static func transaction(_ overrides: [String: String] = [:], removing: [String] = []) -> String {
        var fields: [(String, String)] = [
            ("account_id", "\"BxBXxLj1m4HMXBm9WZZmCWVbPjX16EHwv99vp\""),
            ("amount", "12.5"),
            ("iso_currency_code", "\"USD\""),
            ("unofficial_currency_code", "null"),
            ("date", "\"2024-03-05\""),
            ("authorized_date", "\"2024-03-04\""),
            ("name", "\"TEST MERCHANT 123\""),
            ("merchant_name", "\"Test Merchant\""),
            ("pending", "false"),
            ("pending_transaction_id", "null"),
            ("transaction_id", "\"tx1AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\""),
        ]
        for (k, v) in overrides {
            if let i = fields.firstIndex(where: { $0.0 == k }) { fields[i].1 = v } else { fields.append((k, v)) }
        }
        fields.removeAll { removing.contains($0.0) }
        return "{" + fields.map { "\"\($0.0)\": \($0.1)" }.joined(separator: ", ") + "}"
    }

    static func syncPage(
        added: [String] = [], modified: [String] = [], removed: [String] = [],
        next: String = "cursor-1", hasMore: Bool = false, extra: String = ""
    ) -> String {
        "{\(extra)\"added\": [\(added.joined(separator: ","))], \"modified\": [\(modified.joined(separator: ","))], \"removed\": [\(removed.joined(separator: ","))], \"next_cursor\": \"\(next)\", \"has_more\": \(hasMore), \"request_id\": \"req\"}"
    }
}

/// A test-only model of the final ledger a Plaid feed describes: provider records keyed by
/// transaction id; a record replaces the previous version with its id; a removal deletes it.
/// (The real store keeps removed and superseded records as tombstones; the ACTIVE view is this.)
struct PlaidTestLedger {
    var active: [String: IncomingRecord] = [:]

    mutating func apply(_ statement: ImportedStatement) {
        for r in statement.records { active[r.externalID!] = r }
        for r in statement.removals { active[r.externalID] = nil }
    }

    var entries: [PlaidExpectedEntry] {
        active.values.map {
            PlaidExpectedEntry(
                account_key: $0.accountKey, date: $0.date.iso, amount: $0.amount.decimalString,
                currency: $0.amount.currency, description: $0.description, counterparty: $0.counterparty,
                pending: $0.pending, external_ids: [$0.externalID!])
        }.sorted { ($0.account_key, $0.date, $0.external_ids[0]) < ($1.account_key, $1.date, $1.external_ids[0]) }
    }
}
