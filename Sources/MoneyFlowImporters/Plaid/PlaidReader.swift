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
    let fileName: String
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

    init(fileName: String, data: Data, options: ImportOptions, scrub: PlaidScrubber) {
        self.fileName = fileName; self.options = options; self.scrub = scrub
        self.lines = PlaidLineCounter(data: data)
    }

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
            case let v?: throw malformed("'request' must be an object, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) }, column: "request")
            }
        }
        func cursorValue(_ v: JSONValue?, _ field: String) throws -> PlaidRequestCursor? {
            switch v {
            case nil: return nil
            case .null?: return .initial
            case .string(let s)?: return s.isEmpty ? .initial : .cursor(s)
            case let v?: throw malformed("request cursor must be a string, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) }, column: field)
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
        ImportError(.unrecognized, file: fileName, problem: "not a Plaid export: \(what); expected a /transactions/sync page (added, modified, removed, next_cursor), several such pages in an array, a /transactions/get response (transactions), an /accounts/get response (accounts), an array of Plaid transactions, or a Plaid error body")
    }

    // MARK: - Entry point

    mutating func read(_ root: JSONValue) throws -> ImportedStatement {
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
                guard let o = item.objectValue else {
                    throw malformed("element \(n + 1) of the top-level array is a \(item.kindName), not an object", locator: Locator(row: n + 1))
                }
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
                    throw malformed("element \(n + 1) of the array of sync pages is not a /transactions/sync page", locator: Locator(page: n + 1))
                default:
                    throw malformed("element \(n + 1) of the array of transactions is not a transaction (it has no transaction_id)", locator: Locator(row: n + 1))
                }
            }
            if case .sync = mode! { return try readSync(pages) }
            return try readTransactions(items)
        default:
            throw unrecognized("the top-level JSON value is a \(root.kindName)")
        }
    }

    // MARK: - /transactions/sync

    mutating func readSync(_ pages: [PlaidPage]) throws -> ImportedStatement {
        var events: [Event] = []
        var previousNext: String?
        var itemID: String?
        var lastNext: String?
        var lastHasMore: Bool?
        var lastStatus: String?
        let several = pages.count > 1
        for (p, page) in pages.enumerated() {
            let pageNo = p + 1
            let locPage = several ? pageNo : nil
            let pageLocator = locPage.map { Locator(page: $0) }
            // The chain of cursors: each page must be requested with the previous next_cursor.
            if p > 0, let prev = previousNext {
                switch page.cursor {
                case .unknown: break
                case .initial:
                    throw ImportError(.rejected, file: fileName, locator: pageLocator, problem: "page \(pageNo) was requested from the beginning (no cursor) but page \(p) returned next_cursor \(PlaidUtil.abbreviated(prev)): page \(pageNo) skipped cursor \(PlaidUtil.abbreviated(prev)); pages must be consecutive")
                case .cursor(let c) where c != prev:
                    throw ImportError(.rejected, file: fileName, locator: pageLocator, problem: "page \(pageNo) was requested with cursor \(PlaidUtil.abbreviated(c)) but page \(p) returned next_cursor \(PlaidUtil.abbreviated(prev)): page \(pageNo) skipped cursor \(PlaidUtil.abbreviated(prev)); pages must be consecutive")
                case .cursor: break
                }
            }
            if let id = page.itemID {
                if let known = itemID, known != id {
                    throw ImportError(.rejected, file: fileName, locator: pageLocator, problem: "page \(pageNo) belongs to item \(PlaidUtil.abbreviated(id)) but earlier pages to item \(PlaidUtil.abbreviated(known)); one file must hold one item's update")
                }
                itemID = id
            }
            let body = page.body
            try registerAccounts(body["accounts"], page: locPage)
            var row = 0
            for member in body.members {
                switch member.key {
                case "added", "modified":
                    if member.value.isNull { continue }
                    guard let list = member.value.arrayValue else {
                        throw malformed("'\(member.key)' must be an array, found \(PlaidReader.describe(member.value))", locator: pageLocator, column: member.key)
                    }
                    for (index, element) in list.enumerated() {
                        row += 1
                        let pos = Position(page: locPage, row: row, path: "\(member.key)[\(index)]")
                        guard let o = element.objectValue else {
                            throw malformed("transaction \(row) (\(member.key)[\(index)]) is a \(element.kindName), not an object", locator: Locator(page: locPage, row: row))
                        }
                        let record = try makeRecord(o, pos)
                        events.append(.upsert(record, modified: member.key == "modified"))
                    }
                case "removed":
                    if member.value.isNull { continue }
                    guard let list = member.value.arrayValue else {
                        throw malformed("'removed' must be an array, found \(PlaidReader.describe(member.value))", locator: pageLocator, column: "removed")
                    }
                    for (index, element) in list.enumerated() {
                        let removal: ExternalRemoval
                        switch element {
                        case .string(let id) where !id.isEmpty:
                            removal = ExternalRemoval(externalID: id, accountKey: nil)
                        case .object(let o):
                            guard let id = o["transaction_id"]?.stringValue, !id.isEmpty else {
                                throw malformed("removed[\(index)] has no transaction_id", locator: Locator(line: lines.line(at: o.offset), page: locPage), column: "transaction_id")
                            }
                            var accountKey: String?
                            switch o["account_id"] {
                            case nil, .null?: break
                            case .string(let a)? where !a.isEmpty:
                                accountKey = "plaid:" + a
                                removalAccountIDs.insert(a)
                            case let v?:
                                throw malformed("removed[\(index)] (transaction_id \"\(id)\"): field 'account_id' must be a string, found \(PlaidReader.describe(v))", locator: Locator(line: lines.line(at: o.offset), page: locPage), column: "account_id")
                            }
                            removal = ExternalRemoval(externalID: id, accountKey: accountKey)
                        default:
                            throw malformed("removed[\(index)] must be an object with a transaction_id, found \(PlaidReader.describe(element))", locator: pageLocator, column: "removed")
                        }
                        events.append(.remove(removal))
                    }
                default: break
                }
            }
            switch body["next_cursor"] {
            case nil, .null?: lastNext = nil
            case .string(let s)?: lastNext = s
            case let v?: throw malformed("'next_cursor' must be a string, found \(PlaidReader.describe(v))", locator: pageLocator, column: "next_cursor")
            }
            switch body["has_more"] {
            case nil, .null?: lastHasMore = nil
            case .bool(let b)?: lastHasMore = b
            case let v?: throw malformed("'has_more' must be a boolean, found \(PlaidReader.describe(v))", locator: pageLocator, column: "has_more")
            }
            lastStatus = body["transactions_update_status"]?.stringValue
            previousNext = lastNext
        }

        // Apply in order: the last event of each transaction id wins.
        var lastIndex: [String: Int] = [:]
        lastIndex.reserveCapacity(events.count)
        for (k, e) in events.enumerated() { lastIndex[e.id] = k }
        var records: [IncomingRecord] = []
        var removals: [ExternalRemoval] = []
        var modified: Set<String> = []
        for (k, e) in events.enumerated() where lastIndex[e.id] == k {
            switch e {
            case .upsert(let r, let m):
                records.append(r)
                if m, let id = r.externalID { modified.insert(id) }
            case .remove(let r):
                removals.append(r)
            }
        }

        let lastLocator = several ? Locator(page: pages.count) : nil
        var sync: SyncUpdate?
        if let next = lastNext {
            let scope: String
            if let itemID {
                scope = "plaid:item:" + itemID
            } else {
                var ids = Set(accountOrder)
                ids.formUnion(referencedAccounts)
                ids.formUnion(removalAccountIDs)
                scope = "plaid:accounts:" + ids.sorted().joined(separator: ",")
                if ids.isEmpty {
                    warnings.append(ImportWarning("the update names neither an item nor an account: its cursor cannot be tied to a Plaid item", at: lastLocator))
                }
            }
            var start: String?
            if case .cursor(let c) = pages[0].cursor { start = c }
            let complete = lastHasMore == false
            if lastHasMore == true {
                warnings.append(ImportWarning("the last page says has_more: true; this update is incomplete, fetch the remaining pages before saving its cursor", at: lastLocator))
            } else if lastHasMore == nil {
                warnings.append(ImportWarning("the last page has no has_more field; the update is treated as incomplete", at: lastLocator))
            }
            sync = SyncUpdate(scope: scope, startCursor: start, nextCursor: next, complete: complete)
        } else {
            warnings.append(ImportWarning("the last page has no next_cursor; no sync cursor is recorded", at: lastLocator))
        }
        if let status = lastStatus, status != "HISTORICAL_UPDATE_COMPLETE" {
            let hint: String
            switch status {
            case "NOT_READY": hint = "Plaid has not finished the initial pull; more transactions will arrive"
            case "INITIAL_UPDATE_COMPLETE": hint = "Plaid has pulled only recent transactions so far; older history will arrive in later updates"
            default: hint = "the state of Plaid's history pull is unknown"
            }
            warnings.append(ImportWarning("transactions_update_status \(status): \(hint)", at: lastLocator))
        }
        return finish(records: records, removals: removals, modified: modified, sync: sync)
    }

    // MARK: - /transactions/get, bare arrays, /accounts/get

    mutating func readGet(_ page: PlaidPage) throws -> ImportedStatement {
        let body = page.body
        try readItem(body["item"])
        try registerAccounts(body["accounts"], page: nil)
        let list = body["transactions"]?.arrayValue ?? []
        let records = try readTransactionList(list, path: "transactions")
        var coverage: ClosedRange<LocalDate>?
        var complete = true
        switch body["total_transactions"] {
        case .number(let n)?:
            if let total = Int(n), total > list.count {
                complete = false
                warnings.append(ImportWarning("the export holds \(list.count) of \(total) transactions (total_transactions); /transactions/get is paginated, import the other pages too"))
            }
        default: break
        }
        if complete, let r = page.request,
           let s = r["start_date"]?.stringValue.flatMap { LocalDate(iso: $0, .exact) }, let e = r["end_date"]?.stringValue.flatMap { LocalDate(iso: $0, .exact) }, s <= e {
            coverage = s...e
        }
        var statement = finish(records: records, removals: [], modified: [], sync: nil)
        statement.coverage = coverage
        return statement
    }

    mutating func readTransactions(_ list: [JSONValue]) throws -> ImportedStatement {
        let records = try readTransactionList(list, path: nil)
        return finish(records: records, removals: [], modified: [], sync: nil)
    }

    mutating func readAccounts(_ page: PlaidPage) throws -> ImportedStatement {
        try readItem(page.body["item"])
        try registerAccounts(page.body["accounts"], page: nil)
        if accountOrder.isEmpty { warnings.append(ImportWarning("the response lists no accounts")) }
        return finish(records: [], removals: [], modified: [], sync: nil)
    }

    /// Transactions of an export (not a change feed): a repeated id is kept once, with a warning.
    mutating func readTransactionList(_ list: [JSONValue], path: String?) throws -> [IncomingRecord] {
        var records: [IncomingRecord] = []
        records.reserveCapacity(list.count)
        var seen: [String: Int] = [:]
        for (index, element) in list.enumerated() {
            let row = index + 1
            guard let o = element.objectValue else {
                throw malformed("transaction \(row) is a \(element.kindName), not an object", locator: Locator(row: row))
            }
            let record = try makeRecord(o, Position(page: nil, row: row, path: path.map { "\($0)[\(index)]" }))
            let id = record.externalID ?? ""
            if let first = seen[id] {
                warnings.append(ImportWarning("transaction_id \"\(id)\" appears again (first at row \(first)); kept the first", at: record.locator))
                continue
            }
            seen[id] = row
            records.append(record)
        }
        return records
    }

    mutating func readItem(_ v: JSONValue?) throws {
        guard let v, !v.isNull else { return }
        guard let o = v.objectValue else {
            throw malformed("'item' must be an object, found \(PlaidReader.describe(v))", column: "item")
        }
        item = o
        if let e = o["error"]?.objectValue, PlaidReader.isErrorBody(e) {
            let err = providerError(e, page: nil)
            warnings.append(ImportWarning("the item reports an error, its data may be out of date: \(err.problem)"))
        }
    }

    // MARK: - Accounts

    mutating func registerAccounts(_ v: JSONValue?, page: Int?) throws {
        guard let v, !v.isNull else { return }
        guard let list = v.arrayValue else {
            throw malformed("'accounts' must be an array, found \(PlaidReader.describe(v))", locator: page.map { Locator(page: $0) }, column: "accounts")
        }
        for (index, element) in list.enumerated() {
            guard let o = element.objectValue, let id = o["account_id"]?.stringValue, !id.isEmpty else {
                throw malformed("accounts[\(index)] is not an account object with an account_id", locator: Locator(line: element.objectValue.flatMap { lines.line(at: $0.offset) }, page: page), column: "account_id")
            }
            if accountObjects[id] == nil { accountOrder.append(id) }
            accountObjects[id] = o // a later page's balances win
        }
    }

    mutating func noteCurrency(_ currency: String, account: String) {
        var list = currenciesByAccount[account, default: []]
        if !list.contains(currency) { list.append(currency); currenciesByAccount[account] = list }
    }

    var institution: String {
        if let name = item?["institution_name"]?.stringValue, !name.isEmpty { return name }
        if let id = item?["institution_id"]?.stringValue, !id.isEmpty { return id }
        return "Plaid"
    }

    mutating func accountFacts() -> [AccountFacts] {
        var facts: [AccountFacts] = []
        let itemID = item?["item_id"]?.stringValue
        let institutionID = item?["institution_id"]?.stringValue
        for id in accountOrder {
            guard let o = accountObjects[id] else { continue }
            let name = PlaidUtil.nonEmpty(o["name"]?.stringValue) ?? PlaidUtil.nonEmpty(o["official_name"]?.stringValue)
            let mask = PlaidUtil.nonEmpty(o["mask"]?.stringValue)
            let suggested: String
            if let name { suggested = mask.map { "\(name) \($0)" } ?? name } else { suggested = "Plaid account \(mask ?? String(id.suffix(4)))" }
            let type = PlaidUtil.nonEmpty(o["type"]?.stringValue)
            let subtype = PlaidUtil.nonEmpty(o["subtype"]?.stringValue)
            var details: [String: String] = [:]
            for key in ["official_name", "holder_category", "persistent_account_id", "verification_status"] {
                if let s = PlaidUtil.nonEmpty(o[key]?.stringValue) { details[key] = scrub(s) }
            }
            if let itemID { details["item_id"] = itemID }
            if let institutionID { details["institution_id"] = institutionID }
            var currencies: [String] = []
            var current: Money?
            var available: Money?
            if let b = o["balances"]?.objectValue {
                let code = PlaidUtil.nonEmpty(b["iso_currency_code"]?.stringValue) ?? PlaidUtil.nonEmpty(b["unofficial_currency_code"]?.stringValue)
                    ?? currenciesByAccount[id]?.first ?? options.defaultCurrency
                if let limit = b["limit"]?.numberText { details["limit"] = limit }
                if let code, PlaidUtil.isPlausibleCurrencyCode(code) {
                    let c = code.uppercased()
                    currencies.append(c)
                    // Credit and loan: a positive current balance is money owed.
                    let owed = type.map { ["credit", "loan"].contains($0.lowercased()) } ?? false
                    current = balance(b["current"], field: "current", currency: c, negate: owed, account: suggested, details: &details)
                    available = balance(b["available"], field: "available", currency: c, negate: false, account: suggested, details: &details)
                } else if !(b["current"]?.isNull ?? true) || !(b["available"]?.isNull ?? true) {
                    warnings.append(ImportWarning("account \(suggested): balances have no usable currency code; balances not recorded"))
                }
            }
            for c in currenciesByAccount[id] ?? [] where !currencies.contains(c) { currencies.append(c) }
            facts.append(AccountFacts(key: "plaid:" + id, suggestedName: scrub(suggested), institution: institution,
                                      number: mask, type: type, subtype: subtype, provider: "plaid",
                                      providerAccountID: id, currencies: currencies, currentBalance: current,
                                      availableBalance: available, details: details))
        }
        for id in referencedAccountOrder where accountObjects[id] == nil {
            var details: [String: String] = [:]
            if let itemID { details["item_id"] = itemID }
            facts.append(AccountFacts(key: "plaid:" + id, suggestedName: "Plaid account \(id.suffix(4))",
                                      institution: institution, provider: "plaid", providerAccountID: id,
                                      currencies: currenciesByAccount[id] ?? [], details: details))
        }
        return facts
    }

    mutating func balance(_ v: JSONValue?, field: String, currency: String, negate: Bool, account: String,
                          details: inout [String: String]) -> Money? {
        switch v {
        case nil, .null?: return nil
        case .number(let text)?:
            do {
                let minor = try PlaidNumber.minorUnits(text, currency: currency)
                return Money(minorUnits: negate ? -minor : minor, currency: currency)
            } catch {
                details["balances.\(field)"] = text
                warnings.append(ImportWarning("account \(account): balances.\(field) \(text.jsonExcerpt) cannot be stored exactly in \(currency) (\(error.reason)); not recorded"))
                return nil
            }
        case let v?:
            warnings.append(ImportWarning("account \(account): balances.\(field) must be a number, found \(PlaidReader.describe(v)); not recorded"))
            return nil
        }
    }

    // MARK: - Transactions

    mutating func makeRecord(_ o: JSONObject, _ pos: Position) throws -> IncomingRecord {
        let line = lines.line(at: o.offset)
        let locator = Locator(line: line, page: pos.page, row: pos.row)
        let idText = o["transaction_id"]?.stringValue
        var label = "transaction \(pos.row)"
        var inner: [String] = []
        if let path = pos.path { inner.append(path) }
        if let idText, !idText.isEmpty { inner.append("transaction_id \"\(idText.jsonExcerpt)\"") }
        if !inner.isEmpty { label += " (" + inner.joined(separator: ", ") + ")" }

        func fail(_ field: String, _ message: String) -> ImportError {
            ImportError(.malformed, file: fileName, locator: locator, column: field, problem: "\(label): \(message)")
        }
        func string(_ key: String, required: Bool) throws -> String? {
            switch o[key] {
            case nil: if required { throw fail(key, "missing field '\(key)'") }; return nil
            case .null?: if required { throw fail(key, "field '\(key)' is null") }; return nil
            case .string(let s)?: return s
            case let v?: throw fail(key, "field '\(key)' must be a string, found \(PlaidReader.describe(v))")
            }
        }
        func date(_ key: String, required: Bool) throws -> LocalDate? {
            guard let s = try string(key, required: required) else { return nil }
            guard let d = LocalDate(iso: s, .exact) else { throw fail(key, "field '\(key)' must be a date YYYY-MM-DD, found \"\(s.jsonExcerpt)\"") }
            return d
        }

        guard let id = try string("transaction_id", required: true), !id.isEmpty else {
            throw fail("transaction_id", "field 'transaction_id' is empty")
        }
        guard let accountID = try string("account_id", required: true), !accountID.isEmpty else {
            throw fail("account_id", "field 'account_id' is empty")
        }
        // Currency: exactly one of the two codes is set.
        let iso = PlaidUtil.nonEmpty(try string("iso_currency_code", required: false))
        let unofficial = PlaidUtil.nonEmpty(try string("unofficial_currency_code", required: false))
        guard let code = iso ?? unofficial ?? options.defaultCurrency else {
            throw fail("iso_currency_code", "no currency: iso_currency_code and unofficial_currency_code are both null")
        }
        guard PlaidUtil.isPlausibleCurrencyCode(code) else {
            throw fail(iso != nil ? "iso_currency_code" : "unofficial_currency_code", "invalid currency code \"\(code.jsonExcerpt)\"")
        }
        let currency = code.uppercased()
        // Amount: exact decimal text; Plaid positive = money out, store negative = money out.
        let amountText: String
        switch o["amount"] {
        case nil: throw fail("amount", "missing field 'amount'")
        case .number(let t)?: amountText = t
        case let v?: throw fail("amount", "field 'amount' must be a JSON number, found \(PlaidReader.describe(v))")
        }
        let plaidMinor: Int64
        do {
            plaidMinor = try PlaidNumber.minorUnits(amountText, currency: currency)
        } catch {
            throw fail("amount", "invalid amount \(amountText.jsonExcerpt) \(currency): \(error.reason)")
        }
        guard let postedDate = try date("date", required: true) else { throw fail("date", "missing field 'date'") }
        let authorized = try date("authorized_date", required: false)
        let pending: Bool
        switch o["pending"] {
        case nil, .null?: pending = false
        case .bool(let b)?: pending = b
        case let v?: throw fail("pending", "field 'pending' must be a boolean, found \(PlaidReader.describe(v))")
        }
        let pendingID = PlaidUtil.nonEmpty(try string("pending_transaction_id", required: false))
        let merchant = PlaidUtil.nonEmpty(try string("merchant_name", required: false).map({ $0.trimmed(.whitespacesAndNewlines) }))
        let name = try string("name", required: false)
        let description = name ?? merchant ?? PlaidUtil.nonEmpty(o["original_description"]?.stringValue) ?? ""
        var counterparty = merchant
        if counterparty == nil, let parties = o["counterparties"]?.arrayValue {
            for p in parties {
                if let n = PlaidUtil.nonEmpty(p["name"]?.stringValue.map({ $0.trimmed(.whitespacesAndNewlines) })) { counterparty = n; break }
            }
        }
        var category: String?
        if let pfc = o["personal_finance_category"]?.objectValue {
            category = PlaidUtil.nonEmpty(pfc["primary"]?.stringValue) ?? PlaidUtil.nonEmpty(pfc["detailed"]?.stringValue)
        }
        if category == nil, let legacy = o["category"]?.arrayValue {
            let parts = legacy.compactMap { PlaidUtil.nonEmpty($0.stringValue) }
            if !parts.isEmpty { category = parts.joined(separator: " > ") }
        }
        if !referencedAccounts.contains(accountID) {
            referencedAccounts.insert(accountID)
            referencedAccountOrder.append(accountID)
        }
        noteCurrency(currency, account: accountID)
        let raw = o.serialized(redact: PlaidSecrets.isSecretKey)
        return IncomingRecord(accountKey: "plaid:" + accountID, sourceKind: .plaid, date: postedDate,
                              amount: Money(minorUnits: -plaidMinor, currency: currency),
                              description: scrub(description), counterparty: scrub(counterparty),
                              pending: pending, externalID: id, pendingExternalID: pendingID,
                              authorizedDate: authorized, category: scrub(category),
                              locator: locator, raw: scrub(raw))
    }

    // MARK: - Result

    mutating func finish(records: [IncomingRecord], removals: [ExternalRemoval], modified: Set<String>,
                         sync: SyncUpdate?) -> ImportedStatement {
        let accounts = accountFacts()
        var sync = sync
        if let s = sync, !scrub.isEmpty {
            sync = SyncUpdate(scope: scrub(s.scope), startCursor: scrub(s.startCursor), nextCursor: scrub(s.nextCursor), complete: s.complete)
        }
        let warnings = scrub.isEmpty ? self.warnings : self.warnings.map { ImportWarning(scrub($0.message), at: $0.locator) }
        return ImportedStatement(importerID: "plaid", accounts: accounts, records: records, warnings: warnings,
                                 modifiedExternalIDs: modified, removals: removals, sync: sync)
    }
}
