import Foundation
import Hummingbird
import Logging

/// One log line per request: method, path, status and time taken, e.g.
/// `GET /v1/transactions 200 12.4 ms`. The path is logged without its query (a query may name
/// accounts or carry a cursor) and never with headers (they carry tokens and ZIP passwords).
/// The time runs until the body has been written, so a streamed export is timed whole.
struct RequestLogMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let logger = context.logger
        let line = "\(request.method) \(request.uri.path)"
        var response: Response
        do {
            response = try await next(request, context)
        } catch {
            // Only errors the JSON error middleware did not answer get here (none expected).
            logger.info("\(line) failed in \(Self.milliseconds(since: start))")
            throw error
        }
        let status = response.status.code
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            do {
                try await body.write(writer)
                logger.info("\(line) \(status) \(Self.milliseconds(since: start))")
            } catch {
                logger.info("\(line) \(status) \(Self.milliseconds(since: start)) (body cut off: \(String(describing: error)))")
                throw error
            }
        }
        return response
    }

    static func milliseconds(since start: ContinuousClock.Instant) -> String {
        let d = ContinuousClock.now - start
        let ms = Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
        return String(format: "%.1f ms", ms)
    }
}
