import Foundation
import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// The category settings a store categorises with (`category_setting`, migration v12): the
/// rules and the provider mapping the user last gave (`--rules`, `--category-map`), kept as
/// JSON of the parsed rules so that every later write (an import, a relink, an undo, a server
/// request) categorises with the same rules, and the store needs no TOML reader.
enum CategorySettingTable {
    static func create(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE category_setting (name TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID")
    }

    /// The stored settings (no rules and the built-in mapping when none were given).
    static func settings(_ db: Database) throws -> CategorySettings {
        var s = CategorySettings()
        for row in try Row.fetchAll(db, sql: "SELECT name, value FROM category_setting") {
            let name: String = row[0], text: String = row[1]
            guard let json = try? JSONSerialization.jsonObject(with: Data(text.utf8)) else {
                throw StoreError("unreadable category setting '\(name)' in the store")
            }
            switch name {
            case "rules": s.rules = try rules(json)
            case "mapping": s.mapping = try mapping(json)
            default: throw StoreError("unknown category setting '\(name)' in the store (written by a newer moneyflow?)")
            }
        }
        return s
    }

    /// Stores `rules` (nil: keep the stored ones) and `mapping` (nil: keep).
    static func write(_ db: Database, rules: CategoryRules?, mapping: ProviderMapping?) throws {
        func put(_ name: String, _ object: Any) throws {
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            try db.execute(
                sql: "INSERT INTO category_setting(name, value) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET value = excluded.value",
                arguments: [name, String(decoding: data, as: UTF8.self)])
        }
        if let rules { try put("rules", rules.rules.map(json)) }
        if let mapping {
            var out: [String: Any] = [:]
            for (taxonomy, table) in mapping.overrides {
                out[taxonomy.rawValue] = table.mapValues { t -> [String: String] in
                    var e: [String: String] = [:]
                    e["out"] = t.outflow
                    e["in"] = t.inflow
                    return e
                }
            }
            try put("mapping", out)
        }
    }

    private static func json(_ r: CategoryRule) -> [String: Any] {
        func texts(_ ms: [TextMatch]) -> [[String: String]] {
            ms.map {
                switch $0 {
                case .substring(let s): return ["substring": s]
                case .regex(let p): return ["regex": p.pattern]
                }
            }
        }
        var o: [String: Any] = [
            "name": r.name, "category": r.category, "description": texts(r.description), "counterparty": texts(r.counterparty),
            "merchant": texts(r.merchant), "accounts": r.accounts, "sources": r.sources.map(\.rawValue),
        ]
        o["amount_min"] = r.amountMin.map { "\($0)" }
        o["amount_max"] = r.amountMax.map { "\($0)" }
        o["direction"] = r.direction?.rawValue
        return o
    }

    private static func rules(_ json: Any) throws -> CategoryRules {
        guard let items = json as? [[String: Any]] else { throw StoreError("unreadable category rules in the store") }
        return CategoryRules(
            try items.map { o in
                func texts(_ key: String) throws -> [TextMatch] {
                    try ((o[key] as? [[String: String]]) ?? []).map { e in
                        if let s = e["substring"] { return .substring(s) }
                        if let p = e["regex"] { return .regex(try RulePattern(p)) }
                        throw StoreError("unreadable category rule condition in the store")
                    }
                }
                func decimal(_ key: String) -> Decimal? { (o[key] as? String).flatMap { Decimal(string: $0, locale: nil) } }
                do {
                    return try CategoryRule(
                        name: o["name"] as? String ?? "", category: o["category"] as? String ?? "", description: try texts("description"),
                        counterparty: try texts("counterparty"), merchant: try texts("merchant"), amountMin: decimal("amount_min"),
                        amountMax: decimal("amount_max"), direction: (o["direction"] as? String).flatMap(CategoryRule.Direction.init),
                        accounts: o["accounts"] as? [String] ?? [], sources: (o["sources"] as? [String] ?? []).compactMap(SourceKind.init))
                } catch let e as RuleError { throw StoreError("category rule in the store: \(e.message)") }
            })
    }

    private static func mapping(_ json: Any) throws -> ProviderMapping {
        guard let o = json as? [String: [String: [String: String]]] else { throw StoreError("unreadable category mapping in the store") }
        var overrides: [ProviderTaxonomy: [String: ProviderMapping.Target]] = [:]
        for (name, table) in o {
            guard let taxonomy = ProviderTaxonomy(rawValue: name) else {
                throw StoreError("unknown category taxonomy '\(name)' in the store")
            }
            overrides[taxonomy] = table.mapValues { ProviderMapping.Target(outflow: $0["out"], inflow: $0["in"]) }
        }
        return ProviderMapping(overrides: overrides)
    }
}

/// The rules and the provider mapping a store categorises with.
public struct CategorySettings: Sendable {
    public var rules = CategoryRules()
    public var mapping = ProviderMapping()
    public init(rules: CategoryRules = CategoryRules(), mapping: ProviderMapping = ProviderMapping()) {
        self.rules = rules; self.mapping = mapping
    }
}
