import Foundation
import GRDB

/// A linked Plaid item as the store keeps it. The access token is only ever here sealed
/// (AES-GCM bytes from the Plaid module's vault), with the id of the key that sealed it.
public struct PlaidItemRecord: Sendable, Hashable, Codable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        /// Syncs normally.
        case active
        /// Plaid needs the user (ITEM_LOGIN_REQUIRED and kin): `plaid link --update`.
        case needsUser = "needs_user"
        /// The last sync failed for another reason; the next sync tries again.
        case error
        /// Removed at Plaid by `plaid remove`; its transactions stay.
        case removed
        /// Replaced by a new item for the same bank (re-link) and removed at Plaid.
        case retired
    }
    public var itemID: String
    public var institutionID: String?
    public var institutionName: String?
    public var sealedToken: Data?
    public var keyID: String?
    public var status: Status
    public var errorCode: String?
    public var errorMessage: String?
    public var linkedAt: String
    /// When MoneyFlow last tried to sync it, and last applied a complete update.
    public var lastSyncAt: String?
    public var lastSuccessAt: String?
    /// Plaid's own `status.transactions.last_successful_update` (when Plaid last reached the bank).
    public var plaidLastUpdate: String?
    public var replacedBy: String?
    /// Plaid account ids of the item (what `/accounts/get` listed at link or update time).
    public var accountIDs: [String] = []

    public init(
        itemID: String, institutionID: String?, institutionName: String?, sealedToken: Data?, keyID: String?,
        status: Status = .active, linkedAt: String
    ) {
        self.itemID = itemID; self.institutionID = institutionID; self.institutionName = institutionName
        self.sealedToken = sealedToken; self.keyID = keyID; self.status = status; self.linkedAt = linkedAt
    }

    /// True while it can be synced (it has a token and was not removed or replaced).
    public var isLinked: Bool { sealedToken != nil && status != .removed && status != .retired }
}

enum PlaidItemTable {
    static func create(_ db: Database) throws {
        try db.execute(
            sql: """
                CREATE TABLE plaid_item (
                  item_id TEXT PRIMARY KEY,
                  institution_id TEXT, institution_name TEXT,
                  sealed_token BLOB, key_id TEXT,
                  status TEXT NOT NULL DEFAULT 'active'
                    CHECK (status IN ('active','needs_user','error','removed','retired')),
                  error_code TEXT, error_message TEXT,
                  linked_at TEXT NOT NULL,
                  last_sync_at TEXT, last_success_at TEXT, plaid_last_update TEXT,
                  replaced_by TEXT,
                  account_ids TEXT NOT NULL DEFAULT '[]')
                """)
    }

    static func record(_ r: Row) -> PlaidItemRecord {
        var item = PlaidItemRecord(
            itemID: r["item_id"], institutionID: r["institution_id"], institutionName: r["institution_name"],
            sealedToken: r["sealed_token"], keyID: r["key_id"],
            status: PlaidItemRecord.Status(rawValue: r["status"]) ?? .error, linkedAt: r["linked_at"])
        item.errorCode = r["error_code"]; item.errorMessage = r["error_message"]
        item.lastSyncAt = r["last_sync_at"]; item.lastSuccessAt = r["last_success_at"]
        item.plaidLastUpdate = r["plaid_last_update"]; item.replacedBy = r["replaced_by"]
        let ids: String = r["account_ids"]
        item.accountIDs = (try? JSONDecoder().decode([String].self, from: Data(ids.utf8))) ?? []
        return item
    }
}

extension LedgerStore {
    /// Every item ever linked, oldest first (removed and retired ones too: `plaid items` shows them).
    public func plaidItems() throws -> [PlaidItemRecord] {
        try read { db in try Row.fetchAll(db, sql: "SELECT * FROM plaid_item ORDER BY linked_at, item_id").map(PlaidItemTable.record) }
    }

    public func plaidItem(_ itemID: String) throws -> PlaidItemRecord? {
        try read { db in
            try Row.fetchOne(db, sql: "SELECT * FROM plaid_item WHERE item_id = ?", arguments: [itemID]).map(PlaidItemTable.record)
        }
    }

    /// The key id that sealed this store's tokens (nil before the first link).
    public func plaidTokenKeyID() throws -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT key_id FROM plaid_item WHERE sealed_token IS NOT NULL LIMIT 1") }
    }

    /// Inserts or replaces an item row.
    public func savePlaidItem(_ item: PlaidItemRecord) throws {
        try write { db in
            try db.execute(
                sql: """
                    INSERT INTO plaid_item(item_id, institution_id, institution_name, sealed_token, key_id, status, error_code,
                      error_message, linked_at, last_sync_at, last_success_at, plaid_last_update, replaced_by, account_ids)
                    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    ON CONFLICT(item_id) DO UPDATE SET institution_id = excluded.institution_id,
                      institution_name = excluded.institution_name, sealed_token = excluded.sealed_token, key_id = excluded.key_id,
                      status = excluded.status, error_code = excluded.error_code, error_message = excluded.error_message,
                      last_sync_at = excluded.last_sync_at, last_success_at = excluded.last_success_at,
                      plaid_last_update = excluded.plaid_last_update, replaced_by = excluded.replaced_by,
                      account_ids = excluded.account_ids
                    """,
                arguments: [
                    item.itemID, item.institutionID, item.institutionName, item.sealedToken, item.keyID, item.status.rawValue,
                    item.errorCode, item.errorMessage, item.linkedAt, item.lastSyncAt, item.lastSuccessAt, item.plaidLastUpdate,
                    item.replacedBy, String(decoding: try JSONEncoder().encode(item.accountIDs), as: UTF8.self),
                ])
        }
    }

    /// Records the outcome of a sync attempt (status, error, times) without touching the token.
    public func notePlaidSync(
        itemID: String, status: PlaidItemRecord.Status, errorCode: String?, errorMessage: String?, at: String, succeeded: Bool,
        plaidLastUpdate: String?
    ) throws {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE plaid_item SET status = ?, error_code = ?, error_message = ?, last_sync_at = ?,
                      last_success_at = CASE WHEN ? THEN ? ELSE last_success_at END,
                      plaid_last_update = coalesce(?, plaid_last_update)
                    WHERE item_id = ?
                    """, arguments: [status.rawValue, errorCode, errorMessage, at, succeeded, at, plaidLastUpdate, itemID])
        }
    }

    /// Forgets an item's token (removed at Plaid, or replaced by a re-link); its transactions stay.
    public func unlinkPlaidItem(_ itemID: String, status: PlaidItemRecord.Status, replacedBy: String? = nil) throws {
        try write { db in
            try db.execute(
                sql: "UPDATE plaid_item SET sealed_token = NULL, status = ?, replaced_by = ? WHERE item_id = ?",
                arguments: [status.rawValue, replacedBy, itemID])
        }
    }

    /// The Plaid account ids (`plaid:<account_id>` keys) that sit on each store account, with the account names.
    public func plaidAccountKeys() throws -> [(key: String, account: String)] {
        try read { db in
            try Row.fetchAll(
                db,
                sql:
                    "SELECT k.key, a.name FROM account_key k JOIN account a ON a.id = k.account_id WHERE k.key LIKE 'plaid:%' ORDER BY k.key"
            ).map { ($0["key"], $0["name"]) }
        }
    }
}

extension LedgerStore {
    /// Records what `/item/get` said (status, error, Plaid's last successful update).
    public func notePlaidFreshness(
        itemID: String, status: PlaidItemRecord.Status, errorCode: String?, errorMessage: String?, plaidLastUpdate: String?
    ) throws {
        try write { db in
            try db.execute(
                sql: """
                    UPDATE plaid_item SET status = ?, error_code = ?, error_message = ?, plaid_last_update = coalesce(?, plaid_last_update)
                    WHERE item_id = ? AND status NOT IN ('removed', 'retired')
                    """, arguments: [status.rawValue, errorCode, errorMessage, plaidLastUpdate, itemID])
        }
    }
}
