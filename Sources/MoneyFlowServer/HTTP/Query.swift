import Foundation
import Hummingbird
import MoneyFlowCore

/// A request's query string, decoded as HTML forms and curl's `--url-query` encode it: `+` is a
/// space and `%XX` a byte (so `account=Plaid+Checking+0000` names "Plaid Checking 0000", and a
/// literal plus travels as `%2B`). The first value of a repeated name wins.
struct FormQuery {
    private var values: [String: String] = [:]

    init(_ request: Request) {
        for pair in (request.uri.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), !name.isEmpty, values[name] == nil else { continue }
            values[name] = parts.count > 1 ? (Self.decode(parts[1]) ?? "") : ""
        }
    }

    func get(_ name: String) -> String? { values[name] }

    static func decode(_ s: Substring) -> String? {
        s.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// Query and path parameters, each refused with a 400 that names it when malformed.
enum Query {
    static func int(_ q: FormQuery, _ name: String, default value: Int, range: ClosedRange<Int>) throws -> Int {
        guard let text = q.get(name) else { return value }
        guard let n = Int(text), range.contains(n) else {
            throw APIError.badRequest("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return n
    }

    static func date(_ q: FormQuery, _ name: String) throws -> LocalDate? {
        guard let text = q.get(name) else { return nil }
        guard let d = LocalDate(iso: text, .exact) else { throw APIError.badRequest("\(name) must be a date YYYY-MM-DD") }
        return d
    }

    static func bool(_ q: FormQuery, _ name: String) throws -> Bool {
        switch q.get(name)?.lowercased() {
        case nil, "false", "0", "": return false
        case "true", "1": return true
        default: throw APIError.badRequest("\(name) must be true or false")
        }
    }

    /// A name in the path (`/v1/accounts/CMB%202468`), percent-decoded.
    static func pathName(_ context: ServerRequestContext, _ name: String) throws -> String {
        guard let text = context.parameters.get(name)?.removingPercentEncoding, !text.isEmpty else {
            throw APIError.notFound("no such \(name)")
        }
        return text
    }

    static func pathID(_ context: ServerRequestContext, _ name: String) throws -> Int64 {
        guard let text = context.parameters.get(name), let id = Int64(text), id > 0 else {
            throw APIError.notFound("no such \(name)")
        }
        return id
    }
}

/// Small JSON request bodies (links, Plaid calls) read as a dictionary.
enum JSONBody {
    static func object(_ request: inout Request, limit: Int) async throws -> [String: Any] {
        let buffer = try await request.collectBody(upTo: limit)
        if buffer.readableBytes == 0 { return [:] }
        guard let o = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else {
            throw APIError.badRequest("the body must be a JSON object")
        }
        return o
    }

    /// The request's JSON object of optional text fields, at least one of `keys` and nothing
    /// else (a misspelt key is refused, never ignored).
    static func strings(_ request: Request, _ context: ServerRequestContext, _ keys: [String]) async throws -> [String: String] {
        let shape = "send a JSON object with any of " + keys.map { "\"\($0)\": \"...\"" }.joined(separator: ", ")
        var out: [String: String] = [:]
        for (key, value) in try await fields(request, context, shape: shape) {
            guard keys.contains(key) else { throw APIError.badRequest("unknown key '\(key)': \(shape)") }
            guard case .text(let text) = value else { throw APIError.badRequest("\(key) must be a string: \(shape)") }
            out[key] = text
        }
        if out.isEmpty { throw APIError.badRequest(shape) }
        return out
    }

    /// The request's JSON object holding an integer id under each of `keys`, in that order;
    /// anything else is a 400 that shows the expected shape.
    static func ids(_ request: Request, _ context: ServerRequestContext, _ keys: [String]) async throws -> [Int64] {
        let shape = "send {" + keys.map { "\"\($0)\": <id>" }.joined(separator: ", ") + "}"
        let body = try await fields(request, context, shape: shape)
        let ids = keys.compactMap { key -> Int64? in if case .id(let id) = body[key] { id } else { nil } }
        guard ids.count == keys.count else { throw APIError.badRequest(shape) }
        return ids
    }

    /// The body decoded by Hummingbird's `request.decode(as:context:)`, which reads at most the
    /// context's `maxUploadSize` (64 KiB) before decoding; a body that is not a JSON object
    /// (or is empty) is a 400 showing `shape`.
    static func fields(_ request: Request, _ context: ServerRequestContext, shape: String) async throws -> [String: BodyValue] {
        do {
            return try await request.decode(as: [String: BodyValue].self, context: context)
        } catch let e as HTTPError where e.status == .badRequest {
            throw APIError.badRequest(shape)
        }
    }
}

/// One value of a small JSON request body: the text or integer id a route reads, or anything
/// else (refused by the reader with the key's name).
enum BodyValue: Decodable {
    case text(String)
    case id(Int64)
    case other

    init(from decoder: any Decoder) throws {
        let value = try decoder.singleValueContainer()
        if let text = try? value.decode(String.self) {
            self = .text(text)
        } else if let id = try? value.decode(Int64.self) {
            self = .id(id)
        } else {
            self = .other
        }
    }
}
