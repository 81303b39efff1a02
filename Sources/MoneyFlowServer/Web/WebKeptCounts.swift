import MoneyFlowStore

/// The whole-ledger counts several pages show beside their own rows (the categories most used,
/// how many transactions wait for a category): each a scan of every transaction, so kept
/// until the ledger changes (``LedgerStore/computedPerVersion(_:_:)``); a categorisation or an
/// import makes the next page count again.
extension LedgerStore {
    func keptCategoryUsage(limit: Int) async throws -> [(category: String, count: Int)] {
        try await computedPerVersion("web.categoryUsage.\(limit)") { try $0.categoryUsage(limit: limit) }
    }

    func keptUncategorizedCount() async throws -> Int {
        try await computedPerVersion("web.uncategorized") { try $0.uncategorizedCount() }
    }
}
