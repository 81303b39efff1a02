import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowPipeline
import MoneyFlowStore

/// The import page: upload a statement (the same in-memory import as `POST /v1/imports`,
/// so the same batch and the same answer as `moneyflow import FILE`), its summary, and the
/// batches with undo (the CLI's `undo BATCH`).
struct WebImportPages {
    let ledgers: Ledgers

    func register(_ pages: RouterGroup<ServerRequestContext>) {
        pages.get("import") { _, context in
            let web = try context.requireWeb()
            return try await page(web, result: nil, notice: nil)
        }
        pages.post("import") { _, context in
            let web = try context.requireWeb()
            guard let file = web.form.file, !file.data.isEmpty else { throw WebError.badForm("choose a statement file to import") }
            let name = (file.name as NSString).lastPathComponent
            guard !name.isEmpty, name.count <= 255, name != ".", name != ".." else { throw WebError.badForm("the file needs a name") }
            var options = FileImportOptions(dryRun: false)
            if let account = web.form["account"] { options.accountName = account }
            if let password = web.form.fields["password"], !password.isEmpty { options.password = { _ in password } }
            let upload = BatchItem(.bytes(file.data, name: name), options: options)
            var result = try await ledgers.exclusive(web.session.user, "an import") { store in
                try await store.perform { store in try BatchRunner(service: ImportService(store: store)).run(items: [upload])[0].imported() }
            }
            result.plan.statement.warnings = HTTPAdvice.warnings(result.plan.statement.warnings)
            let c = result.plan.counts
            let summary: [String: Any] = [
                "file": name, "new": c.new, "present": c.alreadyPresent, "linked": c.linked, "review": c.needsReview,
                "warnings": result.plan.statement.warnings.map(\.description), "batch": result.batchID.map { $0 as Any } ?? false,
            ]
            return try await page(web, result: summary, notice: nil)
        }
        pages.post("batches/:id/undo") { _, context in
            let web = try context.requireWeb()
            let id = try Query.pathID(context, "id")
            let r = try await ledgers.exclusive(web.session.user, "an undo") { store in try await store.undo(batchID: id) }
            return try await page(
                web, result: nil, notice: "batch \(id) undone: \(r.recordsRemoved) records removed, \(r.transactionsRemoved) transactions removed")
        }
    }

    private func page(_ web: WebRequest, result: [String: Any]?, notice: String?) async throws -> Response {
        let store = try await ledgers.store(for: web.session.user)
        async let accounts = store.accounts()
        async let batches = store.batches()
        let (a, b) = try await (accounts, batches)
        var values: [String: Any] = [
            "accounts": a.map { ["name": $0.name] },
            "batches": b.reversed().map { ["id": $0.id, "file": $0.fileName, "importedAt": $0.importedAt, "new": $0.counts.new, "undone": $0.undoneAt != nil] },
            "result": result ?? false,
        ]
        if let notice { values["notice"] = notice }
        return WebPage.render("import", title: "Import a statement", session: web.session, values)
    }
}
