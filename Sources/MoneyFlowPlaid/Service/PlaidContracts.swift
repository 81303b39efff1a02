import Foundation
import MoneyFlowPipeline

/// The JSON objects of `plaid link/sync/items` (CLI `--json`) and of the server's `/v1/plaid`
/// routes: one place, so both stay the same contract (README "plaid").
public enum PlaidContracts {
    public static func link(
        itemID: String, institution: String?, accounts: FileImportResult, retired: [String], failed: [String]
    ) -> JSONOutput {
        .object([
            ("item_id", .string(itemID)), ("institution", .string(institution)),
            ("accounts", .array(accounts.plan.accounts.map { .string($0.name) })),
            ("retired_items", .array(retired.map { .string($0) })),
            ("retire_failed", .array(failed.map { .string($0) })),
            ("import", Contracts.importResult(accounts, includePlan: false)),
        ])
    }

    public static func link(_ r: PlaidLinkResult) -> JSONOutput {
        link(itemID: r.itemID, institution: r.institution, accounts: r.accounts, retired: r.retiredItems, failed: r.retireFailures)
    }

    public static func syncResult(_ r: PlaidItemSyncResult) -> JSONOutput {
        .object([
            ("item_id", .string(r.itemID)), ("institution", .string(r.institution)), ("outcome", .string(r.outcome.rawValue)),
            ("changes", .int(r.changes)), ("restarts", .int(r.restarts)), ("update_status", .string(r.updateStatus)),
            ("archive_file", .string(r.archiveFile)),
            ("import", r.importResult.map { Contracts.importResult($0, includePlan: false) } ?? .null),
            ("error", r.errorCode == nil ? .null : .object([("code", .string(r.errorCode)), ("message", .string(r.error))])),
        ])
    }

    public static func sync(_ results: [PlaidItemSyncResult]) -> JSONOutput {
        .object([("items", .array(results.map(syncResult)))])
    }

    public static func item(_ i: PlaidService.ItemInfo) -> JSONOutput {
        .object([
            ("item_id", .string(i.item.itemID)), ("institution", .string(i.item.institutionName ?? i.item.institutionID)),
            ("institution_id", .string(i.item.institutionID)),
            ("accounts", .array(i.accounts.map { .string($0) })), ("status", .string(i.item.status.rawValue)),
            ("linked_at", .string(i.item.linkedAt)), ("last_sync_at", .string(i.item.lastSyncAt)),
            ("last_success_at", .string(i.item.lastSuccessAt)),
            ("plaid_last_successful_update", .string(i.item.plaidLastUpdate)),
            ("error_code", .string(i.item.errorCode)), ("replaced_by", .string(i.item.replacedBy)),
            ("status_error", .string(i.statusError)),
        ])
    }

    public static func items(_ infos: [PlaidService.ItemInfo]) -> JSONOutput {
        .object([("items", .array(infos.map(item)))])
    }
}
