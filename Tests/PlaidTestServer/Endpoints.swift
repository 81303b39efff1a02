import Foundation

/// The endpoints, each run under the state lock on a body that already passed the
/// header, credential and schema checks. They answer the response members (the pipeline adds
/// `request_id`) or a Plaid error. Rules that the schema cannot express are checked here, each
/// as Plaid documents it.
enum Endpoints {
    struct Answer {
        var members: [String: PlaidJSON]
        /// Work to run after the response is built, outside the lock (a test's mutation).
        var after: ServerChange? = nil
    }

    /// Endpoints that answer with an item error while the item has one (`setItemError`).
    static let dataPaths: Set<String> = ["/accounts/get", "/transactions/sync", "/transactions/refresh"]

    static func handle(_ path: String, _ body: PlaidJSON, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        switch path {
        case "/link/token/create": return try linkTokenCreate(body, s)
        case "/sandbox/public_token/create": return try sandboxPublicTokenCreate(body, s)
        case "/item/public_token/exchange": return try exchange(body, s)
        case "/webhook_verification_key/get": return try webhookVerificationKey(body, s)
        default: break
        }
        // Every other endpoint works on an item.
        var item = try s.item(forToken: body["access_token"]?.stringValue ?? "")
        if let failure = s.takeFailure(path: path, itemID: item.itemID) { throw failure }
        if let limited = s.rateLimiter.admit(path: path, itemID: item.itemID) { throw limited }
        if dataPaths.contains(path), let code = item.errorCode { throw .item(code) }
        let bank = s.banks[item.institutionID]!
        defer { s.items[item.itemID] = item }
        switch path {
        case "/accounts/get":
            let ids = body["options"]?["account_ids"]?.arrayValue.map { Set($0.compactMap(\.stringValue)) }
            if let ids, let unknown = ids.first(where: { !item.accountIDs.values.contains($0) }) {
                throw .invalidField("options.account_ids contains an unknown account_id: \(unknown)")
            }
            return Answer(members: [
                "accounts": ResponseShapes.accounts(item, bank, only: ids), "item": ResponseShapes.item(item, bank),
            ])
        case "/transactions/sync":
            return try sync(body, &item, bank, s)
        case "/transactions/refresh":
            item.lastSuccessfulUpdate = Date()
            return Answer(members: [:])
        case "/item/get":
            return Answer(members: ["item": ResponseShapes.item(item, bank), "status": ResponseShapes.itemStatus(item)])
        case "/item/remove":
            item.removed = true
            return Answer(members: [:])
        default:
            throw .notFound(path)
        }
    }

    private static func linkTokenCreate(_ body: PlaidJSON, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        // The spec makes `user` optional only because `user_id` can replace it.
        if body["user"] == nil && body["user_id"] == nil { throw .missingFields(["user"]) }
        let products = body["products"]?.arrayValue ?? []
        var updateItemID: String?
        if let token = body["access_token"]?.stringValue {
            // Update mode: the item is re-authenticated; products must not be given.
            updateItemID = try s.item(forToken: token).itemID
            guard products.isEmpty else { throw .invalidField("products must be omitted in update mode (access_token given)") }
        } else if products.isEmpty {
            throw .invalidField("products must contain at least one product when not in update mode")
        }
        if let redirect = body["redirect_uri"]?.stringValue {
            guard !redirect.contains("?"), redirect.hasPrefix("https://") || redirect.hasPrefix("http://localhost")
            else { throw .invalidField("redirect_uri must be https (or http://localhost in Sandbox) without a query string") }
        }
        let token = Identifiers.linkToken()
        s.linkTokens[token] = LinkGrant(
            updateItemID: updateItemID,
            accountSelectionEnabled: body["update"]?["account_selection_enabled"]?.boolValue ?? false,
            daysRequested: body["transactions"]?["days_requested"]?.intValue ?? 90,
            webhook: body["webhook"]?.stringValue)
        // A new-item link token lives 4 hours, an update-mode one 30 minutes.
        let lifetime: TimeInterval = updateItemID == nil ? 4 * 3600 : 30 * 60
        return Answer(members: [
            "link_token": .string(token), "expiration": .string(Identifiers.timestamp(Date().addingTimeInterval(lifetime))),
        ])
    }

    private static func sandboxPublicTokenCreate(_ body: PlaidJSON, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        let institutionID = body["institution_id"]?.stringValue ?? ""
        guard s.banks[institutionID] != nil else { throw .invalidInstitution(institutionID) }
        let options = body["options"]
        let token = Identifiers.publicToken()
        s.publicTokens[token] = PublicGrant(
            institutionID: institutionID,
            daysRequested: options?["transactions"]?["days_requested"]?.intValue ?? 90,
            webhook: options?["webhook"]?.stringValue)
        return Answer(members: ["public_token": .string(token)])
    }

    private static func exchange(_ body: PlaidJSON, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        let token = body["public_token"]?.stringValue ?? ""
        guard token.hasPrefix("public-sandbox-"), var grant = s.publicTokens[token] else {
            throw .invalidPublicToken("provided public token is in an invalid format. expected format: public-<environment>-<identifier>")
        }
        guard !grant.used else { throw .invalidPublicToken("provided public token has already been exchanged") }
        grant.used = true
        s.publicTokens[token] = grant
        let item = s.createItem(institutionID: grant.institutionID, daysRequested: grant.daysRequested, webhook: grant.webhook)
        return Answer(members: ["access_token": .string(item.accessToken), "item_id": .string(item.itemID)])
    }

    /// The public key a webhook's `kid` names, expired ones included (with `expired_at` set).
    private static func webhookVerificationKey(_ body: PlaidJSON, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        let kid = body["key_id"]?.stringValue ?? ""
        guard let key = s.webhookKeys.jwk(kid) else { throw .invalidField("key_id \(kid) does not name a webhook verification key") }
        return Answer(members: ["key": key])
    }

    private static func sync(_ body: PlaidJSON, _ item: inout ItemRecord, _ bank: Bank, _ s: ServerState) throws(PlaidAPIError) -> Answer {
        let cursorText = body["cursor"]?.stringValue ?? ""
        // The spec states the bound in prose, so the extracted schema cannot carry it.
        guard cursorText.count <= 256 else { throw .invalidField("cursor must be at most 256 characters") }
        if body["options"]?["account_id"] != nil {
            throw .invalidField("options.account_id (per-account cursors) is not supported by the test server")
        }
        let accounts = ResponseShapes.accounts(item, bank)
        if item.notReadyRequests > 0 {
            // Right after linking Plaid has nothing yet: empty lists and the cursor unchanged.
            item.notReadyRequests -= 1
            return Answer(members: [
                "added": .array([]), "modified": .array([]), "removed": .array([]), "accounts": accounts,
                "next_cursor": .string(cursorText), "has_more": .bool(false),
                "transactions_update_status": .string("NOT_READY"),
            ])
        }
        guard let cursor = SyncCursor(cursorText, itemID: item.itemID, head: bank.head) else {
            throw .invalidField("cursor is not a valid cursor for this item")
        }
        let page = try TransactionSync.page(item: item, bank: bank, cursor: cursor, count: body["count"]?.intValue ?? 100)
        let originals = body["options"]?["include_original_description"]?.boolValue ?? false
        var added: [PlaidJSON] = [], modified: [PlaidJSON] = [], removed: [PlaidJSON] = []
        for t in page.added { added.append(ResponseShapes.transaction(t, item: &item, bank: bank, originalDescription: originals)) }
        for t in page.modified { modified.append(ResponseShapes.transaction(t, item: &item, bank: bank, originalDescription: originals)) }
        for t in page.removed {
            removed.append(
                .object([
                    "transaction_id": .string(item.transactionID(t.bankID)), "account_id": .string(item.accountIDs[t.account] ?? ""),
                ]))
        }
        return Answer(
            members: [
                "added": .array(added), "modified": .array(modified), "removed": .array(removed), "accounts": accounts,
                "next_cursor": .string(page.next.encoded(itemID: item.itemID)), "has_more": .bool(page.hasMore),
                "transactions_update_status": .string("HISTORICAL_UPDATE_COMPLETE"),
            ],
            after: page.firstOfSeveral ? s.pendingMutations.removeValue(forKey: item.itemID) : nil)
    }
}
