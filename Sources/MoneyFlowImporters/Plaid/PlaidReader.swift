import Foundation
import MoneyFlowCore

/// The request cursor a saved sync page says it was fetched with.
enum PlaidRequestCursor: Equatable {
    /// The file does not say.
    case unknown
    /// Requested without a cursor (from the beginning of the item's history).
    case initial
    case cursor(String)
}

/// A response body with what its envelope (if any) says about the request.
struct PlaidPage {
    var body: JSONObject
    var request: JSONObject?
    var cursor: PlaidRequestCursor
    var itemID: String?
}

enum PlaidBodyKind {
    case error(JSONObject)
    case sync
    case get
    case accounts
    case transaction
    case unknown
}

/// One read of one file. Not reused.
struct PlaidReader {
    /// Keys whose arrays hold transactions: left in the bytes until each record is made.
    static let transactionListKeys: Set<String> = ["transactions", "added", "modified"]

    let fileName: String
    let document: JSONLazyDocument
    let options: ImportOptions
    let scrub: PlaidScrubber
    var lines: PlaidLineCounter
    var warnings: [ImportWarning] = []

    // Accounts, in first-seen order.
    var accountOrder: [String] = []
    var accountObjects: [String: JSONObject] = [:]
    var referencedAccountOrder: [String] = []
    var referencedAccounts: Set<String> = []
    var removalAccountIDs: Set<String> = []
    var currenciesByAccount: [String: [String]] = [:]
    var item: JSONObject?
    /// Texts many records repeat (account key, name, merchant, category), one String each.
    var sharedTexts: [String: String] = [:]

    enum Event {
        case upsert(IncomingRecord, modified: Bool)
        case remove(ExternalRemoval)
        var id: String {
            switch self {
            case .upsert(let r, _): return r.externalID ?? ""
            case .remove(let r): return r.externalID
            }
        }
    }

    struct Position {
        var page: Int?
        /// 1-based row within the page (several pages) or the file.
        var row: Int
        /// `added[2]`, `transactions[0]` ...; nil for a bare array.
        var path: String?
    }

    init(fileName: String, document: JSONLazyDocument, options: ImportOptions, scrub: PlaidScrubber) {
        self.fileName = fileName; self.document = document; self.options = options; self.scrub = scrub
        self.lines = PlaidLineCounter(data: document.data)
    }

    /// `o` as the file has it: an element left in the bytes is parsed (`full`: with its own
    /// transaction lists too); any other object is returned as it is.
    func parsed(_ o: JSONObject, full: Bool) throws -> JSONObject {
        guard full ? document.holdsPlaceholder(.object(o)) : document.isPlaceholder(o) else { return o }
        do {
            return full ? try document.complete(o) : try document.object(at: o.offset, full: false)
        } catch {
            throw malformed("malformed JSON at byte \(error.offset): \(error.message)", locator: Locator(line: error.line))
        }
    }

    /// `s`, as the String an earlier record already holds when it is the same text: 100,000
    /// records then share a few thousand strings instead of holding one each (peak memory, #30).
    /// Short strings are stored inline anyway; distinct texts are remembered up to a bound.
    mutating func shared(_ s: String) -> String {
        guard s.utf8.count > 15 else { return s }
        if let known = sharedTexts[s] { return known }
        if sharedTexts.count < 16_384 { sharedTexts[s] = s }
        return s
    }

    mutating func shared(_ s: String?) -> String? { s.map { shared($0) } }

    // MARK: - Errors

    func malformed(_ problem: String, locator: Locator? = nil, column: String? = nil) -> ImportError {
        ImportError(.malformed, file: fileName, locator: locator, column: column, problem: problem)
    }

    func providerError(_ e: JSONObject, page: Int?) -> ImportError {
        let code = e["error_code"]?.stringValue ?? "UNKNOWN"
        let display = e["display_message"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let message = e["error_message"]?.stringValue.flatMap { $0.isEmpty ? nil : $0 }
        let problem: String
        if let text = display ?? message {
            problem = "Plaid error \(code): \(text)"
        } else {
            problem = "Plaid error \(code) (\(e["error_type"]?.stringValue ?? "unknown type"))"
        }
        return ImportError(.providerError, file: fileName, locator: page.map { Locator(page: $0) }, problem: problem)
    }

    static func isErrorBody(_ o: JSONObject) -> Bool {
        o["error_type"]?.stringValue != nil && o["error_code"]?.stringValue != nil
    }

    static func describe(_ v: JSONValue) -> String {
        switch v {
        case .string(let s): return "string \"\(s.jsonExcerpt)\""
        case .number(let n): return "number \(n.jsonExcerpt)"
        case .bool(let b): return "boolean \(b)"
        default: return v.kindName
        }
    }

    // MARK: - Classification

    static let responseKeys = ["added", "modified", "removed", "next_cursor", "transactions", "accounts", "error_code"]

    func unwrap(_ o: JSONObject, page: Int?) throws -> PlaidPage {
        var body = o
        var request: JSONObject?
        var wrapped = false
        if let response = o["response"]?.objectValue, !PlaidReader.responseKeys.contains(where: { o.contains($0) }) {
            body = response
            wrapped = true
            switch o["request"] {
            case nil, .null?: break
            case .object(let r)?: request = r
            case let v?:
                throw malformed(
                    "'request' must be an object, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) },
                    column: "request")
            }
        }
        func cursorValue(_ v: JSONValue?, _ field: String) throws -> PlaidRequestCursor? {
            switch v {
            case nil: return nil
            case .null?: return .initial
            case .string(let s)?: return s.isEmpty ? .initial : .cursor(s)
            case let v?:
                throw malformed(
                    "request cursor must be a string, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) },
                    column: field)
            }
        }
        var cursor = PlaidRequestCursor.unknown
        if let request {
            cursor = try cursorValue(request["cursor"], "request.cursor") ?? .initial
        } else if let c = try cursorValue(o["cursor"], "cursor") {
            cursor = c
        } else if wrapped, let c = try cursorValue(body["cursor"], "cursor") {
            cursor = c
        }
        let itemID = request?["item_id"]?.stringValue ?? o["item_id"]?.stringValue ?? body["item_id"]?.stringValue
        return PlaidPage(body: body, request: request, cursor: cursor, itemID: itemID.flatMap { $0.isEmpty ? nil : $0 })
    }

    static func kind(of body: JSONObject) -> PlaidBodyKind {
        if isErrorBody(body) { return .error(body) }
        if body.contains("transaction_id") || (body.contains("amount") && (body.contains("account_id") || body.contains("date"))) {
            return .transaction
        }
        if body.contains("next_cursor") || body.contains("added") || body.contains("removed") || body.contains("modified") { return .sync }
        if body["transactions"]?.arrayValue != nil { return .get }
        if body["accounts"]?.arrayValue != nil { return .accounts }
        if let e = body["error"]?.objectValue, isErrorBody(e) { return .error(e) }
        return .unknown
    }

    func unrecognized(_ what: String) -> ImportError {
        ImportError(
            .unrecognized, file: fileName,
            problem:
                "not a Plaid export: \(what); expected a /transactions/sync page (added, modified, removed, next_cursor), several such pages in an array, a /transactions/get response (transactions), an /accounts/get response (accounts), an array of Plaid transactions, or a Plaid error body"
        )
    }

    // MARK: - Entry point

    mutating func read() throws -> ImportedStatement {
        let root = document.root
        switch root {
        case .object(let o):
            let page = try unwrap(o, page: nil)
            switch PlaidReader.kind(of: page.body) {
            case .error(let e): throw providerError(e, page: nil)
            case .sync: return try readSync([page])
            case .get: return try readGet(page)
            case .accounts: return try readAccounts(page)
            case .transaction: return try readTransactions([.object(page.body)])
            case .unknown:
                let keys = o.keys.prefix(8).map { "\"\($0.jsonExcerpt)\"" }.joined(separator: ", ")
                throw unrecognized(o.isEmpty ? "an empty object" : "an object with keys \(keys)\(o.count > 8 ? ", ..." : "")")
            }
        case .array(let items):
            if items.isEmpty {
                warnings.append(ImportWarning("the file is an empty JSON array: no transactions"))
                return finish(records: [], removals: [], modified: [], sync: nil)
            }
            var pages: [PlaidPage] = []
            var mode: PlaidBodyKind?
            for (n, item) in items.enumerated() {
                guard let placed = item.objectValue else {
                    throw malformed(
                        "element \(n + 1) of the top-level array is a \(item.kindName), not an object", locator: Locator(row: n + 1))
                }
                // A page is kept (its transaction lists stay in the bytes); a transaction is
                // parsed again when its record is made.
                let o = try parsed(placed, full: false)
                let page = try unwrap(o, page: n + 1)
                let kind = PlaidReader.kind(of: page.body)
                if case .error(let e) = kind { throw providerError(e, page: n + 1) }
                if mode == nil {
                    switch kind {
                    case .sync, .transaction: mode = kind
                    default:
                        throw unrecognized("an array whose first element is neither a /transactions/sync page nor a transaction")
                    }
                }
                switch (mode!, kind) {
                case (.sync, .sync): pages.append(page)
                case (.transaction, .transaction): break
                case (.sync, _):
                    throw malformed(
                        "element \(n + 1) of the array of sync pages is not a /transactions/sync page", locator: Locator(page: n + 1))
                default:
                    throw malformed(
                        "element \(n + 1) of the array of transactions is not a transaction (it has no transaction_id)",
                        locator: Locator(row: n + 1))
                }
            }
            if case .sync = mode! { return try readSync(pages) }
            return try readTransactions(items)
        default:
            throw unrecognized("the top-level JSON value is a \(root.kindName)")
        }
    }

    // MARK: - Result

    mutating func finish(
        records: [IncomingRecord], removals: [ExternalRemoval], modified: Set<String>,
        sync: SyncUpdate?
    ) -> ImportedStatement {
        let accounts = accountFacts()
        var sync = sync
        if let s = sync, !scrub.isEmpty {
            sync = SyncUpdate(
                scope: scrub(s.scope), startCursor: scrub(s.startCursor), nextCursor: scrub(s.nextCursor), complete: s.complete)
        }
        let warnings = scrub.isEmpty ? self.warnings : self.warnings.map { ImportWarning(scrub($0.message), at: $0.locator) }
        return ImportedStatement(
            importerID: "plaid", accounts: accounts, records: records, warnings: warnings,
            modifiedExternalIDs: modified, removals: removals, sync: sync)
    }
}
