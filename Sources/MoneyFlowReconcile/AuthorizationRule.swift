/// No record of a payment posts before the payment was authorized: the one rule that reads
/// authorization dates (Plaid's `authorized_date`, an OFX `DTUSER`) when pairing.
///
/// A card payment is authorized first and posts the same day or later, on the bank's
/// statement and in the provider's feed alike. So a bank row dated before the day the feed
/// says the payment was authorized is not that payment, however well amount and text agree:
/// it is an earlier purchase of the same amount (a daily membership charge, a second coffee at
/// the same store) whose own feed record is missing or further back. Without this rule the
/// date penalty alone lets such a row take the next purchase's feed record one or two days
/// "early", and each later row of the series shifts onto its neighbour's record.
///
/// The test is symmetric, so it does not depend on which side was imported first: the incoming
/// record's date is not before any authorization date of the stored transaction's records,
/// and the stored transaction's latest date is not before the incoming record's authorization
/// date. A record without an authorization date (most bank statements) constrains nothing.
enum AuthorizationRule {
    /// Day number meaning "no authorization date": every date is on or after it.
    static let none = Int.min

    /// The authorization day the rule trusts for a record authorized on `authorized` and dated
    /// `posted`: a payment cannot post before it was authorized, so an authorization date after
    /// the record's own date (a provider's slip, another time zone) says no more than that date.
    @inline(__always)
    static func believed(_ authorized: Int, posted: Int) -> Int { min(authorized, posted) }

    /// True when a record dated `day` (authorized on `authorized`, or ``none``) and a stored
    /// transaction whose latest record date is `latestDay` (its records authorized no later
    /// than `candidateAuthorized`, or ``none``) may be one payment.
    @inline(__always)
    static func allows(day: Int, authorized: Int, latestDay: Int, candidateAuthorized: Int) -> Bool {
        day >= candidateAuthorized && latestDay >= authorized
    }
}
