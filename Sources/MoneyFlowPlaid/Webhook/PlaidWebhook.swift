import Foundation

/// A verified webhook body: what happened (`webhook_type` / `webhook_code`) to which item.
/// Only the members MoneyFlow acts on are read; Plaid adds members and codes freely.
public struct PlaidWebhook: Sendable, Equatable {
    public var webhookType: String
    public var webhookCode: String
    public var itemID: String?
    /// `error.error_code` / `error.error_type` of an `ITEM` / `ERROR` webhook.
    public var errorCode: String?
    public var errorType: String?
    /// `sandbox` or `production`.
    public var environment: String?

    public init(
        webhookType: String, webhookCode: String, itemID: String? = nil, errorCode: String? = nil, errorType: String? = nil,
        environment: String? = nil
    ) {
        self.webhookType = webhookType; self.webhookCode = webhookCode; self.itemID = itemID
        self.errorCode = errorCode; self.errorType = errorType; self.environment = environment
    }

    /// New transactions wait at Plaid: run `/transactions/sync` for the item.
    /// `SYNC_UPDATES_AVAILABLE` is what sync-based items get; items made for `/transactions/get`
    /// still send the older `INITIAL_UPDATE` / `HISTORICAL_UPDATE` / `DEFAULT_UPDATE`, and a sync
    /// answers those too.
    public var startsSync: Bool {
        webhookType == "TRANSACTIONS"
            && ["SYNC_UPDATES_AVAILABLE", "DEFAULT_UPDATE", "INITIAL_UPDATE", "HISTORICAL_UPDATE"].contains(webhookCode)
    }

    /// The item cannot (or soon will not) sync until its user goes through Link update mode or
    /// links again: an item error that needs the user (classified as the API's errors are, by
    /// `PlaidAPIError.handling`), consent about to expire, or access revoked.
    public var itemNeedsUser: Bool {
        guard webhookType == "ITEM" else { return false }
        switch webhookCode {
        case "PENDING_EXPIRATION", "PENDING_DISCONNECT", "USER_PERMISSION_REVOKED", "USER_ACCOUNT_REVOKED": return true
        case "ERROR":
            guard let errorCode else { return false }
            let error = PlaidAPIError(
                httpStatus: 400, errorType: errorType ?? "ITEM_ERROR", errorCode: errorCode, errorMessage: "", path: "webhook")
            return error.handling == .itemNeedsUser || error.handling == .itemGone
        default: return false
        }
    }

    /// Reads the body of a webhook whose signature and digest were checked already.
    static func decode(_ body: Data) throws -> PlaidWebhook {
        struct Wire: Decodable {
            struct ErrorBody: Decodable {
                var error_code: String?
                var error_type: String?
            }
            var webhook_type: String
            var webhook_code: String
            var item_id: String?
            var error: ErrorBody?
            var environment: String?
        }
        let wire: Wire
        do { wire = try JSONDecoder().decode(Wire.self, from: body) } catch {
            throw PlaidWebhookError(.notJSON, "the body is not a Plaid webhook (\(PlaidClient.describe(error)))")
        }
        return PlaidWebhook(
            webhookType: wire.webhook_type, webhookCode: wire.webhook_code, itemID: wire.item_id,
            errorCode: wire.error?.error_code, errorType: wire.error?.error_type, environment: wire.environment)
    }
}
