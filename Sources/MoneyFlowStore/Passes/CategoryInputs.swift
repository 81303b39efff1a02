import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// What the categoriser sees of stored transactions (``CategorizationInput``): the merged
/// transaction with the user's own texts over it, its account's name, whether the transfer
/// pass made it a leg of a transfer between own accounts, and the texts and provider
/// categories of its active records: a wallet record's counterparty, item and category (the
/// real merchant, what was bought, 交易分类 / 交易类型), and Plaid's `merchant_name` and
/// `personal_finance_category` read from the record's `raw`.
struct CategoryInputs {
    let db: Database

    /// The inputs of transactions `ids` (those that no longer exist are skipped), in `ids` order.
    func load(_ ids: [Int64]) throws -> [CategorizationInput] {
        let txn = try db.cachedStatement(
            sql: """
                SELECT t.id, a.name, t.amount_minor, t.currency, t.date, coalesce(t.user_description, t.description),
                       coalesce(t.user_note, t.note), coalesce(t.user_counterparty, t.counterparty),
                       EXISTS (SELECT 1 FROM transfer x WHERE x.out_txn = t.id OR x.in_txn = t.id)
                FROM txn t JOIN account a ON a.id = t.account_id WHERE t.id = ?
                """)
        let records = try db.cachedStatement(
            sql: """
                SELECT r.source_kind, r.counterparty, r.description, r.category, r.raw
                FROM link l JOIN record r ON r.id = l.record_id
                WHERE l.transaction_id = ? AND r.state = 'active' ORDER BY r.id
                """)
        var inputs: [CategorizationInput] = []
        inputs.reserveCapacity(ids.count)
        for id in ids {
            guard let row = try Row.fetchOne(txn, arguments: [id]), let date = LocalDate(iso: row[4] as String, .lenient) else { continue }
            var input = CategorizationInput(
                id: id, account: row[1], amount: Money(minorUnits: row[2], currency: row[3]), date: date, description: row[5],
                note: row[6], counterparty: row[7], isOwnTransfer: row[8])
            for r in try Row.fetchAll(records, arguments: [id]) {
                guard let kind = SourceKind(rawValue: r[0]) else { continue }
                if !input.sourceKinds.contains(kind) { input.sourceKinds.append(kind) }
                switch kind {
                case .alipay, .wechat:
                    input.walletMerchant = input.walletMerchant ?? Self.text(r[1])
                    input.walletItem = input.walletItem ?? Self.text(r[2])
                    if let c = Self.text(r[3]) {
                        input.providerCategories.append(ProviderCategory(taxonomy: kind == .alipay ? .alipay : .wechat, primary: c))
                    }
                case .plaid:
                    guard let fields = PlaidRecordFields(raw: r[4]) else { continue }
                    input.plaidMerchant = input.plaidMerchant ?? fields.merchant
                    if let c = fields.category { input.providerCategories.append(c) }
                case .cmbPDF, .cmbCSV, .csv, .ofx: break
                }
            }
            inputs.append(input)
        }
        return inputs
    }

    private static func text(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
