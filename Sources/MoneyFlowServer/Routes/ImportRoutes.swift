import Foundation
import HTTPTypes
import Hummingbird
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowStore

/// `POST /v1/imports`: the file is the body; the same ImportService call and `import --json`
/// object as `moneyflow import FILE --json`.
struct ImportRoutes {
    let ledgers: Ledgers
    let users: UserDirectory
    let maxBodyBytes: Int

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.post("imports") { request, context in
            let user = try context.requireUser()
            let q = FormQuery(request)
            guard let name = q.get("filename"), !name.isEmpty, name.count <= 255, !name.contains("/"), name != ".", name != ".." else {
                throw APIError.badRequest("filename is required: the uploaded file's name (no folders), e.g. ?filename=chase.csv")
            }
            var options = FileImportOptions(dryRun: try Query.bool(q, "dry_run"))
            if let account = q.get("account"), !account.isEmpty { options.accountName = account }
            // `--new-account`: create `account` even when it is one or two edits from an existing name.
            options.newAccount = try Query.bool(q, "new_account")
            if options.newAccount && options.accountName == nil {
                throw APIError.badRequest("new_account=true goes with account=NAME")
            }
            if let profile = q.get("csv_profile"), !profile.isEmpty {
                let own = UserProfiles(users: users, user: user)
                options.csvProfiles = try await users.perform { _ in try ProfileRoutes.resolve(profile, own: own) }
            }
            // The ZIP password comes in a header (never a query string: those end up in logs).
            if let password = request.headers[HTTPField.Name("X-MoneyFlow-Password")!] {
                options.password = { _ in password }
            }
            let importOptions = options
            var request = request
            let body = try await request.collectBody(upTo: maxBodyBytes)
            if body.readableBytes == 0 { throw APIError.badRequest("the request body is empty: send the file's bytes") }
            let uploads = (users.ledgerPath(for: user) as NSString).deletingLastPathComponent + "/uploads"
            var result = try await ledgers.exclusive(user, "an import") { store in
                try await store.perform { store in
                    try FileManager.default.createDirectory(
                        atPath: uploads, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                    let path = uploads + "/\(UUID().uuidString)"
                    guard
                        FileManager.default.createFile(
                            atPath: path, contents: Data(body.readableBytesView), attributes: [.posixPermissions: 0o600])
                    else { throw APIError(.internalServerError, "internal", "cannot keep the upload") }
                    defer { try? FileManager.default.removeItem(atPath: path) }
                    return try ImportService(store: store).importFile(path: path, displayName: name, options: importOptions)
                }
            }
            result.plan.statement.warnings = HTTPAdvice.warnings(result.plan.statement.warnings)
            return JSONResponse.make(Contracts.importResult(result, includePlan: options.dryRun))
        }
    }
}
