import Foundation
import MoneyFlowCore

/// Names a column: by header text (any of several spellings, case-insensitive) or by 0-based index.
public enum ColumnRef: Sendable, Hashable, Codable, CustomStringConvertible {
    case names([String])
    case index(Int)

    public init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let i = try? c.decode(Int.self) {
            self = .index(i)
        } else if let s = try? c.decode(String.self) {
            self = .names([s])
        } else {
            self = .names(try c.decode([String].self))
        }
    }
    public func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .index(let i): try c.encode(i)
        case .names(let n): if n.count == 1 { try c.encode(n[0]) } else { try c.encode(n) }
        }
    }
    public var description: String {
        switch self {
        case .index(let i): return "#\(i + 1)"
        case .names(let n): return n.first ?? "?"
        }
    }
}

/// How to read one bank's CSV export: which column holds what, and how values are written.
///
/// Built-in profiles cover common exports (``BuiltInCSVProfiles``); users write their own as a
/// JSON or TOML file with the snake_case keys below (`date_column`, `amount_column` ...).
public struct CSVProfile: Sendable, Hashable, Codable {
    /// Profile name (`chase`, `bofa`, or a user's).
    public var name: String
    /// Variant within a bank (`checking`, `card`).
    public var variant: String?
    public var institution: String?
    /// Source kind of records read with this profile (`csv`, or `cmb-csv` for CMB web banking).
    public var sourceKind: SourceKind = .csv
    /// False for headerless exports (Wells Fargo): columns are then indexes.
    public var hasHeader: Bool = true
    /// `,` `;` `\t` or `|`; nil = detect.
    public var delimiter: String?
    /// `utf-8`, `gb18030`, `utf-16le` ...; nil = detect (BOMs always win).
    public var encoding: String?
    public var dateColumn: ColumnRef
    /// A second date column used when the first is empty.
    public var fallbackDateColumn: ColumnRef?
    /// `YYYY-MM-DD`, `MM/DD/YYYY`, `DD.MM.YYYY`, `YYYYMMDD`; nil = detect from the data.
    public var dateFormat: LocalDate.Format?
    public var descriptionColumn: ColumnRef
    public var counterpartyColumn: ColumnRef?
    public var noteColumn: ColumnRef?
    public var timeColumn: ColumnRef?
    /// One signed amount column...
    public var amountColumn: ColumnRef?
    /// ...or separate unsigned debit (money out) and credit (money in) columns.
    public var debitColumn: ColumnRef?
    public var creditColumn: ColumnRef?
    /// When set with `amount_column`, the amount is unsigned and this column's value says the
    /// direction: values in `debit_values` mean money out.
    public var directionColumn: ColumnRef?
    public var debitValues: [String]?
    /// True when the file's positive amounts are money OUT (card exports such as Amex).
    public var invertSign: Bool = false
    public var balanceColumn: ColumnRef?
    /// Bank reference number, used as external id.
    public var referenceColumn: ColumnRef?
    public var categoryColumn: ColumnRef?
    public var accountNumberColumn: ColumnRef?
    /// Regular expression with one capture group that finds the account number in preamble lines.
    public var accountNumberPattern: String?
    /// ISO currency of the amounts. A profile file must name it (or a `currency_column`): a
    /// default would silently make a Chinese file USD. Profiles built in code default to USD.
    /// Nil only with a `currency_column`, whose empty cells are then refused.
    public var currency: String? = "USD"
    public var currencyColumn: ColumnRef?
    /// `.` (default) or `,` for exports written `1.234,56`.
    public var decimalSeparator: String = "."
    /// Rows with an empty amount (a "beginning balance" line) are skipped instead of rejected.
    public var skipRowsWithoutAmount: Bool = false
    /// Prefix of the account key (`csv:<name>` by default; `cmb` joins CMB PDF statements).
    public var accountKeyPrefix: String?
    /// Name for a new account when the user gives none.
    public var defaultAccountName: String?
    /// `checking`, `savings`, `credit` ...: `credit`/`card` make a liability account.
    public var accountType: String?
    /// Extra header columns (`signature_columns`) that must all be present, each in any of its
    /// spellings, for this profile to claim a header row: they tell apart exports that share
    /// their required columns (Chase's older card export says `Trans Date` where today's says
    /// `Transaction Date`, so that entry is a list of both).
    public var signatureAlternatives: [[String]] = []

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, variant, institution, delimiter, encoding, currency
        case sourceKind = "source_kind", hasHeader = "has_header", dateColumn = "date_column"
        case fallbackDateColumn = "fallback_date_column", dateFormat = "date_format"
        case descriptionColumn = "description_column", counterpartyColumn = "counterparty_column"
        case noteColumn = "note_column", timeColumn = "time_column", amountColumn = "amount_column"
        case debitColumn = "debit_column", creditColumn = "credit_column", directionColumn = "direction_column"
        case debitValues = "debit_values", invertSign = "invert_sign", balanceColumn = "balance_column"
        case referenceColumn = "reference_column", categoryColumn = "category_column"
        case accountNumberColumn = "account_number_column", accountNumberPattern = "account_number_pattern"
        case currencyColumn = "currency_column", decimalSeparator = "decimal_separator"
        case skipRowsWithoutAmount = "skip_rows_without_amount", accountKeyPrefix = "account_key_prefix"
        case defaultAccountName = "default_account_name", accountType = "account_type"
        case signatureAlternatives = "signature_columns"
    }

    public init(name: String, dateColumn: ColumnRef, descriptionColumn: ColumnRef) {
        self.name = name; self.dateColumn = dateColumn; self.descriptionColumn = descriptionColumn
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        variant = try c.decodeIfPresent(String.self, forKey: .variant)
        institution = try c.decodeIfPresent(String.self, forKey: .institution)
        sourceKind = try c.decodeIfPresent(SourceKind.self, forKey: .sourceKind) ?? .csv
        hasHeader = try c.decodeIfPresent(Bool.self, forKey: .hasHeader) ?? true
        delimiter = try c.decodeIfPresent(String.self, forKey: .delimiter)
        encoding = try c.decodeIfPresent(String.self, forKey: .encoding)
        dateColumn = try c.decode(ColumnRef.self, forKey: .dateColumn)
        fallbackDateColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .fallbackDateColumn)
        if let f = try c.decodeIfPresent(String.self, forKey: .dateFormat) {
            guard let format = LocalDate.Format(name: f) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .dateFormat, in: c, debugDescription: "unknown date_format '\(f)' (use one of \(LocalDate.Format.validNames))")
            }
            dateFormat = format
        }
        descriptionColumn = try c.decode(ColumnRef.self, forKey: .descriptionColumn)
        counterpartyColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .counterpartyColumn)
        noteColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .noteColumn)
        timeColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .timeColumn)
        amountColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .amountColumn)
        debitColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .debitColumn)
        creditColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .creditColumn)
        directionColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .directionColumn)
        debitValues = try c.decodeIfPresent([String].self, forKey: .debitValues)
        invertSign = try c.decodeIfPresent(Bool.self, forKey: .invertSign) ?? false
        balanceColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .balanceColumn)
        referenceColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .referenceColumn)
        categoryColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .categoryColumn)
        accountNumberColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .accountNumberColumn)
        accountNumberPattern = try c.decodeIfPresent(String.self, forKey: .accountNumberPattern)
        if let pattern = accountNumberPattern, (try? NSRegularExpression(pattern: pattern)) == nil {
            // Read as "no account number" it would silently merge accounts: refuse instead.
            throw DecodingError.dataCorruptedError(
                forKey: .accountNumberPattern, in: c,
                debugDescription: "account_number_pattern '\(pattern)' is not a valid regular expression")
        }
        currencyColumn = try c.decodeIfPresent(ColumnRef.self, forKey: .currencyColumn)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)?.uppercased()
        decimalSeparator = try c.decodeIfPresent(String.self, forKey: .decimalSeparator) ?? "."
        skipRowsWithoutAmount = try c.decodeIfPresent(Bool.self, forKey: .skipRowsWithoutAmount) ?? false
        accountKeyPrefix = try c.decodeIfPresent(String.self, forKey: .accountKeyPrefix)
        defaultAccountName = try c.decodeIfPresent(String.self, forKey: .defaultAccountName)
        accountType = try c.decodeIfPresent(String.self, forKey: .accountType)
        for ref in try c.decodeIfPresent([ColumnRef].self, forKey: .signatureAlternatives) ?? [] {
            guard case .names(let spellings) = ref, !spellings.isEmpty else {
                throw DecodingError.dataCorruptedError(
                    forKey: .signatureAlternatives, in: c,
                    debugDescription: "signature_columns lists header names (a name, or a list of spellings), not column indexes")
            }
            signatureAlternatives.append(spellings)
        }
        guard amountColumn != nil || (debitColumn != nil && creditColumn != nil) else {
            throw DecodingError.dataCorruptedError(
                forKey: .amountColumn, in: c, debugDescription: "a profile needs amount_column, or debit_column and credit_column")
        }
        try checkDirection(c)
        guard currency != nil || currencyColumn != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .currency, in: c,
                debugDescription:
                    "missing key 'currency': name the ISO code of the file's amounts (e.g. currency = \"USD\" or \"CNY\"), or a currency_column that holds it"
            )
        }
    }

    /// `direction_column` and `debit_values` only mean something together, and only with an
    /// unsigned `amount_column`: half of the pair would read every row as money in (or ignore
    /// the direction), so it is refused with the key that is missing.
    private func checkDirection(_ c: KeyedDecodingContainer<CodingKeys>) throws {
        if directionColumn != nil && (debitValues ?? []).isEmpty {
            throw DecodingError.dataCorruptedError(
                forKey: .debitValues, in: c,
                debugDescription:
                    "direction_column needs debit_values: the values of that column that mean money out (e.g. debit_values = [\"Debit\"]); without them every row would be read as money in"
            )
        }
        if debitValues != nil && directionColumn == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .directionColumn, in: c,
                debugDescription: "debit_values needs direction_column: the column whose values say money out or in")
        }
        if directionColumn != nil && amountColumn == nil {
            throw DecodingError.dataCorruptedError(
                forKey: .directionColumn, in: c,
                debugDescription:
                    "direction_column goes with amount_column (an unsigned amount); debit_column and credit_column already say the direction"
            )
        }
    }

    /// Display id: `chase` or `chase/card`.
    public var qualifiedName: String { variant.map { "\(name)/\($0)" } ?? name }

    /// Header names this profile requires (used to recognise a header row).
    public var requiredHeaders: [[String]] {
        var refs: [ColumnRef] = [dateColumn, descriptionColumn]
        for r in [amountColumn, debitColumn, creditColumn, directionColumn] { if let r { refs.append(r) } }
        return refs.compactMap { if case .names(let n) = $0 { return n } else { return nil } }
    }

    /// Every key a profile file may use.
    public static var validKeys: [String] { CodingKeys.allCases.map(\.rawValue) }

    /// Extra header names that must all be present for this profile to claim a header row
    /// (first spelling of each; see ``signatureAlternatives``).
    public var signature: [String] { signatureAlternatives.map { $0[0] } }
}
