/// A pair the engine can only ever review must not take a transaction from a row it could link:
/// the one rule that weighs pairs in the assignment by what they can become.
///
/// A pair whose texts do not confirm it while rivals exist (``MatchGroup/unconfirmedWithRivals(_:)``),
/// or whose texts share nothing and nothing else carries it (``MatchGroup/isGuess(_:)``), is
/// never linked: at best it is offered for review. Counted at its full score, such a pair still
/// claims its transaction in the optimal assignment when that scores more in total: a row whose
/// own feed record is missing (`POS PURCHASE KALY #1364 BOSTON MA`, $4.25) pairs, without any
/// text in common, with a $4.25 coffee of another shop posted two days earlier, and the row
/// that coffee belongs to (`POS PURCHASE DONQUAMA #3335 NEWARK NJ`, same day, same text) is
/// pushed onto the same shop's coffee of three days before, and linked there: a wrong link
/// bought with a review. Weighed at ``Scoring/reviewOnlyWeight`` of its score, a review-only
/// pair still takes a transaction no linkable pair wants (and is reviewed, as before), but
/// among linkable pairs the assignment is decided by them alone: the DONQUAMA row takes its own
/// coffee, and the KALY row, whose only candidate is taken, is new.
///
/// What a pair can become depends on the pair alone (its text, rivals and carried evidence),
/// so the rule reads the same facts in both import orders.
enum ReviewOnlyPairRule {}

extension MatchGroup {
    /// The text does not confirm the pair while another transaction of the same amount is in
    /// the row's window (whatever already supports it) or another row wants the column:
    /// amount and date alone cannot tell them apart.
    func unconfirmedWithRivals(_ p: MatchPair) -> Bool {
        p.sim < options.minimumTextSimilarity && (rowRivals[Int(p.row)] > 1 || colDegree[Int(p.col)] > 1)
    }

    /// True when the solver can only ever review pair `p`, never link it.
    func reviewOnly(_ p: MatchPair) -> Bool { unconfirmedWithRivals(p) || isGuess(p) }

    /// What pair `p` weighs in the assignment (``ReviewOnlyPairRule``); its score as reported is
    /// unchanged.
    func assignmentScore(_ p: MatchPair) -> Double { reviewOnly(p) ? p.score * Scoring.reviewOnlyWeight : p.score }
}
