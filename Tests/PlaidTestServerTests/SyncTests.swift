import PlaidTestServer
import Testing

@Suite struct SyncTests {
    let bank = DefaultInstitution.id

    @Test func fullSyncPagedBySevenEqualsTruth() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link(days: 730)
            var ledger = SyncedLedger()
            try await ledger.syncUpdate(calls, token: token, count: 7)
            let total = DefaultInstitution.postedCount + DefaultInstitution.pendingCount
            #expect(ledger.transactions.count == total)
            #expect(ledger.lastUpdatePages.count == (total + 6) / 7)
            #expect(ledger.lastUpdatePages.dropLast().allSatisfy { $0["added"]?.arrayValue?.count == 7 })
            #expect(ledger.rows == SyncedLedger.rows(try server.truth(itemID: itemID)))
            #expect(ledger.lastUpdatePages.allSatisfy { $0["transactions_update_status"] == .string("HISTORICAL_UPDATE_COMPLETE") })
            #expect(ledger.lastUpdatePages.allSatisfy { $0["accounts"]?.arrayValue?.count == 3 })
            #expect(ledger.cursor.count <= 256 && !ledger.cursor.isEmpty)

            // The final cursor is stable: nothing new gives empty lists and the same cursor back.
            let again = try await calls.sync(token, cursor: ledger.cursor, count: 7)
            #expect(again.status == 200)
            #expect(again.json["added"] == .array([]) && again.json["modified"] == .array([]) && again.json["removed"] == .array([]))
            #expect(again.json["has_more"] == .bool(false))
            #expect(again.json["next_cursor"]?.stringValue == ledger.cursor)
        }
    }

    @Test func defaultWindowIsNinetyDays() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            var ledger = SyncedLedger()
            try await ledger.syncUpdate(calls, token: token, count: 500)
            let oldest = server.today.adding(days: -90).iso
            #expect(!ledger.transactions.isEmpty)
            #expect(ledger.transactions.count < DefaultInstitution.postedCount)
            #expect(ledger.transactions.values.allSatisfy { $0["date"]!.stringValue! >= oldest })
            #expect(ledger.rows == SyncedLedger.rows(try server.truth(itemID: itemID)))
        }
    }

    @Test func incrementalSyncClassifiesAddModifyRemoveAndPost() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link(days: 730)
            var ledger = SyncedLedger()
            try await ledger.syncUpdate(calls, token: token, count: 500)
            let before = try server.truth(itemID: itemID)
            let idOf = { (bankID: String) in before.first { $0.bankID == bankID }!.transactionID }
            let posted = try server.bankTransactionIDs(institution: bank, pending: false)
            let pending = try server.bankTransactionIDs(institution: bank, pending: true)

            let newID = try server.addTransaction(
                institution: bank,
                TestTransaction(
                    account: "checking", date: server.today.adding(days: -10).iso, amount: "1234.12", name: "Exact Amount Ltd"))
            try server.modifyTransaction(institution: bank, bankID: posted[3], name: "Renamed", amount: "99.99")
            try server.removeTransaction(institution: bank, bankID: posted[5])
            let postedID = try server.post(
                institution: bank, pendingBankID: pending[0], amount: "77.70", name: "With Tip",
                date: server.today.adding(days: -9).iso)
            try server.setBalance(institution: bank, account: "checking", current: "1001.01", available: "999.99")
            // count 1: every change on its own page, so the posted row and the pending removal are apart.
            try await ledger.syncUpdate(calls, token: token, count: 1)
            let pages = ledger.lastUpdatePages
            #expect(pages.count == 5)
            let added = pages.flatMap { $0["added"]?.arrayValue ?? [] }
            let modified = pages.flatMap { $0["modified"]?.arrayValue ?? [] }
            let removed = pages.flatMap { $0["removed"]?.arrayValue ?? [] }
            let after = try server.truth(itemID: itemID)
            let newIDs = Set(added.compactMap { $0["transaction_id"]?.stringValue })
            #expect(newIDs == Set(after.filter { $0.bankID == newID || $0.bankID == postedID }.map(\.transactionID)))
            #expect(modified.compactMap { $0["transaction_id"]?.stringValue } == [idOf(posted[3])])
            #expect(modified.first?["amount"] == .number("99.99"))
            #expect(Set(removed.compactMap { $0["transaction_id"]?.stringValue }) == [idOf(posted[5]), idOf(pending[0])])
            #expect(removed.allSatisfy { $0["account_id"]?.stringValue != nil })
            let postedRow = try #require(added.first { $0["name"] == .string("With Tip") })
            #expect(postedRow["pending_transaction_id"]?.stringValue == idOf(pending[0]))
            #expect(postedRow["pending"] == .bool(false) && postedRow["amount"] == .number("77.70"))
            let pageOfPosted = pages.firstIndex { ($0["added"]?.arrayValue ?? []).contains(postedRow) }!
            let pageOfRemoval = pages.firstIndex {
                ($0["removed"]?.arrayValue ?? []).contains { $0["transaction_id"]?.stringValue == idOf(pending[0]) }
            }!
            #expect(pageOfPosted != pageOfRemoval)
            // Every page carries the accounts with their balances as they are now.
            let checking = try #require(server.items()[0].accountIDs["checking"])
            #expect(
                pages.allSatisfy { page in
                    page["accounts"]?.arrayValue?.first { $0["account_id"] == .string(checking) }?["balances"]?["current"]
                        == .number("1001.01")
                })
            // Amounts leave as the JSON number text they were given.
            #expect(try await calls.sync(token, cursor: "", count: 500).raw.contains("\"amount\":1234.12,"))
            #expect(ledger.rows == SyncedLedger.rows(after))
        }
    }

    @Test func mutationDuringPaginationThenRestartEqualsTruth() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link(days: 730)
            server.mutateDuringNextPagination(itemID: itemID) { server in
                try server.addTransaction(
                    institution: DefaultInstitution.id,
                    TestTransaction(
                        account: "credit", date: server.today.adding(days: -8).iso, amount: "5.25", name: "Late Arrival"))
            }
            var ledger = SyncedLedger()
            var failure: SyncFailure?
            do { try await ledger.syncUpdate(calls, token: token, count: 10) } catch let error as SyncFailure { failure = error }
            #expect(failure?.reply.status == 400)
            #expect(failure?.reply.errorType == "TRANSACTIONS_ERROR")
            #expect(failure?.reply.errorCode == "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION")
            #expect(ledger.transactions.isEmpty && ledger.cursor == "")
            // Restart from the update's first cursor (here: the empty one).
            try await ledger.syncUpdate(calls, token: token, count: 10)
            #expect(ledger.rows == SyncedLedger.rows(try server.truth(itemID: itemID)))
            #expect(ledger.transactions.values.contains { $0["name"] == .string("Late Arrival") })
        }
    }

    @Test func notReadyGivesEmptyListsAndTheCursorBack() async throws {
        try await withServer { server, calls in
            let (token, itemID) = try await calls.link()
            try server.notReady(itemID: itemID, forRequests: 1)
            let first = try await calls.sync(token, cursor: nil, count: nil)
            #expect(first.status == 200 && first.json["transactions_update_status"] == .string("NOT_READY"))
            #expect(first.json["added"] == .array([]) && first.json["next_cursor"] == .string("") && first.json["has_more"] == .bool(false))
            let second = try await calls.sync(token, cursor: "", count: nil)
            #expect(second.json["transactions_update_status"] == .string("HISTORICAL_UPDATE_COMPLETE"))
            #expect(second.json["added"]?.arrayValue?.isEmpty == false)
        }
    }

    @Test func relinkGivesNewIdsForTheSameHistory() async throws {
        try await withServer { server, calls in
            let first = try await calls.link(days: 730)
            let second = try await calls.link(days: 730)
            var a = SyncedLedger(), b = SyncedLedger()
            try await a.syncUpdate(calls, token: first.accessToken, count: 500)
            try await b.syncUpdate(calls, token: second.accessToken, count: 500)
            #expect(first.itemID != second.itemID)
            #expect(Set(a.transactions.keys).isDisjoint(with: b.transactions.keys))
            #expect(Set(a.rows.map(\.account)).isDisjoint(with: b.rows.map(\.account)))
            let content = { (l: SyncedLedger) in l.rows.map { "\($0.date) \($0.amount) \($0.name) \($0.pending)" }.sorted() }
            #expect(content(a) == content(b) && content(a).count == DefaultInstitution.postedCount + DefaultInstitution.pendingCount)
            #expect(b.rows == SyncedLedger.rows(try server.truth(itemID: second.itemID)))
        }
    }
}
