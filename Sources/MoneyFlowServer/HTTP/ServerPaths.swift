import Foundation

/// Where the server keeps its files is none of a client's business (and a hint to an
/// attacker), yet library errors are worded for the terminal and name their files: a store
/// that cannot open, a key file, a Plaid archive. The errors the server words itself name no
/// file (``HTTPAdvice``); this is the net under them: every error reply passes through
/// ``hidden(in:)``, which replaces any path inside the data folder.
struct ServerPaths: Sendable {
    /// The data folder as given and as an absolute path, longest first.
    let roots: [String]

    init(dataDirectory: String) {
        func trimmed(_ p: String) -> String { p.count > 1 && p.hasSuffix("/") ? String(p.dropLast()) : p }
        let given = trimmed(dataDirectory)
        let absolute = trimmed(URL(fileURLWithPath: dataDirectory).standardizedFileURL.path)
        roots = Array(Set([given, absolute].filter { !$0.isEmpty && $0 != "/" && $0 != "." })).sorted { $0.count > $1.count }
    }

    static let replacement = "(a file on the server)"

    /// `message` with every path that starts at the data folder (the folder itself, or a
    /// word that goes on from it with `/`) replaced by ``replacement``.
    func hidden(in message: String) -> String {
        roots.reduce(message) { text, root in
            // Not in the middle of a longer word (`metadata/x` is not under `data`); the path
            // ends at a space, a quote or punctuation (`FILE: reason` keeps its colon).
            let pattern =
                #"(?<![^\s'"(=])"# + NSRegularExpression.escapedPattern(for: root)
                + #"(?=$|[\s'"),;:]|/)(?:[^\s'"),;:]|:(?![\s]|$))*"#
            guard let regex = try? NSRegularExpression(pattern: pattern) else { return text }
            return regex.stringByReplacingMatches(
                in: text, range: NSRange(text.startIndex..., in: text),
                withTemplate: NSRegularExpression.escapedTemplate(for: Self.replacement))
        }
    }
}
