import Foundation
import MoneyFlowCore

/// Reads Plaid transaction data saved as JSON.
///
/// Accepted shapes (sniffed from content, never from the file name):
/// - a `/transactions/sync` page (`added`, `modified`, `removed`, `next_cursor`, `has_more`,
///   optional `accounts` and `transactions_update_status`), current or pre-2024 schema;
/// - several sync pages of one update as a top-level JSON array, applied in order;
/// - either of those wrapped with the request that produced it:
///   `{"request": {"cursor": "...", "item_id": "..."}, "response": {...}}`, or a page with a
///   top-level `"cursor"` (the REQUEST cursor); then consecutive pages must chain
///   (`request cursor == previous next_cursor`) or the file is rejected;
/// - a `/transactions/get` response (`transactions`, `accounts`, `total_transactions`, `item`);
/// - an `/accounts/get` or `/accounts/balance/get` response (account facts only);
/// - a bare JSON array of Transaction objects;
/// - a Plaid error body (`error_type`, `error_code`), reported as ``ImportError/Kind/providerError``.
///
/// Amounts are read from the JSON number text exactly and flipped to the store convention
/// (Plaid positive = money out; store negative = money out). Secrets (`access_token`, any
/// `*_token`, `*secret`) are redacted from raw JSON and never appear in records or messages.
///
/// Within one file the provider's changes are applied in order: when a transaction id occurs
/// several times (added, then modified, then removed ...) only its LAST event is reported
/// (the last version as a record, or a removal), at the position of that event.
public struct PlaidImporter: Importer {
    public let id = "plaid"
    public let displayName = "Plaid transactions (JSON)"
    /// Maximum nesting depth accepted by the JSON parser.
    public var maxDepth: Int

    public init(maxDepth: Int = JSONParser.defaultMaxDepth) { self.maxDepth = maxDepth }

    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        let head = input.data.prefix(1 << 20)
        var k = head.startIndex
        if head.count >= 3 && head[k] == 0xEF && head[k + 1] == 0xBB && head[k + 2] == 0xBF { k += 3 }
        while k < head.endIndex, [0x20, 0x09, 0x0A, 0x0D].contains(head[k]) { k += 1 }
        guard k < head.endIndex, head[k] == UInt8(ascii: "{") || head[k] == UInt8(ascii: "[") else { return 0 }
        func has(_ key: String) -> Bool { head.range(of: Data("\"\(key)\"".utf8)) != nil }
        if has("next_cursor") || (has("added") && has("removed")) { return 0.95 }
        if has("error_code") && has("error_type") && !has("transaction_id") { return 0.9 }
        if has("transaction_id") && has("account_id") && has("amount") { return has("transactions") ? 0.9 : 0.85 }
        if has("accounts") && has("account_id") && has("balances") { return 0.85 }
        return 0
    }

    /// The transaction lists (`/transactions/get`'s `transactions`, a sync page's `added` and
    /// `modified`, a top-level array) stay in the file's bytes while it is read: each transaction
    /// is parsed when its record is made and dropped after, so the memory a read needs is the
    /// file and its records, not a tree of every transaction (``JSONLazyDocument``).
    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        var secrets = PlaidSecrets.Collector()
        let document: JSONLazyDocument
        let scrub: PlaidScrubber
        do {
            document = try JSONParser(maxDepth: maxDepth).parseLazily(
                input.data, lazyKeys: PlaidReader.transactionListKeys, lazyTopLevel: true, visit: { secrets.walk(.object($0)) })
            secrets.walk(document.root)
            scrub = PlaidScrubber(secrets: try secrets.secrets(in: document))
        } catch {
            throw ImportError(
                .malformed, file: input.fileName, locator: Locator(line: error.line),
                column: String(error.column),
                problem: "malformed JSON at byte \(error.offset): \(error.message)")
        }
        var reader = PlaidReader(fileName: input.fileName, document: document, options: options, scrub: scrub)
        do {
            return try reader.read()
        } catch var e as ImportError {
            e.problem = scrub(e.problem)
            e.column = scrub(e.column)
            throw e
        }
    }
}
