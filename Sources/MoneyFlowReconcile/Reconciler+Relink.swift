import Foundation
import MoneyFlowCore

/// Where the accounts of a re-linked bank belong, and what to tell the user about it.
struct RelinkTargets {
    /// Account key -> the existing store account it lands on.
    var landing: [String: StoredAccount] = [:]
    var warnings: [ImportWarning] = []
    /// Keys whose statement facts replace the landing account's (see ``Reconciler/cardTargets(_:view:)``).
    var adopting = Set<String>()
}

extension Reconciler {
    /// Linking the same bank again in Plaid (a new item) gives new `account_id`s for the same
    /// accounts. An unknown Plaid account key whose facts name a real institution (an
    /// `institution_id`, or a name other than the "Plaid" fallback) and a mask lands on the one
    /// existing Plaid store account of that institution, mask, type and subtype, so its history
    /// can link to what the old item delivered instead of filling a second account.
    ///
    /// Never guessed: with several such store accounts, or several of the file's accounts
    /// claiming one store account, the account is created as before and a warning names the
    /// candidates and the fix (`moneyflow accounts link`). A store account that an account of
    /// this same file already owns by its key is no candidate (two accounts of one item are two).
    func relinkTargets(_ accounts: [AccountFacts], view: any LedgerView) throws -> RelinkTargets {
        var out = RelinkTargets()
        var owned = Set<Int64>()
        var unknown: [AccountFacts] = []
        for f in accounts {
            if let id = try view.accountID(forKey: f.key) { owned.insert(id) } else { unknown.append(f) }
        }
        var candidates: [String: [StoredAccount]] = [:]
        var claims: [Int64: [String]] = [:]
        for f in unknown {
            guard let provider = f.provider, let mask = f.number, !mask.isEmpty else { continue }
            let institutions = Self.institutions(of: f)
            guard !institutions.isEmpty else { continue }
            let found = try view.accounts(provider: provider, number: mask).filter { a in
                !owned.contains(a.id)
                    && Self.couldBeRelinked(
                        f, institution: a.institution, number: a.number, type: a.type, subtype: a.subtype, provider: a.provider)
            }
            guard !found.isEmpty else { continue }
            candidates[f.key] = found
            for a in found { claims[a.id, default: []].append(f.key) }
        }
        for f in unknown {
            guard let found = candidates[f.key] else { continue }
            let institution = f.institution ?? f.details["institution_id"] ?? ""
            let fix = "before importing its transactions, `moneyflow accounts link ACCOUNT \(f.key)` puts it where it belongs"
            if found.count > 1 {
                out.warnings.append(
                    ImportWarning(
                        "account \(f.key) (\(f.suggestedName), mask \(f.number ?? ""), \(institution)) may be a re-linked account of "
                            + "\(Self.names(found)): ambiguous, so it is a new account; \(fix)"))
                continue
            }
            let target = found[0]
            let rivals = claims[target.id] ?? []
            if rivals.count > 1 {
                out.warnings.append(
                    ImportWarning(
                        "accounts \(rivals.joined(separator: ", ")) of this file all match account \"\(target.name)\" (mask "
                            + "\(f.number ?? ""), \(institution)): ambiguous, so \(f.key) is a new account; \(fix)"))
                continue
            }
            out.landing[f.key] = target
            out.warnings.append(
                ImportWarning(
                    "account \(f.key) (\(f.suggestedName)) lands on existing account \"\(target.name)\": same institution "
                        + "(\(institution)), mask \(f.number ?? ""), type \(Self.typeText(f)) (the bank linked again); its history "
                        + "links to what the account holds; if that is wrong, `moneyflow undo` this batch, then "
                        + "`moneyflow accounts link ACCOUNT \(f.key)` before importing again"))
        }
        return out
    }

    /// The institution names a store account of this Plaid account may carry: its
    /// institution (name, or id when the item had no name) and its `institution_id`; none
    /// when only the "Plaid" fallback is known (nothing to tell banks apart by).
    /// True when a store account with these facts may be the same bank account as Plaid account
    /// `f` seen through another item: provider plaid, a known institution (not the "Plaid"
    /// fallback), the same mask, type and subtype. The one rule for the import's landing and for
    /// `plaid link`'s question when several accounts qualify.
    public static func couldBeRelinked(
        _ f: AccountFacts, institution: String?, number: String?, type: String?, subtype: String?, provider: String?
    ) -> Bool {
        guard let own = f.provider, provider == own, let mask = f.number, !mask.isEmpty, number == mask,
            let institution, institutions(of: f).contains(institution)
        else { return false }
        return type == f.type && subtype == f.subtype
    }

    static func institutions(of f: AccountFacts) -> Set<String> {
        var out = Set<String>()
        let id = f.details["institution_id"].flatMap { $0.isEmpty ? nil : $0 }
        if let id { out.insert(id) }
        if let name = f.institution, !name.isEmpty, name.lowercased() != f.provider?.lowercased() { out.insert(name) }
        return out
    }

    static func names(_ accounts: [StoredAccount]) -> String {
        accounts.map { "\"\($0.name)\"" }.joined(separator: ", ")
    }

    static func typeText(_ f: AccountFacts) -> String {
        [f.type, f.subtype].compactMap { $0 }.joined(separator: "/")
    }
}
