import GRDB
import MoneyFlowCore

extension StoreLedgerView: ReopeningLedgerView {
    func reopenable(
        accountID: Int64, currency: String, kinds: Set<SourceKind>, from: LocalDate, through: LocalDate,
        except: Set<Int64>, plaidAccountIDs: Set<String>
    ) throws -> Reopening {
        try reopenable(
            accountID: accountID, currency: currency, kinds: kinds, from: from, through: through, except: except,
            plaidAccountIDs: plaidAccountIDs, editedToo: false)
    }

    /// `editedToo`: records of transactions the user edited are reopened as well (a merge of
    /// accounts, whose edits go with their records: ``PlanApplier/moveEditsIfEmptied(_:from:to:)``);
    /// an import's relinks leave them alone.
    func reopenable(
        accountID: Int64, currency: String, kinds: Set<SourceKind>, from: LocalDate, through: LocalDate,
        except: Set<Int64>, plaidAccountIDs: Set<String>, editedToo: Bool
    ) throws -> Reopening {
        guard !kinds.isEmpty else { return Reopening() }
        let kindList = kinds.map(\.rawValue).sorted()
        // Engine links only, on live transactions nobody edited or linked by hand.
        let s = try RawStatement(
            db,
            sql: """
                SELECT r.id, l.transaction_id, r.source_kind, r.date, r.authorized_date, r.time, r.amount_minor, r.description,
                       r.counterparty, r.note, r.balance_minor, r.category, r.pending, r.external_id, r.pending_external_id,
                       r.line, r.page, r.row, r.raw,
                       EXISTS (SELECT 1 FROM review rv WHERE rv.record_id = r.id),
                       EXISTS (SELECT 1 FROM link o JOIN record x ON x.id = o.record_id AND x.state = 'active'
                               WHERE o.transaction_id = l.transaction_id AND o.record_id <> r.id),
                       CASE WHEN r.source_kind IN \(SourceKindSQL.providerAccountIDs) THEN json_extract(r.raw, '$.account_id') END,
                       \(PlaceColumns.select("r"))
                FROM record r JOIN link l ON l.record_id = r.id JOIN txn t ON t.id = l.transaction_id
                WHERE r.account_id = ? AND r.source_kind IN (\(kindList.map { _ in "?" }.joined(separator: ", ")))
                  AND r.currency = ? AND r.state = 'active' AND r.date BETWEEN ? AND ?
                  AND l.decided_by = 'auto' AND t.status = 'active'
                  AND (\(editedToo ? "1" : "0") OR (t.user_description IS NULL AND t.user_counterparty IS NULL AND t.user_note IS NULL))
                  AND NOT EXISTS (SELECT 1 FROM link u WHERE u.transaction_id = l.transaction_id AND u.decided_by = 'user')
                ORDER BY r.id
                """)
        s.bind(1, accountID)
        for (k, kind) in kindList.enumerated() { s.bind(Int32(2 + k), kind) }
        var p = Int32(2 + kindList.count)
        s.bind(p, currency); p += 1
        s.bind(p, from.iso); p += 1
        s.bind(p, through.iso)
        var out = Reopening()
        var shared = Set<Int64>()
        while try s.step() {
            let id = s.int64(0), t = s.int64(1)
            if except.contains(id) { continue }
            // Another Plaid account's record (unknown ones are planned again, as always).
            let plaidAccountID = s.optionalString(21)
            if let p = plaidAccountID, !plaidAccountIDs.contains(p) { continue }
            guard let kind = SourceKind(rawValue: s.string(2)), let date = LocalDate(iso: s.string(3), .lenient) else {
                throw StoreError("record \(id) has an unreadable kind or date")
            }
            let record = IncomingRecord(
                accountKey: String(accountID), sourceKind: kind, date: date, amount: Money(minorUnits: s.int64(6), currency: currency),
                description: s.string(7), counterparty: s.optionalString(8), note: s.optionalString(9),
                balance: s.optionalInt64(10).map { Money(minorUnits: $0, currency: currency) }, pending: s.int64(12) != 0,
                externalID: s.optionalString(13), pendingExternalID: s.optionalString(14),
                authorizedDate: s.optionalString(4).flatMap { LocalDate(iso: $0, .lenient) }, category: s.optionalString(11),
                time: s.optionalString(5),
                locator: Locator(
                    line: s.optionalInt64(15).map(Int.init), page: s.optionalInt64(16).map(Int.init),
                    row: s.optionalInt64(17).map(Int.init)),
                raw: s.string(18), place: PlaceColumns.place(s, at: 22))
            let standing: ReopenedRecord.Standing = s.int64(19) != 0 ? .review : s.int64(20) != 0 ? .linked : .standalone
            if standing == .linked { shared.insert(t) }
            out.records.append(
                ReopenedRecord(recordID: id, transactionID: t, standing: standing, record: record, plaidAccountID: plaidAccountID))
        }
        let reopened = Set(out.records.map(\.recordID))
        for r in out.records where r.standing != .linked { out.remainders[r.transactionID] = .some(nil) }
        if !shared.isEmpty {
            let records = try RawStatement(
                db,
                sql: """
                    SELECT r.id, \(RecordTable.precedenceSelect("r")), r.external_id,
                           CASE WHEN r.source_kind IN \(SourceKindSQL.providerAccountIDs) THEN coalesce(json_extract(r.raw, '$.account_id'), '') END,
                           r.time, r.authorized_date, \(PlaceColumns.select("r"))
                    FROM link l JOIN record r ON r.id = l.record_id
                    WHERE l.transaction_id = ? AND r.state = 'active' ORDER BY r.id
                    """)
            for t in shared.sorted() {
                out.remainders[t] = .some(try remainder(transactionID: t, accountID: accountID, without: reopened, records: records))
            }
        }
        return out
    }

    /// Transaction `transactionID` as a candidate built from its active records except
    /// `without`; `s` selects a transaction's active records.
    private func remainder(transactionID: Int64, accountID: Int64, without: Set<Int64>, records s: RawStatement) throws
        -> CandidateTransaction?
    {
        s.reset()
        s.bind(1, transactionID)
        var sources: [SourcePrecedence.Record] = []
        var kinds = SourceKindSet(), dates: InlineList<LocalDate> = [], externalIDs: InlineList<String> = []
        var plaidAccountIDs: InlineList<String> = [], time: String?, authorized: InlineList<LocalDate> = []
        var places: InlineList<PaymentPlace> = []
        while try s.step() {
            guard !without.contains(s.int64(0)) else { continue }
            let source = RecordTable.precedenceRecord(s, at: 1)
            sources.append(source)
            if let k = SourceKind(rawValue: source.kind) { kinds.insert(k) }
            if let d = LocalDate(iso: source.date, .lenient) { dates.append(d) }
            if let e = s.optionalString(11) { externalIDs.append(e) }
            if let f = s.optionalString(12) { plaidAccountIDs.append(f) }
            if let t = s.optionalString(13), time.map({ t < $0 }) ?? true { time = t }
            if let a = s.optionalString(14).flatMap({ LocalDate(iso: $0, .lenient) }) { authorized.append(a) }
            if let p = PlaceColumns.place(s, at: 15) { places.append(p) }
        }
        guard let m = SourcePrecedence.merge(sources), let date = LocalDate(iso: m.primary.date, .lenient) else { return nil }
        return CandidateTransaction(
            id: transactionID, accountID: accountID, date: date,
            amount: Money(minorUnits: m.primary.amountMinor, currency: m.primary.currency),
            description: m.primary.description, counterparty: m.counterparty, pending: m.pending,
            supportingKinds: kinds, otherDates: dates, externalIDs: externalIDs, plaidAccountIDs: plaidAccountIDs, note: m.note, time: time,
            authorizedDates: authorized, places: places)
    }
}
