import Foundation
import Hummingbird
import MoneyFlowCore

/// A route's query string as a Decodable type, read by Hummingbird's
/// `uri.decodeQuery(as:context:)` (as HTML forms and curl's `--url-query` encode it: `+` is a
/// space and `%XX` a byte, so `account=Plaid+Checking+0000` names "Plaid Checking 0000").
/// The names a route takes are its `CodingKeys`: any other name, a name given twice or a value
/// of the wrong type is a 400 naming the parameter, never a silent default.
protocol QueryParameters: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
}

/// The query of a route that takes no parameters: any parameter is refused.
struct NoQuery: QueryParameters {
    enum CodingKeys: CodingKey, CaseIterable {}
    init() {}
    init(from decoder: any Decoder) throws {}
}

/// Query and path parameters, each refused with a 400 that names it when malformed.
enum Query {
    /// The request's query as `Q`: unknown and repeated names, and values of the wrong type,
    /// are a 400 naming the parameter.
    static func decode<Q: QueryParameters>(_ type: Q.Type, _ request: Request, _ context: ServerRequestContext) throws -> Q {
        do {
            let taken = Q.CodingKeys.allCases.map(\.stringValue)
            let names = try request.uri.decodeQuery(as: QueryNames.self, context: context).names
            if let unknown = names.sorted().first(where: { !taken.contains($0) }) {
                throw APIError.badRequest(
                    "unknown query parameter '\(unknown)': "
                        + (taken.isEmpty ? "this route takes none" : "this route takes \(taken.joined(separator: ", "))"))
            }
            return try request.uri.decodeQuery(as: Q.self, context: context)
        } catch let e as URLEncodedFormError {
            if e.code == .duplicateKeys { throw APIError.badRequest("query parameter '\(e.value)' is given more than once") }
            throw APIError.badRequest("the query string cannot be read near '\(e.value)': encode names and values as a form does")
        } catch let e as HTTPError where e.status == .badRequest {
            // A value that is a list or object (`account[]=x`) where the route takes one text.
            throw APIError.badRequest("the query string does not fit this route: \(e.body ?? "malformed")")
        }
    }

    /// The route takes no query parameters: any is a 400 naming it.
    static func none(_ request: Request, _ context: ServerRequestContext) throws {
        _ = try decode(NoQuery.self, request, context)
    }

    /// The name of the query parameter `decoder` is reading, for messages.
    static func name(_ decoder: any Decoder) -> String { decoder.codingPath.last?.stringValue ?? "a parameter" }

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

/// Every name of a query string (values unread), to refuse the ones a route does not take.
struct QueryNames: Decodable {
    var names: [String]
    init(from decoder: any Decoder) throws {
        names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
    }
}

/// Any name, as a coding key (the names of a query or body before they are checked).
struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

/// `true`/`false` (also `1`/`0`, any case; empty is false), else a 400 naming the parameter.
struct QueryBool: Decodable {
    var value: Bool
    init(from decoder: any Decoder) throws {
        switch try decoder.singleValueContainer().decode(String.self).lowercased() {
        case "false", "0", "": value = false
        case "true", "1": value = true
        default: throw APIError.badRequest("\(Query.name(decoder)) must be true or false")
        }
    }
}

/// A date `YYYY-MM-DD`, else a 400 naming the parameter.
struct QueryDate: Decodable {
    var date: LocalDate
    init(from decoder: any Decoder) throws {
        guard let d = LocalDate(iso: try decoder.singleValueContainer().decode(String.self), .exact) else {
            throw APIError.badRequest("\(Query.name(decoder)) must be a date YYYY-MM-DD")
        }
        date = d
    }
}

/// A page size from 1 to 1000, else a 400 naming the parameter.
struct QueryPageSize: Decodable {
    static let range = 1...1000
    var value: Int
    init(from decoder: any Decoder) throws {
        guard let n = Int(try decoder.singleValueContainer().decode(String.self)), Self.range.contains(n) else {
            throw APIError.badRequest(
                "\(Query.name(decoder)) must be a whole number from \(Self.range.lowerBound) to \(Self.range.upperBound)")
        }
        value = n
    }
}
