import Foundation
import MoneyFlowCore

/// Saved `/transactions/sync` pages: added / modified / removed across pages, cursors checked.
extension PlaidReader {
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
                    throw ImportError(
                        .rejected, file: fileName, locator: pageLocator,
                        problem:
                            "page \(pageNo) was requested from the beginning (no cursor) but page \(p) returned next_cursor \(PlaidUtil.abbreviated(prev)): page \(pageNo) skipped cursor \(PlaidUtil.abbreviated(prev)); pages must be consecutive"
                    )
                case .cursor(let c) where c != prev:
                    throw ImportError(
                        .rejected, file: fileName, locator: pageLocator,
                        problem:
                            "page \(pageNo) was requested with cursor \(PlaidUtil.abbreviated(c)) but page \(p) returned next_cursor \(PlaidUtil.abbreviated(prev)): page \(pageNo) skipped cursor \(PlaidUtil.abbreviated(prev)); pages must be consecutive"
                    )
                case .cursor: break
                }
            }
            if let id = page.itemID {
                if let known = itemID, known != id {
                    throw ImportError(
                        .rejected, file: fileName, locator: pageLocator,
                        problem:
                            "page \(pageNo) belongs to item \(PlaidUtil.abbreviated(id)) but earlier pages to item \(PlaidUtil.abbreviated(known)); one file must hold one item's update"
                    )
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
                        throw malformed(
                            "'\(member.key)' must be an array, found \(PlaidReader.describe(member.value))", locator: pageLocator,
                            column: member.key)
                    }
                    for (index, element) in list.enumerated() {
                        row += 1
                        let pos = Position(page: locPage, row: row, path: "\(member.key)[\(index)]")
                        guard let o = element.objectValue else {
                            throw malformed(
                                "transaction \(row) (\(member.key)[\(index)]) is a \(element.kindName), not an object",
                                locator: Locator(page: locPage, row: row))
                        }
                        let record = try makeRecord(o, pos)
                        events.append(.upsert(record, modified: member.key == "modified"))
                    }
                case "removed":
                    if member.value.isNull { continue }
                    guard let list = member.value.arrayValue else {
                        throw malformed(
                            "'removed' must be an array, found \(PlaidReader.describe(member.value))", locator: pageLocator,
                            column: "removed")
                    }
                    for (index, element) in list.enumerated() {
                        let removal: ExternalRemoval
                        switch element {
                        case .string(let id) where !id.isEmpty:
                            removal = ExternalRemoval(externalID: id, accountKey: nil)
                        case .object(let o):
                            guard let id = o["transaction_id"]?.stringValue, !id.isEmpty else {
                                throw malformed(
                                    "removed[\(index)] has no transaction_id",
                                    locator: Locator(line: lines.line(at: o.offset), page: locPage), column: "transaction_id")
                            }
                            var accountKey: String?
                            switch o["account_id"] {
                            case nil, .null?: break
                            case .string(let a)? where !a.isEmpty:
                                accountKey = "plaid:" + a
                                removalAccountIDs.insert(a)
                            case let v?:
                                throw malformed(
                                    "removed[\(index)] (transaction_id \"\(id)\"): field 'account_id' must be a string, found \(PlaidReader.describe(v))",
                                    locator: Locator(line: lines.line(at: o.offset), page: locPage), column: "account_id")
                            }
                            removal = ExternalRemoval(externalID: id, accountKey: accountKey)
                        default:
                            throw malformed(
                                "removed[\(index)] must be an object with a transaction_id, found \(PlaidReader.describe(element))",
                                locator: pageLocator, column: "removed")
                        }
                        events.append(.remove(removal))
                    }
                default: break
                }
            }
            switch body["next_cursor"] {
            case nil, .null?: lastNext = nil
            case .string(let s)?: lastNext = s
            case let v?:
                throw malformed(
                    "'next_cursor' must be a string, found \(PlaidReader.describe(v))", locator: pageLocator, column: "next_cursor")
            }
            switch body["has_more"] {
            case nil, .null?: lastHasMore = nil
            case .bool(let b)?: lastHasMore = b
            case let v?:
                throw malformed("'has_more' must be a boolean, found \(PlaidReader.describe(v))", locator: pageLocator, column: "has_more")
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
                scope = SyncUpdate.plaidItemScope(itemID: itemID)
            } else {
                var ids = Set(accountOrder)
                ids.formUnion(referencedAccounts)
                ids.formUnion(removalAccountIDs)
                scope = SyncUpdate.plaidAccountsScope(accountIDs: ids)
                if ids.isEmpty {
                    warnings.append(
                        ImportWarning(
                            "the update names neither an item nor an account: its cursor cannot be tied to a Plaid item", at: lastLocator))
                }
            }
            var start: String?
            if case .cursor(let c) = pages[0].cursor { start = c }
            let complete = lastHasMore == false
            if lastHasMore == true {
                warnings.append(
                    ImportWarning(
                        "the last page says has_more: true; this update is incomplete, fetch the remaining pages before saving its cursor",
                        at: lastLocator))
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
            case "INITIAL_UPDATE_COMPLETE":
                hint = "Plaid has pulled only recent transactions so far; older history will arrive in later updates"
            default: hint = "the state of Plaid's history pull is unknown"
            }
            warnings.append(ImportWarning("transactions_update_status \(status): \(hint)", at: lastLocator))
        }
        return finish(records: records, removals: removals, modified: modified, sync: sync)
    }
}
