import Foundation
import MoneyFlowCore

/// `/transactions/get` responses, bare transaction arrays, `/accounts/get`, and the item.
extension PlaidReader {
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
                warnings.append(
                    ImportWarning(
                        "the export holds \(list.count) of \(total) transactions (total_transactions); /transactions/get is paginated, import the other pages too"
                    ))
            }
        default: break
        }
        if complete, let r = page.request,
            let s = r["start_date"]?.stringValue.flatMap({ LocalDate(iso: $0, .exact) }),
            let e = r["end_date"]?.stringValue.flatMap({ LocalDate(iso: $0, .exact) }), s <= e
        {
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
                warnings.append(
                    ImportWarning("transaction_id \"\(id)\" appears again (first at row \(first)); kept the first", at: record.locator))
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
}
