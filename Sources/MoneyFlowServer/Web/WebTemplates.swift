import Foundation
import Mustache

/// The web app's pages as Mustache templates (swift-mustache): `{{name}}` is HTML-escaped, so
/// every text from a statement, a wallet, Plaid or a file name is shown as text. The one
/// unescaped value, `{{{chart}}}`, is SVG drawn by ``SVGChart``, which escapes its own labels.
enum WebTemplates {
    static let library: MustacheLibrary = {
        var library = MustacheLibrary()
        for (name, text) in layouts.merging(pages, uniquingKeysWith: { a, _ in a }) {
            // The templates are constants of this file: a parse error is a programming error.
            try! library.register(text, named: name)
        }
        return library
    }()

    static let layouts: [String: String] = [
        "layout": """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>{{title}} · MoneyFlow</title>
        <link rel="stylesheet" href="/assets/app.css">
        <script src="/assets/app.js" defer></script>
        {{#extraScript}}<script src="{{extraScript}}"></script>{{/extraScript}}
        </head>
        <body data-page="{{page}}">
        <a class="skip" href="#main">Skip to content</a>
        {{#session}}
        <header class="top">
        <nav aria-label="Main">
        <a href="/">Home</a> <a href="/transactions">Transactions</a> <a href="/review">Review</a>
        <a href="/sort">Sort</a> <a href="/import">Import</a> <a href="/connect">Connect a bank</a>
        </nav>
        <form method="post" action="/signout" class="signout">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <span class="who">{{user}}</span> <button type="submit">Sign out</button>
        </form>
        </header>
        {{/session}}
        <main id="main">
        <h1>{{title}}</h1>
        {{#notice}}<p class="notice" role="status">{{notice}}</p>{{/notice}}
        {{#problem}}<p class="problem" role="alert">{{problem}}</p>{{/problem}}
        {{$content}}{{/content}}
        </main>
        </body>
        </html>
        """
    ]

    static let pages: [String: String] = [
        "signin": """
        {{<layout}}{{$content}}
        <form method="post" action="/signin" class="card">
        <p>Sign in with your user name and the password set with <code>moneyflow users passwd NAME</code>,
        or with your API token alone.</p>
        <label for="name">User name</label>
        <input id="name" name="name" autocomplete="username" value="{{name}}">
        <label for="password">Password or API token</label>
        <input id="password" name="password" type="password" autocomplete="current-password" required>
        <button type="submit">Sign in</button>
        </form>
        {{/content}}{{/layout}}
        """,
        "error": """
        {{<layout}}{{$content}}
        <p><a href="/">Back to the home page</a></p>
        {{/content}}{{/layout}}
        """,
        "home": """
        {{<layout}}{{$content}}
        <section aria-labelledby="attention-h">
        <h2 id="attention-h">Needs your attention</h2>
        <ul class="attention">
        <li><a href="/review">{{review}} review item(s)</a></li>
        <li><a href="/sort">{{uncategorized}} uncategorised transaction(s)</a></li>
        <li>{{breaks}} balance break(s){{#breakList}}<br><span class="small">{{account}}: <a href="/transactions/{{id}}">transaction {{id}}</a> printed {{printed}}, expected {{expected}}</span>{{/breakList}}</li>
        <li><a href="/connect">{{loginNeeded}} bank connection(s) needing login</a></li>
        </ul>
        </section>
        <section aria-labelledby="accounts-h">
        <h2 id="accounts-h">Accounts</h2>
        <div class="scroll"><table>
        <thead><tr><th scope="col">Account</th><th scope="col" class="num">Balance</th><th scope="col">Last import or sync</th></tr></thead>
        <tbody>
        {{#accounts}}<tr data-testid="account-row"><td><a href="/transactions?account={{urlName}}">{{name}}</a>{{#institution}}<br><span class="small">{{institution}}</span>{{/institution}}</td>
        <td class="num">{{balance}}</td><td>{{updated}}</td></tr>{{/accounts}}
        {{^accounts}}<tr><td colspan="3">No accounts yet: <a href="/import">import a statement</a> or <a href="/connect">connect a bank</a>.</td></tr>{{/accounts}}
        </tbody></table></div>
        <p class="small">{{transactions}} transactions. Last import: {{lastImport}}.</p>
        </section>
        <section aria-labelledby="monthly-h">
        <h2 id="monthly-h">Money in and out per month</h2>
        {{{monthlyChart}}}
        </section>
        <section aria-labelledby="cat-h">
        <h2 id="cat-h">Spending by category</h2>
        {{{categoryChart}}}
        </section>
        <section aria-labelledby="bal-h">
        <h2 id="bal-h">Balance over time</h2>
        {{{balanceChart}}}
        </section>
        {{/content}}{{/layout}}
        """,
    ].merging(WebTemplates.ledgerPages, uniquingKeysWith: { a, _ in a })
}
