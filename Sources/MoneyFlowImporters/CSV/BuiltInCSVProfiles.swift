import Foundation
import MoneyFlowCore

/// Profiles for the exports people actually download today.
///
/// Each is a profile file in `CSV/Profiles/` written exactly as a user would write one (JSON),
/// compiled into the module with SwiftPM's `embedInCode` (no resource bundle to ship next to the
/// binary, and nothing but Foundation at run time), and read by the same loader as a user's file
/// (``CSVProfile/decodeJSON(_:file:)``), so a built-in profile can do nothing a user's cannot.
/// `moneyflow profiles --show NAME` prints one as a starting point for a user's own.
public enum BuiltInCSVProfiles {
    /// The shipped files, in `moneyflow profiles` order (the same list as in Package.swift).
    static let files: [(name: String, bytes: [UInt8])] = [
        ("chase-checking.json", PackageResources.chase_checking_json),
        ("chase-card.json", PackageResources.chase_card_json),
        ("bofa-checking.json", PackageResources.bofa_checking_json),
        ("bofa-card.json", PackageResources.bofa_card_json),
        ("wells-fargo-checking.json", PackageResources.wells_fargo_checking_json),
        ("capital-one-card.json", PackageResources.capital_one_card_json),
        ("capital-one-360.json", PackageResources.capital_one_360_json),
        ("amex-card.json", PackageResources.amex_card_json),
        ("cmb-pc.json", PackageResources.cmb_pc_json),
    ]

    /// Every built-in profile with the file it comes from, parsed once.
    public static let sources: [(profile: CSVProfile, file: JSONObject)] = files.map { f in
        do {
            let value = try JSONParser(maxDepth: CSVProfile.maxNesting).parse(Data(f.bytes))
            return (try CSVProfile.decode(value, file: f.name), value.objectValue!)
        } catch {
            // The files are part of the build and tested (BuiltInProfileFileTests): a bad one is a
            // programming error caught before release, not a user input.
            fatalError("built-in CSV profile \(f.name): \(error)")
        }
    }

    /// Every built-in profile variant, grouped by name in `moneyflow profiles` order.
    public static var all: [CSVProfile] { sources.map(\.profile) }

    /// Profile names, in order.
    public static var names: [String] {
        var seen: [String] = []
        for p in all where !seen.contains(p.name) { seen.append(p.name) }
        return seen
    }

    /// The variants of a built-in profile (`chase` -> checking and card), or of `chase/card`.
    public static func named(_ name: String) -> [CSVProfile] {
        sourcesNamed(name).map(\.profile)
    }

    /// Like ``named(_:)``, with the profile file each variant comes from.
    public static func sourcesNamed(_ name: String) -> [(profile: CSVProfile, file: JSONObject)] {
        let lower = name.lowercased()
        let aliases = [
            "wellsfargo": "wells-fargo", "wells": "wells-fargo", "capitalone": "capital-one",
            "bank-of-america": "bofa", "boa": "bofa", "american-express": "amex", "cmb-pc": "cmb",
        ]
        let canonical = aliases[lower] ?? lower
        if let slash = canonical.firstIndex(of: "/") {
            let n = String(canonical[..<slash]), v = String(canonical[canonical.index(after: slash)...])
            return sources.filter { $0.profile.name == n && $0.profile.variant == v }
        }
        return sources.filter { $0.profile.name == canonical }
    }
}
