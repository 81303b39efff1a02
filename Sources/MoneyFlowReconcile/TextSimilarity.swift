import Foundation

/// Text normalisation and similarity for matching bank text against provider text.
///
/// Strips card numbers, dates, reference codes and punctuation; splits Latin text into words
/// and CJK text into character bigrams, so `拉扎斯网络科技（上海）有限公司` and `饿了么` are compared
/// token-wise and `STARBUCKS STORE 0123 SEATTLE WA` meets `Starbucks`.
public enum TextSimilarity {
    static let stopwords: Set<String> = [
        "pos", "purchase", "authorized", "on", "card", "debit", "credit", "payment", "the",
        "inc", "llc", "ltd", "co", "www", "com", "store", "online", "ach", "web", "id", "ppd",
        "有限公司", "公司", "支付", "快捷",
    ]

    /// Payment channels that print the merchant after their own name in a bank's text (CMB
    /// debit 客户摘要 `财付通-微信支付-<merchant>`, card bill `支付宝-<merchant>`), longest first.
    static let channelPrefixes = ["财付通-微信支付-", "支付宝-", "财付通-"]
    /// The first scalar of each prefix.
    static let channelStarts = Set(channelPrefixes.compactMap(\.unicodeScalars.first))

    /// A scalar `trimmingCharacters(in: .whitespaces)` removes: a space separator (Zs) or a tab.
    static func isBlank(_ s: Unicode.Scalar) -> Bool {
        // In ASCII only the space is a space separator (the property lookup costs more than the rest of the check).
        s.isASCII ? s == " " || s == "\t" : s.properties.generalCategory == .spaceSeparator
    }

    /// The merchant a bank's text names after a payment channel's prefix (often cut to the
    /// column: the wallet's full name contains it), nil when the text names no channel.
    public static func channelMerchant(_ text: String?) -> String? {
        // Every text is asked (both sides of every pair): most name no channel, and Foundation's
        // trimming bridges each one, so a text whose first non-blank scalar starts no prefix
        // is answered without it.
        guard let text, let first = text.unicodeScalars.first(where: { !isBlank($0) }), channelStarts.contains(first)
        else { return nil }
        let t = text.trimmingCharacters(in: .whitespaces)
        for p in channelPrefixes where t.hasPrefix(p) {
            let rest = t.dropFirst(p.count).trimmingCharacters(in: .whitespaces)
            return rest.isEmpty ? nil : rest
        }
        return nil
    }

    /// The two texts a record or transaction is matched by: its description and counterparty;
    /// for a bank row paid through a payment channel, only the merchant after the channel's
    /// prefix (in its description or note), the one text it shares with the wallet's row (the
    /// channel's own name and `快捷支付` say nothing about which payment it is).
    static func matchTexts(description: String, counterparty: String?, note: String?) -> (String, String?) {
        if let m = channelMerchant(description) ?? channelMerchant(note) { return (m, nil) }
        return (description, counterparty)
    }

    /// The store numbers a text prints (`#0393` in `POS PURCHASE LUXMI #0393 MIAMI FL`, or in
    /// Plaid's `LUXMI #0393 MIAMI`), sorted. Tokens drop numbers, so two purchases of one chain
    /// at two stores read alike; their store numbers tell them apart.
    static func storeNumbers(_ texts: String?...) -> [Int] {
        var out: [Int] = []
        for text in texts {
            guard let text else { continue }
            // The bytes in place when the text has them contiguous (a native string), else one by one.
            if text.utf8.withContiguousStorageIfAvailable({ appendStoreNumbers($0, to: &out) }) == nil {
                appendStoreNumbers(text.utf8, to: &out)
            }
        }
        // Distinct, sorted (every text of every pair is asked: most print no number, or one).
        guard out.count > 1 else { return out }
        out.sort()
        var w = 1
        for k in 1..<out.count where out[k] != out[w - 1] { out[w] = out[k]; w += 1 }
        out.removeLast(out.count - w)
        return out
    }

    private static func appendStoreNumbers<Bytes: Sequence<UInt8>>(_ bytes: Bytes, to out: inout [Int]) {
        // Most texts print no `#`: one plain pass says so.
        guard bytes.contains(0x23) else { return }
        var number = 0, digits = 0, afterHash = false
        for b in bytes {
            if afterHash, b >= 0x30, b <= 0x39, digits < 9 {
                number = number * 10 + Int(b - 0x30); digits += 1; continue
            }
            if afterHash && digits > 0 { out.append(number) }
            afterHash = b == 0x23 // #
            number = 0; digits = 0
        }
        if afterHash && digits > 0 { out.append(number) }
    }

    /// Two texts name different stores: each prints a store number and they share none.
    /// (Both lists are sorted, as ``storeNumbers(_:)`` returns them.)
    static func storesDisagree(_ a: [Int], _ b: [Int]) -> Bool {
        guard !a.isEmpty, !b.isEmpty else { return false }
        var i = 0, j = 0
        while i < a.count && j < b.count {
            if a[i] == b[j] { return false }
            if a[i] < b[j] { i += 1 } else { j += 1 }
        }
        return true
    }

    /// Normalised tokens of `text`.
    public static func tokens(_ text: String) -> Set<String> {
        var out = Set<String>()
        var word = ""
        var cjk: [Character] = []
        func flushWord() {
            let w = word.lowercased()
            word = ""
            guard w.count >= 2, !stopwords.contains(w) else { return }
            // Drop numbers, card masks, reference codes (mostly digits).
            let digits = w.filter(\.isNumber).count
            if digits * 2 >= w.count { return }
            out.insert(w)
        }
        func flushCJK() {
            if cjk.count == 1 { out.insert(String(cjk[0])) }
            if cjk.count >= 2 { for i in 0..<(cjk.count - 1) { out.insert(String(cjk[i...i + 1])) } }
            cjk.removeAll()
        }
        for ch in text.precomposedStringWithCompatibilityMapping { // full-width -> ASCII
            if isCJK(ch) {
                flushWord(); cjk.append(ch)
            } else if ch.isLetter || ch.isNumber {
                flushCJK(); word.append(ch)
            } else {
                flushWord(); flushCJK()
            }
        }
        flushWord(); flushCJK()
        return out
    }

    static func isCJK(_ ch: Character) -> Bool {
        guard let v = ch.unicodeScalars.first?.value else { return false }
        return (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x3040...0x30FF).contains(v)
            || (0xAC00...0xD7AF).contains(v)
    }

    /// Similarity in 0...1 of two texts alone, as the engine weighs it (``TokenTable``):
    /// weighted overlap of their tokens, containment counting fully, a shared 4+ character
    /// prefix 0.5. Within an import the engine also weighs tokens by how rare they are.
    public static func similarity(_ a: String, _ b: String) -> Double {
        var table = TokenTable()
        let ta = table.add(a), tb = table.add(b)
        table.finishWeights()
        return table.similarity(ta, table.totalWeight(ta), tb, table.totalWeight(tb))
    }
}
