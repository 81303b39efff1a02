import Foundation
import MoneyFlowCore

/// Secret handling for Plaid JSON: keys whose values never leave the importer.
enum PlaidSecrets {
    /// True for `access_token`, `public_token`, `processor_token`, any key ending in `_token`
    /// or `secret` (`client_secret`, `secret`), `token` and `password` (case-insensitive).
    static func isSecretKey(_ key: String) -> Bool {
        if let r = key.utf8.withContiguousStorageIfAvailable({ isSecretKey(bytes: $0) }) { return r }
        return Array(key.utf8).withUnsafeBufferPointer { isSecretKey(bytes: $0) }
    }

    private static let suffixes: [[UInt8]] = ["_token", "secret"].map { Array($0.utf8) }
    private static let exact: [[UInt8]] = ["token", "password", "access_token", "public_token", "processor_token"].map { Array($0.utf8) }

    /// ASCII case-insensitive, allocation-free (called for every key of every document).
    static func isSecretKey(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
        @inline(__always) func lower(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 32 : c }
        func endsWith(_ w: [UInt8]) -> Bool {
            guard b.count >= w.count else { return false }
            var k = 1
            while k <= w.count {
                if lower(b[b.count - k]) != w[w.count - k] { return false }
                k += 1
            }
            return true
        }
        for w in suffixes where endsWith(w) { return true }
        for w in exact where b.count == w.count && endsWith(w) { return true }
        return false
    }

    /// Every string found anywhere under a secret key, so that messages and records can be
    /// scrubbed even where the secret is echoed in a non-secret field.
    ///
    /// Fed piece by piece: each element a lazy parse leaves in the bytes (``walk(_:)`` from the
    /// parser's visit), then the document's root; ``secrets(in:)`` then reads the elements that
    /// sit under a secret key (all their strings are secrets) and answers.
    struct Collector {
        private var found = Set<String>()
        /// Offsets of empty objects met under a secret key: placeholders of elements whose
        /// strings are all secrets (a real `{}` holds none).
        private var emptyUnderSecret: [Int] = []

        /// Strings under secret keys anywhere in `v`.
        mutating func walk(_ v: JSONValue) {
            switch v {
            case .array(let a): for e in a { walk(e) }
            case .object(let o):
                for m in o.members {
                    if isSecretKey(m.key) { strings(m.value) } else { walk(m.value) }
                }
            default: break
            }
        }

        /// Every string in `v`.
        private mutating func strings(_ v: JSONValue) {
            switch v {
            case .string(let s): if s.count >= 4 && s != "[REDACTED]" { found.insert(s) }
            case .array(let a): for e in a { strings(e) }
            case .object(let o):
                if o.members.isEmpty && o.offset >= 0 { emptyUnderSecret.append(o.offset) }
                for m in o.members { strings(m.value) }
            default: break
            }
        }

        /// The secrets, longest first so that a secret containing another is replaced whole.
        mutating func secrets(in document: JSONLazyDocument) throws(JSONParseError) -> [String] {
            let pending = emptyUnderSecret
            emptyUnderSecret = []
            for offset in pending where document.elided.contains(offset) {
                strings(.object(try document.object(at: offset, full: true)))
            }
            return found.sorted { $0.count != $1.count ? $0.count > $1.count : $0 < $1 }
        }
    }
}

/// Replaces secret strings in text.
struct PlaidScrubber: Sendable {
    var secrets: [String]
    var isEmpty: Bool { secrets.isEmpty }

    func callAsFunction(_ s: String) -> String {
        guard !secrets.isEmpty else { return s }
        var r = s
        for secret in secrets where r.contains(secret) {
            r = r.replacingOccurrences(of: secret, with: "[REDACTED]")
        }
        return r
    }

    func callAsFunction(_ s: String?) -> String? { s.map { self($0) } }
}

/// Exact conversion of JSON number text to money.
enum PlaidNumber {
    struct Failure: Error { var reason: String }

    /// Plain decimal text (`-1234.5`) for JSON number text, expanding an exponent exactly.
    static func plainDecimal(_ text: String) throws(Failure) -> String {
        let u = Array(text.utf8)
        guard let ePos = u.firstIndex(where: { $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) else { return text }
        var mantissa = Array(u[..<ePos])
        let expText = String(decoding: u[(ePos + 1)...], as: UTF8.self)
        var negative = false
        if mantissa.first == UInt8(ascii: "-") { negative = true; mantissa.removeFirst() }
        let dot = mantissa.firstIndex(of: UInt8(ascii: "."))
        let intDigits = dot.map { Array(mantissa[..<$0]) } ?? mantissa
        let fracDigits = dot.map { Array(mantissa[($0 + 1)...]) } ?? []
        let digits = intDigits + fracDigits
        let allZero = digits.allSatisfy { $0 == UInt8(ascii: "0") }
        if allZero { return "0" }
        // Exponent magnitude: anything beyond 400 cannot be a sensible amount.
        let expDigits = expText.drop(while: { $0 == "+" || $0 == "-" }).drop(while: { $0 == "0" })
        let expNegative = expText.hasPrefix("-")
        guard expDigits.count <= 3, let expMagnitude = Int(expDigits.isEmpty ? "0" : String(expDigits)), expMagnitude <= 400 else {
            throw Failure(reason: expNegative ? "too many decimal places" : "amount too large")
        }
        let exp = expNegative ? -expMagnitude : expMagnitude
        let point = intDigits.count + exp
        var out = ""
        let ds = String(decoding: digits, as: UTF8.self)
        if point <= 0 {
            out = "0." + String(repeating: "0", count: -point) + ds
        } else if point >= digits.count {
            out = ds + String(repeating: "0", count: point - digits.count)
        } else {
            let idx = ds.index(ds.startIndex, offsetBy: point)
            out = String(ds[..<idx]) + "." + String(ds[idx...])
        }
        return (negative ? "-" : "") + out
    }

    /// Minor units of `text` (JSON number text) in `currency`, exactly.
    ///
    /// The one limit every source has (``Money/maxMinorUnits``), so no sum over the ledger can
    /// overflow.
    static func minorUnits(_ text: String, currency: String) throws(Failure) -> Int64 {
        let plain = try plainDecimal(text)
        let exponent = Money.exponent(for: currency)
        let syntax = AmountSyntax(limit: .standard)
        do {
            return try Money.parseMinorUnits(plain, exponent: exponent, syntax: syntax)
        } catch {
            throw Failure(reason: error.reason)
        }
    }
}

/// 1-based line numbers of byte offsets, counted incrementally (callers ask in ascending order).
struct PlaidLineCounter {
    let data: Data
    private var offset = 0
    private var line = 1

    init(data: Data) { self.data = data }

    mutating func line(at target: Int) -> Int? {
        guard target >= 0, target <= data.count else { return nil }
        if target < offset { offset = 0; line = 1 }
        let start = offset
        var l = line
        data.withUnsafeBytes { raw in
            let b = raw.bindMemory(to: UInt8.self)
            var k = start
            while k < target {
                if b[k] == 0x0A { l += 1 }
                k += 1
            }
        }
        offset = target
        line = l
        return l
    }
}

/// Small helpers of the Plaid importer (namespaced: the module is shared with other importers).
enum PlaidUtil {
    static func nonEmpty(_ s: String?) -> String? {
        guard let s, !s.isEmpty else { return nil }
        return s
    }

    /// `s` without leading and trailing whitespace (cheap when there is none).
    static func trimmed(_ s: String) -> String { s.trimmed(.whitespacesAndNewlines) }

    /// A currency code Plaid may send: ISO 4217 or an unofficial code (`BTC`, `DOGE`, `CNH`).
    static func isPlausibleCurrencyCode(_ s: String) -> Bool {
        (2...10).contains(s.utf8.count)
            && s.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x61 && $0 <= 0x7A) }
    }

    /// A short, safe rendering of a cursor or id for messages.
    static func abbreviated(_ s: String, _ n: Int = 16) -> String {
        s.count <= n + 4 ? "'\(s)'" : "'\(s.prefix(n))…' (\(s.count) chars)"
    }
}
