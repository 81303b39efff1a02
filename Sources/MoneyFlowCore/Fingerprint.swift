import Foundation

/// Identity keys that make re-imports idempotent.
///
/// The strings are stored in every store (`record.fingerprint`) and must never change, byte for
/// byte: `Tests/MoneyFlowStoreTests/FingerprintPinTests.swift` pins them and compares this
/// implementation with the original string-interpolation one.
public enum Fingerprint {
    /// Key of a record within its account and source kind.
    ///
    /// Records with a provider id are keyed by it (`id:<scope>:<id>` when the id is unique only
    /// within ``IncomingRecord/externalIDScope``: the key OFX records always had). Others by date, amount, normalised text and
    /// the occurrence index of identical rows within the file, so two genuine identical rows
    /// stay two while a second import of the same (or an overlapping) file matches row for row.
    public static func key(for record: IncomingRecord, occurrence: Int) -> String {
        if let id = record.externalID, !id.isEmpty { return providerKey(id, scope: record.externalIDScope) }
        var buf: [UInt8] = []
        buf.reserveCapacity(128)
        appendCore(record, to: &buf)
        FingerprintText.appendDecimal(UInt64(occurrence.magnitude), negative: occurrence < 0, to: &buf)
        return String(decoding: buf, as: UTF8.self)
    }

    /// Key of a record with a provider id.
    static func providerKey(_ id: String, scope: String?) -> String {
        guard let scope, !scope.isEmpty else { return "id:" + id }
        return "id:" + scope + ":" + id
    }

    /// Keys for all records of a file, in file order, with occurrence indexes assigned.
    public static func keys(for records: [IncomingRecord]) -> [String] {
        // The occurrence counts identical keys per account and kind: originally one dictionary
        // of `account RS kind RS key` strings. Keyed by the three parts instead, which is the
        // same grouping (String equality included) as long as no account key holds an RS.
        var lastKey: String? = nil
        for i in records.indices where records[i].accountKey != lastKey {
            lastKey = records[i].accountKey
            if records[i].accountKey.utf8.contains(0x1E) { return concatenatedKeys(for: records) }
        }
        // Each record's first-occurrence key ("...|#0", or its provider key) depends on the
        // record alone: large files spell them on every core (contiguous runs, in file order).
        let workers = min(ProcessInfo.processInfo.activeProcessorCount, 8, max(1, records.count / 50_000))
        let parts = ParallelMap.map(workers, workers: workers) { w, _ in
            firstKeys(records, ParallelMap.range(of: w, workers: workers, count: records.count), shards: workers)
        }
        var out = parts.flatMap(\.keys)
        let repeats = occurrences(records, firsts: out, hashes: parts.flatMap(\.hash), shard: parts.flatMap(\.shard), shards: workers)
        var buf: [UInt8] = []
        buf.reserveCapacity(256)
        for (i, n) in repeats.joined() {
            // The same text with the occurrence in place of the first one's "0".
            buf.removeAll(keepingCapacity: true)
            buf.append(contentsOf: out[i].utf8.dropLast())
            FingerprintText.appendDecimal(UInt64(n), negative: false, to: &buf)
            out[i] = String(decoding: buf, as: UTF8.self)
        }
        return out
    }

    /// The records that repeat an earlier record's group, with their occurrence (the first
    /// occurrence, 0, keeps its first key). Occurrences count per group in file order. A
    /// group's records all fall in one shard (by the hash of their first key), so each core
    /// counts its shard's groups over the whole file, in file order: the counts of one pass.
    private static func occurrences(
        _ records: [IncomingRecord], firsts: [String], hashes: [Int], shard: [Int32], shards: Int
    ) -> [[(Int, Int)]] {
        ParallelMap.map(shards, workers: shards) { w, _ in
            occurrences(records, firsts: firsts, hashes: hashes, shard: shard, of: w, shards: shards)
        }
    }

    private static func occurrences(
        _ records: [IncomingRecord], firsts: [String], hashes: [Int], shard: [Int32], of w: Int, shards: Int
    ) -> [(Int, Int)] {
        // The first occurrence's full key stands for its group in `seen`.
        var seen: [GroupKey: Int] = [:]
        seen.reserveCapacity(records.count / shards)
        var out: [(Int, Int)] = []
        for i in records.indices where shard[i] == Int32(w) {
            let group = GroupKey(accountKey: records[i].accountKey, kind: records[i].sourceKind, key: firsts[i], hash: hashes[i])
            if let n = seen.updateValue(1, forKey: group) {
                seen[group] = n + 1
                out.append((i, n))
            }
        }
        return out
    }

    /// The key of each record of `range` as its first occurrence (a provider key, or the
    /// content key with occurrence 0), and the shard of `shards` whose core counts its group's
    /// occurrences (-1: a provider key, which counts none), with the key's hash (spelled once:
    /// it picks the shard and keys the count). Records are read in place: a copy of each would
    /// retain every one of its texts.
    private static func firstKeys(
        _ records: [IncomingRecord], _ range: Range<Int>, shards: Int
    ) -> (keys: [String], shard: [Int32], hash: [Int]) {
        var out: [String] = []
        out.reserveCapacity(range.count)
        var shard: [Int32] = []
        shard.reserveCapacity(range.count)
        var hash: [Int] = []
        hash.reserveCapacity(range.count)
        var buf: [UInt8] = []
        buf.reserveCapacity(256)
        records.withUnsafeBufferPointer { records in
            for i in range {
                if let id = records[i].externalID, !id.isEmpty {
                    out.append(providerKey(id, scope: records[i].externalIDScope))
                    shard.append(-1)
                    hash.append(0)
                    continue
                }
                buf.removeAll(keepingCapacity: true)
                appendCore(records[i], to: &buf)
                buf.append(UInt8(ascii: "0"))
                let key = String(decoding: buf, as: UTF8.self)
                out.append(key)
                let h = key.hashValue
                hash.append(h)
                shard.append(shards == 1 ? 0 : Int32(UInt(bitPattern: h) % UInt(shards)))
            }
        }
        return (out, shard, hash)
    }

    /// The original algorithm, for account keys holding U+001E.
    static func concatenatedKeys(for records: [IncomingRecord]) -> [String] {
        var seen: [String: Int] = [:]
        return records.map { r in
            let base = "\(r.accountKey)\u{1E}\(r.sourceKind.rawValue)\u{1E}\(key(for: r, occurrence: 0))"
            let n = seen[base, default: 0]
            seen[base] = n + 1
            return key(for: r, occurrence: n)
        }
    }

    /// Equal when all three parts are; hashed by the key's own hash, which equal keys share.
    private struct GroupKey: Hashable {
        var accountKey: String
        var kind: SourceKind
        var key: String
        var hash: Int
        func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    }

    /// `date|amount|currency|identityText|#` (everything but the occurrence).
    /// Inlined into its callers, which read records in place: a call would copy the record.
    @inline(__always) static func appendCore(_ r: IncomingRecord, to buf: inout [UInt8]) {
        FingerprintText.appendISODate(r.date, to: &buf)
        buf.append(UInt8(ascii: "|"))
        FingerprintText.appendMoney(r.amount, to: &buf)
        buf.append(UInt8(ascii: "|"))
        buf.append(contentsOf: r.amount.currency.utf8)
        buf.append(UInt8(ascii: "|"))
        FingerprintText.appendIdentityText(r, to: &buf)
        buf.append(UInt8(ascii: "|"))
        buf.append(UInt8(ascii: "#"))
    }
}

/// Byte-level builders for fingerprint text, equal to the `String` formatting they replace.
///
/// Numbers are written right to left into a stack buffer and appended to the key in one piece:
/// each `Array.append` of a single byte checks the array's uniqueness and capacity, which cost
/// more than the digits themselves (about 500 instructions a record for a date or an amount).
enum FingerprintText {
    /// Writes the decimal digits of `v` (at least `minDigits`) so that they end just before
    /// `end`; returns where they start.
    @inline(__always) private static func writeDigits(
        _ v: UInt64, minDigits: Int = 1, into p: UnsafeMutableBufferPointer<UInt8>, end: Int
    ) -> Int {
        var v = v, i = end
        repeat {
            i -= 1
            p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10)
            v /= 10
        } while v > 0 || end - i < minDigits
        return i
    }

    /// `String(v)`, with `-` first when `negative`.
    static func appendDecimal(_ v: UInt64, negative: Bool, to buf: inout [UInt8]) {
        if !negative && v < 10 { buf.append(UInt8(ascii: "0") &+ UInt8(v)); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { p in // '-' and 20 digits
            var i = writeDigits(v, into: p, end: 24)
            if negative { i -= 1; p[i] = UInt8(ascii: "-") }
            buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<24]))
        }
    }

    /// ``LocalDate/iso``: the civil date computed once, its 10 bytes appended at once.
    static func appendISODate(_ date: LocalDate, to buf: inout [UInt8]) {
        let c = date.civil // month 1...12 and day 1...31 for every day number
        guard (0...9999).contains(c.year) else { buf.append(contentsOf: date.iso.utf8); return }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 10) { p in
            _ = writeDigits(UInt64(c.day), minDigits: 2, into: p, end: 10)
            p[7] = UInt8(ascii: "-")
            _ = writeDigits(UInt64(c.month), minDigits: 2, into: p, end: 7)
            p[4] = UInt8(ascii: "-")
            _ = writeDigits(UInt64(c.year), minDigits: 4, into: p, end: 4)
            buf.append(contentsOf: UnsafeBufferPointer(p))
        }
    }

    /// ``Money/decimalString`` (``Money/format(minorUnits:exponent:)``), appended at once.
    static func appendMoney(_ m: Money, to buf: inout [UInt8]) {
        let exponent = exponent(of: m.currency)
        let magnitude = m.minorUnits.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { p in // '-', 20 digits, '.', fraction
            var i = 32
            var whole = magnitude
            if exponent > 0 {
                for _ in 0..<exponent {
                    i -= 1
                    p[i] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: whole % 10)
                    whole /= 10
                }
                i -= 1
                p[i] = UInt8(ascii: ".")
            }
            i = writeDigits(whole, into: p, end: i)
            if m.minorUnits < 0 { i -= 1; p[i] = UInt8(ascii: "-") }
            buf.append(contentsOf: UnsafeBufferPointer(rebasing: p[i..<32]))
        }
    }

    /// ``Money/exponent(for:)``, with the common codes told apart by their three bytes (a
    /// `String` comparison each cost more than the rest of the amount).
    static func exponent(of currency: String) -> Int {
        let packed = currency.utf8.withContiguousStorageIfAvailable { u -> UInt32 in
            u.count == 3 ? UInt32(u[0]) << 16 | UInt32(u[1]) << 8 | UInt32(u[2]) : 0
        }
        switch packed ?? 0 {
        case 0x55_53_44, 0x43_4E_59, 0x45_55_52, 0x47_42_50, 0x48_4B_44: return 2 // USD CNY EUR GBP HKD
        default: return Money.exponent(for: currency)
        }
    }

    /// ``IncomingRecord/identityText``: description, counterparty, note and balance, each with
    /// whitespace runs collapsed to one space and trimmed, joined by U+001F.
    static func appendIdentityText(_ r: IncomingRecord, to buf: inout [UInt8]) {
        appendNormalized(r.description, to: &buf)
        buf.append(0x1F)
        appendNormalized(r.counterparty ?? "", to: &buf)
        buf.append(0x1F)
        appendNormalized(r.note ?? "", to: &buf)
        buf.append(0x1F)
        if let b = r.balance { appendMoney(b, to: &buf) } // decimal text holds no whitespace
    }

    /// `text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")`, as UTF-8.
    ///
    /// `Character.isWhitespace` judges a grapheme cluster by its first scalar, so a scalar walk
    /// gives the same result as long as every whitespace scalar is a grapheme of its own (or
    /// part of CR LF). That holds when its neighbours are scalars that never extend a cluster
    /// nor prepend to one; ``isPlain(_:)`` lists such scalars (ASCII, Latin, CJK, full-width
    /// forms, common punctuation). Anything else next to whitespace takes the `Character` path.
    static func appendNormalized(_ text: String, to buf: inout [UInt8]) {
        let start = buf.count
        let done = text.utf8.withContiguousStorageIfAvailable { bytes -> Bool in
            appendNormalizedFast(bytes, to: &buf)
        }
        if done == true { return }
        buf.removeSubrange(start...)
        buf.append(contentsOf: text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ").utf8)
    }

    /// False (with partial output) when the scalar walk could differ from `Character` semantics.
    private static func appendNormalizedFast(_ bytes: UnsafeBufferPointer<UInt8>, to buf: inout [UInt8]) -> Bool {
        var pendingSpace = false
        var wroteAny = false
        var previousPlain = true // the scalar before the current one is plain (or none)
        var afterWhitespace = false // the previous scalar was whitespace
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                    if !previousPlain { return false } // a Prepend scalar would take the space in
                    if wroteAny { pendingSpace = true }
                    afterWhitespace = true
                    previousPlain = true
                    i += 1
                    continue
                }
                // A run of ASCII non-whitespace bytes is copied as it is, in one append.
                var end = i + 1
                while end < n, case let c = bytes[end], c < 0x80, c != 0x20, c < 0x09 || c > 0x0D { end += 1 }
                if pendingSpace { buf.append(0x20); pendingSpace = false }
                buf.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<end]))
                wroteAny = true
                afterWhitespace = false
                previousPlain = true
                i = end
                continue
            }
            // Decode one scalar (the string is valid UTF-8).
            let len: Int
            var v: UInt32
            if b < 0xE0 {
                len = 2; v = UInt32(b & 0x1F)
            } else if b < 0xF0 {
                len = 3; v = UInt32(b & 0x0F)
            } else {
                len = 4; v = UInt32(b & 0x07)
            }
            guard i + len <= n else { return false }
            for k in 1..<len { v = (v << 6) | UInt32(bytes[i + k] & 0x3F) }
            let plain = isPlain(v)
            if isWhitespace(v) {
                if !previousPlain { return false }
                if wroteAny { pendingSpace = true }
                afterWhitespace = true
            } else {
                if afterWhitespace && !plain { return false }
                if pendingSpace { buf.append(0x20); pendingSpace = false }
                buf.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[i..<(i + len)]))
                wroteAny = true
                afterWhitespace = false
            }
            previousPlain = plain
            i += len
        }
        return true
    }

    /// The non-ASCII scalars with the Unicode `White_Space` property (all of them).
    @inline(__always) static func isWhitespace(_ v: UInt32) -> Bool {
        switch v {
        case 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: return true
        default: return false
        }
    }

    /// Scalars whose Grapheme_Cluster_Break property is Other, Control, CR or LF (never Extend,
    /// ZWJ, SpacingMark, Prepend, Hangul or Regional_Indicator).
    @inline(__always) static func isPlain(_ v: UInt32) -> Bool {
        switch v {
        case 0x85,
            0xA0...0x2FF, // Latin-1 supplement, Latin extended, IPA, modifier letters
            0x1680, // Ogham space mark
            0x2000...0x200A, 0x2010...0x2029, 0x202F...0x205F, // spaces and punctuation (not ZWJ/ZWNJ/bidi/format)
            0x20A0...0x20C0, // currency signs
            0x2100...0x214F, // letterlike symbols
            0x3000...0x3029, 0x3030...0x303F, // CJK symbols and punctuation (not the tone marks 302A-302F)
            0x3041...0x3096, 0x309B...0x30FF, // kana (not the combining voicing marks 3099-309A)
            0x3400...0x4DBF, 0x4E00...0x9FFF, // CJK ideographs
            0xFF01...0xFF9D, // full-width ASCII, half-width katakana (not FF9E-FF9F)
            0xFFE0...0xFFEE: // full-width signs (￥)
            return true
        default:
            return false
        }
    }
}
