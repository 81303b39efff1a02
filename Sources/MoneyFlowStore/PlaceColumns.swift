import MoneyFlowCore

/// A provider record's ``PaymentPlace`` as the store reads it back: Plaid's `location` lives in
/// the record's raw JSON (no column of its own), so the candidate queries extract its three
/// fields for provider records only.
enum PlaceColumns {
    /// Three SQL columns (store number, city, region) of record alias `r`; NULL for other kinds.
    static func select(_ r: String) -> String {
        ["store_number", "city", "region"].map {
            "CASE WHEN \(r).source_kind IN \(SourceKindSQL.providerAccountIDs) THEN json_extract(\(r).raw, '$.location.\($0)') END"
        }.joined(separator: ", ")
    }

    /// The place in the three columns from `col` on, nil when they say nothing.
    static func place(_ s: RawStatement, at col: Int32) -> PaymentPlace? {
        func text(_ c: Int32) -> String? { s.optionalString(c).flatMap { $0.isEmpty ? nil : $0 } }
        let p = PaymentPlace(storeNumber: text(col), city: text(col + 1), region: text(col + 2))
        return p.isEmpty ? nil : p
    }
}
