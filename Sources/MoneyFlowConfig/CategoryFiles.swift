import Foundation
import MoneyFlowCategories
import MoneyFlowCore
import MoneyFlowImporters

/// Why a rules file or a category mapping file was refused: the file, the rule or table, and
/// what to change, on one line.
public struct CategoryFileError: Error, Sendable, CustomStringConvertible {
    public var file: String
    public var message: String
    public init(file: String, message: String) { self.file = file; self.message = message }
    public var description: String { "\(file): \(message)" }
}

/// The TOML files of categories: the rules file and the provider category mapping.
///
/// Rules file: `[[rule]]` tables in priority order (the first that matches wins):
///
///     [[rule]]
///     name = "rent"                          # optional, shown in reasons and `rules test`
///     category = "Expenses:Housing:Rent"     # the ledger account
///     counterparty = "张三"                   # substring (case-insensitive), or an array of them
///     direction = "out"                      # out | in
///     amount_min = "-5000.00"                # inclusive bounds on the signed amount (exact decimals)
///     amount_max = "-3000.00"
///     # also: description, merchant, and *_regex for each text; account = [...]; source = [...]
///
/// Mapping file: one table per taxonomy (`[plaid]`, `[plaid-legacy]`, `[alipay]`, `[wechat]`),
/// category = account, `""` for no category, or `{ out = "...", in = "..." }` by direction.
public enum CategoryFiles {
    static let ruleKeys = [
        "name", "category", "description", "description_regex", "counterparty", "counterparty_regex", "merchant",
        "merchant_regex", "amount_min", "amount_max", "direction", "account", "source",
    ]

    /// Reads a rules file's text; `file` names it in errors.
    public static func rules(_ text: String, file: String) throws(CategoryFileError) -> CategoryRules {
        let top = try parse(text, file: file)
        for k in top.keys where k != "rule" {
            throw CategoryFileError(
                file: file, message: "unknown key '\(k)'\(NearestName.hint(k, in: ["rule"])): rules are [[rule]] tables")
        }
        guard let v = top["rule"] else { return CategoryRules() }
        guard case .array(let items) = v else { throw CategoryFileError(file: file, message: "'rule' must be [[rule]] tables") }
        var rules: [CategoryRule] = []
        for (i, item) in items.enumerated() {
            guard case .object(let t) = item else {
                throw CategoryFileError(file: file, message: "rule \(i + 1) must be a table ([[rule]])")
            }
            let label = "rule \(i + 1)" + ((t["name"]?.stringValue).map { " ('\($0)')" } ?? "")
            func fail(_ m: String) -> CategoryFileError { CategoryFileError(file: file, message: "\(label): \(m)") }
            for k in t.keys where !ruleKeys.contains(k) {
                throw fail("unknown key '\(k)'\(NearestName.hint(k, in: ruleKeys))")
            }
            guard case .string(let category)? = t["category"] else {
                throw fail("needs category = \"Expenses:...\" (the ledger account it books to)")
            }
            func strings(_ key: String) throws(CategoryFileError) -> [String] {
                switch t[key] {
                case nil: return []
                case .string(let s)?: return [s]
                case .array(let a)?:
                    var out: [String] = []
                    for e in a {
                        guard case .string(let s) = e else { throw fail("'\(key)' must be a string or an array of strings") }
                        out.append(s)
                    }
                    return out
                default: throw fail("'\(key)' must be a string or an array of strings")
                }
            }
            func texts(_ key: String) throws(CategoryFileError) -> [TextMatch] {
                var out: [TextMatch] = []
                for s in try strings(key) {
                    guard !s.isEmpty else { throw fail("'\(key)' must not be empty") }
                    out.append(.substring(s))
                }
                for s in try strings(key + "_regex") {
                    do { out.append(.regex(try RulePattern(s))) } catch { throw fail("'\(key)_regex': \(error.message)") }
                }
                return out
            }
            func amount(_ key: String) throws(CategoryFileError) -> Decimal? {
                let text: String
                switch t[key] {
                case nil: return nil
                case .string(let s)?: text = s
                case .number(let n)?: text = n
                default: throw fail("'\(key)' must be an amount such as \"-50.00\"")
                }
                guard isDecimal(text), let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                    throw fail("'\(key)' = \(text) is not an exact decimal amount such as \"-50.00\"")
                }
                return d
            }
            var direction: CategoryRule.Direction?
            if let v = t["direction"] {
                guard case .string(let s) = v, let d = CategoryRule.Direction(rawValue: s) else {
                    throw fail("'direction' must be \"out\" (money out) or \"in\" (money in)")
                }
                direction = d
            }
            var sources: [SourceKind] = []
            for s in try strings("source") {
                guard let k = SourceKind(rawValue: s) else {
                    let all = SourceKind.allCases.map(\.rawValue)
                    throw fail("unknown source '\(s)'\(NearestName.hint(s, in: all)) (one of \(all.joined(separator: ", ")))")
                }
                sources.append(k)
            }
            do {
                rules.append(
                    try CategoryRule(
                        name: t["name"]?.stringValue ?? category, category: category, description: try texts("description"),
                        counterparty: try texts("counterparty"), merchant: try texts("merchant"), amountMin: try amount("amount_min"),
                        amountMax: try amount("amount_max"), direction: direction, accounts: try strings("account"), sources: sources))
            } catch let e as CategoryFileError {
                throw e
            } catch let e as RuleError {
                throw fail(e.message)
            } catch {
                throw fail("\(error)")
            }
        }
        return CategoryRules(rules)
    }

    /// Reads a category mapping file's text; `file` names it in errors.
    public static func mapping(_ text: String, file: String) throws(CategoryFileError) -> ProviderMapping {
        let top = try parse(text, file: file)
        var overrides: [ProviderTaxonomy: [String: ProviderMapping.Target]] = [:]
        let names = ProviderTaxonomy.allCases.map(\.rawValue)
        for m in top.members {
            guard let taxonomy = ProviderTaxonomy(rawValue: m.key) else {
                throw CategoryFileError(
                    file: file,
                    message: "unknown table [\(m.key)]\(NearestName.hint(m.key, in: names)) (one of \(names.joined(separator: ", ")))")
            }
            guard case .object(let table) = m.value else {
                throw CategoryFileError(file: file, message: "[\(m.key)] must be a table of category = account")
            }
            var entries: [String: ProviderMapping.Target] = [:]
            for e in table.members {
                let at = "[\(m.key)] '\(e.key)'"
                if taxonomy == .plaid && ProviderMapping.defaults(.plaid)[e.key] == nil {
                    let known = Array(ProviderMapping.defaults(.plaid).keys).sorted()
                    throw CategoryFileError(
                        file: file, message: "\(at) is not a Plaid personal_finance_category\(NearestName.hint(e.key, in: known))")
                }
                func account(_ v: JSONValue?, _ what: String) throws(CategoryFileError) -> String? {
                    guard case .string(let s)? = v else {
                        throw CategoryFileError(file: file, message: "\(at): \(what) must be an account name or \"\" for no category")
                    }
                    if s.isEmpty { return nil }
                    if let problem = LedgerAccountName.problem(s) { throw CategoryFileError(file: file, message: "\(at): \(problem)") }
                    return s
                }
                switch e.value {
                case .string:
                    let a = try account(e.value, "the value")
                    entries[e.key] = ProviderMapping.Target(outflow: a, inflow: a)
                case .object(let o):
                    for k in o.keys where k != "out" && k != "in" {
                        throw CategoryFileError(file: file, message: "\(at): unknown key '\(k)' (out or in)")
                    }
                    entries[e.key] = ProviderMapping.Target(
                        outflow: o["out"] == nil ? nil : try account(o["out"], "'out'"),
                        inflow: o["in"] == nil ? nil : try account(o["in"], "'in'"))
                default:
                    throw CategoryFileError(file: file, message: "\(at) must be an account name, \"\", or { out = \"...\", in = \"...\" }")
                }
            }
            overrides[taxonomy] = entries
        }
        return ProviderMapping(overrides: overrides)
    }

    /// Loads a rules file from disk.
    public static func loadRules(contentsOf url: URL) throws(CategoryFileError) -> CategoryRules {
        try rules(try read(url), file: url.path)
    }

    /// Loads a category mapping file from disk.
    public static func loadMapping(contentsOf url: URL) throws(CategoryFileError) -> ProviderMapping {
        try mapping(try read(url), file: url.path)
    }

    private static func read(_ url: URL) throws(CategoryFileError) -> String {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CategoryFileError(file: url.path, message: "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else { throw CategoryFileError(file: url.path, message: "not UTF-8 text") }
        return text
    }

    private static func parse(_ text: String, file: String) throws(CategoryFileError) -> JSONObject {
        do { return try TOMLReader.parse(text) } catch { throw CategoryFileError(file: file, message: error.description) }
    }

    /// `-12`, `12.50`, `+3.0`: what an exact amount in a rule looks like.
    static func isDecimal(_ s: String) -> Bool {
        var body = Substring(s)
        if body.first == "-" || body.first == "+" { body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return false }
        return parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && $0.isNumber } }
    }
}
