import Foundation
import Hummingbird

/// `serve`'s request timeout (``ServerConfiguration/requestTimeout``): a handler still running
/// when it is up is cancelled and the client gets 503 `request_timeout`. Cancelling stops what
/// waits (an upload's bytes, a turn in the user's line, a call to Plaid); store work that has
/// started runs to its end (an import commits or rolls back as a whole), and if it ends with an
/// answer, that answer is sent instead: the client learns what happened to its ledger.
struct RequestTimeoutMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let timeout: Duration

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let timeout = self.timeout
        return try await withoutActuallyEscaping(next) { next in
            // The handler runs in a child task of this call only (the group is awaited here).
            nonisolated(unsafe) let handler = next
            return try await withThrowingTaskGroup(of: Response?.self) { group in
                group.addTask { try await handler(request, context) }
                group.addTask {
                    try? await Task.sleep(for: timeout)
                    return nil
                }
                do {
                    if case let response?? = try await group.next() {
                        group.cancelAll()
                        return response
                    }
                } catch {
                    group.cancelAll()
                    throw error
                }
                // The time is up: the handler is cancelled; its own answer still wins if it has one.
                group.cancelAll()
                do {
                    if case let response?? = try await group.next() { return response }
                } catch {}
                throw APIError(
                    .serviceUnavailable, "request_timeout",
                    "the request took longer than this server allows (\(timeout.components.seconds) s); a change that had started is finished or undone as a whole (GET /v1/batches shows which)",
                    retryAfter: 1)
            }
        }
    }
}
