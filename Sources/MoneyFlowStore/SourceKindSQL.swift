import MoneyFlowCore

/// The store's SQL asks a record's role or capability (``SourceKind/role``,
/// ``SourceKind/hasProviderAccountIDs``), never its source's name: these are the `source_kind`
/// value lists those questions stand for, as SQL literals (the raw values are the code's own
/// constants, never user text).
enum SourceKindSQL {
    /// `('cmb-pdf', 'cmb-csv', ...)`: the kinds for which `p` holds.
    static func list(_ p: (SourceKind) -> Bool) -> String {
        "(" + SourceKind.allCases.filter(p).map { "'\($0.rawValue)'" }.joined(separator: ", ") + ")"
    }
    /// Feeds (Plaid, the wallet bills).
    static let feeds = list { $0.role == .feed }
    /// Sources whose records carry the provider's account id (`$.account_id` in their raw JSON).
    static let providerAccountIDs = list(\.hasProviderAccountIDs)
}
