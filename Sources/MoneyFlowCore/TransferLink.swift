/// The other leg of a transfer between two of the user's own accounts, as one leg shows it
/// (`transfer` in `transactions --format json`), or a leg offered for review.
public struct TransferLink: Sendable, Hashable, Codable {
    /// `out` when money left this transaction's account, `in` when it arrived there.
    public var direction: String
    public var otherTransactionID: Int64
    public var otherAccountID: Int64
    public var otherAccount: String
    public var otherDate: LocalDate
    public var otherAmount: Money
    /// `auto` (the engine), `user` (`link --transfer`), or `review` (a candidate only).
    public var decidedBy: String
    public var score: Double
    public var reasons: [MatchReason]
    public init(
        direction: String, otherTransactionID: Int64, otherAccountID: Int64, otherAccount: String, otherDate: LocalDate, otherAmount: Money,
        decidedBy: String, score: Double, reasons: [MatchReason]
    ) {
        self.direction = direction; self.otherTransactionID = otherTransactionID; self.otherAccountID = otherAccountID
        self.otherAccount = otherAccount
        self.otherDate = otherDate; self.otherAmount = otherAmount; self.decidedBy = decidedBy; self.score = score
        self.reasons = reasons
    }
}
