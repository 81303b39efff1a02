import MoneyFlowCore

extension ComponentSolver {
    /// What an accepted pair asserts for later imports: `.carried` when the texts share nothing
    /// and provider ids or an exact date with a unique amount stood for it (its texts are then a
    /// learned alias, read back through ``AliasLedgerView``). The reason of the same name
    /// explains it to people; only this value is acted on.
    func evidence(_ p: MatchPair) -> LinkEvidence? {
        p.replacement < 0 && p.sim < Scoring.textEvidenceFloor && (p.externalIDAgrees || g.carried(p)) ? .carried : nil
    }

    /// Why a pair was proposed, for the plan, `review` and `--dry-run`.
    func reasons(_ p: MatchPair) -> [MatchReason] {
        let amount = g.records[g.idx[Int(p.row)]].amount
        let text = MatchReason("text", Self.similarityText(p.sim))
        if p.replacement >= 0 {
            let x = g.replacements[Int(p.replacement)]
            return [
                MatchReason("pending", "posted replaces pending \(x.pendingExternalID) (removed in this update)"),
                MatchReason("amount", x.tip == 0 ? "equal" : "tip \(Money.format(minorUnits: x.tip, exponent: amount.exponent))"),
                MatchReason("date", "\(p.lag) day(s) later"), text,
            ]
        }
        let apart = Int(abs(p.lag)) < Self.daysApartTexts.count ? Self.daysApartTexts[Int(abs(p.lag))] : "\(abs(p.lag)) day(s) apart"
        var out = [MatchReason("amount", amountTexts.equal(amount)), MatchReason("date", apart), text]
        if p.externalIDAgrees { out.append(MatchReason("external_id", "agree")) }
        if p.placesDisagree {
            out.append(MatchReason("place", "the two sides name different stores or states: their texts are no evidence"))
        }
        if evidence(p) == .carried {
            // For people; later imports act on the typed `evidence(p)` stored with the link.
            out.append(
                MatchReason(
                    "carried",
                    p.externalIDAgrees
                        ? "texts share nothing; provider ids agree"
                        : "texts share nothing; same day, amount unique within \(Scoring.uniqueAmountWindowDays) days"))
        }
        if p.aliasConfirmations > 0 {
            let here = p.aliasConfirmations - p.aliasFromLedger
            var by: [String] = []
            if here > 0 { by.append("\(here) carried pair(s) of this import") }
            if p.aliasFromLedger > 0 { by.append("\(p.aliasFromLedger) confirmed transaction(s) of the ledger") }
            out.append(MatchReason("alias", "these texts are paired by " + by.joined(separator: " and ")))
        }
        return out
    }

    static func twoDecimals(_ x: Double) -> String { twoDecimals(hundredths: Int((x * 100).rounded())) }

    static func twoDecimals(hundredths h: Int) -> String {
        let frac = h % 100
        return "\(h / 100)." + (frac < 10 ? "0\(frac)" : "\(frac)")
    }

    /// The text reason of a similarity; every link has one, so the 101 usual ones are spelled once.
    static func similarityText(_ x: Double) -> String {
        let h = Int((x * 100).rounded())
        return h >= 0 && h < similarityTexts.count ? similarityTexts[h] : "similarity " + twoDecimals(hundredths: h)
    }

    static let similarityTexts = (0...100).map { "similarity " + twoDecimals(hundredths: $0) }
    /// The date reason of the usual gaps, spelled once.
    static let daysApartTexts = (0...15).map { "\($0) day(s) apart" }
}

/// The amount reason (`equal 12.34`) of each amount, spelled once: every link has one, and
/// formatting an amount costs more than the rest of a link's reasons. One per solver (a solver
/// runs on one thread). A group has one currency, so the minor units name the amount; an
/// amount of another currency is spelled each time.
final class AmountTexts {
    private var texts: [Int64: String] = [:]
    private var currency: String?

    func equal(_ amount: Money) -> String {
        if currency == nil { currency = amount.currency }
        guard amount.currency == currency else { return Self.spell(amount) }
        if let t = texts[amount.minorUnits] { return t }
        let t = Self.spell(amount)
        texts[amount.minorUnits] = t
        return t
    }

    static func spell(_ amount: Money) -> String { "equal \(amount.decimalString)" }
}
