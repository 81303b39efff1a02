import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowStore

/// The pages where a person decides: review (the CLI's `link` / `unlink`, and `transfers link`)
/// and sort (the CLI's `categorize`, one transaction at a time, with undo of the last choice).
struct WebDecisionPages {
    let ledgers: Ledgers
    /// How many of the most used categories the sort card offers as one-click choices (keys 1-9).
    static let quickChoices = 9

    func register(_ pages: RouterGroup<ServerRequestContext>) {
        pages.get("review") { _, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            let reviews = try await store.pendingReviews()
            let (_, transferReview) = try await store.transfers()
            var items: [[String: Any]] = []
            for r in reviews {
                var candidates: [[String: Any]] = []
                for c in r.candidates {
                    guard let id = c.transactionID, let t = try await store.transaction(id: id) else { continue }
                    candidates.append([
                        "transactionID": id, "date": t.date.iso, "amount": t.amount.description, "description": t.description,
                        "reasons": c.reasons.map(\.description).joined(separator: "; "),
                    ])
                }
                var item: [String: Any] = [
                    "recordID": r.recordID, "account": r.account, "date": r.record.date.iso, "description": r.record.description,
                    "file": r.record.file, "line": r.record.line ?? false, "candidates": candidates,
                ]
                item.merge(WebLedgerPages.amount(r.record.amount)) { a, _ in a }
                items.append(item)
            }
            let transfers: [[String: Any]] = transferReview.map { t in
                [
                    "out": t.out.id, "into": t.into.id, "outAccount": t.out.account, "inAccount": t.into.account, "date": t.out.date.iso,
                    "amount": t.into.amount.description, "reasons": t.reasons.map(\.description).joined(separator: "; "),
                ]
            }
            return WebPage.render("review", title: "Review", session: web.session, ["items": items, "transfers": transfers])
        }
        pages.post("review/link") { _, context in
            let web = try context.requireWeb()
            let (record, transaction) = (try Self.id(web.form, "record"), try Self.id(web.form, "transaction"))
            try await ledgers.exclusive(web.session.user, "a link") { store in
                try await store.userLink(recordID: record, transactionID: transaction)
            }
            return WebPage.redirect("/review")
        }
        pages.post("review/separate") { _, context in
            let web = try context.requireWeb()
            let record = try Self.id(web.form, "record")
            _ = try await ledgers.exclusive(web.session.user, "an unlink") { store in try await store.unlink(recordID: record) }
            return WebPage.redirect("/review")
        }
        pages.post("review/transfer") { _, context in
            let web = try context.requireWeb()
            let (out, into) = (try Self.id(web.form, "out"), try Self.id(web.form, "in"))
            try await ledgers.exclusive(web.session.user, "a transfer link") { store in try await store.linkTransfer(out, into) }
            return WebPage.redirect("/review")
        }
        pages.get("sort") { request, context in
            let web = try context.requireWeb()
            let store = try await ledgers.store(for: web.session.user)
            async let next = store.transactionsPage(matching: TransactionSearch(uncategorizedOnly: true), afterID: 0, limit: 1)
            async let usage = store.keptCategoryUsage(limit: 500)
            async let remaining = store.keptUncategorizedCount()
            let (n, u, left) = try await (next, usage, remaining)
            let undo = request.uri.queryParameters["undo"].flatMap { Int64(String($0)) }
            var card: [String: Any]? = nil
            if let t = n.first {
                var c: [String: Any] = [
                    "id": t.id, "description": t.description, "date": t.date.iso, "account": t.account, "counterparty": t.counterparty ?? false,
                    "choices": u.prefix(Self.quickChoices).enumerated().map { ["name": $1.category, "key": $0 + 1] },
                    "allCategories": u.map { ["name": $0.category] },
                ]
                c.merge(WebLedgerPages.amount(t.amount)) { a, _ in a }
                card = c
            }
            return WebPage.render(
                "sort", title: "Sort", session: web.session,
                ["card": card ?? false, "remaining": left, "undoBatch": undo.map { $0 as Any } ?? false])
        }
        pages.post("sort") { _, context in
            let web = try context.requireWeb()
            let id = try Self.id(web.form, "transaction")
            guard let category = web.form["category"] else { throw WebError.badForm("choose a category") }
            let batch = try await WebLedgerPages.categorize(id, category, ledgers: ledgers, user: web.session.user)
            return WebPage.redirect("/sort?undo=\(batch)")
        }
        pages.post("sort/undo") { _, context in
            let web = try context.requireWeb()
            let batch = try Self.id(web.form, "batch")
            _ = try await ledgers.exclusive(web.session.user, "an undo") { store in try await store.undo(batchID: batch) }
            return WebPage.redirect("/sort")
        }
    }

    static func id(_ form: WebForm, _ field: String) throws -> Int64 {
        guard let text = form[field], let id = Int64(text), id > 0 else { throw WebError.badForm("the form's \(field) is not an id") }
        return id
    }
}
