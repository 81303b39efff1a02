import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// The pages that show the ledger: home, transactions and one transaction (with its category
/// edit, the CLI's `categorize`). Thin: the same store calls as the `/v1` routes.
struct WebLedgerPages {
    let ledgers: Ledgers
    static let pageSize = 50

    func register(_ pages: RouterGroup<ServerRequestContext>) {
        pages.get("/") { _, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            // The overview and the balance breaks read the whole ledger: kept until it changes.
            async let overview = store.computedPerVersion("web.home.overview") { try $0.overview(months: 12) }
            async let balanceBreaks = store.computedPerVersion("web.home.breaks") { try ReconciliationReport.balanceBreaks(store: $0) }
            async let accounts = store.accounts()
            async let reviews = store.pendingReviews()
            async let items = store.plaidItems()
            async let batches = store.batches()
            let (o, breaks, a, r, i, b) = try await (overview, balanceBreaks, accounts, reviews, items, batches)
            let lastImport = b.filter { $0.undoneAt == nil }.map(\.importedAt).max() ?? "never"
            let rows: [[String: Any]] = a.map { account in
                let item = i.first { $0.accountIDs.contains(account.providerAccountID ?? "\u{0}") }
                // The provider's balance, else the last month-end balance of its rows (printed or summed).
                let point = o.balances.last { $0.account == account.name }
                let balance = account.currentBalance?.description ?? point.map { $0.balance.description + ($0.computed ? " (sum of rows)" : "") } ?? "—"
                let updated = [item?.lastSuccessAt, o.lastImport[account.name]].compactMap { $0 }.max() ?? "—"
                return [
                    "name": account.name, "urlName": account.name.addingPercentEncoding(withAllowedCharacters: .urlQueryValue) ?? "",
                    "institution": account.institution ?? "", "balance": balance, "updated": updated,
                ]
            }
            return WebPage.render(
                "home", title: "Home", session: web.session,
                [
                    "accounts": rows, "review": r.count, "uncategorized": o.uncategorized, "transactions": o.transactions,
                    "breaks": breaks.count,
                    "breakList": breaks.prefix(5).map { account, b in
                        ["account": account, "id": b.transactionID, "printed": b.printed.description, "expected": b.expected?.description ?? "?"]
                    },
                    "loginNeeded": i.filter { $0.status == .needsUser }.count, "lastImport": lastImport,
                    "monthlyChart": SVGChart.monthly(o.months), "categoryChart": SVGChart.categories(o.categories),
                    "balanceChart": SVGChart.balances(o.balances),
                ])
        }
        pages.get("transactions") { request, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            let q = request.uri.queryParameters
            func value(_ k: String) -> String? { q[k[...]].map(String.init).flatMap { $0.isEmpty ? nil : $0 } }
            let from = try value("from").map { try Self.date($0, "from") }, to = try value("to").map { try Self.date($0, "to") }
            let category = value("category")
            let search = TransactionSearch(
                account: value("account"), from: from, through: to, text: value("q"), category: category == "-" ? nil : category,
                uncategorizedOnly: category == "-")
            let after = try value("after").map { s -> Int64 in
                guard let id = Int64(s), id >= 0 else { throw WebError.badForm("after must be a transaction id") }
                return id
            } ?? 0
            async let page = store.transactionsPage(matching: search, afterID: after, limit: Self.pageSize + 1)
            async let accounts = store.accounts()
            async let categories = store.keptCategoryUsage(limit: 200)
            let (p, a, c) = try await (page, accounts, categories)
            let shown = p.prefix(Self.pageSize)
            let next =
                p.count > Self.pageSize
                ? WebPage.link(
                    "/transactions",
                    [("account", search.account), ("from", value("from")), ("to", value("to")), ("q", value("q")), ("category", category),
                     ("after", shown.last.map { String($0.id) })]) : nil
            return WebPage.render(
                "transactions", title: "Transactions", session: web.session,
                [
                    "rows": shown.map(Self.row), "next": next ?? false,
                    "accountOptions": a.map { ["name": $0.name, "selected": $0.name == search.account] },
                    "categoryOptions": c.map { ["name": $0.category, "selected": $0.category == category] },
                    "uncategorizedSelected": category == "-", "from": value("from") ?? "", "to": value("to") ?? "", "q": value("q") ?? "",
                ])
        }
        pages.get("transactions/:id") { request, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            let id = try Query.pathID(context, "id")
            guard let t = try await store.transaction(id: id) else { throw WebError.notFound("no transaction \(id)") }
            let categories = try await store.keptCategoryUsage(limit: 200)
            return WebPage.render("transaction", title: t.description, session: web.session, Self.detail(t, categories: categories))
        }
        pages.post("transactions/:id/category") { request, context in
            let web = try context.requireWeb()
            let id = try Query.pathID(context, "id")
            guard let category = web.form["category"] else { throw WebError.badForm("choose a category") }
            _ = try await Self.categorize(id, category, ledgers: ledgers, user: web.session.user)
            return WebPage.redirect("/transactions/\(id)")
        }
    }

    /// The CLI's `categorize` of one transaction: a batch of its own (its id returned, for undo).
    static func categorize(_ id: Int64, _ category: String, ledgers: Ledgers, user: ServerUser) async throws -> Int64 {
        try await ledgers.exclusive(user, "a category change") { store in
            do { return try await store.perform { try $0.categorize([id], .account(category)) } } catch let e as StoreError
                where !e.isNotFound
            { throw WebError.badForm(e.message) }
        }
    }

    static func date(_ text: String, _ field: String) throws -> LocalDate {
        guard let d = LocalDate(iso: text, .exact) else { throw WebError.badForm("\(field): give a date as YYYY-MM-DD") }
        return d
    }

    static func amount(_ m: Money) -> [String: Any] {
        ["amount": m.description, "sign": m.minorUnits < 0 ? "out" : "in"]
    }

    static func categoryText(_ t: LedgerTransaction) -> String {
        if let split = t.assignedCategory?.split, !split.isEmpty {
            return split.map { "\($0.account) \($0.amount.decimalString)" }.joined(separator: ", ")
        }
        return t.assignedCategory?.account ?? (t.transfer != nil ? "transfer" : "—")
    }

    static func row(_ t: LedgerTransaction) -> [String: Any] {
        var r: [String: Any] = [
            "id": t.id, "date": t.date.iso, "account": t.account, "description": t.description, "category": categoryText(t),
            "review": t.needsReview,
        ]
        r.merge(amount(t.amount)) { a, _ in a }
        return r
    }

    static func detail(_ t: LedgerTransaction, categories: [(category: String, count: Int)]) -> [String: Any] {
        var d = row(t)
        d["counterparty"] = t.counterparty ?? false
        d["note"] = t.note ?? false
        d["categorySource"] = t.assignedCategory?.source ?? "none"
        d["categoryReason"] = t.assignedCategory?.reasonText ?? "nothing applies"
        d["categoryValue"] = t.assignedCategory?.account ?? ""
        d["categoryOptions"] = categories.map { ["name": $0.category] }
        d["transfer"] = t.transfer.map { "\($0.direction) with \($0.otherAccount), transaction \($0.otherTransactionID)" } ?? false
        d["sources"] = t.sources.map { s -> [String: Any] in
            [
                "id": s.id, "kind": s.kind.rawValue, "date": s.date.iso, "amount": s.amount.description, "description": s.description,
                "counterparty": s.counterparty ?? false, "file": s.file, "line": s.line ?? false, "page": s.page ?? false,
                "state": s.state, "pending": s.pending,
            ]
        }
        d["decision"] =
            t.needsReview
            ? "Waiting for review: one of its records may belong to another transaction."
            : t.sources.count > 1
                ? "These \(t.sources.count) records were linked as one transaction."
                : "One record: nothing else matched it."
        return d
    }
}

extension ServerRequestContext {
    /// The page's session and form (every page is behind ``WebSessionMiddleware``).
    func requireWeb() throws -> WebRequest {
        guard let web else { throw WebError.forbidden("sign in first") }
        return web
    }
}
