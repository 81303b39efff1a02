import Foundation
import MoneyFlowCore
import MoneyFlowStore

/// A dry run's rehearsed write in words (`import --dry-run`, after the plan): the transfers and
/// the merged transactions the import would produce. A transaction only the dry run created has
/// no id yet: it is named as new, by its record's file and line.
public enum RehearsalText {
    public static func lines(_ r: ImportRehearsal) -> [String] {
        func name(_ t: LedgerTransaction) -> String {
            guard r.newTransactionIDs.contains(t.id) else { return "transaction \(t.id)" }
            let s = t.sources.last { $0.state == "active" } ?? t.sources.last
            let at = s.map { " (\(($0.file as NSString).lastPathComponent)\($0.line.map { " line \($0)" } ?? ""))" } ?? ""
            return "new transaction\(at)"
        }
        func leg(_ t: LedgerTransaction) -> String {
            "\(t.account) \(t.date.iso) \(t.amount.decimalString) \(t.amount.currency) [\(name(t))]"
        }
        var out: [String] = []
        if !r.transfers.isEmpty {
            out.append("  transfers after this import:")
            for t in r.transfers {
                let how = t.decidedBy == "review" ? "for review" : t.decidedBy
                out.append(
                    "    \(leg(t.out)) -> \(leg(t.into)): \(how), score \(String(format: "%.2f", t.score))"
                        + (t.reasons.isEmpty ? "" : " (\(t.reasons.map(\.description).joined(separator: "; ")))"))
            }
        }
        if !r.merged.isEmpty {
            out.append("  merged transactions after this import (fields shown, from sources):")
            for t in r.merged {
                let kinds = t.sources.filter { $0.state == "active" }.map(\.kind.rawValue).joined(separator: "+")
                out.append(
                    "    [\(name(t))] \(t.account) \(t.date.iso) \(t.amount.decimalString) \(t.amount.currency) \(t.description)"
                        + (t.counterparty.map { " / \($0)" } ?? "") + (t.category.map { " {\($0)}" } ?? "") + " <- \(kinds)")
            }
        }
        return out
    }
}
