import Foundation
import Hummingbird

/// The launcher's one HTML page and the headers it is served with.
///
/// The page opens Plaid Link (`Plaid.create({token, onSuccess, onExit}).open()`), POSTs
/// `onSuccess(public_token, metadata)` to `/public-token` and `onExit(error, metadata)` to
/// `/exit`, each with the session nonce in `s`, and tells the user in plain words when it is
/// done or what went wrong. On the OAuth return it re-creates Link with the same token and
/// `receivedRedirectUri` (Plaid's documented OAuth flow), taking the token and nonce from the
/// tab's sessionStorage: see `LinkLauncherRoutes`.
enum LinkLauncherPage {
    enum Mode {
        case start(linkToken: String, nonce: String)
        case oauthReturn
    }

    /// `HTTPField.Name`, reached through the type Hummingbird re-exports.
    typealias FieldName = HTTPFields.Element.Name

    static let plaidScript = "https://cdn.plaid.com/link/v2/stable/link-initialize.js"

    static func response(_ mode: Mode) -> Response {
        let scriptNonce = String(LinkNonce.random().prefix(32))
        var headers = HTTPFields()
        headers[.contentType] = "text/html; charset=utf-8"
        headers[.contentSecurityPolicy] = contentSecurityPolicy(scriptNonce: scriptNonce)
        // The URL carries the nonce: no Referer to the CDN, no cached copy, no framing.
        headers[.cacheControl] = "no-store"
        headers[FieldName("Referrer-Policy")!] = "no-referrer"
        headers[FieldName("X-Content-Type-Options")!] = "nosniff"
        headers[FieldName("X-Frame-Options")!] = "DENY"
        let html = page(mode, scriptNonce: scriptNonce)
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    /// Scripts: our inline one (by nonce) and Plaid's CDN; frames: Plaid's CDN (Link runs in an
    /// iframe from it); fetches: back to this server and to Plaid's API hosts; nothing else.
    static func contentSecurityPolicy(scriptNonce: String) -> String {
        [
            "default-src 'none'",
            "script-src 'nonce-\(scriptNonce)' https://cdn.plaid.com",
            "frame-src https://cdn.plaid.com",
            "connect-src 'self' https://*.plaid.com",
            "img-src 'self' data: https://cdn.plaid.com",
            "style-src 'unsafe-inline'",
            "base-uri 'none'",
            "form-action 'none'",
            "frame-ancestors 'none'",
        ].joined(separator: "; ")
    }

    static func page(_ mode: Mode, scriptNonce: String) -> String {
        let data: String
        switch mode {
        case .start(let linkToken, let nonce):
            data = #"data-mode="start" data-link-token="\#(htmlAttribute(linkToken))" data-session="\#(htmlAttribute(nonce))""#
        case .oauthReturn:
            data = #"data-mode="oauth-return""#
        }
        return #"""
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta name="referrer" content="no-referrer">
            <title>MoneyFlow: link a bank with Plaid</title>
            <style>
            body { font: 16px/1.5 system-ui, sans-serif; max-width: 40em; margin: 3em auto; padding: 0 1em; color: #222; }
            #status.done { color: #0a6b2b; font-weight: 600; }
            #status.error { color: #a11; font-weight: 600; }
            </style>
            </head>
            <body \#(data)>
            <main>
            <h1>MoneyFlow: link a bank</h1>
            <p id="status" role="status">Opening Plaid Link…</p>
            <noscript><p>This page needs JavaScript to run Plaid Link.</p></noscript>
            </main>
            <script src="\#(plaidScript)" nonce="\#(scriptNonce)"></script>
            <script nonce="\#(scriptNonce)">
            \#(script)
            </script>
            </body>
            </html>

            """#
    }

    /// Runs after Plaid's script (or after it failed to load).
    static let script = #"""
        (function () {
          'use strict';
          var KEY_TOKEN = 'moneyflow.link.token', KEY_SESSION = 'moneyflow.link.session';
          var statusElement = document.getElementById('status');
          function show(text, kind) { statusElement.textContent = text; statusElement.className = kind || ''; }
          var data = document.body.dataset;
          var oauthReturn = data.mode === 'oauth-return';
          var token = data.linkToken, session = data.session;
          try {
            if (oauthReturn) {
              token = sessionStorage.getItem(KEY_TOKEN); session = sessionStorage.getItem(KEY_SESSION);
            } else {
              sessionStorage.setItem(KEY_TOKEN, token); sessionStorage.setItem(KEY_SESSION, session);
            }
          } catch (e) { /* storage disabled: an OAuth return cannot resume */ }
          if (oauthReturn && (!token || !session)) {
            if (location.hostname !== '127.0.0.1') {
              // The bank returned to localhost; the session started on 127.0.0.1, whose storage holds it.
              var again = new URL(location.href); again.hostname = '127.0.0.1'; location.replace(again.toString());
              return;
            }
            show('This bank login does not belong to a link session in this tab. Go back to the tab opened from the URL that moneyflow printed, or run "moneyflow plaid link" again.', 'error');
            return;
          }
          if (typeof Plaid === 'undefined') {
            show('Could not load Plaid Link from cdn.plaid.com. Check the network connection, then reload this page.', 'error');
            return;
          }
          function forget() {
            try { sessionStorage.removeItem(KEY_TOKEN); sessionStorage.removeItem(KEY_SESSION); } catch (e) {}
          }
          function post(path, body) {
            body.s = session;
            return fetch(path, {
              method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
              credentials: 'omit', cache: 'no-store'
            }).then(function (response) { if (!response.ok) { throw new Error('HTTP ' + response.status); } });
          }
          var config = {
            token: token,
            onSuccess: function (publicToken, metadata) {
              show('Handing the bank link to MoneyFlow…');
              post('/public-token', { public_token: publicToken, metadata: metadata || null }).then(function () {
                forget();
                var name = metadata && metadata.institution && metadata.institution.name;
                show('Done: MoneyFlow received the link' + (name ? ' to ' + name : '') + '. You can close this tab and go back to the terminal.', 'done');
              }, function (error) {
                show('Plaid linked the bank, but MoneyFlow did not receive it (' + error.message + '). If "moneyflow plaid link" has stopped, run it again.', 'error');
              });
            },
            onExit: function (error, metadata) {
              var why = error ? 'Plaid Link reported an error: ' + (error.display_message || error.error_message || error.error_code) + '.'
                              : 'Link was closed before a bank was linked.';
              show(why + ' MoneyFlow stopped waiting; run "moneyflow plaid link" again to start over.', 'error');
              post('/exit', { error: error || null, metadata: metadata || null }).then(forget, forget);
            }
          };
          if (oauthReturn) {
            // Link must get the redirect exactly as Plaid sent it: to localhost (LinkLauncher.oauthRedirectURI).
            var received = new URL(location.href); received.hostname = 'localhost';
            config.receivedRedirectUri = received.toString();
          }
          Plaid.create(config).open();
        })();
        """#

    /// Escapes text for a double-quoted HTML attribute.
    static func htmlAttribute(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(c)
            }
        }
        return out
    }
}
