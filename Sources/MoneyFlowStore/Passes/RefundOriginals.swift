import GRDB
import MoneyFlowCategories
import MoneyFlowCore

/// Which stored transaction a wallet refund gives money back for (``WalletRefund``), so that
/// ``CategoryPass`` books the refund to that transaction's category, and which refunds must be
/// categorised again when their purchase's transaction changed.
///
/// - Alipay: the purchase is the money-out record whose order number is the one the refund's
///   names (`<original>_<suffix>`, or its own for the PC bill's refund record).
/// - WeChat Pay: the refund names no order; the purchase is the latest money-out record of the
///   same account, 交易对方 and 商品, on or before the refund's day, at least as large as the
///   refund. None found: nothing is guessed (the refund keeps the ordinary sources).
struct RefundOriginals {
    let db: Database

    /// What a refund record says about its purchase.
    struct Clue {
        var kind: SourceKind
        var orderID: String?
        var accountID: Int64
        var counterparty: String?
        var description: String
        var date: String
        var amountMinor: Int64
    }

    /// The clue of a record, when it is a wallet refund (money in, refund category or item).
    static func clue(
        kind: SourceKind, orderID: String?, accountID: Int64, counterparty: String?, description: String, category: String?,
        date: String, amountMinor: Int64
    ) -> Clue? {
        guard amountMinor > 0 else { return nil }
        switch kind {
        case .alipay: guard orderID != nil, WalletRefund.isAlipayRefund(category: category, description: description) else { return nil }
        case .wechat: guard WalletRefund.isWeChatRefund(category: category) else { return nil }
        default: return nil
        }
        return Clue(
            kind: kind, orderID: orderID, accountID: accountID, counterparty: counterparty, description: description, date: date,
            amountMinor: amountMinor)
    }

    /// The transaction holding the purchase `clue` refunds, other than `refund` itself.
    func original(of clue: Clue, refund: Int64) throws -> Int64? {
        switch clue.kind {
        case .alipay:
            guard let order = clue.orderID else { return nil }
            return try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT l.transaction_id FROM record r JOIN link l ON l.record_id = r.id
                        WHERE r.source_kind = 'alipay' AND r.external_id = ? AND r.amount_minor < 0 AND r.state = 'active'
                          AND l.transaction_id <> ?
                        ORDER BY r.id LIMIT 1
                        """), arguments: [WalletRefund.alipayOriginalOrder(orderID: order), refund])
        case .wechat:
            return try Int64.fetchOne(
                db.cachedStatement(
                    sql: """
                        SELECT l.transaction_id FROM record r JOIN link l ON l.record_id = r.id
                        WHERE r.source_kind = 'wechat' AND r.external_id IS NOT NULL AND r.account_id = ? AND r.counterparty IS ?
                          AND r.description = ? AND r.amount_minor <= ? AND r.date <= ? AND r.state = 'active' AND l.transaction_id <> ?
                        ORDER BY r.date DESC, r.time DESC, r.id DESC LIMIT 1
                        """),
                arguments: [clue.accountID, clue.counterparty, clue.description, -clue.amountMinor, clue.date, refund])
        default: return nil
        }
    }

    /// Adds to the noted transactions (`mf_category_txn`) the refunds of every noted
    /// transaction's wallet purchases: a purchase categorised again takes its refunds along.
    /// A WeChat refund shares no number with its purchase, so the noted purchases' (account,
    /// counterparty, item) keys are gathered first and each refund looks its key up: one pass
    /// over the refunds, not one over every WeChat record for each noted purchase (a year of
    /// bills took 20 s that way).
    func noteRefundsOfNoted() throws {
        try db.execute(
            sql: """
                INSERT INTO mf_category_txn(id)
                SELECT lr.transaction_id FROM mf_category_txn m JOIN link lo ON lo.transaction_id = m.id
                JOIN record o ON o.id = lo.record_id AND o.source_kind = 'alipay' AND o.amount_minor < 0 AND o.external_id IS NOT NULL
                JOIN record r ON r.source_kind = 'alipay' AND r.amount_minor > 0
                  AND (r.external_id = o.external_id OR (r.external_id > o.external_id || '_' AND r.external_id < o.external_id || '`'))
                JOIN link lr ON lr.record_id = r.id
                WHERE true ON CONFLICT DO NOTHING;
                CREATE TEMP TABLE IF NOT EXISTS mf_refund_key (account_id INTEGER, counterparty TEXT, description TEXT);
                CREATE INDEX IF NOT EXISTS temp.mf_refund_key_by_all ON mf_refund_key(account_id, counterparty, description);
                DELETE FROM mf_refund_key;
                INSERT INTO mf_refund_key
                SELECT DISTINCT o.account_id, o.counterparty, o.description FROM mf_category_txn m JOIN link lo ON lo.transaction_id = m.id
                JOIN record o ON o.id = lo.record_id AND o.source_kind = 'wechat' AND o.amount_minor < 0 AND o.external_id IS NOT NULL;
                INSERT INTO mf_category_txn(id)
                SELECT lr.transaction_id FROM record r JOIN link lr ON lr.record_id = r.id
                WHERE r.source_kind = 'wechat' AND r.external_id IS NOT NULL AND r.amount_minor > 0
                  AND EXISTS (SELECT 1 FROM mf_refund_key k
                              WHERE k.account_id = r.account_id AND k.counterparty IS r.counterparty AND k.description = r.description)
                ON CONFLICT DO NOTHING;
                """)
    }
}
