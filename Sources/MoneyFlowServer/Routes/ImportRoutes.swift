import Foundation
import HTTPTypes
import Hummingbird
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline
import MoneyFlowStore

/// `POST /v1/imports`: the file is the body, imported from memory by the same batch code
/// (``BatchRunner``) and answered with the same `import --json` object as `moneyflow import FILE --json`.
struct ImportRoutes {
    let ledgers: Ledgers
    let users: UserDirectory
    let maxBodyBytes: Int

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.post("imports") { request, context in
            let user = try context.requireUser()
            let q = try Query.decode(ImportQuery.self, request, context)
            guard let name = q.filename, !name.isEmpty, name.count <= 255, !name.contains("/"), name != ".", name != ".." else {
                throw APIError.badRequest("filename is required: the uploaded file's name (no folders), e.g. ?filename=chase.csv")
            }
            var options = FileImportOptions(dryRun: q.dryRun?.value ?? false)
            if let account = q.account, !account.isEmpty { options.accountName = account }
            // `--new-account`: create `account` even when it is one or two edits from an existing name.
            options.newAccount = q.newAccount?.value ?? false
            if options.newAccount && options.accountName == nil {
                throw APIError.badRequest("new_account=true goes with account=NAME")
            }
            if let profile = q.csvProfile, !profile.isEmpty {
                let own = UserProfiles(users: users, user: user)
                options.csvProfiles = try await users.perform { _ in try ProfileRoutes.resolve(profile, own: own) }
            }
            // The ZIP password comes in a header (never a query string: those end up in logs).
            if let password = request.headers[HTTPField.Name("X-MoneyFlow-Password")!] {
                options.password = { _ in password }
            }
            let importOptions = options
            // Decided from the headers, before a byte of the file is read: too large is 413,
            // another writing job of this user is 409 (one upload's bytes in memory per user).
            try BodyCap.check(request, upTo: maxBodyBytes)
            let maxBodyBytes = self.maxBodyBytes
            var result = try await ledgers.exclusive(user, "an import") { store in
                // The bytes come at the client's pace: no turn is held while they arrive. They
                // are kept once, as Data (the request's buffer is let go as soon as it is copied).
                let bytes = try await context.outsideTurn {
                    var request = request
                    return Data(try await request.collectBody(upTo: maxBodyBytes).readableBytesView)
                }
                if bytes.isEmpty { throw APIError.badRequest("the request body is empty: send the file's bytes") }
                // The upload stays in memory: the CLI's batch code reads it as one file's bytes.
                let upload = BatchItem(.bytes(bytes, name: name), options: importOptions)
                return try await store.perform { store in
                    try BatchRunner(service: ImportService(store: store)).run(items: [upload])[0].imported()
                }
            }
            result.plan.statement.warnings = HTTPAdvice.warnings(result.plan.statement.warnings)
            return JSONResponse.make(Contracts.importResult(result, includePlan: options.dryRun))
        }
    }
}

/// `POST /v1/imports`'s query (the file itself is the body).
struct ImportQuery: QueryParameters {
    var filename: String?
    var account: String?
    var newAccount: QueryBool?
    var csvProfile: String?
    var dryRun: QueryBool?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case filename, account
        case newAccount = "new_account"
        case csvProfile = "csv_profile"
        case dryRun = "dry_run"
    }
}
