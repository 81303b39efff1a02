import MoneyFlowCore

/// One transaction booked to several categories (`categorize TXN Expenses:Food:40.00
/// Expenses:Household:rest`): the parts' amounts are exact and sum to the transaction's amount.
public struct CategorySplit: Sendable, Hashable, Codable {
    public struct Part: Sendable, Hashable, Codable {
        public var account: String
        /// Signed like the transaction (negative parts for a payment).
        public var amount: Money
        public init(account: String, amount: Money) { self.account = account; self.amount = amount }
    }

    public private(set) var parts: [Part]

    /// A split whose parts are already known to sum to `total` (see ``validate(_:total:)``).
    public init(parts: [Part], total: Money) throws(SplitError) {
        try Self.validate(parts, total: total)
        self.parts = parts
    }

    /// Checks what every split must satisfy: two or more parts, distinct accounts, each amount
    /// non-zero with the total's sign and currency, the sum exactly the total.
    public static func validate(_ parts: [Part], total: Money) throws(SplitError) {
        guard parts.count >= 2 else { throw SplitError("a split needs at least two parts (one account is a plain category)") }
        var seen = Set<String>()
        var sum: Int64 = 0
        for p in parts {
            guard seen.insert(p.account).inserted else {
                throw SplitError("account '\(p.account)' appears twice: give it one part with the combined amount")
            }
            guard p.amount.currency == total.currency else {
                throw SplitError("part '\(p.account)' is in \(p.amount.currency), the transaction in \(total.currency)")
            }
            guard p.amount.minorUnits != 0, (p.amount.minorUnits < 0) == (total.minorUnits < 0) else {
                throw SplitError("part '\(p.account)' must be a non-zero amount with the transaction's sign")
            }
            sum += p.amount.minorUnits
        }
        guard sum == total.minorUnits else {
            let diff = Money(minorUnits: total.minorUnits - sum, currency: total.currency)
            throw SplitError(
                "the parts sum to \(Money(minorUnits: sum, currency: total.currency).decimalString), the transaction is "
                    + "\(total.decimalString) \(total.currency) (difference \(diff.decimalString)); use 'rest' for the last part")
        }
    }

    /// Parses what the user typed, one part per argument: `ACCOUNT:AMOUNT` (the amount after the
    /// last colon, written without sign: it takes the transaction's sign) or `ACCOUNT:rest` once
    /// for whatever remains. Amounts are exact decimals in `total`'s currency.
    public static func parse(arguments: [String], total: Money) throws(SplitError) -> CategorySplit {
        var parts: [Part] = []
        var restIndex: Int?
        let sign: Int64 = total.minorUnits < 0 ? -1 : 1
        for arg in arguments {
            guard let colon = arg.lastIndex(of: ":") else {
                throw SplitError("'\(arg)' is not ACCOUNT:AMOUNT (e.g. Expenses:Food:40.00 or Expenses:Food:rest)")
            }
            let account = String(arg[..<colon])
            let amountText = String(arg[arg.index(after: colon)...])
            let isRest = amountText.lowercased() == "rest"
            guard isRest || amountText.contains(where: { $0.isASCII && $0.isNumber }) else {
                throw SplitError("'\(arg)' is not ACCOUNT:AMOUNT (e.g. Expenses:Food:40.00 or Expenses:Food:rest)")
            }
            if let problem = LedgerAccountName.problem(account) { throw SplitError("'\(arg)': \(problem)") }
            if isRest {
                guard restIndex == nil else { throw SplitError("'rest' may be given for one part only") }
                restIndex = parts.count
                parts.append(Part(account: account, amount: Money(minorUnits: 0, currency: total.currency)))
                continue
            }
            let minor: Int64
            do { minor = try Money.parse(amountText, currency: total.currency).minorUnits } catch {
                throw SplitError("'\(arg)': \(error.description)")
            }
            guard minor > 0 else {
                throw SplitError("'\(arg)': write the amount without sign and above zero (it takes the transaction's sign)")
            }
            parts.append(Part(account: account, amount: Money(minorUnits: sign * minor, currency: total.currency)))
        }
        if let r = restIndex {
            let others = parts.reduce(Int64(0)) { $0 + $1.amount.minorUnits }
            let rest = total.minorUnits - others
            guard rest != 0, (rest < 0) == (total.minorUnits < 0) else {
                throw SplitError(
                    "the other parts already take \(Money(minorUnits: others, currency: total.currency).decimalString) of "
                        + "\(total.decimalString) \(total.currency): nothing is left for 'rest'")
            }
            parts[r].amount = Money(minorUnits: rest, currency: total.currency)
        }
        return try CategorySplit(parts: parts, total: total)
    }

    /// ``parse(arguments:total:)`` of whitespace-separated parts (`A:40.00 B:rest`).
    public static func parse(_ text: String, total: Money) throws(SplitError) -> CategorySplit {
        try parse(arguments: text.split(whereSeparator: \.isWhitespace).map(String.init), total: total)
    }
}

/// Why a split was refused: one line saying what to change.
public struct SplitError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { "invalid split: \(message)" }
}
