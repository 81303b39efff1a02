import Foundation
import Hummingbird
import MoneyFlowCore
import MoneyFlowImporters
import MoneyFlowPipeline

/// `/v1/profiles`: the built-in CSV profiles (as `moneyflow profiles --format json`) and the
/// caller's own, which an upload names with `csv_profile=NAME` as the CLI names a profile file.
struct ProfileRoutes {
    let users: UserDirectory

    /// Largest profile accepted (a profile is a few dozen lines of TOML).
    static let maxProfileBytes = 1 << 16

    func register(_ v1: RouterGroup<ServerRequestContext>) {
        v1.get("profiles") { request, context in
            try Query.none(request, context)
            let own = UserProfiles(users: users, user: try context.requireUser())
            let mine = try await users.perform { _ in try own.all() }
            let builtIn = BuiltInCSVProfiles.all.map { Self.entry($0, name: nil, origin: "built-in") }
            return JSONResponse.make(.object([("profiles", .array(builtIn + mine.map { Self.entry($0.profile, name: $0.name, origin: "user") }))]))
        }
        v1.put("profiles/:name") { request, context in
            try Query.none(request, context)
            let own = UserProfiles(users: users, user: try context.requireUser())
            let name = context.parameters.get("name") ?? ""
            var request = request
            let body = Data(try await BodyCap.collect(&request, upTo: Self.maxProfileBytes).readableBytesView)
            if body.isEmpty { throw APIError.badRequest("the request body is empty: send the profile's TOML") }
            let (profile, created) = try await users.perform { _ in try own.put(name: name, toml: body) }
            return JSONResponse.make(Self.entry(profile, name: name, origin: "user"), status: created ? .created : .ok)
        }
        v1.delete("profiles/:name") { request, context in
            try Query.none(request, context)
            let own = UserProfiles(users: users, user: try context.requireUser())
            let name = context.parameters.get("name") ?? ""
            guard try await users.perform({ _ in try own.delete(name) }) else { throw APIError.notFound("you have no CSV profile named '\(name)'") }
            return JSONResponse.make(.object([("name", .string(name)), ("deleted", .bool(true))]))
        }
    }

    /// One element of `moneyflow profiles --format json`, plus where it comes from; a user's
    /// profile is listed under the name an upload uses for it.
    static func entry(_ profile: CSVProfile, name: String?, origin: String) -> JSONOutput {
        guard case .array(let one) = Contracts.profiles([profile]), case .object(var pairs)? = one.first else { return .null }
        if let name, let i = pairs.firstIndex(where: { $0.0 == "name" }) { pairs[i].1 = .string(name) }
        pairs.append(("origin", .string(origin)))
        return .object(pairs)
    }

    /// The profiles `csv_profile=NAME` names: the caller's own, else a built-in one (names
    /// never overlap: a user cannot store a profile under a built-in name).
    static func resolve(_ name: String, own: UserProfiles) throws -> [CSVProfile] {
        if let mine = try own.load(name) { return [mine] }
        let builtIn = BuiltInCSVProfiles.named(name)
        guard builtIn.isEmpty else { return builtIn }
        let yours = try own.all().map(\.name)
        throw APIError.badRequest(
            "unknown csv_profile '\(name)'\(NearestName.hint(name, in: yours + BuiltInCSVProfiles.names)) (built-in: \(BuiltInCSVProfiles.names.joined(separator: ", "))"
                + (yours.isEmpty ? "; store your own with PUT /v1/profiles/{name})" : "; yours: \(yours.joined(separator: ", ")))"))
    }
}
