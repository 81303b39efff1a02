import Foundation
import MoneyFlowCategories
import MoneyFlowCore
import MoneyFlowStore

/// `store-categorize --rows N`: what categories cost inside the store (issue 27's "categorising
/// 100k transactions (rules + learning) takes less than the import of those transactions").
///
/// - import_s: N new rows written to a fresh store (`store-write`'s statement), the category
///   pass included (no rules, no decisions yet: what every first import pays);
/// - categorize_all_s: with the user's decisions on two rows of each of 75 merchants (4
///   categorize batches, untimed), storing 8 rules, which categorises all N again in that one
///   store transaction: rules, then learning from the decisions, then the provider mapping;
/// - import2_s: N more new rows (another account) imported with those rules and decisions.
func runStoreCategorize(_ a: Args) throws {
    let rows = a.int("rows", 100_000), seed = UInt64(a.int("seed", 7))
    let path = a.string("store", "/tmp/moneyflow-bench-categorize.sqlite")
    var line = ResultLine()
    line.set("case", "store-categorize"); line.set("rows", rows); line.set("seed", Int(seed))
    var first = storeWriteStatement(rows: rows, seed: seed)
    first.records = Array(first.records.prefix(rows))
    let store = try freshStore(path)
    let imported = try planAndApply(first, store: store, fileName: "a.csv", sha: "cat-a-\(rows)", accountOverride: nil)
    line.set("import_s", imported.totalWall); line.set("import_cpu_s", imported.totalCPU)

    // Decisions: two rows of each of the first 75 merchants (the description's first word
    // after the channel's: `POS PURCHASE VELMORA #12 …`).
    let channel: Set<Substring> = ["POS", "PURCHASE", "RECURRING", "CARD", "PMT", "ONLINE", "PAYMENT", "DIRECT", "DEP"]
    var byMerchant: [String: [Int64]] = [:]
    var order: [String] = []
    for t in try store.transactions() {
        let m = String(t.description.split(separator: " ").first { !channel.contains($0) } ?? "")
        if byMerchant[m] == nil { order.append(m) }
        if (byMerchant[m]?.count ?? 0) < 2 { byMerchant[m, default: []].append(t.id) }
    }
    let taught = order.prefix(75)
    for (i, group) in stride(from: 0, to: taught.count, by: 19).enumerated() {
        let ids = taught[group..<min(group + 19, taught.count)].flatMap { byMerchant[$0] ?? [] }
        try store.categorize(ids, .account("Expenses:Bench:Group\(i)"))
    }
    line.set("decisions", taught.reduce(0) { $0 + (byMerchant[$1]?.count ?? 0) })
    let rules = CategoryRules(
        try order.suffix(8).enumerated().map { i, m in
            try CategoryRule(name: "rule \(i)", category: "Expenses:Bench:Rule\(i)", description: [.substring(m)])
        })
    let (_, wall, cpu) = try measure { try store.setCategorySettings(rules: rules, mapping: nil) }
    line.set("categorize_all_s", wall); line.set("categorize_all_cpu_s", cpu)
    let counts = Dictionary(grouping: try store.transactions(), by: { $0.assignedCategory?.source ?? "none" }).mapValues(\.count)
    for (k, v) in counts.sorted(by: { $0.key < $1.key }) { line.set("source_\(k)", v) }

    var second = storeWriteStatement(rows: rows, seed: seed + 1)
    second.records = Array(second.records.prefix(rows))
    let again = try planAndApply(second, store: store, fileName: "b.csv", sha: "cat-b-\(rows)", accountOverride: "Second")
    line.set("import2_s", again.totalWall); line.set("import2_cpu_s", again.totalCPU)
    line.set("peak_mib", peakMiB())
    line.emit()
    removeStore(path)
}
