import Foundation
import Hummingbird

/// Every body a route reads is capped, and the cap is checked first against the declared
/// `Content-Length`: a body that says it is too large gets 413 before a byte of it is read (the
/// connection then ends, ``ConnectionGuard``). A chunked body is counted as it arrives.
enum BodyCap {
    static let tooLarge = APIError(
        .contentTooLarge, "payload_too_large", "the request body is larger than this server accepts (--max-body-mib)")

    /// 413 when the request declares a body over `max` bytes.
    static func check(_ request: Request, upTo max: Int) throws {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > max { throw tooLarge }
    }

    /// The body, at most `max` bytes (413 beyond, from the declared length when there is one).
    static func collect(_ request: inout Request, upTo max: Int) async throws -> ByteBuffer {
        try check(request, upTo: max)
        return try await request.collectBody(upTo: max)
    }
}
