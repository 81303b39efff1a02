/// Identity keys that make re-imports idempotent.
public enum Fingerprint {
    /// Key of a record within its account and source kind.
    ///
    /// Records with a provider id are keyed by it. Others by date, amount, normalised text and
    /// the occurrence index of identical rows within the file, so two genuine identical rows
    /// stay two while a second import of the same (or an overlapping) file matches row for row.
    public static func key(for record: IncomingRecord, occurrence: Int) -> String {
        if let id = record.externalID, !id.isEmpty { return "id:" + id }
        return "\(record.date.iso)|\(record.amount.decimalString)|\(record.amount.currency)|\(record.identityText)|#\(occurrence)"
    }

    /// Keys for all records of a file, in file order, with occurrence indexes assigned.
    public static func keys(for records: [IncomingRecord]) -> [String] {
        var seen: [String: Int] = [:]
        return records.map { r in
            let base = "\(r.accountKey)\u{1E}\(r.sourceKind.rawValue)\u{1E}\(key(for: r, occurrence: 0))"
            let n = seen[base, default: 0]
            seen[base] = n + 1
            return key(for: r, occurrence: n)
        }
    }
}
