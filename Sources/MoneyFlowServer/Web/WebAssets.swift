import Foundation
import Hummingbird
import NIOCore

/// The web app's stylesheet and its one small script, served by the server itself (no CDN),
/// and the Hotwire Native path configuration an iOS shell reads (`/configurations/ios_v1.json`).
enum WebAssets {
    static func register(_ router: Router<ServerRequestContext>) {
        router.get("assets/app.css") { _, _ in response(css, type: "text/css; charset=utf-8") }
        router.get("assets/app.js") { _, _ in response(js, type: "text/javascript; charset=utf-8") }
        router.get("configurations/ios_v1.json") { _, _ in response(iosPathConfiguration, type: "application/json; charset=utf-8") }
    }

    static func response(_ text: String, type: String) -> Response {
        var buffer = ByteBuffer()
        buffer.writeString(text)
        return Response(status: .ok, headers: [.contentType: type, .cacheControl: "no-cache"], body: .init(byteBuffer: buffer))
    }

    /// Hotwire Native's path rules: connecting a bank opens the shell's native Plaid screen,
    /// sign-in is a modal, signing out clears the navigation stack, the transactions list pulls to refresh.
    static let iosPathConfiguration = """
        {
          "settings": {},
          "rules": [
            {"patterns": [".*"], "properties": {"context": "default", "pull_to_refresh_enabled": false}},
            {"patterns": ["^/transactions$", "^/transactions\\\\?.*"], "properties": {"pull_to_refresh_enabled": true}},
            {"patterns": ["^/signin$"], "properties": {"context": "modal", "presentation": "replace_root"}},
            {"patterns": ["^/signout$"], "properties": {"presentation": "clear_all"}},
            {"patterns": ["^/connect$"], "properties": {"view_controller": "plaid_link", "uri": "hotwire://fragment/plaid_link", "context": "modal"}}
          ]
        }
        """

    static let css = """
        :root { --fg: #1a1a1a; --bg: #ffffff; --muted: #555555; --in: #0b6b2f; --out: #a1161b; --accent: #0b4f9c; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 16px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans", "Noto Sans CJK SC", "PingFang SC", sans-serif;
          color: var(--fg); background: var(--bg); }
        a { color: var(--accent); }
        .skip { position: absolute; left: -999px; } .skip:focus { left: 8px; top: 8px; background: #fff; padding: 4px; }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
        header.top { display: flex; flex-wrap: wrap; gap: 8px; justify-content: space-between; align-items: center;
          padding: 8px 12px; border-bottom: 1px solid #ccc; }
        header.top nav a { margin-right: 10px; white-space: nowrap; }
        main { padding: 12px; max-width: 1100px; margin: 0 auto; }
        h1 { font-size: 1.5rem; margin: 0.3em 0; } h2 { font-size: 1.2rem; } h3 { font-size: 1rem; margin: 0.2em 0; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; width: 100%; }
        th, td { text-align: left; padding: 4px 6px; border-bottom: 1px solid #e2e2e2; vertical-align: top; }
        .num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
        .date { white-space: nowrap; font-variant-numeric: tabular-nums; }
        .in { color: var(--in); } .out { color: var(--out); }
        rect.in { fill: var(--in); } rect.out { fill: var(--out); }
        svg { display: block; max-width: 100%; height: auto; }
        svg text { font-size: 11px; fill: var(--fg); }
        polyline.line { stroke-width: 2; } .l0 { stroke: #0b4f9c; fill: #0b4f9c; } .l1 { stroke: #a1161b; fill: #a1161b; }
        .l2 { stroke: #0b6b2f; fill: #0b6b2f; } .l3 { stroke: #6b3fa0; fill: #6b3fa0; } polyline { fill: none !important; }
        .small { color: var(--muted); font-size: 0.875rem; }
        .card { border: 1px solid #ccc; border-radius: 8px; padding: 12px; margin: 12px 0; }
        .pair, .sources { display: grid; grid-template-columns: repeat(auto-fit, minmax(260px, 1fr)); gap: 12px; }
        .candidate { border-top: 1px dashed #bbb; padding-top: 6px; }
        form label { display: block; margin-top: 8px; font-weight: 600; }
        input, select, button { font: inherit; padding: 6px 8px; max-width: 100%; }
        button { background: var(--accent); color: #fff; border: 0; border-radius: 6px; margin: 6px 4px 6px 0; cursor: pointer; }
        .signout button { background: #444; }
        .filters { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: end; }
        .filters label { margin: 0; }
        .inline { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; } .inline label { margin: 0; }
        .sort .big { font-size: 2rem; margin: 0.2em 0; font-variant-numeric: tabular-nums; }
        .choices button { display: block; width: 100%; text-align: left; background: #eef3fa; color: var(--fg); border: 1px solid #9ab; }
        kbd { font-family: ui-monospace, monospace; border: 1px solid #999; border-radius: 3px; padding: 0 4px; background: #fff; }
        .notice { background: #e9f5ec; padding: 8px; } .problem { background: #fbeaea; padding: 8px; }
        .tag { font-size: 0.75rem; background: #fff3cd; padding: 0 4px; border-radius: 3px; }
        dl.facts, .source dl, dl.counts { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; }
        dd { margin: 0; overflow-wrap: anywhere; }
        @media (max-width: 480px) { header.top nav a { display: inline-block; margin: 2px 8px 2px 0; } main { padding: 8px; } }
        """

    /// The sort page's one-key choices (1-9 press the matching button); everything else is plain forms.
    static let js = """
        document.addEventListener("keydown", function (e) {
          if (document.body.dataset.page !== "sort" || e.ctrlKey || e.metaKey || e.altKey) return;
          var t = e.target; if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
          var b = document.querySelector('[data-testid="sort-choice"][data-key="' + e.key + '"]');
          if (b) { e.preventDefault(); b.click(); }
        });
        // Connect a bank: a link token from this server, Plaid Link in the page, the public token
        // posted back with the page's CSRF token (the form is the page's own).
        document.addEventListener("click", function (e) {
          var b = e.target.closest && e.target.closest('[data-testid="connect-start"], [data-testid="connect-update"]');
          if (!b || typeof Plaid === "undefined") return;
          var form = document.getElementById("exchange");
          var body = new URLSearchParams();
          body.set("csrf", form.elements.csrf.value);
          if (b.dataset.item) body.set("item", b.dataset.item);
          fetch("/connect/link-token", { method: "POST", body: body, credentials: "same-origin" })
            .then(function (r) { return r.json(); })
            .then(function (j) {
              if (!j.link_token) { alert("the server could not start Plaid Link"); return; }
              Plaid.create({ token: j.link_token, onSuccess: function (publicToken) {
                if (b.dataset.item) { location.reload(); return; }
                form.elements.public_token.value = publicToken; form.submit();
              } }).open();
            });
        });
        """
}
