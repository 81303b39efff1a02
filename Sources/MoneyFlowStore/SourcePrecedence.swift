import MoneyFlowCore

/// The store's one source-precedence policy: which of a transaction's supporting records each
/// shown field comes from. It asks a record's role (``SourceRole``), never its source's name, so
/// a new statement format or a new feed follows it without a change here.
///
/// - The statement (the bank's own record: a PDF statement, a bank CSV, an OFX download) wins
///   the date, amount, currency, description, note and balance: the account's balance is made
///   of exactly these rows.
/// - The feed wins what it knows better: the category, always; the merchant (as counterparty)
///   where the statement names no counterparty, or always when the feed is the payment channel
///   the statement names (``SourceKind/isPaymentChannel``: a wallet's 交易对方 behind the bank's
///   `财付通支付科技有限公司`). Such a feed's item (its description: 商品说明 / 商品) follows the statement's
///   own note (`财付通-微信支付-美团平台商户 · 美团订单`): the bank's text is kept, and the payment says what
///   was bought in `transactions`, JSON and exports.
/// - Without a statement, the feed's posted record wins over its pending one; with neither
///   role, the first record (by id).
/// - The transaction is pending only while every record is.
/// - User edits lock: a user's description, counterparty and note live in the transaction's
///   `user_*` columns, which this policy never computes or writes; every read shows the edit
///   over the merged value (`coalesce(user_description, description)`, ...), so no import,
///   relink or undo changes what a user set.
enum SourcePrecedence {
    /// The columns of one active supporting record that the merged view uses.
    struct Record {
        /// The record's `source_kind` as stored.
        var kind: String
        var pending: Bool
        var date: String
        var amountMinor: Int64
        var currency: String
        var description: String
        var counterparty: String?
        var note: String?
        var balanceMinor: Int64?
        var category: String?

        /// Nil for a kind this MoneyFlow does not know (it then wins nothing by role).
        var role: SourceRole? { SourceKind(rawValue: kind)?.role }
    }

    /// What a transaction shows, merged from its records.
    struct Merged {
        /// The record whose date, amount, currency, description, note and balance are shown.
        var primary: Record
        var counterparty: String?
        /// The shown note: the primary record's, plus a payment channel's item (see above).
        var note: String?
        var category: String?
        var pending: Bool
    }

    /// The merged view of a transaction supported by `active` (in record id order), or nil when
    /// no active record supports it.
    static func merge(_ active: [Record]) -> Merged? {
        guard let first = active.first else { return nil }
        let statement = active.first { $0.role == .statement }
        let feed = active.first { $0.role == .feed && !$0.pending } ?? active.first { $0.role == .feed }
        let primary = statement ?? feed ?? first
        let channelFeed = feed.flatMap { SourceKind(rawValue: $0.kind)?.isPaymentChannel == true ? $0 : nil }
        var note = primary.note
        if statement != nil, let item = channelFeed?.description, !item.isEmpty, item != channelFeed?.counterparty {
            note = [primary.note, item].compactMap { $0 }.joined(separator: " · ")
        }
        return Merged(
            primary: primary,
            counterparty: channelFeed?.counterparty ?? statement?.counterparty ?? feed?.counterparty ?? primary.counterparty, note: note,
            category: feed?.category ?? primary.category,
            pending: active.allSatisfy(\.pending))
    }
}
