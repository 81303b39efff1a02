import Foundation
import MoneyFlowCore

/// The bytes of one file to import.
public struct ImportInput: Sendable {
    /// Name used in messages (the path as the user gave it).
    public var fileName: String
    public var data: Data
    public init(fileName: String, data: Data) { self.fileName = fileName; self.data = data }
}

/// Supplies a password for an encrypted input, lazily (only if the file needs one).
/// The argument names what is being opened (for a prompt); nil means none available.
public typealias PasswordProvider = @Sendable (_ fileName: String) throws -> String?

/// Per-import options that importers may use.
public struct ImportOptions: Sendable {
    /// CSV column profile(s) to use instead of sniffing the header: one user profile, or the
    /// variants of one built-in profile (the one whose header fits is used).
    public var csvProfiles: [CSVProfile]?
    /// Password source for encrypted containers (ZIP, PDF).
    public var password: PasswordProvider?
    /// Default currency for sources that do not print one.
    public var defaultCurrency: String?
    /// A card bill's rows of a supplementary card go to that card's own account instead of the
    /// bill's (`--split-cards`).
    public var splitCards: Bool

    public init(
        csvProfiles: [CSVProfile]? = nil, password: PasswordProvider? = nil, defaultCurrency: String? = nil, splitCards: Bool = false
    ) {
        self.csvProfiles = csvProfiles; self.password = password; self.defaultCurrency = defaultCurrency
        self.splitCards = splitCards
    }
}

/// A file format MoneyFlow can read. Adding a bank is one new conforming type plus its
/// registration in an ``ImporterRegistry``; the store, the engine and the CLI do not change.
public protocol Importer: Sendable {
    /// Stable id used by `--format` and in batch records (`csv`, `cmb-pdf`, `plaid`).
    var id: String { get }
    /// Human-readable name.
    var displayName: String { get }
    /// How sure this importer is that it reads `input` (0 = not mine, 1 = certain), from content.
    func sniff(_ input: ImportInput, options: ImportOptions) -> Double
    /// Reads the file into records and account facts. Throws ``ImportError`` for bad input.
    func read(_ input: ImportInput, options: ImportOptions) throws -> ImportedStatement
}

/// The set of importers known to a program, consulted in order of confidence.
public struct ImporterRegistry: Sendable {
    public private(set) var importers: [any Importer]

    public init(_ importers: [any Importer] = []) { self.importers = importers }

    /// Adds an importer (later registrations win ties).
    public mutating func register(_ importer: any Importer) { importers.append(importer) }

    /// The importer with this id.
    public func importer(id: String) -> (any Importer)? { importers.first { $0.id == id } }

    /// The registered importers' ids, in registration order: the values `--format` takes, listed
    /// by help texts and errors (so a new importer is listed without another edit).
    public var ids: [String] { importers.map(\.id) }

    /// What the registered importers read, for messages about a file none of them reads
    /// (from their ``Importer/displayName``s, so a new importer is named without another edit).
    public var supportedFormats: String { importers.map(\.displayName).joined(separator: "; ") }

    /// The importer most confident about `input`, if any is at least somewhat sure.
    public func detect(_ input: ImportInput, options: ImportOptions = ImportOptions()) -> (any Importer)? {
        var best: (any Importer)?
        var bestScore = 0.0
        for importer in importers {
            let s = importer.sniff(input, options: options)
            if s > bestScore || (s == bestScore && s > 0) { best = importer; bestScore = s }
        }
        return bestScore >= 0.2 ? best : nil
    }
}
