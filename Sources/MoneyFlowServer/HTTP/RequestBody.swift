import Foundation
import Hummingbird

/// A route's JSON body as a Decodable type, read by Hummingbird's `request.decode(as:context:)`
/// (at most the context's `maxUploadSize`, 64 KiB). Its keys are its `CodingKeys`: an unknown
/// key, a null, a value of the wrong type or a missing required key is a 400 that names the
/// key and shows ``shape``, never a silent default.
protocol RequestBody: Decodable {
    associatedtype CodingKeys: CodingKey & CaseIterable
    /// What the route takes, as the 400 shows it (`send {"out": <id>, "in": <id>}`).
    static var shape: String { get }
    /// The body an empty request stands for, when the route takes one (nil: refused).
    static var empty: Self? { get }
    /// Checks across keys (at least one of them given); throws a 400.
    func validate() throws
}

extension RequestBody {
    static var empty: Self? { nil }
    func validate() throws {}
}

enum JSONBody {
    static func decode<B: RequestBody>(_ type: B.Type, _ request: Request, _ context: ServerRequestContext) async throws -> B {
        var request = request
        let body: B
        if try await BodyCap.collect(&request, upTo: context.maxUploadSize).readableBytes == 0, let empty = B.empty {
            body = empty
        } else {
            do {
                body = try await request.decode(as: CheckedBody<B>.self, context: context).body
            } catch let e as HTTPError where e.status == .badRequest {
                // Not JSON at all (or empty): the shape says what to send.
                throw APIError.badRequest(B.shape)
            }
        }
        try body.validate()
        return body
    }
}

/// `B` decoded after its keys are checked; a decoding error becomes a 400 naming the key.
struct CheckedBody<B: RequestBody>: Decodable {
    var body: B

    init(from decoder: any Decoder) throws {
        let object: KeyedDecodingContainer<AnyKey>
        do { object = try decoder.container(keyedBy: AnyKey.self) } catch { throw APIError.badRequest(B.shape) }
        let taken = Set(B.CodingKeys.allCases.map(\.stringValue))
        for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            guard taken.contains(key.stringValue) else { throw APIError.badRequest("unknown key '\(key.stringValue)': \(B.shape)") }
            if try object.decodeNil(forKey: key) { throw APIError.badRequest("\(key.stringValue) must not be null: \(B.shape)") }
        }
        do {
            body = try B(from: decoder)
        } catch let e as DecodingError {
            throw APIError.badRequest((Self.problem(e).map { "\($0): " } ?? "") + B.shape)
        }
    }

    /// What is wrong with which key, in a few words (nil: a required key is missing, which the
    /// shape alone says).
    static func problem(_ error: DecodingError) -> String? {
        switch error {
        case .typeMismatch(let type, let c) where c.codingPath.count > 1:
            return "\(c.codingPath[0].stringValue) has an element that is not \(expected(type))"
        case .typeMismatch(let type, let c) where !c.codingPath.isEmpty:
            return "\(c.codingPath[0].stringValue) must be \(expected(type))"
        case .dataCorrupted(let c) where !c.codingPath.isEmpty:
            return "\(c.codingPath[0].stringValue) is not a valid value"
        case .valueNotFound(_, let c) where !c.codingPath.isEmpty:
            return "\(c.codingPath[0].stringValue) must not be null"
        default: return nil
        }
    }

    static func expected(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is Int.Type, is Int64.Type: return "a whole number"
        default: return String(describing: type).hasPrefix("Array") ? "a list" : "of another type"
        }
    }
}
