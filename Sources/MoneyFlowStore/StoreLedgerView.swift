import GRDB
import MoneyFlowCore

/// ``LedgerView`` over one open database transaction.
struct StoreLedgerView: BulkLedgerView {
    let db: Database

    func accountID(forKey key: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT account_id FROM account_key WHERE key = ?", arguments: [key])
    }

    func accountID(named name: String) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT id FROM account WHERE name = ?", arguments: [name])
    }

    /// The record that `sql` (bound by `bind`) selects, if any.
    private func existingRecord(_ sql: String, bind: (RawStatement) -> Void) throws -> ExistingRecord? {
        let s = try RawStatement(db, sql: sql)
        bind(s)
        return try s.step() ? RecordTable.existing(s) : nil
    }

    func record(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> ExistingRecord? {
        try existingRecord(
            "SELECT \(RecordTable.existingSelect) FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.account_id = ? AND r.source_kind = ? AND r.fingerprint = ?"
        ) { s in
            s.bind(1, accountID); s.bind(2, kind.rawValue); s.bind(3, fingerprint)
        }
    }

    func record(kind: SourceKind, externalID: String) throws -> ExistingRecord? {
        try existingRecord(
            "SELECT \(RecordTable.existingSelect) FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.source_kind = ? AND r.external_id = ? ORDER BY r.id DESC LIMIT 1"
        ) { s in
            s.bind(1, kind.rawValue); s.bind(2, externalID)
        }
    }

    /// Rows matched by `sql` (bound to `args`), counted up to `limit + 1`.
    private func count(_ sql: String, limit: Int, bind: (RawStatement) -> Void) throws -> Int {
        let s = try RawStatement(db, sql: "SELECT count(*) FROM (SELECT 1 FROM record r WHERE \(sql) LIMIT \(limit + 1))")
        bind(s)
        guard try s.step() else { return 0 }
        return Int(s.int64(0))
    }

    // The bulk lookups answer for many keys at once. When the store holds few rows of the kind
    // asked about (compared with the keys), one scan of those rows is cheapest; otherwise one
    // indexed lookup per key, on a statement prepared once.

    func bulkRecords(accountID: Int64, kind: SourceKind, fingerprints: [String]) throws -> [String: ExistingRecord] {
        var out: [String: ExistingRecord] = [:]
        let wanted = Set(fingerprints)
        guard !wanted.isEmpty else { return out }
        let bindScope = { (s: RawStatement) in
            s.bind(1, accountID); s.bind(2, kind.rawValue)
        }
        let stored = try count("r.account_id = ? AND r.source_kind = ?", limit: 4 * wanted.count, bind: bindScope)
        if stored == 0 { return out }
        if stored <= 4 * wanted.count {
            let s = try RawStatement(
                db,
                sql:
                    "SELECT \(RecordTable.existingSelect), r.fingerprint FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.account_id = ? AND r.source_kind = ?"
            )
            bindScope(s)
            while try s.step() {
                let fp = s.string(10)
                if wanted.contains(fp) { out[fp] = RecordTable.existing(s) }
            }
        } else {
            let s = try RawStatement(
                db,
                sql:
                    "SELECT \(RecordTable.existingSelect) FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.account_id = ? AND r.source_kind = ? AND r.fingerprint = ?"
            )
            for fp in wanted {
                s.reset()
                bindScope(s)
                s.bind(3, fp)
                if try s.step() { out[fp] = RecordTable.existing(s) }
            }
        }
        return out
    }

    func bulkRecords(kind: SourceKind, externalIDs: [String]) throws -> [String: ExistingRecord] {
        var out: [String: ExistingRecord] = [:]
        let wanted = Set(externalIDs)
        guard !wanted.isEmpty else { return out }
        let stored = try count("r.source_kind = ? AND r.external_id IS NOT NULL", limit: 4 * wanted.count) { $0.bind(1, kind.rawValue) }
        if stored == 0 { return out }
        if stored <= 4 * wanted.count {
            // Ascending ids: the newest record of an id wins.
            let s = try RawStatement(
                db,
                sql:
                    "SELECT \(RecordTable.existingSelect) FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.source_kind = ? AND r.external_id IS NOT NULL ORDER BY r.id"
            )
            s.bind(1, kind.rawValue)
            while try s.step() {
                let x = s.string(4)
                if wanted.contains(x) { out[x] = RecordTable.existing(s) }
            }
        } else {
            let s = try RawStatement(
                db,
                sql:
                    "SELECT \(RecordTable.existingSelect) FROM record r LEFT JOIN link l ON l.record_id = r.id WHERE r.source_kind = ? AND r.external_id = ? ORDER BY r.id DESC LIMIT 1"
            )
            for x in wanted {
                s.reset()
                s.bind(1, kind.rawValue)
                s.bind(2, x)
                if try s.step() { out[x] = RecordTable.existing(s) }
            }
        }
        return out
    }

    func userDecisions(accountID: Int64, kind: SourceKind) throws -> [String: UserDecision] {
        var out: [String: UserDecision] = [:]
        for row in try Row.fetchAll(
            db, sql: "SELECT fingerprint, transaction_id FROM user_decision WHERE account_id = ? AND source_kind = ?",
            arguments: [accountID, kind.rawValue])
        {
            let t: Int64? = row["transaction_id"]
            out[row["fingerprint"]] = t.map { .linked(transactionID: $0) } ?? .standalone
        }
        return out
    }

    func candidateTransactions(accountID: Int64, currency: String, from: LocalDate, through: LocalDate) throws -> [CandidateTransaction] {
        // Read column by column through the C API: a big import plans against up to millions
        // of rows here, and GRDB's `Row` costs a dictionary-like lookup per column.
        let st = try RawStatement(
            db,
            sql: """
                SELECT t.id, t.account_id, t.date, t.amount_minor, t.currency, t.description, t.counterparty, t.pending,
                       r.source_kind, r.date AS rdate, r.external_id,
                       CASE WHEN r.source_kind IN \(SourceKindSQL.providerAccountIDs) THEN coalesce(json_extract(r.raw, '$.account_id'), '') END,
                       t.note, r.time, r.authorized_date, \(PlaceColumns.select("r"))
                FROM txn t JOIN link l ON l.transaction_id = t.id JOIN record r ON r.id = l.record_id AND r.state = 'active'
                WHERE t.account_id = ? AND t.currency = ? AND t.status = 'active' AND t.date BETWEEN ? AND ?
                ORDER BY t.id
                """)
        st.bind(1, accountID); st.bind(2, currency); st.bind(3, from.iso); st.bind(4, through.iso)
        var dates: [String: LocalDate] = [:] // the same few hundred dates, over and over
        func date(_ text: String) -> LocalDate? {
            if let d = dates[text] { return d }
            let d = LocalDate(iso: text, .lenient)
            dates[text] = d
            return d
        }
        // Texts that repeat from row to row (the Plaid account id, a store's name, merchants,
        // places) are shared, not held once per candidate.
        var shared = TextInterner()
        var out: [CandidateTransaction] = []
        while try st.step() {
            let id = st.int64(0)
            if out.last?.id != id {
                guard let d = date(st.string(2)) else { throw StoreError("transaction \(id) has an unreadable date") }
                out.append(
                    CandidateTransaction(
                        id: id, accountID: st.int64(1), date: d, amount: Money(minorUnits: st.int64(3), currency: shared(st.string(4))),
                        description: shared(st.string(5)), counterparty: shared(st.optionalString(6)), pending: st.int64(7) != 0,
                        supportingKinds: [], note: shared(st.optionalString(12))))
            }
            let last = out.count - 1
            if let kind = SourceKind(rawValue: st.string(8)) { out[last].supportingKinds.insert(kind) }
            if let d = date(st.string(9)) { out[last].otherDates.append(d) }
            if let e = st.optionalString(10) { out[last].externalIDs.append(e) }
            if let f = st.optionalString(11) { out[last].plaidAccountIDs.append(shared(f)) }
            if let t = st.optionalString(13), out[last].time.map({ t < $0 }) ?? true { out[last].time = shared(t) }
            if let a = st.optionalString(14), let d = date(a) { out[last].authorizedDates.append(d) }
            if let p = PlaceColumns.place(st, at: 15) { out[last].places.append(shared(p)) }
        }
        return out
    }

    func accounts(provider: String, number: String) throws -> [StoredAccount] {
        try Row.fetchAll(
            db,
            sql: "SELECT id, name, institution, number, type, subtype, provider FROM account WHERE provider = ? AND number = ? ORDER BY id",
            arguments: [provider, number]
        ).map { r in
            StoredAccount(
                id: r["id"], name: r["name"], institution: r["institution"], number: r["number"], type: r["type"],
                subtype: r["subtype"], provider: r["provider"])
        }
    }

    func accounts(numberEndingIn last4: String) throws -> [StoredAccount] {
        try Row.fetchAll(
            db,
            sql: """
                SELECT id, name, institution, number, type, subtype, provider,
                       (SELECT group_concat(key, char(31)) FROM (SELECT key FROM account_key k WHERE k.account_id = account.id ORDER BY key)) AS keys
                FROM account WHERE substr(number, -4) = ? ORDER BY id
                """, arguments: [last4]
        ).map { r in
            StoredAccount(
                id: r["id"], name: r["name"], institution: r["institution"], number: r["number"], type: r["type"],
                subtype: r["subtype"], provider: r["provider"],
                keys: ((r["keys"] as String?) ?? "").split(separator: "\u{1F}").map(String.init))
        }
    }

    func fileAlreadyImported(sha256: String) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM batch WHERE file_sha256 = ? AND undone_at IS NULL)", arguments: [sha256])
            ?? false
    }

    func userDecision(accountID: Int64, kind: SourceKind, fingerprint: String) throws -> UserDecision? {
        guard
            let row = try Row.fetchOne(
                db, sql: "SELECT transaction_id FROM user_decision WHERE account_id = ? AND source_kind = ? AND fingerprint = ?",
                arguments: [accountID, kind.rawValue, fingerprint])
        else { return nil }
        if let t: Int64 = row["transaction_id"] { return .linked(transactionID: t) }
        return .standalone
    }
}
