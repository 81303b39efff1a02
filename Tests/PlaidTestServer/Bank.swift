/// A transaction as the bank holds it at one revision.
struct BankTransaction: Equatable, Sendable {
    let bankID: String
    /// Creation order at the bank, for a stable output order among same-day transactions.
    let ordinal: Int
    var account: String
    var day: PlaidDay
    var amount: String
    var name: String
    var merchantName: String?
    var pending: Bool
    var authorizedDate: String?
    /// For a posted transaction that replaced a pending one: the pending one's bank id.
    var pendingBankID: String?
    /// Position in the bank's change log of the change that wrote this state: two states of a
    /// transaction differ exactly when their revisions differ (what makes it `modified`).
    var revision: Int = 0
}

/// One institution's data and its change log.
///
/// Every change is appended to `log`; the log position is what a cursor records. The state at
/// any position is a replay of the log, so a sync can be answered "relative to what the cursor
/// already delivered" for any cursor the server ever handed out, as Plaid's cursors work.
struct Bank: Sendable {
    enum Change: Sendable {
        case upsert(BankTransaction)
        case delete(bankID: String)
    }

    var institution: TestInstitution
    private(set) var log: [Change] = []
    private(set) var current: [String: BankTransaction] = [:]
    private var nextOrdinal = 1

    init(institution: TestInstitution) { self.institution = institution }

    /// The log position after the last change.
    var head: Int { log.count }

    /// The transactions that existed after the first `position` changes.
    func state(at position: Int) -> [String: BankTransaction] {
        if position == head { return current }
        var state: [String: BankTransaction] = [:]
        for change in log.prefix(position) {
            switch change {
            case .upsert(let t): state[t.bankID] = t
            case .delete(let id): state[id] = nil
            }
        }
        return state
    }

    mutating func add(_ t: TestTransaction) throws(PlaidTestServerError) -> String {
        guard institution.accounts.contains(where: { $0.key == t.account }) else {
            throw PlaidTestServerError(description: "\(institution.id) has no account \(t.account)")
        }
        let day = try Self.day(t.date)
        try Self.checkAmount(t.amount)
        let id = "\(institution.id)-txn-\(nextOrdinal)"
        let record = BankTransaction(
            bankID: id, ordinal: nextOrdinal, account: t.account, day: day, amount: t.amount, name: t.name,
            merchantName: t.merchantName, pending: t.pending, authorizedDate: t.authorizedDate)
        nextOrdinal += 1
        write(record)
        return id
    }

    mutating func modify(_ bankID: String, name: String?, amount: String?, date: String?, merchantName: String?)
        throws(PlaidTestServerError)
    {
        var t = try existing(bankID)
        if let name { t.name = name }
        if let amount { try Self.checkAmount(amount); t.amount = amount }
        if let date { t.day = try Self.day(date) }
        if let merchantName { t.merchantName = merchantName }
        write(t)
    }

    mutating func remove(_ bankID: String) throws(PlaidTestServerError) {
        _ = try existing(bankID)
        log.append(.delete(bankID: bankID))
        current[bankID] = nil
    }

    /// Pending -> posted as Plaid reports it: the pending transaction disappears and a new posted
    /// one appears that names it in `pending_transaction_id`; amount and name may change (tips).
    mutating func post(_ pendingBankID: String, amount: String?, name: String?, date: String) throws(PlaidTestServerError) -> String {
        let pending = try existing(pendingBankID)
        guard pending.pending else { throw PlaidTestServerError(description: "\(pendingBankID) is not pending") }
        try remove(pendingBankID)
        let id = try add(
            TestTransaction(
                account: pending.account, date: date, amount: amount ?? pending.amount, name: name ?? pending.name,
                merchantName: pending.merchantName, pending: false, authorizedDate: pending.authorizedDate ?? pending.day.iso))
        var posted = current[id]!
        posted.pendingBankID = pendingBankID
        write(posted)
        return id
    }

    mutating func setBalance(account: String, current value: String, available: String?) throws(PlaidTestServerError) {
        guard let index = institution.accounts.firstIndex(where: { $0.key == account }) else {
            throw PlaidTestServerError(description: "\(institution.id) has no account \(account)")
        }
        try Self.checkAmount(value)
        if let available { try Self.checkAmount(available) }
        institution.accounts[index].current = value
        institution.accounts[index].available = available
    }

    private mutating func write(_ t: BankTransaction) {
        var t = t
        t.revision = log.count
        log.append(.upsert(t))
        current[t.bankID] = t
    }

    private func existing(_ bankID: String) throws(PlaidTestServerError) -> BankTransaction {
        guard let t = current[bankID] else {
            throw PlaidTestServerError(description: "\(institution.id) has no current transaction \(bankID)")
        }
        return t
    }

    private static func day(_ text: String) throws(PlaidTestServerError) -> PlaidDay {
        guard let day = PlaidDay(iso: text) else { throw PlaidTestServerError(description: "not a YYYY-MM-DD date: \(text)") }
        return day
    }

    /// Amounts must be JSON number text as Plaid sends it (`-12.5`, `1234.12`): they are written
    /// into responses verbatim.
    static func checkAmount(_ text: String) throws(PlaidTestServerError) {
        guard case .number(let n)? = try? PlaidJSON.parse(text), n == text, !text.contains("e"), !text.contains("E")
        else { throw PlaidTestServerError(description: "not a decimal amount: \(text)") }
    }
}
