import Foundation

/// Turns the many spellings of one merchant into one payee key, so a decision about
/// `支付宝-星巴克咖啡（杭州湖滨银泰店）` also covers `财付通-微信支付-星巴克(西湖店)` and a decision
/// about `Starbucks #1234` covers `STARBUCKS STORE 5678`.
///
/// Steps, in order: NFKC and lower case (full-width `（Ａ）` reads `(a)`); the payment channel's
/// prefix (`支付宝-`, `财付通-微信支付-`, …) dropped; bracketed parts (branch, store, city:
/// `(西湖店)`, `【…】`, an unclosed `(…` of a cut statement text) dropped; store numbers and other
/// digits dropped; legal-form suffixes (`有限公司`), a leading city (`杭州`, `上海市`) and
/// statement noise words (`store`, `pos`, `sq *`) dropped. Chinese characters stay joined, Latin
/// words are joined by one space. Keys of one merchant's branches then share a prefix
/// (`星巴克咖啡` / `星巴克`), which ``PayeeIndex`` matches.
///
/// Works on Unicode scalars: categorising 100k transactions normalises a few hundred thousand
/// texts, and Character-level string work costs several times more.
public enum PayeeNormalizer {
    /// A run of a normalised text: Chinese characters, or one Latin word.
    struct Word: Hashable, Sendable {
        var scalars: [UInt32]
        var cjk: Bool
        var text: String { String(String.UnicodeScalarView(scalars.compactMap(Unicode.Scalar.init))) }
    }

    /// The channel prefixes of CMB statement texts (longest first), folded.
    static let channelPrefixes = ["财付通-微信支付-", "支付宝-", "财付通-", "微信支付-", "京东支付-", "美团支付-", "云闪付-", "银联-"].map(codes)
    /// Counterparties that name the payment channel, not the merchant (CMB 对手信息), folded, no spaces.
    static let channelCounterparties: Set<[UInt32]> = Set(
        ["支付宝(中国)网络技术有限公司", "财付通支付科技有限公司", "网银在线(北京)科技有限公司", "银联商务股份有限公司"].map(codes))
    static let legalSuffixes = ["股份有限公司", "有限责任公司", "有限公司", "分公司", "公司", "集团", "商行", "经营部"].map(codes)
    static let cities = [
        "北京", "上海", "广州", "深圳", "杭州", "南京", "苏州", "成都", "重庆", "武汉", "西安", "天津", "长沙", "郑州",
        "青岛", "宁波", "厦门", "福州", "济南", "合肥", "昆明", "沈阳", "大连", "哈尔滨", "无锡", "东莞", "佛山", "珠海",
    ].map(codes)
    static let noiseWords: Set<[UInt32]> = Set(
        [
            "store", "shop", "stores", "inc", "llc", "ltd", "co", "corp", "company", "the", "www", "com", "pos", "purchase",
            "debit", "card", "sq", "tst", "pp", "paypal", "online", "recurring", "payment", "ach", "visa", "mc",
        ].map(codes))
    static let city市: UInt32 = 0x5E02
    static let brackets: [UInt32: UInt32] = [0x28: 0x29, 0x5B: 0x5D, 0x3010: 0x3011, 0x3C: 0x3E, 0x300A: 0x300B, 0x3014: 0x3015]

    static func codes(_ s: String) -> [UInt32] { s.unicodeScalars.map(\.value) }

    /// NFKC, then lower case: full-width letters, digits and brackets read as their ASCII forms.
    public static func fold(_ text: String) -> String {
        String(String.UnicodeScalarView(foldedScalars(text).compactMap(Unicode.Scalar.init)))
    }

    /// ``fold(_:)`` as scalar values. ASCII, Chinese characters, CJK punctuation and full-width
    /// forms (the texts of statements) are folded here directly; anything else goes through
    /// Foundation's NFKC.
    static func foldedScalars(_ text: String) -> [UInt32] {
        var out: [UInt32] = []
        out.reserveCapacity(text.utf8.count)
        for s in text.unicodeScalars {
            var v = s.value
            if v >= 0xFF01 && v <= 0xFF5E { v -= 0xFEE0 } else if v == 0x3000 { v = 0x20 }
            if v < 0x80 {
                if v >= 0x41 && v <= 0x5A { v += 0x20 }
                out.append(v)
            } else if isCJK(v) || (0x3001...0x3011).contains(v) || (0x3014...0x301F).contains(v) {
                out.append(v)
            } else {
                return text.precomposedStringWithCompatibilityMapping.lowercased().unicodeScalars.map(\.value)
            }
        }
        return out
    }

    /// True when `text` starts with a payment channel's prefix (`支付宝-…`).
    static func hasChannelPrefix(_ text: String) -> Bool {
        let s = trimmedSpaces(foldedScalars(text))
        return channelPrefixes.contains { s.starts(with: $0) }
    }

    /// True when `counterparty` names a payment channel (Alipay, Tenpay) rather than the merchant.
    public static func isChannel(_ counterparty: String) -> Bool {
        channelCounterparties.contains(foldedScalars(counterparty).filter { $0 != 0x20 && $0 != 0x09 })
    }

    /// The payee key of `text` (empty when nothing is left, e.g. only digits).
    public static func key(_ text: String) -> String { key(words(text)) }

    static func key(_ words: [Word]) -> String {
        var out: [UInt32] = []
        var lastWasCJK = false
        for w in words {
            if !out.isEmpty && !(w.cjk && lastWasCJK) { out.append(0x20) }
            out += w.scalars
            lastWasCJK = w.cjk
        }
        return String(String.UnicodeScalarView(out.compactMap(Unicode.Scalar.init)))
    }

    /// The key's parts, in order: runs of Chinese characters and Latin words (digits, spaces and
    /// punctuation separate them), after the channel prefix, brackets and noise are dropped.
    static func words(_ text: String) -> [Word] {
        var s = trimmedSpaces(foldedScalars(text))
        if let p = channelPrefixes.first(where: { s.starts(with: $0) }) { s.removeFirst(p.count) }
        var parts: [Word] = []
        var current: [UInt32] = []
        var currentIsCJK = false
        var closing: [UInt32] = []
        func flush() {
            if !current.isEmpty { parts.append(Word(scalars: current, cjk: currentIsCJK)) }
            current.removeAll(keepingCapacity: true)
        }
        for v in s {
            if let c = brackets[v] { closing.append(c); flush(); continue }
            if let last = closing.last {
                if v == last { closing.removeLast() }
                continue
            }
            let cjk = isCJK(v)
            let latin = (v >= 0x61 && v <= 0x7A)
            if cjk || latin {
                if !current.isEmpty && cjk != currentIsCJK { flush() }
                currentIsCJK = cjk
                current.append(v)
            } else {
                flush()
            }
        }
        flush()
        var out: [Word] = []
        for var w in parts {
            guard w.cjk else {
                if w.scalars.count >= 2 && !noiseWords.contains(w.scalars) { out.append(w) }
                continue
            }
            for suffix in legalSuffixes where w.scalars.count > suffix.count + 1 && w.scalars.suffix(suffix.count).elementsEqual(suffix) {
                w.scalars.removeLast(suffix.count)
                break
            }
            if out.isEmpty, let city = cities.first(where: { w.scalars.starts(with: $0) }) {
                var rest = w.scalars.dropFirst(city.count)
                if rest.first == city市 { rest = rest.dropFirst() }
                if rest.count >= 2 { w.scalars = Array(rest) }
            }
            out.append(w)
        }
        return out
    }

    static func trimmedSpaces(_ s: [UInt32]) -> [UInt32] {
        guard let lo = s.firstIndex(where: { $0 != 0x20 && $0 != 0x09 }) else { return [] }
        let hi = s.lastIndex(where: { $0 != 0x20 && $0 != 0x09 })!
        return Array(s[lo...hi])
    }

    /// Chinese characters (CJK unified ideographs and extension A), kana and hangul.
    static func isCJK(_ v: UInt32) -> Bool {
        (0x4E00...0x9FFF).contains(v) || (0x3400...0x4DBF).contains(v) || (0x3040...0x30FF).contains(v) || (0xAC00...0xD7AF).contains(v)
    }

}
