import Foundation
import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// The user's category decisions and the store's category settings. Each change is one write
/// (one store transaction), after which ``CategoryPass`` categorises again what it covers; a
/// categorize is a batch of its own, so `undo` of it restores the decisions before it exactly.
extension LedgerStore {
    /// What the user decides for one transaction: one account, or split parts
    /// (``CategorySplit/parse(arguments:total:)`` syntax, checked against its amount).
    public enum CategoryChoice: Sendable {
        case account(String)
        case split([String])
    }

    /// Sets the user's category of transactions `ids` as one batch (undoable) and returns the
    /// batch's id. A split applies to one transaction only.
    @discardableResult
    public func categorize(_ ids: [Int64], _ choice: CategoryChoice, at date: Date = Date()) throws -> Int64 {
        guard !ids.isEmpty else { throw StoreError("no transactions to categorize") }
        return try write { db in
            var decided: [(Int64, CategoryTable.StoredDecision)] = []
            for id in ids {
                guard let row = try Row.fetchOne(db, sql: "SELECT amount_minor, currency FROM txn WHERE id = ?", arguments: [id]) else {
                    throw StoreError.notFound("no transaction \(id)")
                }
                switch choice {
                case .account(let account):
                    if let problem = LedgerAccountName.problem(account) { throw StoreError("category \(problem)") }
                    decided.append((id, CategoryTable.StoredDecision(account: account, split: nil)))
                case .split(let args):
                    guard ids.count == 1 else { throw StoreError("a split applies to one transaction; give one id") }
                    let total = Money(minorUnits: row[0], currency: row[1])
                    let split: CategorySplit
                    do { split = try CategorySplit.parse(arguments: args, total: total) } catch let e as SplitError {
                        throw StoreError(e.description)
                    }
                    decided.append(
                        (id, CategoryTable.StoredDecision(account: split.parts[0].account, split: try CategoryTable.encodeSplit(split))))
                }
            }
            let stamp = PlanApplier.timestamp(date)
            let batchID = try BatchTable.insert(
                db, fileName: "categorize \(ids.count) transaction\(ids.count == 1 ? "" : "s")", sha256: "categorize:\(stamp)",
                importer: "categorize", at: stamp, counts: ImportCounts())
            for (seq, (id, var decision)) in decided.enumerated() {
                try BatchChangeTable.append(
                    db, batchID: batchID, seq: seq + 1,
                    .categoryDecision(transactionID: id, before: try CategoryTable.storedDecision(db, id)))
                decision.batch = batchID
                decision.origin = id
                try CategoryTable.setDecision(db, id, decision, at: stamp)
            }
            return batchID
        }
    }

    /// Stores the rules and/or the provider mapping the store categorises with (nil: keep the
    /// stored one) and categorises every transaction again, in one store transaction. A batch
    /// of its own (importer `recategorize`): its undo puts the settings before it back, and
    /// everything is categorised again with those.
    @discardableResult
    public func setCategorySettings(rules: CategoryRules?, mapping: ProviderMapping?, at date: Date = Date()) throws -> Int64 {
        try write { db in
            let stamp = PlanApplier.timestamp(date)
            let batchID = try BatchTable.insert(
                db, fileName: "category settings", sha256: "recategorize:\(stamp)", importer: "recategorize", at: stamp,
                counts: ImportCounts())
            var log = RowImageLog(db: db, batchID: batchID)
            for (name, given) in [("rules", rules != nil), ("mapping", mapping != nil)] where given {
                try log.keep(RowImage.Key(table: "category_setting", columns: ["name"], values: [.text(name)]))
            }
            try CategorySettingTable.write(db, rules: rules, mapping: mapping)
            return batchID
        }
    }

    /// Stores `rules` and/or `mapping` as ``setCategorySettings(rules:mapping:at:)`` does, only
    /// when they differ from the stored ones: an import given the same rules file every time
    /// adds no batch and categorises nothing again. Returns the settings batch, nil when
    /// nothing changed.
    public func adoptCategorySettings(rules: CategoryRules?, mapping: ProviderMapping?, at date: Date = Date()) throws -> Int64? {
        let current = try categorySettings()
        let newRules = rules == current.rules ? nil : rules, newMapping = mapping == current.mapping ? nil : mapping
        guard newRules != nil || newMapping != nil else { return nil }
        return try setCategorySettings(rules: newRules, mapping: newMapping, at: date)
    }

    /// The rules and mapping the store categorises with.
    public func categorySettings() throws -> CategorySettings {
        try read { db in try CategorySettingTable.settings(db) }
    }

    /// What the categoriser sees of every transaction (for `rules test`), in id order.
    public func categorizationInputs() throws -> [CategorizationInput] {
        try read { db in try CategoryInputs(db: db).loadAll() }
    }
}
