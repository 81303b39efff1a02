import MoneyFlowCore

/// Two sides that name different places are not one purchase, however alike their texts: the
/// one rule that reads where a payment was made.
///
/// A bank prints the card network's merchant location in its text: a store number
/// (`POS PURCHASE LUXMI #0393 MIAMI FL`) and, last, the state (`RECURRING CARD PMT QUANELUX
/// MEMBERSHIP GA`). A provider that enriches its feed says the same in fields of its own (Plaid
/// `location.store_number` and `location.region`, read from that same descriptor) while its name
/// for the charge (`Quanelux Membership`) shows neither. One merchant's equal charges at two
/// stores or in two states (two memberships of one chain, one price) are then told apart: the
/// feed's GA charge is no evidence for the bank's FL row. Without the rule the texts match
/// fully, and a row whose own charge is missing, or one a day or two further, takes the other
/// store's charge of the same day.
///
/// What each side says: the store numbers its texts print (``TextSimilarity/storeNumbers(_:)``)
/// or its provider's places give, and the state its texts end with or its provider's places
/// give. Two sides disagree when both say a store number and share none, or both say a state
/// and share none. A side that says nothing (most feeds' names, a bank text without a state)
/// constrains nothing. Disagreeing texts count as sharing nothing (similarity 0): the pair
/// stays, without text evidence, so a row with no other candidate is still offered for review.
enum PlaceRule {
    /// What one side says of where the payment was made.
    struct Claims: Sendable {
        /// Store numbers, sorted, without duplicates.
        var stores: [Int] = []
        /// State codes as two ASCII letters packed into 16 bits, sorted, without duplicates.
        var regions: [UInt16] = []
    }

    /// The claims of a side matched by texts `a` and `b` whose providers say `places`.
    static func claims(_ a: String, _ b: String?, places: [PaymentPlace]) -> Claims {
        var c = Claims(stores: TextSimilarity.storeNumbers(a, b))
        if let r = trailingRegion(a) { c.regions.append(r) }
        if let b, let r = trailingRegion(b) { c.regions.append(r) }
        for p in places {
            if let s = p.storeNumber, let n = storeNumber(s) { c.stores.append(n) }
            if let r = p.region, let code = regionCode(Substring(r), anyCase: true) { c.regions.append(code) }
        }
        if c.stores.count > 1 { c.stores = sortedUnique(c.stores) }
        if c.regions.count > 1 { c.regions = sortedUnique(c.regions) }
        return c
    }

    /// True when the two sides name different stores or different states.
    static func disagree(_ x: Claims, _ y: Claims) -> Bool {
        TextSimilarity.storesDisagree(x.stores, y.stores)
            || (!x.regions.isEmpty && !y.regions.isEmpty && !x.regions.contains(where: y.regions.contains))
    }

    /// The state a text ends with (`… MIAMI FL`), packed: its last word when that is a state code
    /// in capitals, as a card descriptor prints it (a name ending `Co` or `In` says no state).
    static func trailingRegion(_ text: String) -> UInt16? {
        // Read from the end in place: every text of every pair is asked.
        let u = text.utf8
        var end = u.endIndex
        while end > u.startIndex, case let b = u[u.index(before: end)], b == 0x20 || b == 0x09 { end = u.index(before: end) }
        var start = end
        while start > u.startIndex, case let b = u[u.index(before: start)], b != 0x20 && b != 0x09 { start = u.index(before: start) }
        guard u.distance(from: start, to: end) == 2 else { return nil }
        return regionCode(Substring(text[start..<end]), anyCase: false)
    }

    /// A provider's store number when it is digits (`0393` is store 393, as `#0393` in a text).
    static func storeNumber(_ s: String) -> Int? {
        let t = s.utf8
        guard !t.isEmpty, t.count <= 9, t.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        return Int(s)
    }

    /// `word` as a packed state code when it is one: in capitals, or in any case (`anyCase`, a
    /// provider's field).
    static func regionCode(_ word: Substring, anyCase: Bool) -> UInt16? {
        let u = word.utf8
        guard u.count == 2 else { return nil }
        let a = u[u.startIndex], b = u[u.index(after: u.startIndex)]
        func letter(_ x: UInt8) -> Bool { (x >= 0x41 && x <= 0x5A) || (anyCase && x >= 0x61 && x <= 0x7A) }
        guard letter(a), letter(b) else { return nil }
        let code = UInt16(a & 0xDF) << 8 | UInt16(b & 0xDF)
        return regionCodes.contains(code) ? code : nil
    }

    private static func sortedUnique<T: Comparable>(_ a: [T]) -> [T] {
        var out: [T] = []
        for x in a.sorted() where out.last != x { out.append(x) }
        return out
    }

    /// US states, the District of Columbia and the territories, as card descriptors print them.
    static let regionCodes: Set<UInt16> = Set(
        [
            "AL", "AK", "AZ", "AR", "CA", "CO", "CT", "DE", "FL", "GA", "HI", "ID", "IL", "IN", "IA", "KS", "KY", "LA", "ME",
            "MD", "MA", "MI", "MN", "MS", "MO", "MT", "NE", "NV", "NH", "NJ", "NM", "NY", "NC", "ND", "OH", "OK", "OR", "PA",
            "RI", "SC", "SD", "TN", "TX", "UT", "VT", "VA", "WA", "WV", "WI", "WY", "DC", "PR", "GU", "VI", "AS", "MP",
        ].map { s -> UInt16 in
            let u = Array(s.utf8)
            return UInt16(u[0]) << 8 | UInt16(u[1])
        })
}
