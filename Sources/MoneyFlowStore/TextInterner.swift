import MoneyFlowCore

/// One shared `String` per distinct text, for the duration of one bulk read.
///
/// A read of candidate transactions repeats the same few texts on every row (the Plaid
/// `account_id`, a merchant's name, a city): each read from SQLite is a new heap string, so a
/// million rows held a million copies of one 38-byte id. Handing out the first copy instead
/// shares one buffer. Short texts (15 bytes of UTF-8 or less) live inside the `String` value
/// itself and are passed through.
struct TextInterner {
    private var seen: [String: String] = [:]

    mutating func callAsFunction(_ s: String) -> String {
        guard s.utf8.count > 15 else { return s }
        if let shared = seen[s] {
            // `String` equality is Unicode's canonical equivalence: `é` and `e` + U+0301 are one
            // key. Shared only when the bytes are the same, so no text changes its spelling.
            return shared.utf8.elementsEqual(s.utf8) ? shared : s
        }
        seen[s] = s
        return s
    }

    mutating func callAsFunction(_ s: String?) -> String? { s.map { self($0) } }

    /// The place with its texts shared.
    mutating func callAsFunction(_ p: PaymentPlace) -> PaymentPlace {
        PaymentPlace(storeNumber: self(p.storeNumber), city: self(p.city), region: self(p.region))
    }
}
