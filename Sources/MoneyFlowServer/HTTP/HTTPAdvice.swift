import MoneyFlowCore

/// Library errors end with command-line advice (`--password-env VAR`, `--csv-profile FILE`,
/// "see `moneyflow transfers`"): right on a terminal, useless to an app. The server says the
/// same thing the API's way; the CLI keeps its messages as they are.
enum HTTPAdvice {
    /// The import error as an HTTP client should read it: a missing password names the header
    /// it travels in (decided by the error's kind, so a reworded CLI hint cannot leak through).
    static func message(for e: ImportError) -> String {
        var e = e
        if e.kind == .passwordRequired { e.problem = "password required: send it in the X-MoneyFlow-Password header" }
        return rewrite(e.description)
    }

    /// `message` with each command-line phrase replaced by the request that does the same.
    static func rewrite(_ message: String) -> String {
        phrases.reduce(message) { $0.replacingOccurrences(of: $1.cli, with: $1.http) }
    }

    /// Longest first: a phrase that contains another is replaced before it.
    static let phrases: [(cli: String, http: String)] = [
        (
            "use --password-env VAR, --password-file FILE, or run in a terminal to be asked",
            "send it in the X-MoneyFlow-Password header"
        ),
        (
            "pass --csv-profile NAME or a profile file (see `moneyflow profiles`)",
            "name one with csv_profile=NAME: a built-in profile or your own stored with PUT /v1/profiles/{name} (GET /v1/profiles lists them)"
        ),
        ("--csv-profile FILE", "your own profile (PUT /v1/profiles/{name}, then csv_profile=NAME)"),
        ("`moneyflow profiles`", "GET /v1/profiles"),
        ("`moneyflow transfers`", "GET /v1/transfers"),
        ("`moneyflow review`", "GET /v1/review"),
        ("`moneyflow edit`", "PATCH /v1/transactions/{id}"),
    ]
}
