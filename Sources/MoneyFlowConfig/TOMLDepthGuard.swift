/// A scan of TOML text, before toml++ sees it, for nesting deeper than a limit.
///
/// toml++ limits nested values (arrays, inline tables) to 256 but not dotted keys or table
/// headers, and it walks the tables it builds recursively: `a.a.a… = 1` with a few tens of
/// thousands of parts overflows the stack inside the parser (measured: a crash, not an error).
/// This guard counts, without recursion, the depth each key, header and value would reach and
/// reports the first line past the limit. It only has to be an upper bound close to the truth:
/// the exact limit is applied again on the parsed tables (``TOMLReader``).
enum TOMLDepthGuard {
    /// The line of the first place nested deeper than `limit`, or nil.
    static func firstTooDeep(_ text: String, limit: Int) -> Int? {
        let b = Array(text.utf8)
        var i = 0, line = 1
        var stack: [(open: UInt8, depth: Int)] = [] // open `[` / `{` values and the depth inside them
        var base = 0 // depth of the current [table] header
        var chain = 0 // dots seen in the current key
        var inKey = true // reading a key (line start at top level, after `{` or `,` in an inline table)
        var header = false // inside a [table] / [[array]] header
        var pendingParts = 0 // key parts of the key whose value comes next
        func depth() -> Int { (stack.last?.depth ?? base) + chain + 1 }
        while i < b.count {
            let c = b[i]
            switch c {
            case UInt8(ascii: "\n"):
                line += 1
                if stack.isEmpty { inKey = true; chain = 0; pendingParts = 0; header = false }
            case UInt8(ascii: "#"):
                while i + 1 < b.count, b[i + 1] != UInt8(ascii: "\n") { i += 1 }
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let triple = i + 2 < b.count && b[i + 1] == c && b[i + 2] == c
                i += triple ? 3 : 1
                while i < b.count {
                    if b[i] == UInt8(ascii: "\n") { line += 1 }
                    if c == UInt8(ascii: "\"") && b[i] == UInt8(ascii: "\\") {
                        if i + 1 < b.count && b[i + 1] == UInt8(ascii: "\n") { line += 1 }
                        i += 2; continue
                    }
                    if b[i] == c && (!triple || (i + 2 < b.count && b[i + 1] == c && b[i + 2] == c)) { i += triple ? 2 : 0; break }
                    if !triple && b[i] == UInt8(ascii: "\n") { break }
                    i += 1
                }
            case UInt8(ascii: "."):
                if inKey || header {
                    chain += 1
                    if depth() > limit { return line }
                }
            case UInt8(ascii: "="):
                if inKey && !header { pendingParts = chain + 1; inKey = false; chain = 0 }
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if c == UInt8(ascii: "[") && stack.isEmpty && inKey && chain == 0 {
                    header = true; base = 0
                } else if !header {
                    let inside = (stack.last?.depth ?? base) + max(pendingParts, 1)
                    if inside > limit { return line }
                    stack.append((c, inside))
                    pendingParts = 0
                    inKey = c == UInt8(ascii: "{"); chain = 0
                }
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                if header {
                    base = chain + 1; chain = 0; header = false; inKey = false
                    if base > limit { return line }
                } else if !stack.isEmpty {
                    stack.removeLast(); inKey = false; pendingParts = 0
                }
            case UInt8(ascii: ","):
                if stack.last?.open == UInt8(ascii: "{") { inKey = true; chain = 0 }
                pendingParts = 0
            default: break
            }
            i += 1
        }
        return nil
    }
}
