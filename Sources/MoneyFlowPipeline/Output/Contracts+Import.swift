import Foundation
import MoneyFlowCore
import MoneyFlowStore

// What an import prints and answers (`import --json`, `run --json`, `POST /v1/imports`): one
// file's result with its plan's decisions, and the objects of a file that failed or was skipped.
extension Contracts {
    /// One file's import result (`import --json`), including the plan's decisions.
    public static func importResult(_ r: FileImportResult, includePlan: Bool) -> JSONOutput {
        var fields: [(String, JSONOutput)] = [
            ("file", .string(r.fileName)), ("importer", .string(r.importerID)),
            ("accounts", .array(r.plan.accounts.map { .string($0.name) })),
            ("dry_run", .bool(r.dryRun)), ("batch", .int64(r.batchID)),
        ]
        fields += counts(r.plan.counts)
        fields.append(("relinked", .int(Int64(r.plan.relinks.count))))
        fields.append(("warning_messages", .array(r.plan.statement.warnings.map { .string($0.description) })))
        if includePlan {
            fields.append(("plan", plan(r.plan)))
            fields.append(("relinks", relinks(r.plan)))
        }
        if let rehearsal = r.rehearsal {
            fields.append(("transfers", .array(rehearsal.transfers.map { transfer($0, rehearsedNew: rehearsal.newTransactionIDs) })))
            fields.append(("merged", merged(rehearsal)))
        }
        return .object(fields)
    }

    /// A dry run's merged transactions (`merged` of `import --dry-run --json`): the fields each
    /// would show and the records it would merge; `id` is null for a transaction only the dry
    /// run created (`new`).
    static func merged(_ r: ImportRehearsal) -> JSONOutput {
        .array(
            r.merged.map { t in
                let isNew = r.newTransactionIDs.contains(t.id)
                return .object([
                    ("id", isNew ? .null : .int(t.id)), ("new", .bool(isNew)), ("account", .string(t.account)),
                    ("date", .string(t.date.iso)), ("amount", .string(t.amount.decimalString)),
                    ("currency", .string(t.amount.currency)), ("description", .string(t.description)),
                    ("counterparty", .string(t.counterparty)), ("category", .string(t.category)), ("pending", .bool(t.pending)),
                    (
                        "sources",
                        .array(
                            t.sources.filter { $0.state == "active" }.map { s in
                                .object([("kind", .string(s.kind.rawValue)), ("file", .string(s.file)), ("line", .int(s.line))])
                            })
                    ),
                ])
            })
    }

    /// One element of `import --json` (and `run --json`): an imported file's result, or the
    /// object of a file that failed or was skipped.
    public static func batchFile(_ r: BatchFileResult, includePlan: Bool) -> JSONOutput {
        switch r.outcome {
        case .imported(let x): return importResult(x, includePlan: includePlan)
        case .failed(let e):
            return .object([("file", .string(r.displayPath)), ("status", .string("failed")), ("error", .string(e.description))])
        case .skipped(let why):
            return .object([("file", .string(r.displayPath)), ("status", .string("skipped")), ("reason", .string(why))])
        }
    }

    /// The decisions of a plan, one per incoming record.
    public static func plan(_ p: ImportPlan) -> JSONOutput {
        .array(
            p.entries.map { e in
                let r = p.statement.records[e.index]
                return .object([("index", .int(Int64(e.index)))] + decisionFields(r, e.decision))
            })
    }

    /// Earlier records the plan moves (`relinks` of `import --dry-run --json`): the record, where
    /// it stood and its new decision, with the same fields as a plan entry.
    public static func relinks(_ p: ImportPlan) -> JSONOutput {
        .array(
            p.relinks.map { x in
                .object(
                    [("record", .int(x.recordID)), ("was", .string(x.from.rawValue)), ("was_transaction", .int(x.fromTransactionID))]
                        + decisionFields(x.record, x.decision))
            })
    }

    static func decisionFields(_ r: IncomingRecord, _ decision: RecordDecision) -> [(String, JSONOutput)] {
        var f: [(String, JSONOutput)] = [
            ("date", .string(r.date.iso)), ("amount", .string(r.amount.decimalString)),
            ("currency", .string(r.amount.currency)), ("description", .string(r.description)),
            ("line", .int(r.locator.line)), ("page", .int(r.locator.page)), ("row", .int(r.locator.row)),
            ("decision", .string(decisionKey(decision))),
        ]
        switch decision {
        case .alreadyPresent(let id), .update(let id): f.append(("record", .int(id)))
        case .link(let t, let score, let reasons, _):
            f += [("transaction", .int(t)), ("score", .number(String(format: "%.3f", score))), ("reasons", reasonsJSON(reasons))]
        case .supersede(let pid, let t, let reasons):
            f += [("transaction", .int(t)), ("supersedes_record", .int(pid)), ("reasons", reasonsJSON(reasons))]
        case .linkToIncoming(let i, _, let reasons), .supersedeIncoming(let i, let reasons):
            f += [("with_index", .int(Int64(i))), ("reasons", reasonsJSON(reasons))]
        case .needsReview(let cands):
            f.append(
                (
                    "candidates",
                    .array(
                        cands.map { c in
                            .object([
                                ("transaction", .int64(c.transactionID)), ("index", .int(c.incomingIndex)),
                                ("score", .number(String(format: "%.3f", c.score))), ("reasons", reasonsJSON(c.reasons)),
                            ])
                        })
                ))
        case .new: break
        }
        return f
    }

    static func reasonsJSON(_ r: [MatchReason]) -> JSONOutput {
        .array(r.map { .object([("factor", .string($0.factor)), ("detail", .string($0.detail))]) })
    }

    public static func decisionKey(_ d: RecordDecision) -> String {
        switch d {
        case .alreadyPresent: return "already_present"
        case .update: return "update"
        case .new: return "new"
        case .link, .linkToIncoming: return "link"
        case .supersede, .supersedeIncoming: return "supersede"
        case .needsReview: return "needs_review"
        }
    }
}
