import Foundation

/// Every number the engine scores with, in one place. A pair of an incoming record and a
/// stored transaction exists only for the exact same amount within the date window
/// (``ReconcileOptions/dateWindowDays``, ``ReconcileOptions/pendingWindowDays``); its score is
/// ``pairScore(lag:similarity:externalIDAgrees:)`` (or ``replacementScore(lag:similarity:tip:)``
/// for a posted record replacing a removed pending one). Components of the pair graph are then
/// solved as assignments maximising the total score (``ComponentSolver``); a best assignment
/// closer than ``reviewMargin`` to the second best goes to review, and a weak-text pair links
/// only under ``TextlessLinkRule``.
enum Scoring {
    // MARK: Pair score

    /// Score of any pair before date and text: a pair that exists at all already agrees on
    /// account, currency and exact amount.
    static let pairBase = 1.0
    /// Weight of text similarity (0...1) in a pair's score: enough to prefer the right
    /// merchant three days off over a wrong one on the same day, never able to pair different
    /// amounts or dates outside the window (those never become pairs at all).
    static let textWeight = 1.0
    /// Bonus when the provider's id is one the transaction already carries (a re-sent record).
    static let externalIDBonus = 0.5

    /// Linear part of the date penalty, per day of gap.
    static let datePenaltyPerDay = 0.05
    /// Quadratic part of the date penalty, per day squared.
    static let datePenaltyPerDaySquared = 0.03
    /// Extra per day when the provider date is AFTER the bank's posting date.
    static let datePenaltyReversedPerDay = 0.05

    /// Score lost for a date gap: grows faster than linearly (two 1-2 day lags beat a 0 and a
    /// 3), and a provider date AFTER the bank's posting date costs extra (posting lags run the
    /// other way).
    static func datePenalty(_ signedLag: Int) -> Double {
        let g = Double(abs(signedLag))
        return datePenaltyPerDay * g + datePenaltyPerDaySquared * g * g + (signedLag < 0 ? datePenaltyReversedPerDay * g : 0)
    }

    /// THE match score of an exact-amount pair (higher is better).
    static func pairScore(lag: Int, similarity: Double, externalIDAgrees: Bool) -> Double {
        pairBase - datePenalty(lag) + textWeight * similarity + (externalIDAgrees ? externalIDBonus : 0)
    }

    /// A pending authorization posts days later: this many days of its lag are forgiven.
    static let pendingForgivenDays = 2

    // MARK: Pending replaced by a posted record (tips)

    /// Score of a posted record replacing a removed pending one, before date and text: below
    /// ``pairBase`` so an exact pair wins over a replacement.
    static let replacementBase = 0.9
    /// Taken off a replacement whose amount changed (a tip).
    static let replacementTipPenalty = 0.1
    /// A replacement with a changed amount needs at least this text similarity (same merchant)...
    static let replacementMinimumSimilarity = 0.3
    /// ...and one with an unchanged amount at least that similarity or a gap of at most this many days.
    static let replacementShortLagDays = 3

    /// Score of a replacement pair; nil when it is not a pair at all.
    static func replacementScore(lag: Int, similarity: Double, tip: Int64) -> Double? {
        guard similarity >= replacementMinimumSimilarity || (tip == 0 && lag <= replacementShortLagDays) else { return nil }
        return replacementBase - datePenalty(lag) + textWeight * similarity - (tip == 0 ? 0 : replacementTipPenalty)
    }

    // MARK: Defaults of ReconcileOptions

    /// Default ``ReconcileOptions/dateWindowDays``.
    static let dateWindowDays = 4
    /// Default ``ReconcileOptions/pendingWindowDays``.
    static let pendingWindowDays = 7
    /// Default ``ReconcileOptions/tipAllowance``.
    static let tipAllowance = 0.30
    /// Default ``ReconcileOptions/reviewMargin``.
    static let reviewMargin = 0.2
    /// Default ``ReconcileOptions/minimumTextSimilarity``.
    static let minimumTextSimilarity = 0.5

    // MARK: Text-less links (see ``TextlessLinkRule``)

    /// Below this similarity (0...1, rare tokens weigh more) the texts count as sharing
    /// nothing: no token in common, or only tokens so common in the import that they weigh
    /// next to nothing. One shared merchant word ("星巴克" in "星巴克企业管理（中国）有限公司")
    /// scores far above.
    static let textEvidenceFloor = 0.1
    /// Days on either side of the row's date in which its amount must be unique (among the
    /// incoming rows and among the stored transactions) for an exact-date pair to stand
    /// without text: three and a half matching windows, half a month.
    static let uniqueAmountWindowDays = 14
    /// Distinct carried pairs (other rows and other transactions) that make two texts an alias.
    /// One is enough: a carried pair is already a same-day pair with an amount found nowhere
    /// else for two weeks, and only pairs of exactly the same two texts learn from it. Two
    /// cost the CMB scenario with weekly feed pages recall 0.846 instead of 0.923, at no
    /// precision gain (1.0 either way).
    static let aliasConfirmations = 1

    // MARK: Solving

    /// A pair that can only be reviewed weighs this fraction of its score in the assignment
    /// (``ReviewOnlyPairRule``): small enough that every such pair of a block together weighs
    /// less than one day of date penalty (``datePenaltyPerDay`` + ``datePenaltyPerDaySquared``)
    /// between linkable pairs, so it takes only transactions no linkable pair wants.
    static let reviewOnlyWeight = 0.001

    /// Components with at most this many rows are solved as one assignment; larger ones (a
    /// daily same-price coffee chains the whole history together) in date-ordered blocks.
    static let exactComponentLimit = 24
    /// Rows decided per block of a large component; as many following rows take part in each
    /// block's assignment (so a row's choice accounts for the rows after it) without being decided.
    static let blockRows = 12
    /// Reopened records are gathered from this many matching windows on either side of the
    /// file's dates: a record that far away can still share a candidate with one of its rows.
    /// All amounts are reopened, not only the file's: token weights come from the texts in
    /// the plan, so the neighbourhood as a whole is what makes the plan weigh text as one
    /// combined file would (restricting to the file's amounts broke order independence on 2
    /// of 60 generated ledgers).
    static let reopenMargin = 2
}
