import GRDB
import MoneyFlowCategories

/// Categories as a pass of a write (see ``WritePasses``): the computed category
/// (`txn_category`, ``CategoryTable``) of every transaction the write touched, from the
/// ``Categorizer``: the user's decision, the store's rules, what was learned from the user's
/// decisions, the provider's category through the mapping. Runs after the transfer pass, so a
/// transaction that just became a transfer between own accounts loses its category.
///
/// Which transactions: temporary triggers note, from the write's start, every transaction
/// inserted or whose shown fields changed (the merged view rewrites them when records join or
/// leave, so a wallet's merchant joining a card's row is seen), and both legs of every
/// transfer made or undone. A change of the user's decisions teaches the learner something new,
/// and a change of the category settings changes every rule's outcome: then every transaction
/// is categorised again, in the same write. A wallet refund follows its purchase: the refunds of
/// every noted purchase are noted too (``RefundOriginals``).
enum CategoryPass {
    /// Before the write's own changes: starts noting what the write changes.
    static func track(_ db: Database) throws {
        let note = "INSERT INTO mf_category_txn(id)"
        let all = "INSERT INTO mf_category_all(one) VALUES (1) ON CONFLICT DO NOTHING;"
        try db.execute(
            sql: """
                CREATE TEMP TABLE IF NOT EXISTS mf_category_txn (id INTEGER PRIMARY KEY);
                CREATE TEMP TABLE IF NOT EXISTS mf_category_all (one INTEGER PRIMARY KEY);
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_txn_insert AFTER INSERT ON main.txn
                BEGIN \(note) VALUES (NEW.id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_txn_update
                AFTER UPDATE OF account_id, amount_minor, currency, description, counterparty, note, category,
                                user_description, user_counterparty, user_note, status ON main.txn
                BEGIN \(note) VALUES (NEW.id) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_transfer_insert AFTER INSERT ON main.transfer
                BEGIN \(note) VALUES (NEW.out_txn) ON CONFLICT DO NOTHING; \(note) VALUES (NEW.in_txn) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_transfer_delete AFTER DELETE ON main.transfer
                BEGIN \(note) VALUES (OLD.out_txn) ON CONFLICT DO NOTHING; \(note) VALUES (OLD.in_txn) ON CONFLICT DO NOTHING; END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_decision_insert AFTER INSERT ON main.category_decision BEGIN \(all) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_decision_update AFTER UPDATE ON main.category_decision BEGIN \(all) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_decision_delete AFTER DELETE ON main.category_decision BEGIN \(all) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_setting_insert AFTER INSERT ON main.category_setting BEGIN \(all) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_setting_update AFTER UPDATE ON main.category_setting BEGIN \(all) END;
                CREATE TEMP TRIGGER IF NOT EXISTS mf_category_setting_delete AFTER DELETE ON main.category_setting BEGIN \(all) END;
                DELETE FROM mf_category_txn;
                DELETE FROM mf_category_all;
                """)
    }

    /// Categorises the transactions noted during this write (or all of them), then forgets them.
    static func settle(_ db: Database) throws {
        let everything = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_category_all)") == true
        let some = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM mf_category_txn)") == true
        guard everything || some else { return }
        try CategoryTable.dropDeleted(db)
        let categorizer = try Self.categorizer(db)
        let inputs = CategoryInputs(db: db)
        let all: [CategorizationInput]
        if everything {
            all = try inputs.loadAll()
        } else if categorizer.readsOnlyProviderCategories, try !CategoryInputs.storeHasProviderCategories(db) {
            // Nothing can categorise a noted transaction but its being a transfer leg, and a
            // wallet refund has no purchase to follow: every other noted one is uncategorised,
            // which for one with no stored row writes nothing. Only the legs and those with a
            // row are read (a first import of a bank CSV into a new store reads none).
            all = try inputs.load(Self.notedLegsAndStored(db))
        } else {
            try RefundOriginals(db: db).noteRefundsOfNoted()
            all = try inputs.loadNoted()
        }
        // Which of them have a stored row: most transactions of a bank CSV have nothing that
        // applies, which is the absence of a row, so nothing is written for them.
        let stored = Set(
            try Int64.fetchAll(
                db,
                sql: everything
                    ? "SELECT transaction_id FROM txn_category"
                    : "SELECT c.transaction_id FROM temp.mf_category_txn m JOIN txn_category c ON c.transaction_id = m.id"))
        var reasons: [CategoryReason: String] = [:]
        // Purchases first: a refund takes its purchase's category as just computed (or as
        // stored, when this write did not touch the purchase).
        // (Kept only for the purchases a refund here refunds: none in a bank CSV's import.)
        let refunded = Set(all.compactMap(\.refundOf))
        var computed: [Int64: CategoryAssignment] = [:]
        var batch = Categorizer.Batch(categorizer)
        for input in all where input.refundOf == nil {
            let a = batch.assign(input)
            try CategoryTable.writeComputed(db, input.id, a, hadRow: stored.contains(input.id), reasons: &reasons)
            if refunded.contains(input.id) { computed[input.id] = a }
        }
        for input in all {
            guard let of = input.refundOf else { continue }
            let original = try computed[of] ?? CategoryTable.computed(db, of)
            try CategoryTable.writeComputed(
                db, input.id, batch.assign(input, original: original), hadRow: stored.contains(input.id), reasons: &reasons)
        }
        try db.execute(sql: "DELETE FROM mf_category_txn; DELETE FROM mf_category_all;")
    }

    /// The noted transactions that are a leg of a transfer or have a stored category row, in
    /// id order; each walk starts from the (small) table of legs or rows.
    static func notedLegsAndStored(_ db: Database) throws -> [Int64] {
        let noted = "temp.mf_category_txn m"
        return Set(
            try Int64.fetchAll(
                db,
                sql: """
                    SELECT c.transaction_id FROM txn_category c CROSS JOIN \(noted) ON m.id = c.transaction_id
                    UNION SELECT x.out_txn FROM transfer x CROSS JOIN \(noted) ON m.id = x.out_txn
                    UNION SELECT x.in_txn FROM transfer x CROSS JOIN \(noted) ON m.id = x.in_txn
                    """)
        ).sorted()
    }

    /// The store's categoriser: the user's decisions (which also teach the learner, from the
    /// transactions they are about), the stored rules and provider mapping.
    static func categorizer(_ db: Database) throws -> Categorizer {
        let decisions = try CategoryTable.decisions(db)
        let settings = try CategorySettingTable.settings(db)
        let taught = try CategoryInputs(db: db).load(decisions.filter { $0.split == nil }.map(\.transactionID))
        return Categorizer.learning(from: decisions, inputs: taught, rules: settings.rules, providerMapping: settings.mapping)
    }
}
