import Foundation
import MoneyFlowConfig
import MoneyFlowImporters

/// A user's own CSV profiles on the server (`PUT /v1/profiles/{name}`), kept as the TOML they
/// sent in `ledgers/<user id>/profiles/<name>.toml` (files 0600 in a 0700 folder) and named by
/// an upload's `csv_profile=NAME`. Each is checked by the same reader as a profile file given
/// to `import --csv-profile`, before it is kept: a profile that would fail the CLI is refused.
struct UserProfiles: Sendable {
    let folder: String
    let users: UserDirectory
    let user: ServerUser

    init(users: UserDirectory, user: ServerUser) {
        self.users = users
        self.user = user
        folder = (users.ledgerFolder(for: user) as NSString).appendingPathComponent("profiles")
    }

    /// A profile name: 1-64 letters, digits, '.', '_' or '-', not starting with '.', and not
    /// a built-in profile's name or alias (`csv_profile=` would be ambiguous).
    static func checkName(_ name: String) throws {
        let ok =
            !name.isEmpty && name.utf8.count <= 64 && !name.hasPrefix(".")
            && name.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || "._-".unicodeScalars.contains($0) }
        guard ok else { throw APIError.badRequest("profile name '\(name)': use 1-64 letters, digits, '.', '_' or '-' (not starting with '.')") }
        guard BuiltInCSVProfiles.named(name).isEmpty else {
            throw APIError(.conflict, "profile_name_taken", "'\(name)' is a built-in CSV profile's name; store yours under another name")
        }
    }

    private func path(_ name: String) -> String { (folder as NSString).appendingPathComponent(name + ".toml") }

    /// Checks and keeps the profile (replacing one of that name); true when it is new.
    func put(name: String, toml: Data) throws -> (profile: CSVProfile, created: Bool) {
        try Self.checkName(name)
        let profile = try ProfileFiles.toml(toml, file: name + ".toml")
        let fm = FileManager.default
        guard try users.prepareLedgerFolder(for: user) else { throw APIError.unauthorized }
        // Inside the user's folder only (never made again here for a removed user).
        if !fm.fileExists(atPath: folder) {
            try fm.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        }
        let created = !fm.fileExists(atPath: path(name))
        // Written beside and renamed over: a reader sees the old profile or the new one, whole.
        let temporary = (folder as NSString).appendingPathComponent(".\(name).\(UUID().uuidString)")
        guard fm.createFile(atPath: temporary, contents: toml, attributes: [.posixPermissions: 0o600]) else {
            throw APIError(.internalServerError, "internal", "cannot keep the profile")
        }
        guard rename(temporary, path(name)) == 0 else {
            try? fm.removeItem(atPath: temporary)
            throw APIError(.internalServerError, "internal", "cannot keep the profile")
        }
        return (profile, created)
    }

    /// The stored profile of that name, or nil.
    func load(_ name: String) throws -> CSVProfile? {
        guard (try? Self.checkName(name)) != nil, let data = FileManager.default.contents(atPath: path(name)) else { return nil }
        return try ProfileFiles.toml(data, file: name + ".toml")
    }

    /// Every stored profile, by name.
    func all() throws -> [(name: String, profile: CSVProfile)] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return try files.filter { $0.hasSuffix(".toml") && !$0.hasPrefix(".") }.sorted().compactMap { file in
            let name = String(file.dropLast(".toml".count))
            return try load(name).map { (name, $0) }
        }
    }

    /// Removes the profile; false when there was none.
    func delete(_ name: String) throws -> Bool {
        guard (try? Self.checkName(name)) != nil, FileManager.default.fileExists(atPath: path(name)) else { return false }
        try FileManager.default.removeItem(atPath: path(name))
        return true
    }
}
