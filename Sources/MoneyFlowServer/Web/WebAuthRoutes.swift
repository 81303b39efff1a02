import Foundation
import HTTPTypes
import Hummingbird

/// Signing in and out of the web app. A browser signs in with its user's name and web password
/// (`moneyflow users passwd`), or with the user's API token alone; it gets a session cookie
/// (HttpOnly, SameSite=Strict, Secure when the request came over TLS). Failed attempts are
/// limited per client address and per name (``SignInThrottle``).
struct WebAuthRoutes {
    let accounts: WebAccounts
    let throttle: SignInThrottle

    func register(_ router: Router<ServerRequestContext>, pages: RouterGroup<ServerRequestContext>) {
        router.get("signin") { request, context in
            if let cookie = request.cookies[WebSessionMiddleware.cookieName]?.value,
                try await accounts.perform({ try $0.session(cookie: cookie) }) != nil
            {
                return WebPage.redirect("/")
            }
            return WebPage.render("signin", title: "Sign in", session: nil)
        }
        router.post("signin") { request, context in
            do { return try await signIn(request, context) } catch { return WebPage.error(error, session: nil) }
        }
        pages.post("signout") { request, context in
            if let cookie = request.cookies[WebSessionMiddleware.cookieName]?.value {
                try await accounts.perform { try $0.closeSession(cookie: cookie) }
            }
            return WebPage.redirect("/signin", cookie: Self.cookie("", secure: Self.isSecure(request), maxAge: 0))
        }
    }

    private func signIn(_ request: Request, _ context: ServerRequestContext) async throws -> Response {
        // A page of another site cannot sign a browser in to its own account here (login CSRF).
        if let origin = request.headers[.origin], let host = request.head.authority,
            URL(string: origin)?.host.map({ host == $0 || host.hasPrefix($0 + ":") }) != true
        {
            throw WebError.forbidden("sign in from this server's own page")
        }
        let form = try await WebForm.read(request, limit: 1 << 16)
        let name = form["name"] ?? ""
        let secret = form.fields["password"] ?? ""
        let address = context.peer ?? "unknown"
        if let wait = await throttle.retryAfter(address: address, name: name) { throw WebError.tooManyAttempts(retryAfter: wait) }
        let accounts = self.accounts
        let user = try await accounts.perform { accounts -> ServerUser? in
            if secret.hasPrefix("mf_") {
                guard let user = try accounts.users.authenticate(token: secret), name.isEmpty || name == user.name else { return nil }
                return user
            }
            return name.isEmpty ? nil : try accounts.verify(name: name, password: secret)
        }
        guard let user else {
            await throttle.failed(address: address, name: name)
            return WebPage.render(
                "signin", title: "Sign in", session: nil, status: .unauthorized,
                ["problem": "wrong user name, password or token", "name": name])
        }
        await throttle.succeeded(name: name)
        let cookie = try await accounts.perform { try $0.openSession(for: user) }
        return WebPage.redirect("/", cookie: Self.cookie(cookie, secure: Self.isSecure(request), maxAge: Int(WebAccounts.sessionLifetime)))
    }

    /// True when the browser reached the server over TLS (directly or through a proxy that says so).
    static func isSecure(_ request: Request) -> Bool {
        request.head.scheme == "https" || request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    static func cookie(_ value: String, secure: Bool, maxAge: Int) -> String {
        "\(WebSessionMiddleware.cookieName)=\(value); Path=/; HttpOnly; SameSite=Strict; Max-Age=\(maxAge)" + (secure ? "; Secure" : "")
    }
}
