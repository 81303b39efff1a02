import GRDB
import MoneyFlowCore

/// The `record` table's one owner: an imported row as its source delivered it, with the batch
/// and the place in the file it came from. Every writer, snapshot and view query of the store
/// takes the table's columns and its INSERT/UPDATE statements from here, so a column is named
/// in one file (and in the migrations, which are history).
enum RecordTable {
    /// The columns after `id` as migration v1 created the table (v3 rebuilt it with the same
    /// columns and an AUTOINCREMENT id). Frozen: migrations replay it; a new column is a new
    /// migration's `ALTER TABLE`, never an edit here.
    static let createdColumns = """
        batch_id INTEGER NOT NULL REFERENCES batch(id),
        account_id INTEGER NOT NULL REFERENCES account(id),
        source_kind TEXT NOT NULL, fingerprint TEXT NOT NULL,
        external_id TEXT, pending_external_id TEXT,
        date TEXT NOT NULL, authorized_date TEXT, time TEXT,
        amount_minor INTEGER NOT NULL, currency TEXT NOT NULL,
        description TEXT NOT NULL, counterparty TEXT, note TEXT,
        balance_minor INTEGER, category TEXT, pending INTEGER NOT NULL DEFAULT 0,
        state TEXT NOT NULL DEFAULT 'active' CHECK (state IN ('active','superseded','removed')),
        line INTEGER, page INTEGER, row INTEGER, raw TEXT NOT NULL,
        file_seq INTEGER NOT NULL
        """

    /// The table's indexes (frozen like ``createdColumns``).
    static let indexes = [
        "CREATE UNIQUE INDEX record_by_fingerprint ON record(account_id, source_kind, fingerprint)",
        "CREATE INDEX record_by_external_id ON record(source_kind, external_id) WHERE external_id IS NOT NULL",
        "CREATE INDEX record_by_batch ON record(batch_id)",
    ]

    // MARK: A new record

    /// The columns an import writes for a new record, in ``bindNew(_:_:id:batchID:accountID:fingerprint:record:fileSeq:)``
    /// order (`state` keeps its default, `active`).
    static let insertColumns = [
        "id", "batch_id", "account_id", "source_kind", "fingerprint", "external_id", "pending_external_id", "date",
        "authorized_date", "time", "amount_minor", "currency", "description", "counterparty", "note", "balance_minor",
        "category", "pending", "line", "page", "row", "raw", "file_seq",
    ]

    /// Binds one new record's ``insertColumns`` from parameter `p` on (`id` 0: SQLite picks it).
    static func bindNew(
        _ s: RawStatement, _ p: Int32, id: Int64, batchID: Int64, accountID: Int64, fingerprint: String, record r: IncomingRecord,
        fileSeq: Int
    ) {
        if id == 0 { s.bindNull(p) } else { s.bind(p, id) }
        s.bind(p + 1, batchID); s.bind(p + 2, accountID); s.bind(p + 3, r.sourceKind.rawValue); s.bind(p + 4, fingerprint)
        s.bind(p + 5, r.externalID); s.bind(p + 6, r.pendingExternalID); s.bind(p + 7, r.date.iso); s.bind(p + 8, r.authorizedDate?.iso)
        s.bind(p + 9, r.time); s.bind(p + 10, r.amount.minorUnits); s.bind(p + 11, r.amount.currency); s.bind(p + 12, r.description)
        s.bind(p + 13, r.counterparty); s.bind(p + 14, r.note); s.bind(p + 15, r.balance?.minorUnits); s.bind(p + 16, r.category)
        s.bind(p + 17, r.pending); s.bind(p + 18, r.locator.line); s.bind(p + 19, r.locator.page); s.bind(p + 20, r.locator.row)
        s.bind(p + 21, r.raw); s.bind(p + 22, fileSeq)
    }

    // MARK: What a provider update changes

    /// The columns a provider update may change on a stored record, which its undo puts back
    /// (``RecordSnapshot`` holds their values, in this order).
    static let mutableColumns = [
        "date", "authorized_date", "time", "amount_minor", "currency", "description", "counterparty", "note", "balance_minor",
        "category", "pending", "pending_external_id", "raw", "state",
    ]

    /// ``mutableColumns`` of record `id`.
    static let selectMutable = "SELECT \(mutableColumns.joined(separator: ", ")) FROM record WHERE id = ?"

    /// The one UPDATE of ``mutableColumns`` (values in that order, then the record's id).
    static let updateMutable = "UPDATE record SET \(mutableColumns.map { "\($0) = ?" }.joined(separator: ", ")) WHERE id = ?"

    /// Sets a record's `state` (`active`, `superseded`, `removed`).
    static func setState(_ db: Database, recordID: Int64, _ state: String) throws {
        try db.cachedStatement(sql: "UPDATE record SET state = ? WHERE id = ?").execute(arguments: [state, recordID])
    }

    static func state(_ db: Database, recordID: Int64) throws -> String? {
        try String.fetchOne(db.cachedStatement(sql: "SELECT state FROM record WHERE id = ?"), arguments: [recordID])
    }

    // MARK: What the merged view reads

    /// The columns of ``SourcePrecedence/Record``, in its order: what a transaction's merged
    /// view is chosen from.
    static let precedenceColumns = [
        "source_kind", "pending", "date", "amount_minor", "currency", "description", "counterparty", "note", "balance_minor", "category",
    ]

    /// ``precedenceColumns`` of the record aliased `alias`, for a SELECT list.
    static func precedenceSelect(_ alias: String) -> String { precedenceColumns.map { "\(alias).\($0)" }.joined(separator: ", ") }

    /// The ``SourcePrecedence/Record`` of a row whose columns `at` … `at + 9` are ``precedenceColumns``.
    static func precedenceRecord(_ s: RawStatement, at c: Int32) -> SourcePrecedence.Record {
        SourcePrecedence.Record(
            kind: s.string(c), pending: s.int64(c + 1) != 0, date: s.string(c + 2), amountMinor: s.int64(c + 3),
            currency: s.string(c + 4), description: s.string(c + 5), counterparty: s.optionalString(c + 6),
            note: s.optionalString(c + 7), balanceMinor: s.optionalInt64(c + 8), category: s.optionalString(c + 9))
    }

    // MARK: What the import engine asks of a stored record

    /// The columns of an ``ExistingRecord``, for a SELECT over `record r` left-joined with its
    /// `link l` (see ``existing(_:)``).
    static let existingSelect =
        "r.id, r.account_id, l.transaction_id, r.source_kind, r.external_id, r.pending, r.state, r.date, r.amount_minor, r.currency"

    /// The ``ExistingRecord`` of a row whose first columns are ``existingSelect``.
    static func existing(_ s: RawStatement) -> ExistingRecord {
        ExistingRecord(
            id: s.int64(0), accountID: s.int64(1), transactionID: s.optionalInt64(2),
            sourceKind: SourceKind(rawValue: s.string(3)) ?? .csv, externalID: s.optionalString(4),
            pending: s.int64(5) != 0, state: ExistingRecord.State(rawValue: s.string(6)) ?? .active,
            date: LocalDate(iso: s.string(7), .lenient) ?? LocalDate(dayNumber: 0),
            amount: Money(minorUnits: s.int64(8), currency: s.string(9)))
    }

    // MARK: Where a record came from

    /// Where a record sits in its batch's file; `record_confirmation` keeps the same for every
    /// later batch that holds the record too.
    static let placeColumns = ["line", "page", "row", "raw", "file_seq"]

    /// The columns of a ``LedgerSource`` (see ``source(_:)``), for a SELECT over `record r`
    /// joined with its `batch b`.
    static let sourceSelect = """
        r.id AS rid, r.batch_id AS rbatch, r.source_kind, r.external_id, b.file_name, r.line, r.page, r.row, r.state,
        r.date AS rdate, r.amount_minor AS ramount, r.currency AS rcurrency, r.description AS rdescription,
        r.counterparty AS rcounterparty, r.pending AS rpending
        """

    /// A ``LedgerSource`` from a row holding ``sourceSelect``.
    static func source(_ r: Row) -> LedgerSource {
        var s = LedgerSource(
            id: r["rid"], kind: SourceKind(rawValue: r["source_kind"]) ?? .csv, externalID: r["external_id"],
            file: r["file_name"], line: r["line"], page: r["page"], row: r["row"], state: r["state"],
            date: LocalDate(iso: r["rdate"] as String, .lenient)!, amount: Money(minorUnits: r["ramount"], currency: r["rcurrency"]),
            description: r["rdescription"], counterparty: r["rcounterparty"], pending: r["rpending"])
        s.batchID = r["rbatch"]
        return s
    }
}
