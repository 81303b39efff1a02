import Foundation

/// The templates of the pages over the ledger's rows: transactions, one transaction, review,
/// sort and import (see ``WebTemplates`` for the layout and the escaping rule).
extension WebTemplates {
    static let csrfField = #"<input type="hidden" name="csrf" value="{{csrf}}">"#

    static let ledgerPages: [String: String] = [
        "transactions": """
        {{<layout}}{{$content}}
        <form method="get" action="/transactions" class="filters">
        <label for="f-account">Account</label>
        <select id="f-account" name="account"><option value="">All accounts</option>
        {{#accountOptions}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/accountOptions}}</select>
        <label for="f-from">From</label><input id="f-from" name="from" type="date" value="{{from}}">
        <label for="f-to">To</label><input id="f-to" name="to" type="date" value="{{to}}">
        <label for="f-q">Text</label><input id="f-q" name="q" type="search" value="{{q}}">
        <label for="f-cat">Category</label>
        <select id="f-cat" name="category"><option value="">Any category</option>
        <option value="-"{{#uncategorizedSelected}} selected{{/uncategorizedSelected}}>Uncategorised</option>
        {{#categoryOptions}}<option value="{{name}}"{{#selected}} selected{{/selected}}>{{name}}</option>{{/categoryOptions}}</select>
        <button type="submit">Filter</button>
        </form>
        <div class="scroll"><table>
        <thead><tr><th scope="col">Date</th><th scope="col">Account</th><th scope="col">Description</th><th scope="col">Category</th><th scope="col" class="num">Amount</th></tr></thead>
        <tbody>
        {{#rows}}<tr data-testid="transaction-row" data-transaction-id="{{id}}">
        <td class="date">{{date}}</td><td>{{account}}</td><td><a href="/transactions/{{id}}">{{description}}</a>{{#review}} <span class="tag">review</span>{{/review}}</td>
        <td>{{category}}</td><td class="num {{sign}}">{{amount}}</td></tr>{{/rows}}
        {{^rows}}<tr><td colspan="5">No transactions match.</td></tr>{{/rows}}
        </tbody></table></div>
        {{#next}}<p><a href="{{next}}" rel="next" data-testid="next-page">Next page</a></p>{{/next}}
        {{/content}}{{/layout}}
        """,
        "transaction": """
        {{<layout}}{{$content}}
        <dl class="facts">
        <dt>Date</dt><dd>{{date}}</dd><dt>Account</dt><dd>{{account}}</dd>
        <dt>Amount</dt><dd class="{{sign}}">{{amount}}</dd>
        {{#counterparty}}<dt>Counterparty</dt><dd>{{counterparty}}</dd>{{/counterparty}}
        {{#note}}<dt>Note</dt><dd>{{note}}</dd>{{/note}}
        <dt>Category</dt><dd data-testid="category">{{category}} <span class="small">({{categorySource}}: {{categoryReason}})</span></dd>
        {{#transfer}}<dt>Transfer</dt><dd>{{transfer}}</dd>{{/transfer}}
        </dl>
        <form method="post" action="/transactions/{{id}}/category" class="inline">
        \(csrfField)
        <label for="cat">Category</label>
        <input id="cat" name="category" list="categories" value="{{categoryValue}}" required>
        <datalist id="categories">{{#categoryOptions}}<option value="{{name}}">{{/categoryOptions}}</datalist>
        <button type="submit">Save category</button>
        </form>
        <h2>Sources</h2>
        <div class="sources">
        {{#sources}}<section class="card source" data-testid="source" aria-label="Source {{id}}">
        <h3>{{kind}}</h3>
        <dl><dt>Date</dt><dd>{{date}}</dd><dt>Amount</dt><dd>{{amount}}</dd><dt>Description</dt><dd>{{description}}</dd>
        {{#counterparty}}<dt>Counterparty</dt><dd>{{counterparty}}</dd>{{/counterparty}}
        <dt>From</dt><dd>{{file}}{{#line}}, line {{line}}{{/line}}{{#page}}, page {{page}}{{/page}}</dd>
        <dt>State</dt><dd>{{state}}{{#pending}}, pending{{/pending}}</dd></dl>
        </section>{{/sources}}
        </div>
        <h2>Decision</h2>
        <p>{{decision}}</p>
        {{/content}}{{/layout}}
        """,
        "review": """
        {{<layout}}{{$content}}
        {{^items}}<p>Nothing waits for review.</p>{{/items}}
        {{#items}}<section class="card" data-testid="review-item" aria-labelledby="r{{recordID}}">
        <h2 id="r{{recordID}}">{{account}}: {{description}}</h2>
        <div class="pair">
        <div><h3>Record</h3><p>{{date}} · <span class="{{sign}}">{{amount}}</span><br>{{description}}<br><span class="small">{{file}}{{#line}}, line {{line}}{{/line}}</span></p></div>
        <div><h3>Candidates</h3>
        {{#candidates}}<div class="candidate" data-testid="candidate">
        <p>{{date}} · {{amount}} · {{description}}<br><span class="small">{{reasons}}</span></p>
        <form method="post" action="/review/link">\(csrfField)
        <input type="hidden" name="record" value="{{recordID}}"><input type="hidden" name="transaction" value="{{transactionID}}">
        <button type="submit" data-testid="link-candidate">Link to this</button></form>
        </div>{{/candidates}}
        </div></div>
        <form method="post" action="/review/separate">\(csrfField)
        <input type="hidden" name="record" value="{{recordID}}">
        <button type="submit" data-testid="keep-separate">Keep separate</button></form>
        </section>{{/items}}
        {{#transfers}}<section class="card" data-testid="transfer-review">
        <h2>Transfer? {{outAccount}} → {{inAccount}}</h2>
        <p>{{date}} · {{amount}}<br><span class="small">{{reasons}}</span></p>
        <form method="post" action="/review/transfer">\(csrfField)
        <input type="hidden" name="out" value="{{out}}"><input type="hidden" name="in" value="{{into}}">
        <button type="submit" data-testid="link-transfer">Link as a transfer</button></form>
        </section>{{/transfers}}
        {{/content}}{{/layout}}
        """,
        "sort": """
        {{<layout}}{{$content}}
        <p class="small">{{remaining}} left to sort.</p>
        {{#undoBatch}}<form method="post" action="/sort/undo" class="inline">\(csrfField)
        <input type="hidden" name="batch" value="{{undoBatch}}"><button type="submit" data-testid="sort-undo">Undo last choice</button></form>{{/undoBatch}}
        {{#card}}<section class="card sort" data-testid="sort-card" data-transaction-id="{{id}}" aria-labelledby="sort-h">
        <h2 id="sort-h">{{description}}</h2>
        <p class="big {{sign}}">{{amount}}</p><p>{{date}} · {{account}}{{#counterparty}} · {{counterparty}}{{/counterparty}}</p>
        <form method="post" action="/sort" class="choices">\(csrfField)
        <input type="hidden" name="transaction" value="{{id}}">
        {{#choices}}<button type="submit" name="category" value="{{name}}" data-testid="sort-choice" data-key="{{key}}"><kbd>{{key}}</kbd> {{name}}</button>{{/choices}}
        </form>
        <form method="post" action="/sort" class="inline">\(csrfField)
        <input type="hidden" name="transaction" value="{{id}}">
        <label for="other">Another category</label>
        <input id="other" name="category" list="all-categories" placeholder="Expenses:…" required>
        <datalist id="all-categories">{{#allCategories}}<option value="{{name}}">{{/allCategories}}</datalist>
        <button type="submit" data-testid="sort-other">Choose</button>
        </form>
        </section>{{/card}}
        {{^card}}<p data-testid="sort-done">Everything is sorted.</p>{{/card}}
        {{/content}}{{/layout}}
        """,
        "connect": """
        {{<layout}}{{$content}}
        {{^configured}}<p class="problem">This server has no Plaid keys: its operator starts it with PLAID_CLIENT_ID, PLAID_SECRET and PLAID_ENV set.</p>{{/configured}}
        {{#configured}}<p><button type="button" data-testid="connect-start" data-link-token-url="/connect/link-token">Connect a bank</button></p>{{/configured}}
        <h2>Connected banks</h2>
        {{^items}}<p>None yet.</p>{{/items}}
        <ul class="items">{{#items}}<li data-testid="plaid-item">{{institution}}: {{status}}, last synced {{lastSync}}
        {{#error}}<br><span class="small">{{error}}</span>{{/error}}
        {{#needsLogin}}{{#configured}}<button type="button" data-testid="connect-update" data-item="{{id}}">Log in again</button>{{/configured}}{{/needsLogin}}</li>{{/items}}</ul>
        {{#configured}}<form method="post" action="/connect/sync">\(csrfField)<button type="submit" data-testid="sync-now">Sync now</button></form>
        <form method="post" action="/connect/exchange" id="exchange" hidden>\(csrfField)<input type="hidden" name="public_token" aria-label="Public token"></form>{{/configured}}
        {{/content}}{{/layout}}
        """,
        "import": """
        {{<layout}}{{$content}}
        {{#result}}<section class="card" data-testid="import-result" aria-labelledby="res-h">
        <h2 id="res-h">{{file}}</h2>
        <dl class="counts"><dt>New</dt><dd data-testid="count-new">{{new}}</dd><dt>Already present</dt><dd>{{present}}</dd>
        <dt>Linked</dt><dd>{{linked}}</dd><dt>Review</dt><dd>{{review}}</dd></dl>
        {{#warnings}}<p class="problem">{{.}}</p>{{/warnings}}
        {{#batch}}<p>Batch {{batch}}.</p>{{/batch}}
        </section>{{/result}}
        <form method="post" action="/import" enctype="multipart/form-data" class="card">
        \(csrfField)
        <label for="file">Statement file</label><input id="file" name="file" type="file" required>
        <label for="account">Account</label>
        <select id="account" name="account"><option value="">Detect from the file</option>
        {{#accounts}}<option value="{{name}}">{{name}}</option>{{/accounts}}</select>
        <label for="zip-password">Password (encrypted ZIP only)</label>
        <input id="zip-password" name="password" type="password" autocomplete="off">
        <button type="submit">Import</button>
        </form>
        <h2>Batches</h2>
        <div class="scroll"><table>
        <thead><tr><th scope="col">Batch</th><th scope="col">File</th><th scope="col">Imported</th><th scope="col">New</th><th scope="col"><span class="sr">Undo</span></th></tr></thead>
        <tbody>
        {{#batches}}<tr data-testid="batch-row" data-batch-id="{{id}}"><td>{{id}}</td><td>{{file}}</td><td>{{importedAt}}</td><td>{{new}}</td>
        <td>{{#undone}}undone{{/undone}}{{^undone}}<form method="post" action="/batches/{{id}}/undo">\(csrfField)<button type="submit" data-testid="undo-batch">Undo</button></form>{{/undone}}</td></tr>{{/batches}}
        </tbody></table></div>
        {{/content}}{{/layout}}
        """,
    ]
}
