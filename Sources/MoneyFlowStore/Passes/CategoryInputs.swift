import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// What the categoriser sees of stored transactions (``CategorizationInput``): the merged
/// transaction with the user's own texts over it, its account's name, whether the transfer
/// pass made it a leg of a transfer between own accounts, and the texts and provider
/// categories of its active records: a wallet record's counterparty, item and category (the
/// real merchant, what was bought, 交易分类 / 交易类型), and Plaid's `merchant_name` and
/// `personal_finance_category` read from the record's `raw`; and whether any record says the
/// money went to or came from a person (``PersonTransfer``: a WeChat 转账, an Alipay 转账红包, a
/// Plaid P2P transfer, a CMB 转账汇款 to a personal name), which the learner keeps apart from shops;
/// and, for a wallet refund, the transaction of the purchase it refunds (``RefundOriginals``).
struct CategoryInputs {
    let db: Database

    /// The inputs of transactions `ids` (those that no longer exist are skipped), in id order.
    /// Two statements walked in step (the transactions, and their records sorted the same way)
    /// instead of two per transaction: a write that touched 100,000 transactions reads them at
    /// the speed of a scan. `raw` is read for Plaid records only (nothing else is parsed).
    func load(_ ids: [Int64]) throws -> [CategorizationInput] {
        try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS mf_category_ids (id INTEGER PRIMARY KEY); DELETE FROM mf_category_ids")
        let insert = try db.cachedStatement(sql: "INSERT INTO mf_category_ids(id) VALUES (?) ON CONFLICT DO NOTHING")
        for id in ids { try insert.execute(arguments: [id]) }
        defer { try? db.execute(sql: "DELETE FROM mf_category_ids") }
        return try scan(
            from: "temp.mf_category_ids i JOIN txn t ON t.id = i.id",
            records: "temp.mf_category_ids i JOIN link l ON l.transaction_id = i.id")
    }

    /// The inputs of the transactions noted by ``CategoryPass`` during this write
    /// (`mf_category_txn`, read in place: an import of 100,000 rows copies no id), in id order.
    func loadNoted() throws -> [CategorizationInput] {
        try scan(
            from: "temp.mf_category_txn i JOIN txn t ON t.id = i.id",
            records: "temp.mf_category_txn i JOIN link l ON l.transaction_id = i.id")
    }

    /// The inputs of every transaction, in id order (no temporary table: readers use it too).
    func loadAll() throws -> [CategorizationInput] {
        try scan(from: "txn t", records: "link l")
    }

    private func scan(from: String, records recordsFrom: String) throws -> [CategorizationInput] {
        let txns = try Row.fetchCursor(
            db,
            sql: """
                SELECT t.id, a.name, t.amount_minor, t.currency, t.date, coalesce(t.user_description, t.description),
                       coalesce(t.user_note, t.note), coalesce(t.user_counterparty, t.counterparty),
                       EXISTS (SELECT 1 FROM transfer x WHERE x.out_txn = t.id) OR EXISTS (SELECT 1 FROM transfer x WHERE x.in_txn = t.id)
                FROM \(from) JOIN account a ON a.id = t.account_id ORDER BY t.id
                """)
        let records = try Row.fetchCursor(
            db,
            sql: """
                SELECT l.transaction_id, r.source_kind, r.counterparty, r.description, r.category,
                       CASE WHEN r.source_kind = 'plaid' THEN r.raw END, r.external_id, r.account_id, r.date, r.amount_minor
                FROM \(recordsFrom) JOIN record r ON r.id = l.record_id
                WHERE r.state = 'active' ORDER BY l.transaction_id, r.id
                """)
        var inputs: [CategorizationInput] = []
        var refunds: [(index: Int, clue: RefundOriginals.Clue)] = []
        // Rows are copied out of the cursor: a cursor reuses its row between steps.
        var pending = try records.next().map { $0.copy() }
        while let row = try txns.next() {
            let id: Int64 = row[0]
            guard let date = LocalDate(iso: row[4] as String, .lenient) else { continue }
            var input = CategorizationInput(
                id: id, account: row[1], amount: Money(minorUnits: row[2], currency: row[3]), date: date, description: row[5],
                note: row[6], counterparty: row[7], isOwnTransfer: row[8])
            while let r = pending, (r[0] as Int64) <= id {
                if (r[0] as Int64) == id, let clue = Self.add(r, to: &input), !refunds.contains(where: { $0.index == inputs.count }) {
                    refunds.append((inputs.count, clue))
                }
                pending = try records.next().map { $0.copy() }
            }
            inputs.append(input)
        }
        let originals = RefundOriginals(db: db)
        for (index, clue) in refunds { inputs[index].refundOf = try originals.original(of: clue, refund: inputs[index].id) }
        return inputs
    }

    /// What one record (`transaction_id, source_kind, counterparty, description, category, raw,
    /// external_id, account_id, date, amount_minor`) tells about its transaction; a wallet
    /// refund also returns what it says about its purchase (resolved after the scan).
    private static func add(_ r: Row, to input: inout CategorizationInput) -> RefundOriginals.Clue? {
        guard let kind = SourceKind(rawValue: r[1]) else { return nil }
        if !input.sourceKinds.contains(kind) { input.sourceKinds.append(kind) }
        switch kind {
        case .alipay, .wechat:
            input.walletMerchant = input.walletMerchant ?? text(r[2])
            input.walletItem = input.walletItem ?? text(r[3])
            if let c = text(r[4]) {
                input.providerCategories.append(.wallet(kind, category: c, item: text(r[3])))
                if PersonTransfer.wallet(kind, category: c) { input.counterpartyIsPerson = true }
            }
            return RefundOriginals.clue(
                kind: kind, orderID: r[6], accountID: r[7], counterparty: r[2], description: r[3], category: r[4], date: r[8],
                amountMinor: r[9])
        case .plaid:
            guard let raw: String = r[5], let fields = PlaidRecordFields(raw: raw) else { return nil }
            input.plaidMerchant = input.plaidMerchant ?? fields.merchant
            if let c = fields.category { input.providerCategories.append(c) }
            if fields.isPersonTransfer { input.counterpartyIsPerson = true }
        case .cmbPDF, .cmbCSV:
            if let summary = text(r[3]), PersonTransfer.cmb(summary: summary, counterparty: text(r[2])) {
                input.counterpartyIsPerson = true
            }
        case .csv, .ofx: break
        }
        return nil
    }

    private static func text(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }
}
