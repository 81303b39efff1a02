import Foundation
import Hummingbird
import Logging
import MoneyFlowPipeline
import MoneyFlowPlaid
import MoneyFlowStore

/// `/v1/plaid`: the app asks for a link token, hands over the public token, and reads or syncs
/// its items; the access tokens stay sealed on the server (apps never hold Plaid secrets).
/// Each call is the same PlaidService call as `moneyflow plaid ...` on the user's ledger.
struct PlaidRoutes {
    let ledgers: Ledgers
    let users: UserDirectory
    let plaid: PlaidConfiguration?
    /// The server's own syncs, whose times `GET /v1/plaid/items` adds to each item.
    let autoSync: PlaidAutoSync?

    func service(_ user: ServerUser, _ store: LedgerStore) throws -> PlaidService {
        guard let plaid else {
            throw APIError(
                .serviceUnavailable, "plaid_not_configured",
                "this server has no Plaid keys; start it with PLAID_CLIENT_ID, PLAID_SECRET and PLAID_ENV set")
        }
        return PlaidService(
            store: store, client: PlaidClient(configuration: plaid), archive: PlaidArchive(directory: users.archivePath(for: user)))
    }

    /// A sync result as an app reads it: the archive file (and the import it fed) by its name
    /// only, since the folder is the server's business; an item's error without server paths
    /// and with the API's advice, as every error reply.
    static func forClient(_ result: PlaidItemSyncResult, paths: ServerPaths) -> PlaidItemSyncResult {
        var r = result
        r.archiveFile = r.archiveFile.map { ($0 as NSString).lastPathComponent }
        r.importResult = r.importResult.map(forClient)
        r.error = r.error.map { paths.hidden(in: HTTPAdvice.rewrite($0)) }
        return r
    }

    /// A link's result the same way: the accounts import names its archive file only.
    static func forClient(_ result: PlaidLinkResult, paths: ServerPaths) -> PlaidLinkResult {
        var r = result
        r.accounts = forClient(r.accounts)
        r.retireFailures = r.retireFailures.map { paths.hidden(in: HTTPAdvice.rewrite($0)) }
        return r
    }

    /// An import Plaid's answer fed: its file by name, its warnings with the API's advice.
    static func forClient(_ result: FileImportResult) -> FileImportResult {
        var i = result
        i.fileName = (i.fileName as NSString).lastPathComponent
        i.plan.statement.warnings = HTTPAdvice.warnings(i.plan.statement.warnings)
        return i
    }

    /// `item` (the CLI's contract) plus when the server last synced it by itself and when its
    /// schedule will next (null: no schedule, or the item is not on it).
    static func withAutoSync(_ item: JSONOutput, _ record: PlaidItemRecord, user: ServerUser, _ autoSync: PlaidAutoSync?) async
        -> JSONOutput
    {
        guard case .object(var members) = item else { return item }
        let times = await autoSync?.times(of: record, user: user)
        members.append(("last_auto_sync_at", .string(times?.last.map(PlaidAutoSync.text))))
        members.append(("next_auto_sync_at", .string(times?.next.map(PlaidAutoSync.text))))
        return .object(members)
    }

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.post("plaid/link-token") { request, context in
            let user = try context.requireUser()
            try Query.none(request, context)
            let body = try await JSONBody.decode(LinkTokenBody.self, request, context)
            let days = body.days ?? PlaidService.defaultDays
            guard (1...730).contains(days) else { throw APIError.badRequest("days must be 1-730") }
            let item = body.itemID
            let redirect = body.redirectURI
            let store = try await ledgers.store(for: user)
            let service = try service(user, store)
            let token = try await ClientDeparture.cancelling(on: context.channel) {
                try await service.createLinkToken(days: days, redirectURI: redirect, update: item)
            }
            return JSONResponse.make(.object([("link_token", .string(token)), ("expiration", .null)]))
        }
        v1.post("plaid/exchange") { request, context in
            let user = try context.requireUser()
            try Query.none(request, context)
            let publicToken = try await JSONBody.decode(ExchangeBody.self, request, context).publicToken
            let result = try await ledgers.exclusive(user, "a Plaid link") { store in
                let linked = try await service(user, store).finishLink(publicToken: publicToken)
                try await users.setItemOwner(itemID: linked.itemID, user: user)
                return linked
            }
            return JSONResponse.make(PlaidContracts.link(Self.forClient(result, paths: ServerPaths(dataDirectory: users.dataDirectory))))
        }
        v1.get("plaid/items") { request, context in
            try Query.none(request, context)
            let user = try context.requireUser()
            let store = try await ledgers.store(for: user)
            let service = try service(user, store)
            let infos = try await ClientDeparture.cancelling(on: context.channel) { try await service.items(askPlaid: true) }
            let paths = ServerPaths(dataDirectory: users.dataDirectory)
            var items: [JSONOutput] = []
            for var info in infos {
                info.statusError = info.statusError.map { paths.hidden(in: HTTPAdvice.rewrite($0)) }
                items.append(await Self.withAutoSync(PlaidContracts.item(info), info.item, user: user, autoSync))
            }
            return JSONResponse.make(.object([("items", .array(items))]))
        }
        v1.post("plaid/sync") { request, context in
            let user = try context.requireUser()
            try Query.none(request, context)
            let body = try await JSONBody.decode(SyncBody.self, request, context)
            let items = body.items ?? []
            let refresh = body.refresh ?? false
            // A client that leaves cancels its sync (nothing is applied before the whole update
            // is in); the exchange above is never cancelled: Plaid's item would be lost.
            let results = try await ClientDeparture.cancelling(on: context.channel) {
                try await ledgers.exclusive(user, "a Plaid sync") { store in
                    try await service(user, store).sync(itemIDs: items, refresh: refresh)
                }
            }
            let paths = ServerPaths(dataDirectory: users.dataDirectory)
            return JSONResponse.make(PlaidContracts.sync(results.map { Self.forClient($0, paths: paths) }))
        }
    }
}

/// `POST /v1/plaid/link-token`: all optional (an empty body links a new item).
struct LinkTokenBody: RequestBody {
    var days: Int?
    var itemID: String?
    var redirectURI: String?
    enum CodingKeys: String, CodingKey, CaseIterable {
        case days
        case itemID = "item_id"
        case redirectURI = "redirect_uri"
    }
    static let shape = #"send {"days": <1-730>, "item_id": "<item to update>", "redirect_uri": "<your app's URI>"}, each optional"#
    static var empty: LinkTokenBody? { LinkTokenBody() }
}

/// `POST /v1/plaid/exchange`: the public token Plaid Link's onSuccess handed over.
struct ExchangeBody: RequestBody {
    var publicToken: String
    enum CodingKeys: String, CodingKey, CaseIterable { case publicToken = "public_token" }
    static let shape = #"send {"public_token": "public-..."} from Plaid Link's onSuccess"#
    func validate() throws {
        if publicToken.isEmpty { throw APIError.badRequest(Self.shape) }
    }
}

/// `POST /v1/plaid/sync`: which items (none: all) and whether to ask Plaid to refresh first.
struct SyncBody: RequestBody {
    var items: [String]?
    var refresh: Bool?
    enum CodingKeys: String, CodingKey, CaseIterable { case items, refresh }
    static let shape = #"send {"items": ["<item id>", ...], "refresh": true|false}, each optional"#
    static var empty: SyncBody? { SyncBody() }
}
