import Foundation
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowStore

/// The JSON objects the CLI prints and the server answers with, each shaped once here so the
/// two shells cannot drift (an import's objects: Contracts+Import.swift).
public enum Contracts {
    /// `transactions --format json`: see README "JSON contracts".
    public static func transactions(_ txs: [LedgerTransaction], includeState: Bool = false) -> JSONOutput {
        .array(txs.map { transaction($0, includeState: includeState) })
    }

    /// One element of `transactions --format json` (also written one at a time when streaming).
    public static func transaction(_ t: LedgerTransaction, includeState: Bool = false) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("id", .int(t.id)),
            ("account", .string(t.account)),
            ("date", .string(t.date.iso)),
            ("amount", .string(t.amount.decimalString)),
            ("currency", .string(t.amount.currency)),
            ("description", .string(t.description)),
            ("counterparty", .string(t.counterparty)),
            ("note", .string(t.note)),
            ("balance", .string(t.balance?.decimalString)),
            ("pending", .bool(t.pending)),
        ]
        if includeState {
            fields.append(("status", .string(t.status)))
            fields.append(("category", .string(t.category)))
        }
        fields.append(
            (
                "sources",
                .array(
                    t.sources.map { s in
                        var f: [(String, JSONOutput)] = [
                            ("id", .int(s.id)), ("kind", .string(s.kind.rawValue)), ("external_id", .string(s.externalID)),
                            ("file", .string(s.file)), ("line", .int(s.line)), ("page", .int(s.page)), ("row", .int(s.row)),
                        ]
                        if includeState { f.append(("state", .string(s.state))) }
                        return .object(f)
                    })
            ))
        // The computed category (#27): `category` is the ledger account (null: nothing applies);
        // with `--all` the existing `category` key keeps the provider's word (a contract), and
        // the account is `category_account`. `category_reason` is its `kind` word and
        // its `text` line.
        let c = t.assignedCategory
        fields.append((includeState ? "category_account" : "category", .string(c?.account)))
        fields.append(("category_source", .string(c?.source ?? "none")))
        fields.append(("category_reason", categoryReason(c)))
        if let c, !c.split.isEmpty {
            fields.append(
                (
                    "category_split",
                    .array(c.split.map { .object([("account", .string($0.account)), ("amount", .string($0.amount.decimalString))]) })
                ))
        }
        // Only on transfer legs, so every other transaction reads as before.
        if let link = t.transfer { fields.append(("transfer", transferLink(link))) }
        if !t.transferCandidates.isEmpty { fields.append(("transfer_candidates", .array(t.transferCandidates.map(transferLink)))) }
        return .object(fields)
    }

    /// `category_reason`: `{"kind": "rule", "text": "rule 1 \"rent\""}` (kinds: README "JSON contracts").
    static func categoryReason(_ c: TransactionCategory?) -> JSONOutput {
        .object([("kind", .string(c?.reasonKind ?? "nothing-applies")), ("text", .string(c?.reasonText ?? "not categorised yet"))])
    }

    /// One element of `transfers --format json`: both legs, who decided, and why. For a dry
    /// run (`rehearsedNew` given) each leg also says whether only the rehearsal created it
    /// (`new`): such a leg has no id (`null`) and names its record's file and line instead.
    public static func transfer(_ t: LedgerTransfer, rehearsedNew: Set<Int64>? = nil) -> JSONOutput {
        func leg(_ x: LedgerTransaction) -> JSONOutput {
            let isNew = rehearsedNew?.contains(x.id) ?? false
            var f: [(String, JSONOutput)] = [
                ("id", isNew ? .null : .int(x.id)), ("account", .string(x.account)), ("date", .string(x.date.iso)),
                ("amount", .string(x.amount.decimalString)), ("currency", .string(x.amount.currency)),
                ("description", .string(x.description)),
            ]
            if rehearsedNew != nil {
                let source = x.sources.last { $0.state == "active" } ?? x.sources.last
                f += [("new", .bool(isNew)), ("file", .string(source?.file)), ("line", .int(source?.line))]
            }
            return .object(f)
        }
        return .object([
            ("out", leg(t.out)), ("in", leg(t.into)), ("decided_by", .string(t.decidedBy)),
            ("score", .number(String(format: "%.3f", t.score))), ("reasons", .array(t.reasons.map { .string($0.description) })),
        ])
    }

    /// The other leg of a transfer (or a candidate for one), as a leg names it.
    public static func transferLink(_ l: TransferLink) -> JSONOutput {
        .object([
            ("direction", .string(l.direction)), ("other_transaction", .int(l.otherTransactionID)),
            ("other_account", .string(l.otherAccount)), ("other_date", .string(l.otherDate.iso)),
            ("other_amount", .string(l.otherAmount.decimalString)), ("other_currency", .string(l.otherAmount.currency)),
            ("decided_by", .string(l.decidedBy)), ("score", .number(String(format: "%.3f", l.score))),
            ("reasons", .array(l.reasons.map { .string($0.description) })),
        ])
    }

    /// `accounts --format json`.
    public static func accounts(_ accounts: [LedgerAccount]) -> JSONOutput {
        .array(
            accounts.map { a in
                .object([
                    ("id", .int(a.id)), ("name", .string(a.name)), ("institution", .string(a.institution)),
                    ("number", .string(a.number)), ("type", .string(a.type)),
                    ("currencies", .array(a.currencies.map { .string($0) })),
                    ("subtype", .string(a.subtype)),
                    ("provider_account_id", .string(a.providerAccountID)),
                    ("current_balance", .string(a.currentBalance?.decimalString)),
                    ("available_balance", .string(a.availableBalance?.decimalString)),
                    ("ledger_name", .string(a.ledgerName)),
                    ("statement", a.statement.map(Self.strings) ?? .null),
                ])
            })
    }

    /// `accounts merge --format json` and `POST /v1/accounts/{name}/merge`.
    public static func merge(_ r: MergeResult) -> JSONOutput {
        .object([
            ("into", .string(r.into)), ("from", .string(r.from)), ("batch", r.batchID.map { .int($0) } ?? .null),
            ("dry_run", .bool(r.batchID == nil)), ("records", .int(Int64(r.records))), ("linked", .int(Int64(r.linked))),
            ("already_present", .int(Int64(r.alreadyPresent))), ("kept", .int(Int64(r.kept))),
            ("needs_review", .int(Int64(r.needsReview))), ("transactions_moved", .int(Int64(r.transactionsMoved))),
            ("transactions_joined", .int(Int64(r.transactionsJoined))),
        ])
    }

    /// A string map as an object, keys sorted (statement facts).
    static func strings(_ m: [String: String]) -> JSONOutput { .object(m.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }) }

    static func counts(_ c: ImportCounts) -> [(String, JSONOutput)] {
        [
            ("new", .int(Int64(c.new))), ("already_present", .int(Int64(c.alreadyPresent))), ("linked", .int(Int64(c.linked))),
            ("updated", .int(Int64(c.updated))), ("needs_review", .int(Int64(c.needsReview))), ("removed", .int(Int64(c.removed))),
            ("warnings", .int(Int64(c.warnings))),
        ]
    }

    /// `batches --format json`.
    public static func batches(_ batches: [LedgerBatch]) -> JSONOutput {
        .array(
            batches.map { b in
                .object(
                    [
                        ("id", .int(b.id)), ("file", .string(b.fileName)), ("sha256", .string(b.fileSHA256)),
                        ("importer", .string(b.importer)), ("imported_at", .string(b.importedAt)),
                    ] + counts(b.counts)
                        + [
                            ("undone_at", .string(b.undoneAt)), ("seen_again", .int(Int64(b.seenAgain))),
                            ("last_seen_at", .string(b.lastSeenAt)),
                            ("facts", .object((b.facts ?? [:]).sorted { $0.key < $1.key }.map { ($0.key, Self.strings($0.value)) })),
                        ])
            })
    }

    /// `review --format json`: records waiting for a decision, with their candidates.
    public static func review(_ reviews: [PendingReview]) -> JSONOutput {
        .array(
            reviews.map { r in
                .object([
                    ("record", .int(r.recordID)), ("transaction", .int(r.transactionID)), ("account", .string(r.account)),
                    ("date", .string(r.record.date.iso)), ("amount", .string(r.record.amount.decimalString)),
                    ("description", .string(r.record.description)), ("kind", .string(r.record.kind.rawValue)),
                    (
                        "candidates",
                        .array(
                            r.candidates.map { c in
                                .object([
                                    ("transaction", .int64(c.transactionID)), ("score", .number(String(format: "%.3f", c.score))),
                                    ("reasons", .array(c.reasons.map { .string($0.description) })),
                                ])
                            })
                    ),
                ])
            })
    }

    /// `transfers --format json` and `GET /v1/transfers`: `{transfers, review}`.
    public static func transfers(linked: [LedgerTransfer], review: [LedgerTransfer]) -> JSONOutput {
        .object([("transfers", .array(linked.map { transfer($0) })), ("review", .array(review.map { transfer($0) }))])
    }

    /// `profiles --format json`.
    public static func profiles(_ profiles: [CSVProfile]) -> JSONOutput {
        .array(
            profiles.map { p in
                .object([
                    ("name", .string(p.name)), ("variant", .string(p.variant)), ("institution", .string(p.institution)),
                    ("kind", .string(p.sourceKind.rawValue)),
                    ("columns", .array(p.requiredHeaders.map { .string($0.first ?? "") })),
                ])
            })
    }
}
