/// The one policy for text that came from a statement, a file name or the user and is shown
/// on a terminal or written into an export.
///
/// A bank description is attacker-controlled: `ESC[2J` clears the screen, an OSC sequence
/// retitles the window, CR/LF or a bidi override hides or reorders table rows. So:
///
/// - terminal output (tables, summaries, errors) shows every such character **visibly
///   escaped** (`\e[2J`, `\r`, `\u{202E}`), so the user sees that the bytes are there;
/// - exports (beancount, ledger, CSV) **replace** each with one space, so the journal stays
///   one entry per line and valid for bean-check / hledger;
/// - JSON is exact (its own escaping covers C0 controls and U+2028/U+2029).
///
/// Escaping is idempotent (escaped text contains no unsafe character), so a cell that was
/// already escaped for truncation can pass through the table renderer again unchanged.
public enum SafeText {
    /// C0 controls, DEL, C1 controls, line/paragraph separators, and the bidi marks,
    /// embeddings, overrides and isolates.
    public static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true
        case 0x2028, 0x2029: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        default: return false
        }
    }

    /// True when `s` holds nothing `escaped` would change.
    public static func isSafe(_ s: String) -> Bool { !s.unicodeScalars.contains(where: isUnsafe) }

    /// Terminal form: unsafe characters as `\e`, `\n`, `\r`, `\t`, `\a` or `\u{XX}`.
    public static func escaped(_ s: String) -> String {
        guard !isSafe(s) else { return s }
        var out = ""
        for u in s.unicodeScalars {
            guard isUnsafe(u) else { out.unicodeScalars.append(u); continue }
            switch u.value {
            case 0x1B: out += "\\e"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x07: out += "\\a"
            default: out += "\\u{" + String(u.value, radix: 16, uppercase: true) + "}"
            }
        }
        return out
    }

    /// Multi-line terminal text (usage messages): each line escaped, line breaks kept.
    public static func escapedLines(_ s: String) -> String {
        s.split(separator: "\n", omittingEmptySubsequences: false).map { escaped(String($0)) }.joined(separator: "\n")
    }

    /// Export form: each unsafe character replaced by one space.
    public static func blanked(_ s: String) -> String {
        guard !isSafe(s) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map { isUnsafe($0) ? " " : $0 }))
    }
}
