import Foundation
import MoneyFlowCore
import MoneyFlowPlaid

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

    /// A missing Plaid item as an HTTP client should read it. The library's text names the
    /// ledger's file on the server and `moneyflow plaid link`; the reply says the same from
    /// the error's data (which item, or none linked), so no server path can show.
    static func message(for e: PlaidServiceError) -> String {
        switch e.missing {
        case .item(let id): return "no Plaid item \(id) in your ledger (GET /v1/plaid/items lists yours)"
        case .anyLinkedItem:
            return "no linked Plaid item in your ledger; link one with POST /v1/plaid/link-token, then POST /v1/plaid/exchange"
        case nil: return rewrite(e.description)
        }
    }

    /// An import's warnings with the same advice as errors: the overlap warning's
    /// `--account "NAME"` is the `account=NAME` query parameter over HTTP, and its
    /// `moneyflow accounts merge "A" "B"` the merge route.
    static func warnings(_ warnings: [ImportWarning]) -> [ImportWarning] {
        warnings.map { w in
            var w = w
            w.message = rewrite(w.message)
            return w
        }
    }

    /// `message` with each command-line phrase replaced by the request that does the same.
    static func rewrite(_ message: String) -> String {
        let swapped = phrases.reduce(message) { $0.replacingOccurrences(of: $1.cli, with: $1.http) }
        return swapped
            .replacing(#/moneyflow accounts merge "([^"]*)" "([^"]*)"/#) {
                "POST /v1/accounts/\(pathValue(String($0.output.1)))/merge with {\"from\": \"\($0.output.2)\"}"
            }
            .replacing(#/--account "([^"]*)"/#) { "account=" + queryValue(String($0.output.1)) }
    }

    /// A value as it goes in a path segment (`Chase Checking` → `Chase%20Checking`).
    static func pathValue(_ text: String) -> String { queryValue(text) }

    /// A value as it goes in a query string (`Chase Checking` → `Chase%20Checking`).
    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "-._~").union(.alphanumerics)) ?? text
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
        (
            "give --new-account (manifest: new_account = true)",
            "add new_account=true to the request's query"
        ),
        ("`moneyflow undo` this batch", "undo this batch (POST /v1/batches/{id}/undo with this reply's batch)"),
        ("use --account to choose", "use account=NAME to choose"),
        ("`moneyflow profiles`", "GET /v1/profiles"),
        ("`moneyflow transfers`", "GET /v1/transfers"),
        ("`moneyflow review`", "GET /v1/review"),
        ("`moneyflow edit`", "PATCH /v1/transactions/{id}"),
    ]
}
