import Foundation
import MoneyFlowCategories
import MoneyFlowCore

// category-eval: the honest accuracy report of MoneyFlowCategories' learning (issue 27).
// Reads scripts/gen_category_eval.py's cmb_year.tsv, teaches the categoriser the user's decisions
// of the first half (about two per merchant), categorises the second half and compares with the
// ground truth; then times categorising 100,000 transactions (rules + learning). One JSON line on
// stdout; scripts/category-eval.sh turns it into the BENCHMARKS.md section.

let usage = "usage: category-eval --data cmb_year.tsv [--n 100000]"
var dataPath: String?
var n = 100_000
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--data": dataPath = args.popFirst()
    case "--n": n = Int(args.popFirst() ?? "") ?? -1
    default: FileHandle.standardError.write(Data("unknown argument \(a)\n\(usage)\n".utf8)); exit(2)
    }
}
guard let dataPath, n > 0 else { FileHandle.standardError.write(Data("\(usage)\n".utf8)); exit(2) }

let rows: [EvalRow]
do { rows = try EvalRow.read(dataPath) } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8)); exit(1)
}

// Teach on the first half: the user's decisions are the rows marked taught.
let firstHalf = rows.filter { $0.half == 1 }
let decisions = firstHalf.filter(\.taught).map { CategoryDecision(transactionID: $0.input.id, account: $0.truth) }
let taughtEntities = Set(firstHalf.filter(\.taught).map(\.entity))
let categorizer = Categorizer.learning(from: decisions, inputs: firstHalf.map(\.input))

// Measure on the second half.
var tally: [String: Tally] = [:]
for row in rows where row.half == 2 {
    let a = categorizer.assign(row.input)
    let group: String
    switch row.group {
    case "shop":
        group =
            taughtEntities.contains(row.entity)
            ? (row.textTaught ? "shop-taught-same-text" : "shop-taught-other-text") : "shop-never-taught"
    case "shop-same-brand": group = "shop-never-taught-same-brand"
    case "person": group = taughtEntities.contains(row.entity) ? "person-taught" : "person-never-taught"
    default: group = row.group
    }
    tally[group, default: Tally()].add(row: row, assignment: a)
}
let taughtShops = ["shop-taught-same-text", "shop-taught-other-text"].reduce(Tally()) { $0 + (tally[$1] ?? Tally()) }
let neverShops = ["shop-never-taught", "shop-never-taught-same-brand"].reduce(Tally()) { $0 + (tally[$1] ?? Tally()) }

// Time: 100k transactions (the year's rows repeated with new ids) through rules + learning.
let rules = EvalRules.make()
var inputs: [CategorizationInput] = []
inputs.reserveCapacity(n)
for k in 0..<n {
    var input = rows[k % rows.count].input
    input.id = Int64(1_000_000 + k)
    inputs.append(input)
}
/// Best of three (wall seconds, CPU seconds of this process) of categorising `inputs`, and the
/// sources of the last run.
func time(_ c: Categorizer, _ inputs: [CategorizationInput]) -> (wall: Double, cpu: Double, sources: [CategorySource: Int]) {
    var wall = Double.infinity, cpu = Double.infinity
    var sources: [CategorySource: Int] = [:]
    for _ in 0..<3 {
        let (t0, c0) = (Date(), clock())
        let out = c.assignAll(inputs)
        wall = min(wall, Date().timeIntervalSince(t0))
        cpu = min(cpu, Double(clock() - c0) / Double(CLOCKS_PER_SEC))
        sources = [:]
        for a in out { sources[a.source, default: 0] += 1 }
    }
    return (wall, cpu, sources)
}
let trainStart = Date()
let trained = Categorizer.learning(from: decisions, inputs: firstHalf.map(\.input), rules: rules)
let trainSeconds = Date().timeIntervalSince(trainStart)
let both = time(trained, inputs)
let rulesOnly = time(Categorizer(rules: rules), inputs)
let learningOnly = time(Categorizer.learning(from: decisions, inputs: firstHalf.map(\.input)), inputs)

var json: [String: Any] = [
    "rows": rows.count, "first_half": firstHalf.count, "decisions": decisions.count, "taught_entities": taughtEntities.count,
    "second_half": rows.count - firstHalf.count, "threshold": LearnedModel.Options().threshold,
    "taught_shops": taughtShops.json, "never_taught_shops": neverShops.json,
    "n": n, "rules": rules.rules.count, "train_seconds": trainSeconds, "categorize_seconds": both.wall, "categorize_cpu_seconds": both.cpu,
    "rules_only_seconds": rulesOnly.wall, "rules_only_cpu_seconds": rulesOnly.cpu,
    "learning_only_seconds": learningOnly.wall, "learning_only_cpu_seconds": learningOnly.cpu,
    "timed_sources": Dictionary(uniqueKeysWithValues: both.sources.map { ($0.key.rawValue, $0.value) }),
]
var groups: [String: Any] = [:]
for (k, v) in tally { groups[k] = v.json }
json["groups"] = groups
let data = try! JSONSerialization.data(withJSONObject: json, options: [.sortedKeys])
print(String(decoding: data, as: UTF8.self))
