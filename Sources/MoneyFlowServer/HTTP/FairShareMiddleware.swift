import Foundation
import Hummingbird

/// Puts every authenticated request in its user's share (``FairShare``): admitted or 429 from
/// the headers alone, then its handler runs while it holds a turn. The turn is given back when
/// the handler returns; the admission when the answer has been written (a streamed export
/// still counts against its user while it streams). Routes that mostly wait for another
/// service (Plaid) are admitted without taking a turn (`holdsTurns: false`): a slow Plaid must
/// not keep turns from other users' store work; their writes still take the user's one
/// writing slot.
struct FairShareMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext
    let share: FairShare
    var holdsTurns = true

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let user = try context.requireUser()
        try share.admit(user.id)
        let pass = FairPass(share: share, user: user.id)
        var context = context
        if holdsTurns { context.pass = pass }
        var response: Response
        do {
            if holdsTurns { try await pass.acquire() }
            response = try await next(request, context)
        } catch {
            pass.finish()
            throw error
        }
        pass.release()
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            defer { pass.finish() }
            try await body.write(writer)
        }
        return response
    }
}
