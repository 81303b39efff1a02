/// The institution every server starts with: Plaid Sandbox's "First Platypus Bank"
/// (`ins_109508`) with checking 0000, savings 1111 and a credit card 3333, and a deterministic
/// two-year history (the same for a given `today`; dates are relative to it, as Sandbox data is).
public enum DefaultInstitution {
    public static let id = "ins_109508"
    public static let name = "First Platypus Bank"
    /// Posted transactions in the seeded history (plus `pendingCount` pending ones).
    public static let postedCount = 96
    public static let pendingCount = 4

    public static let accounts = [
        TestAccount(
            key: "checking", name: "Plaid Checking", officialName: "Plaid Gold Standard 0% Interest Checking",
            mask: "0000", type: "depository", subtype: "checking", current: "1210.55", available: "1100.55"),
        TestAccount(
            key: "savings", name: "Plaid Saving", officialName: "Plaid Silver Standard 0.1% Interest Saving",
            mask: "1111", type: "depository", subtype: "savings", current: "8200.10", available: "8200.10"),
        TestAccount(
            key: "credit", name: "Plaid Credit Card", officialName: "Plaid Diamond 12.5% APR Interest Credit Card",
            mask: "3333", type: "credit", subtype: "credit card", current: "410.27", available: "4589.73", limit: "5000.00"),
    ]

    private static let merchants: [(name: String, merchant: String?, account: String, cents: ClosedRange<Int>)] = [
        ("Uber 063015 SF**POOL**", "Uber", "credit", 550...4800),
        ("Starbucks", "Starbucks", "credit", 325...1275),
        ("McDonald's", "McDonald's", "credit", 612...2210),
        ("SparkFun", nil, "credit", 8900...31000),
        ("KFC", "KFC", "credit", 500...1890),
        ("United Airlines", "United Airlines", "credit", 21000...64000),
        ("Touchstone Climbing", nil, "checking", 7850...7850),
        ("Tectra Inc", nil, "checking", 50000...50000),
        ("CD DEPOSIT .INITIAL.", nil, "savings", -100000 ... -100000),
        ("INTRST PYMNT", nil, "savings", -425 ... -12),
        ("CREDIT CARD 3333 PAYMENT *//", nil, "checking", 2500...40000),
        ("AUTOMATIC PAYMENT - THANK", nil, "credit", -40000 ... -2500),
        ("ACH Electronic CreditGUSTO PAY 123456", nil, "checking", -580000 ... -510000),
    ]

    /// Installs the bank and its seeded history.
    static func install(into state: ServerState) throws {
        var bank = Bank(institution: TestInstitution(id: id, name: name, accounts: accounts))
        var rng = SplitMix64(seed: 109_508)
        var entries: [TestTransaction] = []
        for _ in 0..<postedCount {
            let m = merchants[Int(rng.next() % UInt64(merchants.count))]
            // Spread over 730 days back, never today (today's activity is still pending).
            let day = state.today.adding(days: -1 - Int(rng.next() % 729))
            entries.append(
                TestTransaction(
                    account: m.account, date: day.iso, amount: amount(in: m.cents, &rng), name: m.name,
                    merchantName: m.merchant, authorizedDate: day.adding(days: -Int(rng.next() % 3)).iso))
        }
        for i in 0..<pendingCount {
            let m = merchants[i % 3]
            entries.append(
                TestTransaction(
                    account: m.account, date: state.today.adding(days: -i).iso, amount: amount(in: m.cents, &rng),
                    name: m.name, merchantName: m.merchant, pending: true))
        }
        // The bank's change log starts in date order, as a first historical pull would.
        for t in entries.sorted(by: { $0.date < $1.date }) { _ = try bank.add(t) }
        state.banks[id] = bank
    }

    /// Decimal text for a whole number of cents drawn from `range` ("-1234.05").
    static func amount(in range: ClosedRange<Int>, _ rng: inout SplitMix64) -> String {
        let span = UInt64(range.upperBound - range.lowerBound + 1)
        let cents = range.lowerBound + Int(rng.next() % span)
        let sign = cents < 0 ? "-" : ""
        let magnitude = abs(cents)
        let fraction = magnitude % 100
        return "\(sign)\(magnitude / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

/// The seeded generator for the default history. A private copy of the SplitMix64 the
/// MoneyFlow test support has: this target must not depend on any MoneyFlow module.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
