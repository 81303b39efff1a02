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
        return try scan(ids: "temp.mf_category_ids")
    }

    /// The inputs of the transactions noted by ``CategoryPass`` during this write
    /// (`mf_category_txn`, read in place: an import of 100,000 rows copies no id), in id order.
    func loadNoted() throws -> [CategorizationInput] {
        try scan(ids: "temp.mf_category_txn")
    }

    /// The inputs of every transaction, in id order (no temporary table: readers use it too).
    func loadAll() throws -> [CategorizationInput] {
        try scan(ids: nil)
    }

    /// The inputs of the transactions whose ids table `ids` holds (nil: of all), read by column
    /// position. With an ids table, `CROSS JOIN` makes SQLite walk that table in id order and
    /// look each transaction and link up (it would otherwise scan every transaction and record
    /// of the store and sort the records, `raw` included); a link's rowid is its record's id, so
    /// `link_by_transaction` yields each transaction's records in record id order: no sort.
    private func scan(ids: String?) throws -> [CategorizationInput] {
        let txnFrom = ids.map { "\($0) i CROSS JOIN txn t ON t.id = i.id" } ?? "txn t"
        let recordFrom = ids.map { "\($0) i CROSS JOIN link l ON l.transaction_id = i.id" } ?? "link l"
        let (txnOrder, recordOrder) = ids == nil ? ("t.id", "l.transaction_id") : ("i.id", "i.id")
        let txns = try RawStatement(
            db,
            sql: """
                SELECT t.id, t.account_id, t.amount_minor, t.currency, t.date, coalesce(t.user_description, t.description),
                       coalesce(t.user_note, t.note), coalesce(t.user_counterparty, t.counterparty),
                       EXISTS (SELECT 1 FROM transfer x WHERE x.out_txn = t.id) OR EXISTS (SELECT 1 FROM transfer x WHERE x.in_txn = t.id)
                FROM \(txnFrom) ORDER BY \(txnOrder)
                """)
        let records = try RawStatement(
            db,
            sql: """
                SELECT l.transaction_id, r.source_kind, r.counterparty, r.description, r.category,
                       CASE WHEN r.source_kind = 'plaid' THEN r.raw END, r.external_id, r.account_id, r.date, r.amount_minor
                FROM \(recordFrom) CROSS JOIN record r ON r.id = l.record_id
                WHERE r.state = 'active' ORDER BY \(recordOrder), l.record_id
                """)
        // Account names read once: every input of an account shares its name's storage.
        let accounts = Dictionary(
            uniqueKeysWithValues: try Row.fetchAll(db, sql: "SELECT id, name FROM account").map { ($0[0] as Int64, $0[1] as String) })
        var inputs: [CategorizationInput] = []
        // Room for all at once: 100,000 inputs grown by doubling were copied about twice over.
        inputs.reserveCapacity(try Int.fetchOne(db, sql: "SELECT count(*) FROM \(ids ?? "txn")") ?? 0)
        var refunds: [(index: Int, clue: RefundOriginals.Clue)] = []
        var pending = try records.step()
        while try txns.step() {
            let id = txns.int64(0)
            let day = txns.string(4)
            guard let account = accounts[txns.int64(1)], let date = LocalDate(iso: day, .exact) ?? LocalDate(iso: day, .lenient)
            else { continue }
            var input = CategorizationInput(
                id: id, account: account, amount: Money(minorUnits: txns.int64(2), currency: txns.string(3)), date: date,
                description: txns.string(5), note: txns.optionalString(6), counterparty: txns.optionalString(7),
                isOwnTransfer: txns.int64(8) != 0)
            while pending, records.int64(0) <= id {
                if records.int64(0) == id, let clue = Self.add(records, to: &input), refunds.last?.index != inputs.count {
                    refunds.append((inputs.count, clue))
                }
                pending = try records.step()
            }
            inputs.append(input)
        }
        let originals = RefundOriginals(db: db)
        for (index, clue) in refunds { inputs[index].refundOf = try originals.original(of: clue, refund: inputs[index].id) }
        return inputs
    }

    /// The source kinds whose records give a transaction provider categories or make it a
    /// wallet refund (``add(_:to:)``): without them only the user, rules, the learner and
    /// transfers categorise.
    static let categoryKinds: [SourceKind] = [.alipay, .wechat, .plaid]

    /// Whether any record of the store is of a ``categoryKinds`` kind: one seek per account and
    /// kind on `record_by_fingerprint`, whatever the store's size.
    static func storeHasProviderCategories(_ db: Database) throws -> Bool {
        let kinds = categoryKinds.map { "'\($0.rawValue)'" }.joined(separator: ", ")
        return try Bool.fetchOne(
            db,
            sql: """
                SELECT EXISTS (SELECT 1 FROM account a WHERE EXISTS (
                  SELECT 1 FROM record r WHERE r.account_id = a.id AND r.source_kind IN (\(kinds))))
                """) == true
    }

    /// What the record on `r`'s current row (`transaction_id, source_kind, counterparty,
    /// description, category, raw, external_id, account_id, date, amount_minor`) tells about its
    /// transaction; a wallet refund also returns what it says about its purchase (resolved after
    /// the scan).
    private static func add(_ r: RawStatement, to input: inout CategorizationInput) -> RefundOriginals.Clue? {
        guard let kind = SourceKind(rawValue: r.string(1)) else { return nil }
        if !input.sourceKinds.contains(kind) { input.sourceKinds.append(kind) }
        switch kind {
        case .alipay, .wechat:
            let counterparty = r.optionalString(2), description = r.string(3), category = r.optionalString(4)
            input.walletMerchant = input.walletMerchant ?? text(counterparty)
            input.walletItem = input.walletItem ?? text(description)
            if let c = text(category) {
                input.providerCategories.append(.wallet(kind, category: c, item: text(description)))
                if PersonTransfer.wallet(kind, category: c) { input.counterpartyIsPerson = true }
            }
            return RefundOriginals.clue(
                kind: kind, orderID: r.optionalString(6), accountID: r.int64(7), counterparty: counterparty, description: description,
                category: category, date: r.string(8), amountMinor: r.int64(9))
        case .plaid:
            // The raw JSON read in place, never copied into a String.
            guard let fields = r.withText(5, { PlaidRecordFields(json: $0) }) ?? nil else { return nil }
            input.plaidMerchant = input.plaidMerchant ?? fields.merchant
            if let c = fields.category { input.providerCategories.append(c) }
            if fields.isPersonTransfer { input.counterpartyIsPerson = true }
        case .cmbPDF, .cmbCSV:
            if let summary = text(r.string(3)), PersonTransfer.cmb(summary: summary, counterparty: text(r.optionalString(2))) {
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
