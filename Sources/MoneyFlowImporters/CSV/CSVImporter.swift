import Foundation
import MoneyFlowCore

/// Reads bank CSV exports through a column profile (built-in or the user's).
///
/// RFC 4180 parsing, encoding and delimiter detection, preamble and footer lines skipped.
/// With no profile given, the header is sniffed against the built-in profiles.
public struct CSVImporter: Importer {
    public let id = "csv"
    public let displayName = "bank CSV export (a built-in bank's, or any with --csv-profile)"
    /// The profiles a header is sniffed against when the user named none. Read when first asked
    /// for, not when the importer is made: every command builds the importer registry (its help
    /// names the formats), and parsing the built-in profile files, whose account-number patterns
    /// are compiled to check them, was 7 % of `moneyflow import` of a 30-page CMB statement.
    public var builtInProfiles: [CSVProfile] { profiles() }
    private let profiles: @Sendable () -> [CSVProfile]

    public init(builtInProfiles: @escaping @autoclosure @Sendable () -> [CSVProfile] = BuiltInCSVProfiles.all) {
        self.profiles = builtInProfiles
    }

    public func sniff(_ input: ImportInput, options: ImportOptions) -> Double {
        let head = input.data.prefix(4)
        if head.starts(with: [0x50, 0x4B]) || head.starts(with: Array("%PDF".utf8)) { return 0 }
        guard let (text, _) = try? TextDecoder.decode(input.data.prefix(64 * 1024)) else {
            // A cut multi-byte sequence at the sample's end is fine; retry on the whole file.
            if input.data.count <= 64 * 1024 * 16, (try? TextDecoder.decode(input.data)) != nil { return 0.3 }
            // Text with a byte-order mark is meant to be text: let read() name the bad line.
            if head.starts(with: [0xEF, 0xBB, 0xBF]) || head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]) {
                return 0.25
            }
            // A clean delimited header line: a CSV whose later lines have an encoding problem
            // (mixed encodings, a stray Latin-1 byte); read() names the line.
            return Self.looksLikeDelimitedHeader(input.data) ? 0.25 : 0
        }
        let trimmed = text.drop(while: { $0.isWhitespace })
        if trimmed.hasPrefix("{") || trimmed.hasPrefix("[") { return 0.05 }
        let delimiter = CSVParser.detectDelimiter(text)
        var bytes = Array(text.utf8)
        let rows: [CSVRow]
        do { rows = try CSVParser.parse(bytes: &bytes, delimiter: delimiter) } catch {
            // Prose (a README) is not a CSV; delimited text that breaks the CSV rules (an
            // unterminated quote, a NUL) is a CSV with an error, and read() reports where.
            if CSVTableShape.isProse(text, delimiter: delimiter, rows: nil) { return 0 }
            return text.contains(Character(UnicodeScalar(delimiter))) ? 0.25 : 0.05
        }
        let candidates = options.csvProfiles ?? builtInProfiles
        if (try? Self.chooseProfile(rows: rows, candidates: candidates)) != nil { return 0.9 }
        if CSVTableShape.isProse(text, delimiter: delimiter, rows: rows) { return 0 }
        // Printable text whose first line does not end within the sample: a header with an
        // oversized cell (no other format writes such text); read() names the line and limit.
        if input.data.count > 64 * 1024, !text.contains(where: \.isNewline),
            text.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        {
            return 0.25
        }
        return rows.contains { $0.fields.count > 1 } ? 0.3 : 0.1
    }

    public func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement {
        let file = input.fileName
        let userProfiles = options.csvProfiles
        let forcedEncoding = userProfiles?.count == 1 ? userProfiles![0].encoding.flatMap(TextEncodingName.init(label:)) : nil
        let explicitDelimiter = userProfiles?.compactMap(\.delimiter).first
        var source = try CSVSource(
            input.data, file: file, forcedEncoding: forcedEncoding, delimiter: explicitDelimiter.map(Self.delimiterByte))

        let candidates = userProfiles ?? builtInProfiles
        guard let (profile, headerIndex, columns) = try Self.chooseProfile(rows: source.head, candidates: candidates) else {
            // A broken file is reported as broken (its first parse error), before its header.
            try source.check()
            if let userProfiles {
                throw ImportError(.unrecognized, file: file, problem: Self.missingColumns(rows: source.head, profiles: userProfiles))
            }
            throw ImportError(
                .unrecognized, file: file,
                problem: "no built-in CSV profile fits this header; pass --csv-profile NAME or a profile file (see `moneyflow profiles`)")
        }
        return try Self.read(
            source: &source, headerIndex: headerIndex, columns: columns, profile: profile, sniffed: userProfiles == nil, file: file)
    }

    /// True when the first line is printable UTF-8 text holding a `,` `;` tab or `|`.
    static func looksLikeDelimitedHeader(_ data: Data) -> Bool {
        let line = data.prefix(4096).prefix { $0 != 0x0A }
        guard line.count < 4096, let text = String(validating: line, as: UTF8.self) else { return false }
        let clean = text.unicodeScalars.allSatisfy {
            $0 == "\t" || $0 == "\r" || ($0.value >= 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value))
        }
        return clean && text.contains { $0 == "," || $0 == ";" || $0 == "\t" || $0 == "|" }
    }

    static func delimiterByte(_ s: String) -> UInt8 {
        switch s {
        case "\\t", "tab", "\t": return 0x09
        default: return s.utf8.first ?? 0x2C
        }
    }

    /// Column indexes resolved against a header row.
    struct Columns {
        var map: [String: Int] = [:]
        var header: [String] = []
        func index(_ ref: ColumnRef?) -> Int? {
            guard let ref else { return nil }
            switch ref {
            case .index(let i): return i
            case .names(let names):
                for n in names { if let i = map[CSVImporter.normalizeHeader(n)] { return i } }
                return nil
            }
        }
    }

    static let headerTrim = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}\""))

    static func normalizeHeader(_ s: String) -> String {
        s.trimmed(Self.headerTrim).lowercased()
    }

    /// Finds the profile and header row that fit: every required column (and signature) present;
    /// among several, the one explaining most header columns. Headerless profiles are tried on
    /// the first data row's shape.
    static func chooseProfile(rows: [CSVRow], candidates: [CSVProfile]) throws -> (CSVProfile, Int?, Columns)? {
        var best: (CSVProfile, Int?, Columns, Int)?
        for (ri, row) in rows.prefix(60).enumerated() where row.fields.count > 1 {
            var cols = Columns()
            cols.header = row.fields
            for (i, f) in row.fields.enumerated() {
                let key = normalizeHeader(f)
                if !key.isEmpty, cols.map[key] == nil { cols.map[key] = i }
            }
            for p in candidates where p.hasHeader {
                let required = p.requiredHeaders
                guard required.allSatisfy({ alts in alts.contains { cols.map[normalizeHeader($0)] != nil } }),
                    p.signatureAlternatives.allSatisfy({ alts in alts.contains { cols.map[normalizeHeader($0)] != nil } })
                else { continue }
                let refs: [ColumnRef?] = [
                    p.dateColumn, p.fallbackDateColumn, p.descriptionColumn, p.counterpartyColumn, p.noteColumn,
                    p.timeColumn, p.amountColumn, p.debitColumn, p.creditColumn, p.directionColumn,
                    p.balanceColumn, p.referenceColumn, p.categoryColumn, p.accountNumberColumn, p.currencyColumn,
                ]
                let score = refs.compactMap { cols.index($0) }.count * 10 + p.signature.count
                if best == nil || score > best!.3 { best = (p, ri, cols, score) }
            }
            if best != nil { break }
        }
        if let best { return (best.0, best.1, best.2) }
        // Headerless: the first non-empty row must read as a transaction.
        for p in candidates where !p.hasHeader {
            guard let first = rows.first(where: { $0.fields.count > 1 }) else { continue }
            let cols = Columns()
            guard let di = cols.index(p.dateColumn), let ai = cols.index(p.amountColumn), let si = cols.index(p.descriptionColumn),
                first.fields.count > max(di, ai, si)
            else { continue }
            let dateOK = (try? LocalDate.parse(first.fields[di], format: p.dateFormat ?? .monthDayYear)) != nil
            let amountOK = (try? Money.parseMinorUnits(first.fields[ai], exponent: 2)) != nil
            let shapeOK =
                p.name != "wells-fargo" || (first.fields.count == 5 && first.fields[2].trimmingCharacters(in: .whitespaces) == "*")
            if dateOK && amountOK && shapeOK { return (p, nil, cols) }
        }
        return nil
    }

    /// Why no header row fits the given profiles: for each, the columns really missing from the
    /// likely header row.
    static func missingColumns(rows: [CSVRow], profiles: [CSVProfile]) -> String {
        // The likely header: the row naming most of the profiles' columns, else the widest.
        let known = Set(
            profiles.flatMap { $0.requiredHeaders.flatMap { $0 } + $0.signatureAlternatives.flatMap { $0 } }.map(normalizeHeader))
        func score(_ r: CSVRow) -> (Int, Int) {
            (r.fields.filter { known.contains(normalizeHeader($0)) }.count, r.fields.filter { !clean($0).isEmpty }.count)
        }
        let candidates = rows.filter { $0.fields.count > 1 }
        let header = candidates.max { score($0) < score($1) || (score($0) == score($1) && $0.line > $1.line) }
        let present = Set((header?.fields ?? []).map(normalizeHeader))
        let parts = profiles.map { p -> String in
            guard p.hasHeader else { return "\(p.qualifiedName): first row is not a transaction (date, amount, description)" }
            var missing: [[String]] = []
            for alts in p.requiredHeaders + p.signatureAlternatives
            where !alts.contains(where: { present.contains(normalizeHeader($0)) }) && !missing.contains(alts) {
                missing.append(alts)
            }
            return
                "\(p.qualifiedName) misses column\(missing.count == 1 ? "" : "s") \(missing.map { $0.map { "'\($0)'" }.joined(separator: " or ") }.joined(separator: ", "))"
        }
        let found = header.map { " (header on line \($0.line): \($0.fields.map { clean($0) }.joined(separator: ", ").prefix(200)))" } ?? ""
        return
            "no header row fits CSV profile \(Set(profiles.map(\.name)).sorted().joined(separator: ", ")): \(parts.joined(separator: "; "))\(found)"
    }

    /// `s` without surrounding whitespace and newlines. A cell that starts and ends with a
    /// printable ASCII character (no blank there) is returned as is, without consulting a
    /// CharacterSet. A record's cells are cleaned in place by ``CSVCells/withCleanBytes(_:_:)``,
    /// which removes exactly what this removes.
    static func clean(_ s: String) -> String {
        if let f = s.utf8.first, let l = s.utf8.last, (0x21...0x7E).contains(f), (0x21...0x7E).contains(l) { return s }
        return s.trimmed(blanks)
    }

    static let blanks = CharacterSet.whitespacesAndNewlines
}

/// Currency names printed by banks, mapped to ISO 4217 codes.
public enum ISOCurrency {
    public static func code(for printed: String) -> String {
        let t = printed.trimmed(.whitespaces)
        if let c = table[t] { return c }
        return t.uppercased()
    }

    /// Built once: asked for every row of a file with a currency column.
    static let table = [
        "人民币": "CNY", "人民幣": "CNY", "RMB": "CNY", "美元": "USD", "港币": "HKD", "港幣": "HKD",
        "欧元": "EUR", "英镑": "GBP", "日元": "JPY", "澳元": "AUD", "加元": "CAD", "新加坡元": "SGD",
        "瑞士法郎": "CHF", "新西兰元": "NZD", "澳门元": "MOP", "韩元": "KRW", "$": "USD", "US$": "USD",
    ]
}
